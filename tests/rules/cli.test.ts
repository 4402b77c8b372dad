/**
 * `muster rules`: runs the real CLI dispatcher in-process (output captured) and once as a real process
 * to check the exit code a shell sees.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installedRulesets } from '@muster/rules';
import { runRulesCli as runCli } from './runRulesCli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scene = join(root, 'fixtures/rules/in/charge.json');

afterEach(() => vi.restoreAllMocks());

describe('muster rules', () => {
  it('--list prints the installed ids one per line', async () => {
    const r = await runCli('--list');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')).toEqual(installedRulesets.map((x) => x.id));
  });

  it('prints a readable table with a row per unit', async () => {
    const r = await runCli(scene);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toContain('devil-to-pay');
    expect(lines.find((l) => l.startsWith('UNIT'))).toContain('FORMATION');
    for (const id of ['assault', 'defender', 'support']) expect(lines.some((l) => l.startsWith(`${id} `))).toBe(true);
  });

  it('--json prints the evaluation as JSON', async () => {
    const r = await runCli(scene, '--json', '--ruleset', 'devil-to-pay');
    expect(r.code).toBe(0);
    const ev = JSON.parse(r.out) as { rulesetId: string; units: Record<string, unknown> };
    expect(ev.rulesetId).toBe('devil-to-pay');
    expect(Object.keys(ev.units).sort()).toEqual(['assault', 'defender', 'support']);
  });

  it('--unit prints one unit with its dice modifiers and refusals', async () => {
    const r = await runCli(scene, '--unit', 'assault');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toMatch(/^15th Alabama \(assault\), confederate/);
    expect(r.out).toMatch(/^ {2}fire \(\d+\):$/m);
    expect(r.out).toMatch(/^ {2}charge \(\d+\):$/m);
    // Every modifier line names its rulebook source in brackets.
    const modifiers = r.out.split('\n').filter((l) => /^\s+[+-]\d+ {2}/.test(l));
    expect(modifiers.length).toBeGreaterThan(0);
    for (const l of modifiers) expect(l).toMatch(/\[.+\]$/);
  });

  it.each([
    ['an unknown unit', [scene, '--unit', 'nobody'], /unknown unit "nobody" \(units: assault, defender, support\)/],
    ['a missing file', ['no-such-file.json'], /cannot read no-such-file\.json: no such file/],
    ['an unknown ruleset', [scene, '--ruleset', 'warhammer'], /unknown ruleset "warhammer" \(installed: devil-to-pay/],
    ['an unknown option', [scene, '--fast'], /unknown option --fast/],
    ['no file', [], /missing <state\.json>/],
  ])('%s gives one line and exit code 2', async (_what, args, says) => {
    const r = await runCli(...args);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.err).toMatch(says);
  });

  it('a broken file names the path of the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-rules-'));
    const bad = JSON.parse(readFileSync(scene, 'utf8'));
    bad.units[0].standIds[1] = 's99';
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    let r = await runCli(file);
    expect(r.code).toBe(2);
    // One line: the bad reference first, then the stand it left without a unit.
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.err.startsWith(`muster rules: ${file}: units[0].standIds[1]: unknown stand "s99"; stands[1].unitId: `)).toBe(true);
    writeFileSync(file, '{ "version": 1, ');
    r = await runCli(file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not valid JSON/);
  });

  it('as a real process: reads a state from stdin with -, and exits 2 with one line on a bad one', () => {
    const bin = join(root, 'apps/server/bin/muster.js');
    const p = spawnSync(process.execPath, [bin, 'rules', '-'], { encoding: 'utf8', input: '{ "version": 1, ' });
    expect(p.status).toBe(2);
    expect(p.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^muster rules: standard input is not valid JSON/)]);
  });

  it('--params lists what a rule set asks the operator to enter, and refuses an unknown id', async () => {
    for (const r of installedRulesets) {
      const out = await runCli('--params', r.id);
      expect(out.code).toBe(0);
      expect(out.out.split('\n')[0]).toContain(`(${r.id})`);
      for (const p of r.parameters ?? []) expect(out.out).toContain(`  ${p.id}: ${p.label}`);
    }
    const bad = await runCli('--params', 'no-such-rules');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown ruleset "no-such-rules"');
  });
});
