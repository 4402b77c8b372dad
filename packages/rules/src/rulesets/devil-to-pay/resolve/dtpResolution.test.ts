import { describe, expect, it } from 'vitest';
import type { Outcome, PendingAction } from '../../../engine/resolve/resolution.ts';
import { applyOutcome, diceForAction, resolveAction, rollRequestedDice } from '../../../engine/resolve/index.ts';
import { createRng } from '../../../dice/rng.ts';
import type { TableState } from '../../../model/tableState.ts';
import { parseTableStateFor } from '../../../validate/parseTableState.ts';
import { devilToPay } from '../index.ts';
import { randomTable } from '../../../../../../fixtures/rules/devil-to-pay/sessionTestTable.ts';

/** The seeded battlefield with the Confederate lines brought within charge reach of the Union's. */
function closeBattle(seed: number): TableState {
  const state = randomTable(createRng(seed), 10);
  const confederate = new Set(state.units.filter((u) => u.side === 'confederate').flatMap((u) => u.standIds));
  return { ...state, stands: state.stands.map((s) => (confederate.has(s.id) ? { ...s, pose: { ...s.pose, yIn: s.pose.yIn - 14.5 } } : s)) };
}

describe('The Devil to Pay resolution on a whole battlefield', () => {
  it('rolls and resolves every action it offers, and the table after each outcome is still a valid Devil to Pay table', () => {
    const kinds = new Set(devilToPay.resolution!.kinds.map((k) => k.kind));
    const seen = new Set<string>();
    for (const seed of [1]) {
      const state = closeBattle(seed);
      const evaluation = devilToPay.evaluate(state);
      const rng = createRng(seed);
      for (const unit of state.units) {
        for (const action of devilToPay.resolution!.offered(state, evaluation, unit.id)) {
          expect(kinds.has(action.kind)).toBe(true);
          const requests = diceForAction(devilToPay, state, action);
          if (!Array.isArray(requests)) throw new Error(`offered ${JSON.stringify(action)} but refused: ${JSON.stringify(requests)}`);
          const outcome = resolveAction(devilToPay, state, action, rollRequestedDice(requests, rng)) as Outcome;
          expect(outcome.rulesetId).toBe('devil-to-pay');
          expect(outcome.steps.length).toBeGreaterThan(0);
          for (const step of [...outcome.steps, ...outcome.effects]) expect(step.source).toMatch(/The Devil to Pay \(2018\)/);
          for (const e of outcome.effects) expect(Number(e.unitId !== undefined) + Number(e.commanderId !== undefined)).toBe(1);
          for (const f of outcome.followUps) expect(kinds.has(f.kind)).toBe(true);
          const after = applyOutcome(state, outcome);
          expect(() => parseTableStateFor(JSON.parse(JSON.stringify(after)), devilToPay)).not.toThrow();
          // What the outcome calls for next can be rolled on the table it leaves.
          for (const next of outcome.followUps) expect(Array.isArray(diceForAction(devilToPay, after, next))).toBe(true);
          seen.add(action.kind);
          for (const f of outcome.followUps) seen.add(`then ${f.kind}`);
        }
      }
    }
    // The battlefield is close enough for every kind the evaluation offers on an unhurt table.
    expect([...seen].sort()).toEqual(expect.arrayContaining(['fire', 'melee', 'rally', 'skedaddle', 'then apply-hits', 'then skedaddle']));
  });

  it('refuses what the rule set does not resolve with the list of what it does', () => {
    const state = closeBattle(1);
    const bad: PendingAction = { kind: 'bombard', unitId: state.units[0]!.id };
    expect(() => diceForAction(devilToPay, state, bad)).toThrow(/unknown action kind "bombard".*fire.*melee.*rally.*skedaddle/);
  });
});
