/**
 * Regimental Fire and Fury golden scenes: every `fixtures/rules/fire-and-fury-regimental/in/<name>.json` is
 * read against the rule set's declarations and evaluated; the result must equal `out/<name>.json`. After an
 * intended change, regenerate and review the diff:
 * `REGEN=1 npx vitest run tests/rules/fire-and-fury-regimental/golden.test.ts`.
 * (The inputs come from `fixtures/rules/fire-and-fury-regimental/scenes.ts` via its `writeScenes.ts`.)
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, getRuleset, parseTableStateFor, type TableState } from '@muster/rules';
import { qrs2Scene, skirmishScene } from '../../../fixtures/rules/fire-and-fury-regimental/scenes.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dir = join(root, 'fixtures/rules/fire-and-fury-regimental');
const regen = process.env.REGEN === '1';
const ruleset = getRuleset('fire-and-fury-regimental');
const names = readdirSync(join(dir, 'in')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
/** Numbers to 1/10,000 inch (as tests/rules/golden.test.ts rounds them). */
function goldenJson(ev: unknown): string {
  return `${JSON.stringify(ev, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 + 0 : v), 2)}\n`;
}
const load = (name: string): TableState => parseTableStateFor(JSON.parse(readFileSync(join(dir, 'in', `${name}.json`), 'utf8')), ruleset);

describe('Regimental Fire and Fury golden scenes', () => {
  it('has the skirmish with and without parameters and the QRS II scene, written from scenes.ts', () => {
    expect(names).toEqual(['qrs2', 'skirmish', 'skirmish-no-params']);
    expect(load('skirmish')).toEqual(skirmishScene(true));
    expect(load('skirmish-no-params')).toEqual(skirmishScene(false));
    expect(load('qrs2')).toEqual(qrs2Scene());
  });

  it('the QRS II scene gives the sheet\'s answers', () => {
    const ev = evaluate(load('qrs2'), ruleset);
    // Command Radius: "Attached to a contiguous line of march": the whole column is Chamberlain's.
    for (const id of ['us-20me', 'us-16mi', 'us-44ny']) expect(ev.units[id]!.command).toMatchObject({ inCommand: true, commanderInRangeId: 'us-chamberlain' });
    // Command Radius 8": Gen. Robertson commands the 4th Texas and the battery.
    expect(ev.units['cs-4tx']!.command.inCommand).toBe(true);
    expect(ev.units['cs-bty']!.command).toMatchObject({ inCommand: true, commandRadiusIn: 8 });
    // Extended Line Frontage: seven stands with intervals are refused.
    expect(ev.units['cs-4tx']!.formation.illegal?.reason).toBe('formation/extended-line-intervals');
    // Weapons, Heavy Howitzer (HH): two stands at 14" fire 3 points each (the 48" band), no parameter asked.
    const hh = ev.units['us-hh']!.fire.find((f) => f.targetUnitId === 'cs-4tx') as unknown as { ok: boolean; band: string; firePoints: { dice: number } };
    expect(hh).toMatchObject({ ok: true, band: 'shell-2 48"', firePoints: { dice: 6 } });
    // Skirmishers: three of eleven stands, in extended line ahead of the regiment; the regiment fresh with them counted.
    expect(ev.warnings.filter((w) => w.code.startsWith('skirmishers/'))).toEqual([]);
    expect(ev.units['us-83pa']!.morale).toMatchObject({ state: 'fresh', counted: { value: 0 } });
    // Road Movement: the limbered battery reaches the lane and goes on along it; the leader too.
    expect(ev.shapes.some((x) => x.id === 'movement/cs-bty/road-entry/0')).toBe(true);
    expect(ev.shapes.some((x) => x.id === 'movement/leader/cs-robertson/road-entry/0')).toBe(true);
    // Deploy to the Front: each march column's line at its head.
    expect(ev.shapes.some((x) => x.id === 'movement/us-44ny/deploy-front')).toBe(true);
  });

  it.each(names)('%s matches its golden output', (name) => {
    const actual = goldenJson(evaluate(load(name), ruleset));
    const outFile = join(dir, 'out', `${name}.json`);
    if (regen) {
      writeFileSync(outFile, actual);
      return;
    }
    if (!existsSync(outFile)) throw new Error(`no golden output for ${name}: run REGEN=1 npx vitest run tests/rules/fire-and-fury-regimental/golden.test.ts and review it`);
    expect(actual).toBe(readFileSync(outFile, 'utf8'));
  });

  it('the skirmish without parameters names the missing ranges (the arc only once a range is known) and still reads formations, movement and command', () => {
    const full = evaluate(load('skirmish'), ruleset);
    const bare = evaluate(load('skirmish-no-params'), ruleset);
    const missing = new Set(bare.warnings.filter((w) => w.code === 'parameter/missing').map((w) => w.parameterId));
    expect([...missing].sort()).toEqual(['weapon-ir-close-in', 'weapon-lr-canister-in', 'weapon-r-close-in', 'weapon-sm-close-in']);
    for (const id of Object.keys(full.units)) {
      expect(bare.units[id]!.formation).toEqual(full.units[id]!.formation);
      expect(bare.units[id]!.movement).toEqual(full.units[id]!.movement);
      expect(bare.units[id]!.command).toEqual(full.units[id]!.command);
      expect(bare.units[id]!.charge).toEqual(full.units[id]!.charge);
    }
    expect(full.units['us-20me']!.fire.some((f) => f.ok)).toBe(true);
    expect(bare.units['us-20me']!.fire.some((f) => f.ok)).toBe(false);
  });
});
