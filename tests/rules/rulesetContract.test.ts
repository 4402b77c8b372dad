/**
 * What every installed rule set owes the engine and the views, checked on every golden scene:
 * pure (a deep-frozen state is not touched, the same state gives the same result), an entry per unit,
 * only finite numbers, refusals with a stable 'area/code' reason, shapes with unique ids, known layers
 * and styles, and units/sides that exist.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deepFreeze, LAYERS, nonFinite, STYLES } from './evaluationChecks.ts';
import { createEvaluator, installedRulesets, parseTableState, type TableState } from '@muster/rules';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const inDir = join(root, 'fixtures/rules/in');
const names = readdirSync(inDir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();



/** Every `{ ok: false, reason }` inside a value. */
function refusals(x: unknown): { reason: unknown }[] {
  if (typeof x !== 'object' || x === null) return [];
  const own = (x as { ok?: unknown }).ok === false ? [x as { reason: unknown }] : [];
  return [...own, ...Object.values(x).flatMap(refusals)];
}

const cases = installedRulesets.flatMap((rs) => names.map((n) => [rs.id, n] as const));

describe.each(cases)('ruleset %s on %s', (rulesetId, name) => {
  const ruleset = installedRulesets.find((r) => r.id === rulesetId)!;
  const load = (): TableState => parseTableState(JSON.parse(readFileSync(join(inDir, `${name}.json`), 'utf8')));

  it('is pure: a frozen state is left alone and the same state gives the same evaluation', () => {
    const frozen = deepFreeze(load());
    const a = ruleset.evaluate(frozen);
    const b = ruleset.evaluate(load());
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('answers for every unit with finite numbers and coded refusals', () => {
    const state = load();
    const ev = ruleset.evaluate(state);
    expect(ev.rulesetId).toBe(ruleset.id);
    expect(Object.keys(ev.units).sort()).toEqual(state.units.map((u) => u.id).sort());
    for (const [id, u] of Object.entries(ev.units)) expect(u.unitId).toBe(id);
    expect(nonFinite(ev)).toEqual([]);
    for (const r of refusals(ev)) expect(r.reason).toMatch(/^[a-z]+(-[a-z]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('draws shapes the views can key and style', () => {
    const state = load();
    const ev = ruleset.evaluate(state);
    const ids = ev.shapes.map((s) => s.id);
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(dupes).toEqual([]);
    const unitIds = new Set(state.units.map((u) => u.id));
    const sides = new Set(state.units.map((u) => u.side));
    for (const s of ev.shapes) {
      expect(LAYERS).toContain(s.layer);
      expect(STYLES).toContain(s.style);
      if (s.unitId !== undefined) expect(unitIds.has(s.unitId), `shape ${s.id} names unit ${s.unitId}`).toBe(true);
      if (s.side !== undefined) expect(sides.has(s.side), `shape ${s.id} names side ${s.side}`).toBe(true);
    }
  });
});

describe.each(installedRulesets.map((r) => [r.id] as const))('ruleset %s live evaluation', (rulesetId) => {
  const ruleset = installedRulesets.find((r) => r.id === rulesetId)!;

  it('is incremental', () => {
    expect(createEvaluator(ruleset).incremental).toBe(true);
  });

  it('matches a fresh evaluate after every move, turn, hit and removal along a sequence of changes', () => {
    let state = parseTableState(JSON.parse(readFileSync(join(inDir, 'opening-battle.json'), 'utf8')));
    const session = createEvaluator(ruleset);
    expect(JSON.stringify(session.update(state))).toBe(JSON.stringify(ruleset.evaluate(state)));
    const shiftUnit = (s: TableState, unitId: string, dx: number, dy: number, turnDeg = 0): TableState => {
      const ids = new Set(s.units.find((u) => u.id === unitId)!.standIds);
      return {
        ...s,
        stands: s.stands.map((st) =>
          ids.has(st.id)
            ? { ...st, pose: { xIn: st.pose.xIn + dx, yIn: st.pose.yIn + dy, headingDeg: (st.pose.headingDeg + turnDeg + 360) % 360 } }
            : st,
        ),
      };
    };
    const steps: ((s: TableState) => TableState)[] = [
      (s) => shiftUnit(s, 'al-22', 0, 4), // advance into musket range
      (s) => shiftUnit(s, 'us-7', 0, -1.5),
      (s) => shiftUnit(s, 'al-22', 0, 4), // close up to the fence
      (s) => shiftUnit(s, 'tn-1', 2, 3, 10),
      (s) => ({ ...s, units: s.units.map((u) => (u.id === 'us-20' ? { ...u, status: { ...u.status, hitsByStand: { 'us-20-2': 1 } } } : u)) }),
      (s) => ({ ...s, units: s.units.map((u) => (u.id === 'al-19' ? { ...u, status: { ...u.status, disordered: true } } : u)) }),
      (s) => shiftUnit(s, 'us-bty', 0, 0, 20), // the battery wheels
      (s) => {
        // A stand removed from the table (two hits): gone from the unit and from the stands.
        const unit = s.units.find((u) => u.id === 'al-26')!;
        const gone = unit.standIds[unit.standIds.length - 1]!;
        return {
          ...s,
          stands: s.stands.filter((st) => st.id !== gone),
          units: s.units.map((u) => (u.id === 'al-26' ? { ...u, standIds: u.standIds.filter((id) => id !== gone) } : u)),
        };
      },
      (s) => shiftUnit(s, 'al-22', 0, -8), // and back again
    ];
    for (const [i, step] of steps.entries()) {
      state = parseTableState(step(state));
      expect(JSON.stringify(session.update(state)), `after step ${i + 1}`).toBe(JSON.stringify(ruleset.evaluate(state)));
    }
  });
});
