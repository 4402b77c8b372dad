import { describe, expect, it } from 'vitest';
import type { TableState } from '../model/tableState.ts';
import type { Evaluation } from './evaluation.ts';
import type { Ruleset } from './ruleset.ts';
import { createEvaluator, evaluate } from './evaluate.ts';
import { query } from './incremental/query.ts';
import { queryRuleset } from './incremental/runQueries.ts';
import type { TableReader } from './incremental/tableReader.ts';

/** A tiny real rule set: every unit may move its stand count in inches. Counts how often it runs. */
function countingRuleset(id = 'count'): Ruleset & { calls: number } {
  const rs = {
    id,
    name: 'Counting',
    source: 'test',
    calls: 0,
    evaluate(state: TableState): Evaluation {
      rs.calls++;
      const units: Evaluation['units'] = Object.fromEntries(
        state.units.map((u) => [
          u.id,
          {
            unitId: u.id,
            formation: { formation: 'unknown', confidence: 0, source: 'geometry' },
            movement: { ok: true, allowanceIn: u.standIds.length, reach: [], notes: [] },
            fire: [],
            charge: [],
            rally: { ok: false, reason: 'rally/none' },
            command: { brigadeFormationUnitIds: [] },
          },
        ]),
      );
      return { rulesetId: rs.id, units, shapes: [], warnings: [] };
    },
  };
  return rs;
}

const state = (n: number): TableState => ({
  version: 1,
  table: { widthIn: 10, depthIn: 10 },
  stands: Array.from({ length: n }, (_, i) => ({ id: `s${i}`, unitId: 'u', pose: { xIn: i * 1.5, yIn: 1, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'base' as const })),
  units: [{ id: 'u', name: 'U', side: 'a', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: Array.from({ length: n }, (_, i) => `s${i}`) }],
  commanders: [],
  terrain: { areas: [], linear: [], roads: [], elevations: [] },
});

describe('engine', () => {
  it('evaluate runs the rule set and refuses an evaluation labelled with another id', () => {
    const rs = countingRuleset();
    expect(evaluate(state(3), rs).units.u?.movement).toMatchObject({ ok: true, allowanceIn: 3 });
    const liar: Ruleset = { ...rs, id: 'other' };
    expect(() => evaluate(state(3), liar)).toThrow(/ruleset "other" returned an evaluation labelled "count"/);
  });

  it('an evaluator without a session re-evaluates each new state, and not the same state twice', () => {
    const rs = countingRuleset();
    const ev = createEvaluator(rs);
    expect(ev.incremental).toBe(false);
    const a = state(2);
    const first = ev.update(a);
    expect(ev.update(a)).toBe(first);
    expect(rs.calls).toBe(1);
    expect(ev.update(state(4)).units.u?.movement).toMatchObject({ allowanceIn: 4 });
    expect(rs.calls).toBe(2);
  });

  it('keeps a rule set built of queries live: a new state runs only what it changed', () => {
    // One query per unit reads its stands; the root reads those.
    type Ctx = TableReader<unknown>;
    const unitMove = query('count/move', (t: Ctx, id) => t.unitStands(id).length);
    const root = query('count/root', (t: Ctx): Evaluation => {
      const units: Record<string, Evaluation['units'][string]> = {};
      for (const id of t.unitIds()) {
        const allowanceIn = t.get(unitMove as never, id) as number;
        units[id] = { unitId: id, formation: { formation: 'unknown', confidence: 0, source: 'geometry' }, movement: { ok: true, allowanceIn, reach: [], notes: [] }, fire: [], charge: [], rally: { ok: false, reason: 'rally/none' }, command: { brigadeFormationUnitIds: [] } };
      }
      return { rulesetId: 'count-q', units, shapes: [], warnings: [] };
    });
    const rs = queryRuleset({ id: 'count-q', name: 'Counting', source: 'test' }, { context: (t: Ctx) => t, root });
    const ev = createEvaluator(rs);
    expect(ev.incremental).toBe(true);
    expect(ev.update(state(2))).toEqual(rs.evaluate(state(2)));
    expect(ev.update(state(5)).units.u?.movement).toMatchObject({ allowanceIn: 5 });
  });
});
