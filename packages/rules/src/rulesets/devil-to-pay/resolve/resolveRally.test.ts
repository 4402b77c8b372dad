import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../../engine/evaluation.ts';
import type { Outcome } from '../../../engine/resolve/resolution.ts';
import { applyOutcome, diceForAction, resolveAction } from '../../../engine/resolve/index.ts';
import type { TableState } from '../../../model/tableState.ts';
import { devilToPay } from '../index.ts';
import { scene, type SceneUnit } from '../../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';

const outcome = (r: Outcome | Refusal): Outcome => {
  if ('ok' in r) throw new Error(`expected an outcome, got ${r.reason}: ${r.detail}`);
  return r;
};
const hits4 = { hitsByStand: { 'r-s0': 1, 'r-s1': 1, 'r-s2': 1, 'r-s3': 1 } };
/** Unit 'r' facing +y; an enemy whose front edge is `enemyGapIn` beyond r's front edge (as in rally.test.ts). */
function table(unit: Partial<SceneUnit>, enemyGapIn = 18): TableState {
  return scene([{ id: 'r', xIn: 40, yIn: 10, headingDeg: 90, ...unit }, { id: 'e', side: 'confederate', xIn: 40, yIn: 10 + 1.5 + enemyGapIn, headingDeg: 270 }]);
}
const rally = { kind: 'rally', unitId: 'r' } as const;
const offered = (state: TableState) => devilToPay.resolution!.offered(state, devilToPay.evaluate(state), 'r').map((a) => a.kind);

describe('rally after the roll (Rally, p. 28)', () => {
  it('the Rally Example: a crack unit with 4 hits, 18" from the enemy, rolls 4 dice: 2, 4, 4 and 6 remove 3 hits', () => {
    const state = table({ quality: 'crack', status: hits4 });
    expect(diceForAction(devilToPay, state, rally)).toEqual([expect.objectContaining({ id: 'rally', count: 4, reading: 'hits', hitOn: 4 })]);
    const got = outcome(resolveAction(devilToPay, state, rally, { rally: [2, 4, 4, 6] }));
    expect(got.result).toBe('3 hits removed');
    // The colours first, then the front rank.
    expect(got.effects[0]!.status).toEqual({ hitsByStand: { 'r-s0': null, 'r-s1': null, 'r-s2': null } });
    expect(applyOutcome(state, got).units.find((u) => u.id === 'r')!.status).toEqual({ hitsByStand: { 'r-s3': 1 } });
    expect(offered(state)).toContain('rally');
  });

  it('removes no more hits than the unit has, and none on a miss', () => {
    const state = table({ status: { hitsByStand: { 'r-s2': 1 } } });
    const n = (diceForAction(devilToPay, state, rally) as readonly { count: number }[])[0]!.count;
    const got = outcome(resolveAction(devilToPay, state, rally, { rally: Array(n).fill(6) }));
    expect(got.result).toBe('1 hit removed');
    expect(got.effects[0]!.status).toEqual({ hitsByStand: { 'r-s2': null } });
    const miss = outcome(resolveAction(devilToPay, state, rally, { rally: Array(n).fill(1) }));
    expect(miss.effects).toEqual([]);
    expect(applyOutcome(state, miss)).toBe(state);
  });

  it('a disordered unit cannot rally: it reforms into line (no dice), then may rally on a later action', () => {
    const state = table({ status: { ...hits4, disordered: true } });
    expect(diceForAction(devilToPay, state, rally)).toMatchObject({ ok: false, reason: 'rally/disordered-must-reform' });
    expect(offered(state)).toContain('reform');
    expect(offered(state)).not.toContain('rally');
    expect(diceForAction(devilToPay, state, { kind: 'reform', unitId: 'r' })).toEqual([]);
    const got = outcome(resolveAction(devilToPay, state, { kind: 'reform', unitId: 'r' }, {}));
    expect(got.effects[0]!.text).toContain('reforms into line facing the nearest enemy');
    const after = applyOutcome(state, got);
    expect(after.units.find((u) => u.id === 'r')!.status).toEqual(hits4);
    expect(diceForAction(devilToPay, after, rally)).toMatchObject([{ id: 'rally' }]);
    // Not disordered: nothing to reform.
    expect(diceForAction(devilToPay, after, { kind: 'reform', unitId: 'r' })).toMatchObject({ ok: false, reason: 'reform/not-disordered' });
  });

  it('dismounted cavalry reforms into loose order (Armies: Dismounted Cavalry)', () => {
    const state = table({ arm: 'cavalry', status: { disordered: true, dismounted: true } });
    expect(outcome(resolveAction(devilToPay, state, { kind: 'reform', unitId: 'r' }, {})).effects[0]!.text).toContain('loose order');
  });

  it('a prone disordered unit stands up first, then reforms (Optional Rules: Going Prone)', () => {
    const state = table({ status: { disordered: true, prone: true } });
    expect(diceForAction(devilToPay, state, { kind: 'reform', unitId: 'r' })).toMatchObject({ ok: false, reason: 'rally/prone-must-stand-up' });
    expect(offered(state)).toContain('stand-up');
    const up = applyOutcome(state, outcome(resolveAction(devilToPay, state, { kind: 'stand-up', unitId: 'r' }, {})));
    expect(up.units.find((u) => u.id === 'r')!.status).toEqual({ disordered: true });
    expect(offered(up)).toEqual(expect.arrayContaining(['reform']));
    expect(offered(up)).not.toContain('stand-up');
  });

  it('offers no rally without dice to roll (prone green unit near the enemy: 2 - 2 - 1 = 0)', () => {
    const state = table({ quality: 'green', status: { ...hits4, prone: true } }, 5);
    expect(offered(state)).not.toContain('rally');
  });
});
