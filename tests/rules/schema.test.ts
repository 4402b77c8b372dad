/**
 * The published JSON Schema and the validator must agree: both accept every golden scene, both reject
 * every shape-broken sample; reference problems are the validator's alone (a schema cannot follow ids).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { TABLE_STATE_ENUMS, tableStateProblems } from '../../packages/rules/src/validate/index.ts';
import { brokenSamples } from './brokenSamples.ts';
import { largeScene } from '../../fixtures/rules/largeScene.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const schema = JSON.parse(readFileSync(join(root, 'packages/rules/schema/table-state.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
const schemaValid = ajv.compile(schema);
const inDir = join(root, 'fixtures/rules/in');
const scenes = readdirSync(inDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, json: JSON.parse(readFileSync(join(inDir, f), 'utf8')) as unknown }));
const opening = scenes.find((s) => s.name === 'opening-battle.json')!.json;

describe('table-state schema', () => {
  it.each(scenes.map((s) => [s.name, s.json] as const))('schema and validator accept %s', (_name, json) => {
    expect(schemaValid(json), JSON.stringify(schemaValid.errors)).toBe(true);
    expect(tableStateProblems(json)).toEqual([]);
  });

  it('accepts the generated large scene', () => {
    const json = JSON.parse(JSON.stringify(largeScene(7)));
    expect(schemaValid(json), JSON.stringify(schemaValid.errors)).toBe(true);
    expect(tableStateProblems(json)).toEqual([]);
  });

  it.each(brokenSamples.map((b) => [b.name, b] as const))('both judge "%s" the same way', (_name, sample) => {
    const json = sample.name === 'not an object' ? [] : structuredClone(opening);
    sample.mutate(json);
    const problems = tableStateProblems(json);
    const hit = problems.find((p) => p.path.startsWith(sample.path) && sample.says.test(p.message));
    expect(hit, `validator said: ${JSON.stringify(problems)}`).toBeDefined();
    expect(schemaValid(json)).toBe(sample.kind === 'reference');
  });

  it('both allow a $schema reference for editors', () => {
    const json = { $schema: '../../packages/rules/schema/table-state.schema.json', ...(structuredClone(opening) as object) };
    expect(schemaValid(json), JSON.stringify(schemaValid.errors)).toBe(true);
    expect(tableStateProblems(json)).toEqual([]);
  });

  it('both accept the optional-rule fields (Optional Rules: Sharpshooters, Trained and Veteran Troops, Split Fire, Hasty Works)', () => {
    const json = structuredClone(opening) as { units: Record<string, unknown>[]; optionalRules?: string[] };
    json.units[0]!.quality = 'trained';
    json.units[0]!.sharpshooters = true;
    json.optionalRules = ['trained-veteran', 'split-fire', 'hasty-works'];
    expect(schemaValid(json), JSON.stringify(schemaValid.errors)).toBe(true);
    expect(tableStateProblems(json)).toEqual([]);
  });

  it('lists the same enum values as the validator', () => {
    const d = schema.$defs;
    expect(d.unit.properties.arm.enum).toEqual(TABLE_STATE_ENUMS.arm);
    expect(d.unit.properties.quality.enum).toEqual(TABLE_STATE_ENUMS.quality);
    expect(d.commander.properties.quality.enum).toEqual(TABLE_STATE_ENUMS.commanderQuality);
    expect(d.stand.properties.role.enum).toEqual(TABLE_STATE_ENUMS.standRole);
    expect(d.unitStatus.properties.formation.enum).toEqual(TABLE_STATE_ENUMS.formation);
    expect(d.areaTerrain.properties.kind.enum).toEqual(TABLE_STATE_ENUMS.areaKind);
    expect(d.linearTerrain.properties.kind.enum).toEqual(TABLE_STATE_ENUMS.linearKind);
    expect(schema.properties.optionalRules.items.enum).toEqual(TABLE_STATE_ENUMS.optionalRule);
  });
});
