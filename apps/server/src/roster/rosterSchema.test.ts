/**
 * The published JSON Schema and the loader agree: the example roster passes both, and each broken sample
 * is rejected by both (the schema catches shape; the loader also catches references and duplicates).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseRoster } from './loadRoster.ts';

const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schema/roster.schema.json', import.meta.url)), 'utf8')) as object;
const exampleText = readFileSync(fileURLToPath(new URL('../../../../fixtures/rosters/opening-battle.yaml', import.meta.url)), 'utf8');
const ajv = new Ajv2020({ allErrors: true, strict: true });
const schemaValid = ajv.compile(schema);

type Doc = { units: Array<Record<string, unknown> & { stands: Array<Record<string, unknown>> }>; statusTokens: Array<Record<string, unknown>>; [k: string]: unknown };
const example = (): Doc => parse(exampleText) as Doc;

describe('roster.schema.json', () => {
  it('accepts the example roster, as the loader does', () => {
    expect(schemaValid(example()), JSON.stringify(schemaValid.errors)).toBe(true);
    expect(() => parseRoster(exampleText)).not.toThrow();
  });

  it('accepts quality trained, sharpshooters and optionalRules in both (Optional Rules)', () => {
    const d = example();
    d.units[0]!.quality = 'trained';
    d.units[0]!.sharpshooters = true;
    d.optionalRules = ['trained-veteran', 'split-fire', 'hasty-works'];
    expect(schemaValid(d), JSON.stringify(schemaValid.errors)).toBe(true);
    expect(() => parseRoster(JSON.stringify(d))).not.toThrow();
  });

  it.each<[string, (d: Doc) => void]>([
    ['an unknown top-level field', (d) => (d.colour = 'red')],
    ['a wrong version', (d) => (d.version = 2)],
    ['a unit without a weapon', (d) => delete d.units[0]!.weapon],
    ['a bad arm', (d) => (d.units[0]!.arm = 'navy')],
    ['a fractional tag', (d) => (d.units[0]!.stands[0]!.tag = 10.5)],
    ['a negative tag', (d) => (d.units[0]!.stands[0]!.tag = -1)],
    ['a zero-width base', (d) => (d.units[0]!.base = { widthIn: 0, depthIn: 1 })],
    ['an empty stand list', (d) => (d.units[0]!.stands = [])],
    ['a commander role on a unit stand', (d) => (d.units[0]!.stands[1]!.role = 'commander')],
    ['an unknown status kind', (d) => (d.statusTokens[0]!.kind = 'shaken')],
    ['an unknown stand field', (d) => (d.units[0]!.stands[0]!.colour = 'red')],
    ['an unknown optional rule', (d) => (d.optionalRules = ['whiskey'])],
    ['an optional rule twice', (d) => (d.optionalRules = ['split-fire', 'split-fire'])],
  ])('rejects %s in both', (_name, breakIt) => {
    const d = example();
    breakIt(d);
    expect(schemaValid(d)).toBe(false);
    expect(() => parseRoster(JSON.stringify(d), 'broken.json')).toThrow(/broken\.json: /);
  });
});
