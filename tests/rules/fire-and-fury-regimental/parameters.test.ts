/**
 * Regimental Fire and Fury declarations and parameters: what the QRS does not give has no default, a bad
 * value is a clear error before evaluation, a missing value is a warning naming it, and entering it changes
 * the output. Plus the same-answers-anywhere checks on the golden skirmish (moved, turned, reordered).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getRuleset, parseTableStateFor, TableStateError, type Evaluation, type PointIn, type TableState } from '@muster/rules';
import { transformTable } from '../conformance/tableTransforms.ts';
import { skirmishScene } from '../../../fixtures/rules/fire-and-fury-regimental/scenes.ts';

const ruleset = getRuleset('fire-and-fury-regimental');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const raw = (): Record<string, unknown> => JSON.parse(readFileSync(join(root, 'fixtures/rules/fire-and-fury-regimental/in/skirmish.json'), 'utf8')) as Record<string, unknown>;

describe('declarations', () => {
  it('gives no default to a number the document does not give, and cites a source for every field', () => {
    const all = [...(ruleset.parameters ?? []), ...(ruleset.unitFields ?? []), ...(ruleset.statusFields ?? [])];
    expect(new Set(ruleset.parameters!.map((p) => p.id)).size).toBe(ruleset.parameters!.length);
    for (const f of all) {
      expect(f.source.length, f.id).toBeGreaterThan(10);
      if (f.notInDocument) expect(f.default, f.id).toBeUndefined();
      // Defaults are QRS numbers or readings of its text (choices).
      if (f.default !== undefined && typeof f.default === 'number') expect(f.source, f.id).toMatch(/QRS II/);
    }
    const byId = new Map(ruleset.parameters!.map((p) => [p.id, p]));
    expect(byId.get('weapon-blc-close-in')).toMatchObject({ default: 4 });
    expect(byId.get('weapon-rpr-effective-in')).toMatchObject({ default: 12 });
    expect(byId.get('weapon-r-close-in')).toMatchObject({ notInDocument: true });
    // Mountain howitzers use the light howitzer's values; rifle & carbine the inferior rifle's ranges.
    expect(byId.has('weapon-mh-canister-in')).toBe(false);
    expect(byId.has('weapon-rc-close-in')).toBe(false);
    expect(byId.has('weapon-rc-close-points')).toBe(true);
  });
});

describe('bad values are clear errors before evaluation', () => {
  it.each([
    ['an arc over 90°', { rulesetParameters: { 'fire-arc-half-deg': 120 } }, /rulesetParameters\.fire-arc-half-deg: expected at most 90 deg/],
    ['an unknown parameter', { rulesetParameters: { 'musket-range': 6 } }, /rulesetParameters\.musket-range: unknown to ruleset "fire-and-fury-regimental"/],
    ['a terrain class typo', { rulesetParameters: { 'terrain-farm': 'brokn' } }, /expected one of open, broken, rough, impassable/],
  ])('%s', (_what, patch, says) => {
    const json = { ...raw(), ...patch };
    expect(() => parseTableStateFor(json, ruleset)).toThrow(TableStateError);
    expect(() => parseTableStateFor(json, ruleset)).toThrow(says);
  });

  it('a unit field of the wrong type names the unit', () => {
    const json = raw();
    const units = json['units'] as Record<string, unknown>[];
    units[0] = { ...units[0], rulesetFields: { startingStands: 'eight' } };
    expect(() => parseTableStateFor(json, ruleset)).toThrow(/units\[0\]\.rulesetFields\.startingStands: expected a number stands/);
  });
});

describe('a missing parameter is named, and entering it changes the output', () => {
  it('fire points at effective range', () => {
    const state = skirmishScene(true);
    const { ['weapon-r-effective-points']: _gone, ...rest } = state.rulesetParameters!;
    const without = ruleset.evaluate({ ...state, rulesetParameters: rest });
    const w = without.warnings.find((x) => x.parameterId === 'weapon-r-effective-points');
    expect(w?.message).toMatch(/needs "weapon-r-effective-points" .*not in the document/);
    const fireOf = (ev: Evaluation) => ev.units['us-20me']!.fire.find((f) => f.targetUnitId === 'cs-15al')! as unknown as { ok: true; firePoints: { dice: number }; missingParameters: string[] };
    expect(fireOf(without).missingParameters).toEqual(['weapon-r-effective-points']);
    expect(fireOf(without).firePoints.dice).toBe(0);
    expect(fireOf(ruleset.evaluate(state)).firePoints.dice).toBe(4);
    expect(fireOf(ruleset.evaluate({ ...state, rulesetParameters: { ...rest, 'weapon-r-effective-points': 1 } })).firePoints.dice).toBe(8);
  });
});

type Move = { map: (p: PointIn) => PointIn; turnDeg: number };
function transform(state: TableState, m: Move, table: TableState['table']): TableState {
  return transformTable(state, m.map, m.turnDeg, table);
}
const r3 = (v: number) => Math.round(v * 1e3) / 1e3;
function decisions(ev: Evaluation): unknown {
  return Object.fromEntries(
    Object.entries(ev.units).map(([id, u]) => [
      id,
      {
        formation: u.formation.name,
        move: u.movement.ok ? r3(u.movement.allowanceIn) : u.movement.reason,
        fire: u.fire.map((f) => (f.ok ? [f.targetUnitId, r3(f.rangeIn), f.breakdown.dice, f.eligibleStandIds.length] : [f.targetUnitId, f.reason])),
        charge: u.charge.map((c) => (c.ok ? [c.targetUnitId, r3(c.distanceIn), c.attacker.dice, c.defender.dice] : [c.targetUnitId, c.reason])),
        rally: 'dice' in u.rally ? u.rally.dice : u.rally.reason,
        command: [u.command.inCommand, u.command.commanderInRangeId, r3(u.command.commanderDistanceIn ?? -1)],
        morale: u.morale?.state,
      },
    ]),
  );
}

describe('the same answers wherever the table sits and whatever the unit order', () => {
  const state = skirmishScene(true);
  const base = decisions(ruleset.evaluate(state));
  it('moved across the room', () => {
    const moved = transform(state, { map: (p) => ({ xIn: p.xIn + 7.25, yIn: p.yIn + 3.5 }), turnDeg: 0 }, { widthIn: 55.25, depthIn: 39.5 });
    expect(decisions(ruleset.evaluate(moved))).toEqual(base);
  });
  it('turned half round', () => {
    const { widthIn, depthIn } = state.table;
    const turned = transform(state, { map: (p) => ({ xIn: widthIn - p.xIn, yIn: depthIn - p.yIn }), turnDeg: 180 }, state.table);
    expect(decisions(ruleset.evaluate(turned))).toEqual(base);
  });
  it('units and stands listed in reverse', () => {
    const reversed = { ...state, units: [...state.units].reverse(), stands: [...state.stands].reverse() };
    const ev = ruleset.evaluate(reversed);
    for (const id of Object.keys(ev.units)) expect((decisions(ev) as Record<string, unknown>)[id]).toEqual((base as Record<string, unknown>)[id]);
  });
});
