/**
 * Regimental Fire and Fury through the real CLI (`muster rules`, in-process, output captured) and the
 * example army file through the real roster loader and the start-time declaration check.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getRuleset } from '@muster/rules';
import { runRulesCli as runCli } from '../runRulesCli.ts';
import { parseRoster, rosterRulesetProblems } from '../../../apps/server/src/roster/index.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const scene = join(root, 'fixtures/rules/fire-and-fury-regimental/in/skirmish.json');
const rosterFile = join(root, 'fixtures/rosters/fire-and-fury-regimental-example.yaml');

afterEach(() => vi.restoreAllMocks());

describe('muster rules --ruleset fire-and-fury-regimental', () => {
  it('is listed and prints a row per unit of the skirmish', async () => {
    expect((await runCli('--list')).out.split('\n')).toContain('fire-and-fury-regimental');
    const r = await runCli(scene, '--ruleset', 'fire-and-fury-regimental');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toContain('Regimental Fire and Fury (fire-and-fury-regimental)');
    for (const id of ['us-20me', 'us-83pa', 'us-bty', 'cs-15al', 'cs-47al', 'cs-cav']) expect(r.out).toMatch(new RegExp(`^${id} `, 'm'));
  });

  it('--unit names every modifier with its QRS section', async () => {
    const r = await runCli(scene, '--ruleset', 'fire-and-fury-regimental', '--unit', 'us-83pa');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Target crossing an abatis  [Regimental Fire and Fury QRS II, Musketry and Cannonade Table Changes 19]');
    expect(r.out).toContain('Worn troops  [Regimental Fire and Fury QRS II, Maneuver Table, Die Roll Modifiers]');
    const modifiers = r.out.split('\n').filter((l) => /^\s+[+-]\d+ {2}/.test(l));
    expect(modifiers.length).toBeGreaterThan(3);
    for (const l of modifiers) expect(l).toMatch(/\[.+\]$/);
  });

  it('--json gives the evaluation with fire points and the die modifier apart', async () => {
    const r = await runCli(scene, '--json', '--ruleset', 'fire-and-fury-regimental');
    const ev = JSON.parse(r.out) as { rulesetId: string; units: Record<string, { fire: { ok: boolean; breakdown?: { kind: string }; firePoints?: { kind: string } }[] }> };
    expect(ev.rulesetId).toBe('fire-and-fury-regimental');
    const shot = ev.units['us-20me']!.fire.find((f) => f.ok)!;
    expect([shot.breakdown!.kind, shot.firePoints!.kind]).toEqual(['modifier', 'points']);
  });

  it('--params lists the numbers to enter as not in the document', async () => {
    const r = await runCli('--params', 'fire-and-fury-regimental');
    expect(r.code).toBe(0);
    expect(r.out).toContain('  weapon-r-close-in: Rifled musket (R): close range band');
    expect(r.out).toContain('(not in the document)');
    expect(r.out).toContain('  wornAtStandsLost: Worn when this many stands are lost');
  });

  it('evaluates a scene with no Fire and Fury weapons, warning about each', async () => {
    const r = await runCli(join(root, 'fixtures/rules/in/charge.json'), '--ruleset', 'fire-and-fury-regimental');
    expect(r.code).toBe(0);
    expect(r.out).toContain('fire/unknown-weapon');
  });
});

describe('the example army file', () => {
  it('loads and fits the rule set\'s declarations', () => {
    const roster = parseRoster(readFileSync(rosterFile, 'utf8'), rosterFile);
    expect(roster.ruleset).toBe('fire-and-fury-regimental');
    expect(roster.units.map((u) => u.id)).toEqual(['me20', 'pa83', 'hazlett', 'al15', 'al47']);
    expect(rosterRulesetProblems(roster, getRuleset('fire-and-fury-regimental'))).toEqual([]);
  });

  it('fits the published roster schema', () => {
    const schema = JSON.parse(readFileSync(join(root, 'apps/server/schema/roster.schema.json'), 'utf8')) as object;
    const valid = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    expect(valid(parse(readFileSync(rosterFile, 'utf8'))), JSON.stringify(valid.errors)).toBe(true);
  });

  it('a typo in a unit field is a start error naming the unit and the field', () => {
    const text = readFileSync(rosterFile, 'utf8').replace('braveColonel: true', 'braveColonel: yes-sir');
    const problems = rosterRulesetProblems(parseRoster(text, rosterFile), getRuleset('fire-and-fury-regimental'));
    expect(problems).toEqual([expect.stringMatching(/^units\[3\] \(al15\)\.rulesetFields\.braveColonel: expected true or false/)]);
  });
});
