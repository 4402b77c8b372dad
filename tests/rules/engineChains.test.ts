/**
 * The incremental engine against a fresh evaluation for every rule set built of queries (any rule set
 * added later included), on the 300-stand bench table with the armies closed to fighting distance: a
 * seeded chain of advances, wheels, status changes, a unit lifted off and put back. Then the same chain
 * with the engine's recording of box reads switched off: the chain must notice (a rule set whose answers
 * never depend on what lies in a box would make the check meaningless, so it fails the test too).
 */
import { describe, expect, it } from 'vitest';
import type { Ruleset, TableState, Unit } from '@muster/rules';
import { createEvaluator, evaluate, installedRulesets, parseTableStateFor } from '@muster/rules';
import { samePlainData } from '@muster/rules/plainData';
import { createQuerySession } from '../../packages/rules/src/engine/incremental/runQueries.ts';
import { largeScene } from '../../fixtures/rules/largeScene.ts';
import { benchTableFor } from '../../fixtures/rules/rulesetAdapters.ts';
import { seededRandom } from '../../fixtures/seededRandom.ts';
import { pick, shiftUnit, withUnit } from './tableEdits.ts';

/** A unit stepped `stepIn` along the heading of its first stand and turned `turnDeg`. */
function stepUnit(s: TableState, unit: Unit, stepIn: number, turnDeg: number): TableState {
  const first = s.stands.find((st) => st.id === unit.standIds[0]);
  if (!first) return s;
  const r = (first.pose.headingDeg * Math.PI) / 180;
  return shiftUnit(s, unit, Math.cos(r) * stepIn, Math.sin(r) * stepIn, turnDeg);
}

function start(ruleset: Ruleset): TableState {
  let s = largeScene(2);
  // The armies start about 20" apart: close one side to musket and charge distance.
  const side = s.units[0]!.side;
  for (const unit of s.units) if (unit.side === side) s = stepUnit(s, unit, 11, 0);
  return parseTableStateFor(benchTableFor(ruleset.id, s), ruleset);
}

/** The steps of a seeded chain at which the session's answer differs from a fresh evaluation. */
function mismatches(ruleset: Ruleset, breakBoxReads: boolean, steps: number): number[] {
  const rand = seededRandom(20261207);
  const session = breakBoxReads ? createQuerySession(ruleset.queries!) : createEvaluator(ruleset);
  if (breakBoxReads) (session as ReturnType<typeof createQuerySession>).forgetBoxReads();
  let state = start(ruleset);
  let lifted: { unit: Unit; stands: TableState['stands'] } | undefined;
  const wrong: number[] = [];
  for (let step = 0; step < steps; step++) {
    if (!samePlainData(session.update(state), evaluate(state, ruleset))) wrong.push(step);
    const unit = pick(state.units, rand);
    const r = rand();
    if (step === steps / 2 && !lifted) {
      // Lift a unit off the table (its stands go, it stays on the roll); it comes back three steps on.
      const ids = new Set(unit.standIds);
      lifted = { unit, stands: state.stands.filter((st) => ids.has(st.id)) };
      state = { ...state, stands: state.stands.filter((st) => !ids.has(st.id)), units: state.units.map((u) => (u.id === unit.id ? { ...u, standIds: [] } : u)) };
    } else if (lifted && step === steps / 2 + 3) {
      const back = lifted;
      state = { ...state, stands: [...state.stands, ...back.stands], units: state.units.map((u) => (u.id === back.unit.id ? back.unit : u)) };
      lifted = undefined;
    } else if (r < 0.15) {
      state = withUnit(state, unit.id, (u) => ({ ...u, status: { ...u.status, disordered: !u.status?.disordered } }));
    } else {
      state = stepUnit(state, unit, (rand() - 0.3) * 6, rand() < 0.3 ? (rand() - 0.5) * 30 : 0);
    }
  }
  return wrong;
}

const queryRulesets = installedRulesets.filter((r) => r.queries !== undefined);

describe.each(queryRulesets.map((r) => [r.id, r] as const))('the incremental engine on %s', (_id, ruleset) => {
  it('equals a fresh evaluation after every change of a seeded chain', () => {
    expect(mismatches(ruleset, false, 40)).toEqual([]);
  });

  it('is caught by the same chain when reads of boxes go unrecorded', () => {
    expect(mismatches(ruleset, true, 40).length).toBeGreaterThan(0);
  });
});

describe('rule sets built of queries', () => {
  it('include at least one installed rule set', () => {
    expect(queryRulesets.length).toBeGreaterThan(0);
  });
});
