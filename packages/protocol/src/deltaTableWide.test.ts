/**
 * An evaluation's table-wide readings (commanders' orders, combined charges) reach a view through deltas,
 * not only in the snapshot: sent whole when they change, kept when they do not, dropped when they go.
 */
import { describe, expect, it } from 'vitest';
import type { Evaluation } from '@muster/rules';
import type { LiveState } from './messages.ts';
import { applyDelta, diffLiveState } from './delta.ts';
import { emptyLiveState } from '../../../fixtures/protocol/emptyLiveState.ts';

const pool = (dice: number) => ({ baseDice: dice, modifiers: [], dice, limits: [] });

function live(seq: number, evaluation: Evaluation): LiveState {
  return emptyLiveState(seq, { evaluation });
}

const base: Evaluation = { rulesetId: 'devil-to-pay', units: {}, shapes: [], warnings: [] };
const commanders = { law: { commanderId: 'law', ordersPerTurn: 2, quality: 'capable', source: 'Commanders (p. 6)' } };
const combined = [{ targetUnitId: 't', attackerUnitIds: ['a', 'b'], attacker: pool(9), defender: pool(5), reinforcerIds: [], source: 'Charge' }];

describe('deltas carry commanders and combined charges', () => {
  it('sends them when they appear or change, keeps them when nothing changed, and drops them when gone', () => {
    const s0 = live(1, base);
    const s1 = live(2, { ...base, commanders, combinedCharges: combined });
    const v1 = applyDelta(s0, diffLiveState(s0, s1, 0))!;
    expect(v1.evaluation).toEqual(s1.evaluation);

    // Only the combined charge changed: still a delta, and the view follows.
    const s2 = live(3, { ...base, commanders, combinedCharges: [{ ...combined[0]!, attacker: pool(10) }] });
    const d2 = diffLiveState(s1, s2, 0);
    expect(d2.evaluation).toBeDefined();
    const v2 = applyDelta(v1, d2)!;
    expect(v2.evaluation).toEqual(s2.evaluation);

    // The same again (new objects): no evaluation delta, the view keeps them.
    const s3 = live(4, JSON.parse(JSON.stringify(s2.evaluation)) as Evaluation);
    const d3 = diffLiveState(s2, s3, 0);
    expect(d3.evaluation).toBeUndefined();
    expect(applyDelta(v2, d3)!.evaluation).toEqual(s2.evaluation);

    // Gone: the view drops them.
    const s4 = live(5, base);
    expect(applyDelta(applyDelta(v2, d3)!, diffLiveState(s3, s4, 0))!.evaluation).toEqual(base);
  });
});
