/**
 * The incremental Devil to Pay session against a fresh evaluation, on the 300-stand bench table, along a
 * long seeded walk of the changes a live table makes: units advancing and wheeling (small steps and
 * jumps), hits, status changes, a unit lifted off and put back, a commander riding, optional rules
 * switched, and the same state re-sent as new objects. Any cache kept too long shows up as a difference.
 */
import { describe, expect, it } from 'vitest';
import type { TableState, Unit } from '@muster/rules';
import { createEvaluator, evaluate, getRuleset } from '@muster/rules';
import { largeScene } from '../../fixtures/rules/largeScene.ts';
import { seededRandom } from '../../fixtures/seededRandom.ts';
import { pick, shiftUnit, withUnit } from './tableEdits.ts';

type Change = (s: TableState, rand: () => number) => TableState;

/** Every stand of `unit` wheeled `turnDeg` about its first stand, then stepped `stepIn` along its heading. */
function stepUnit(s: TableState, unit: Unit, stepIn: number, turnDeg: number): TableState {
  const first = s.stands.find((st) => st.id === unit.standIds[0]);
  if (!first) return s;
  const r = (first.pose.headingDeg * Math.PI) / 180;
  return shiftUnit(s, unit, Math.cos(r) * stepIn, Math.sin(r) * stepIn, turnDeg);
}

/** Small steps as the tracker jitters, or a real move; `advance` steps forward 4-12" towards the enemy. */
const moveUnitBy = (advance: boolean): Change => (s, rand) => {
  const unit = pick(s.units, rand);
  const stepIn = advance ? 4 + rand() * 8 : rand() < 0.8 ? (rand() - 0.5) * 1 : (rand() - 0.5) * 14;
  const turnDeg = !advance && rand() < 0.3 ? (rand() - 0.5) * 40 : 0;
  return stepUnit(s, unit, stepIn, turnDeg);
};

const moveUnit = moveUnitBy(false);
const advanceUnit = moveUnitBy(true);

const hitStand: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const standId = pick(unit.standIds, rand);
  const hits = { ...(unit.status?.hitsByStand ?? {}) };
  if (hits[standId]) delete hits[standId];
  else hits[standId] = 1;
  return withUnit(s, unit.id, (u) => ({ ...u, status: { ...u.status, hitsByStand: hits } }));
};

const toggleStatus: Change = (s, rand) => {
  const unit = pick(s.units, rand);
  const key = pick(['disordered', 'prone'] as const, rand);
  return withUnit(s, unit.id, (u) => ({ ...u, status: { ...u.status, [key]: !u.status?.[key] } }));
};

const riderMoves: Change = (s, rand) => {
  const c = pick(s.commanders.filter((x) => x.standId !== undefined), rand);
  return {
    ...s,
    stands: s.stands.map((st) => (st.id === c.standId ? { ...st, pose: { ...st.pose, xIn: st.pose.xIn + (rand() - 0.5) * 6 } } : st)),
  };
};

const switchOptionalRules: Change = (s) =>
  s.optionalRules?.includes('trained-veteran') ? { ...s, optionalRules: [] } : { ...s, optionalRules: ['trained-veteran'] };

describe('Devil to Pay session on the 300-stand table', () => {
  it('equals a fresh evaluation after every change of a long seeded walk', () => {
    const ruleset = getRuleset('devil-to-pay');
    const rand = seededRandom(20261122);
    // The armies start about 20" apart; close them to charge distance so charges and melee count too.
    let start = largeScene(3);
    const side = start.units[0]!.side;
    for (const unit of start.units) if (unit.side === side) start = stepUnit(start, unit, 11, 0);
    const session = createEvaluator(ruleset);
    let state = start;
    let lifted: { unit: Unit; state: TableState } | undefined;
    const weighted: Change[] = [moveUnit, moveUnit, moveUnit, advanceUnit, advanceUnit, hitStand, toggleStatus, riderMoves];
    let compared = 0;
    let charges = 0;
    for (let step = 0; step < 45; step++) {
      if (step === 15) {
        // Lift a unit off the table (its stands vanish, the unit stays listed), then put it back at step 25.
        const unit = pick(state.units, rand);
        lifted = { unit, state };
        const gone = new Set(unit.standIds);
        state = { ...state, stands: state.stands.filter((st) => !gone.has(st.id)) };
      } else if (step === 25 && lifted) {
        state = { ...state, stands: [...state.stands, ...lifted.state.stands.filter((st) => lifted!.unit.standIds.includes(st.id))] };
      } else if (step === 35) {
        state = switchOptionalRules(state, rand);
      } else if (step === 40) {
        state = JSON.parse(JSON.stringify(state)) as TableState; // the same table as new objects
      } else {
        state = pick(weighted, rand)(state, rand);
      }
      const incremental = session.update(state);
      expect(JSON.stringify(incremental), `step ${step}`).toBe(JSON.stringify(evaluate(state, ruleset)));
      compared++;
      charges += Object.values(incremental.units).filter((u) => u.charge.some((c) => c.ok)).length;
    }
    expect(compared).toBe(45);
    // The walk brings the lines into contact, so charge and melee are exercised too.
    expect(charges).toBeGreaterThan(20);
  });
});
