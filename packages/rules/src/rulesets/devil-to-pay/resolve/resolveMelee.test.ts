import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceRequest, Outcome, PendingAction } from '../../../engine/resolve/resolution.ts';
import { applyOutcome, diceForAction, resolveAction } from '../../../engine/resolve/index.ts';
import type { TableState } from '../../../model/tableState.ts';
import { devilToPay } from '../index.ts';
import { shareHitsEvenly } from './resolveMelee.ts';
import { INFANTRY_BASE, grid, stateOf, unitAt, type UnitSpec } from '../../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';

const outcome = (r: Outcome | Refusal): Outcome => {
  if ('ok' in r) throw new Error(`expected an outcome, got ${r.reason}: ${r.detail}`);
  return r;
};
// As in charge.test.ts: a five-stand line 'att' facing +y, the five-stand line 'def' facing it 4" away.
const US = (spec: Partial<UnitSpec> = {}) => unitAt({ id: 'att', side: 'union', ...spec }, { xIn: 30, yIn: 10, headingDeg: 90 }, grid(5, 5, INFANTRY_BASE));
const CS = (spec: Partial<UnitSpec> = {}) => unitAt({ id: 'def', side: 'csa', ...spec }, { xIn: 30, yIn: 14, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
const charge = { kind: 'melee', unitId: 'att', targetUnitId: 'def' } as const;
const counts = (state: TableState, action: PendingAction) => (diceForAction(devilToPay, state, action) as DiceRequest[]).map((r) => [r.id, r.count]);
/** `n` faces with `hits` of them 4-6. */
const faces = (n: number, hits: number) => Array.from({ length: n }, (_, i) => (i < hits ? 5 : 2));
const unitStatus = (state: TableState, id: string) => state.units.find((u) => u.id === id)!.status;

describe('melee after the roll: the rulebook examples (Charge: Melee)', () => {
  it('Example 1: 6 dice (5 stands + the charge order) against 5; fewer hits suffered wins, the winner is disordered, the loser skedaddles', () => {
    const state = stateOf([US(), CS()]);
    expect(counts(state, charge)).toEqual([['attacker', 6], ['defender', 5]]);
    const got = outcome(resolveAction(devilToPay, state, charge, { attacker: [6, 5, 4, 1, 2, 3], defender: [4, 1, 1, 1, 1] }));
    expect(got.result).toBe('Attacker wins');
    expect(got.rolls.map((r) => r.value)).toEqual([3, 1]);
    const att = got.effects.find((e) => e.unitId === 'att')!;
    const def = got.effects.find((e) => e.unitId === 'def')!;
    expect(att.status).toEqual({ disordered: true, hitsByStand: { 'att-s4': 1 } });
    expect(att.text).toContain('may occupy the defender\'s position');
    expect(def.status).toEqual({ hitsByStand: { 'def-s4': 1, 'def-s3': 1, 'def-s2': 1 } });
    expect(got.followUps).toEqual([{ kind: 'skedaddle', unitId: 'def', targetUnitId: 'att' }]);
    expect(got.summary).toBe('att charge def: 3 hits against 1. Attacker wins: att disordered, may occupy the position; def skedaddles.');
    const after = applyOutcome(state, got);
    expect(unitStatus(after, 'att')).toEqual({ disordered: true, hitsByStand: { 'att-s4': 1 } });
    expect(unitStatus(after, 'def')).toEqual({ hitsByStand: { 'def-s4': 1, 'def-s3': 1, 'def-s2': 1 } });

    // The loser's skedaddle, rolled on the table with the melee's hits on it: away from the attacker,
    // disordered, and the straggler hit goes on one of its two unhit stands.
    const fled = outcome(resolveAction(devilToPay, after, got.followUps[0]!, { skedaddle: [2, 3, 4] }));
    expect(fled.effects[0]!.move!.distanceIn).toBe(9);
    expect(fled.effects[0]!.move!.path[1]!.yIn).toBeGreaterThan(fled.effects[0]!.move!.path[0]!.yIn);
    expect(fled.effects[0]!.status).toEqual({ disordered: true, hitsByStand: { 'def-s1': 1 } });
  });

  it('Example 2: a defender with two hits fights with 3 dice; a tie goes to the defender', () => {
    const state = stateOf([US(), CS({ status: { hitsByStand: { 'def-s1': 1, 'def-s3': 1 } } })]);
    expect(counts(state, charge)).toEqual([['attacker', 6], ['defender', 3]]);
    const got = outcome(resolveAction(devilToPay, state, charge, { attacker: faces(6, 2), defender: faces(3, 2) }));
    expect(got.result).toBe('Defender wins the tie');
    expect(got.effects.find((e) => e.unitId === 'def')!.status).toEqual({ disordered: true, hitsByStand: { 'def-s4': 1, 'def-s2': 1 } });
    expect(got.followUps).toEqual([{ kind: 'skedaddle', unitId: 'att', targetUnitId: 'def' }]);
  });

  it('Example 3: two attack columns (13 dice, the charge order once) against a reinforced defence (10 dice); hits shared evenly; every losing unit skedaddles', () => {
    const a1 = unitAt({ id: 'a1', side: 'union' }, { xIn: 28, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const a2 = unitAt({ id: 'a2', side: 'union' }, { xIn: 32, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const r = unitAt({ id: 'r', side: 'csa' }, { xIn: 30, yIn: 16, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
    const state = stateOf([a1, a2, CS(), r]);
    const joint: PendingAction = { kind: 'melee', unitId: 'a1', unitIds: ['a1', 'a2'], targetUnitId: 'def', targetUnitIds: ['r'] };
    // The combined charge the evaluation shows is the one offered and rolled.
    const evaluation = devilToPay.evaluate(state);
    expect(devilToPay.resolution!.offered(state, evaluation, 'a1')).toContainEqual(joint);
    expect(counts(state, joint)).toEqual([['attacker', 13], ['defender', 10]]);
    expect(counts(state, { ...joint, targetUnitIds: undefined })).toEqual([['attacker', 13], ['defender', 5]]);
    const got = outcome(resolveAction(devilToPay, state, joint, { attacker: faces(13, 5), defender: faces(10, 3) }));
    expect(got.result).toBe('Attacker wins');
    const hitsOn = (id: string) => Object.keys(got.effects.find((e) => e.unitId === id)!.status?.hitsByStand ?? {}).length;
    // 3 hits over two attackers: 2 and 1; 5 over the defender and its reinforcement: 3 and 2.
    expect(['a1', 'a2', 'def', 'r'].map(hitsOn)).toEqual([2, 1, 3, 2]);
    expect(got.effects.filter((e) => e.status?.disordered).map((e) => e.unitId)).toEqual(['a1', 'a2']);
    expect(got.followUps).toEqual([
      { kind: 'skedaddle', unitId: 'def', targetUnitId: 'a1' },
      { kind: 'skedaddle', unitId: 'r', targetUnitId: 'a1' },
    ]);
  });
});

describe('melee after the roll: each result', () => {
  it('shares hits evenly, the first units taking the odd ones', () => {
    expect(shareHitsEvenly(5, ['a', 'b'])).toEqual([3, 2]);
    expect(shareHitsEvenly(1, ['a', 'b', 'c'])).toEqual([1, 0, 0]);
    expect(shareHitsEvenly(0, ['a'])).toEqual([0]);
  });

  it('a defender that wins keeps its ground disordered; an attacker reduced to one stand is removed and does not skedaddle', () => {
    const allHit = { hitsByStand: { 'att-s1': 1, 'att-s2': 1, 'att-s3': 1, 'att-s4': 1 } };
    const state = stateOf([US({ status: allHit }), CS()]);
    // One eligible stand + the charge order: 2 dice against 5.
    expect(counts(state, charge)).toEqual([['attacker', 2], ['defender', 5]]);
    const got = outcome(resolveAction(devilToPay, state, charge, { attacker: faces(2, 0), defender: faces(5, 5) }));
    expect(got.result).toBe('Defender wins');
    const att = got.effects.find((e) => e.unitId === 'att')!;
    expect(att).toMatchObject({ removed: true, standsLost: 4 });
    expect(got.summary).toBe('att charge def: 0 hits against 5. Defender wins: def disordered; att removed.');
    expect(got.followUps).toEqual([]);
    expect(got.effects.find((e) => e.unitId === 'def')!.status).toEqual({ disordered: true });
  });

  it('a prone defender stands up when the melee is over (Optional Rules: Going Prone)', () => {
    const state = stateOf([US(), CS({ status: { prone: true } })]);
    const got = outcome(resolveAction(devilToPay, state, charge, { attacker: faces(6, 1), defender: faces(counts(state, charge)[1]![1] as number, 3) }));
    expect(got.effects.find((e) => e.unitId === 'def')!.status).toMatchObject({ prone: null, disordered: true });
    expect(unitStatus(applyOutcome(state, got), 'def')?.prone).toBeUndefined();
  });

  it('refuses a melee the evaluation does not allow, and a reinforcement that cannot reach', () => {
    const far = unitAt({ id: 'def', side: 'csa' }, { xIn: 30, yIn: 30, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
    expect(diceForAction(devilToPay, stateOf([US(), far]), charge)).toMatchObject({ ok: false, reason: 'charge/target-out-of-reach' });
    const behind = unitAt({ id: 'x', side: 'csa' }, { xIn: 60, yIn: 40, headingDeg: 90 }, grid(3, 3, INFANTRY_BASE));
    expect(diceForAction(devilToPay, stateOf([US(), CS(), behind]), { ...charge, targetUnitIds: ['x'] })).toMatchObject({ ok: false, reason: 'melee/cannot-reinforce' });
    const friend = unitAt({ id: 'fr', side: 'union' }, { xIn: 30, yIn: 5, headingDeg: 90 }, grid(3, 3, INFANTRY_BASE));
    expect(diceForAction(devilToPay, stateOf([US(), CS(), friend]), { ...charge, targetUnitId: 'fr' })).toMatchObject({ ok: false, reason: 'charge/not-an-enemy' });
  });

  it('calls for Shot from the Saddle for an attached commander whose unit takes hits', () => {
    const gen = { id: 'gen', name: 'Gen. Hood', side: 'csa', brigadeId: 'b', quality: 'superb' as const, attachedToUnitId: 'def' };
    const state = stateOf([US(), CS()], {}, [gen]);
    const got = outcome(resolveAction(devilToPay, state, charge, { attacker: faces(6, 2), defender: faces(counts(state, charge)[1]![1] as number, 0) }));
    expect(got.followUps[0]).toEqual({ kind: 'shot-from-the-saddle', unitId: 'def', commanderId: 'gen' });
  });

  it('an attached commander leads the charge without an order once he survives Shot from the Saddle (Commanders: Attached Commander Benefits)', () => {
    const gen = { id: 'gen', name: 'Gen. Meade', side: 'union', brigadeId: 'b', quality: 'capable' as const, attachedToUnitId: 'att' };
    const state = stateOf([US(), CS()], {}, [gen]);
    const lead: PendingAction = { kind: 'shot-from-the-saddle', unitId: 'att', commanderId: 'gen', choices: { purpose: 'lead-charge' } };
    expect(devilToPay.resolution!.offered(state, devilToPay.evaluate(state), 'att')).toContainEqual(lead);
    // 5 stands + attached commander + charge order.
    expect(counts(state, charge)[0]).toEqual(['attacker', 7]);
    const survived = outcome(resolveAction(devilToPay, state, lead, { saddle: [3] }));
    expect(survived.result).toBe('Leads the charge');
    const led = applyOutcome(state, survived);
    expect(unitStatus(led, 'att')?.rulesetStatus).toEqual({ chargeLedByCommander: true });
    // "The regiment does not receive the charge order bonus."
    expect(counts(led, charge)[0]).toEqual(['attacker', 6]);
    expect(devilToPay.resolution!.offered(led, devilToPay.evaluate(led), 'att')).not.toContainEqual(lead);
    const shot = outcome(resolveAction(devilToPay, state, lead, { saddle: [6] }));
    expect(shot.effects).toEqual([expect.objectContaining({ commanderId: 'gen', removed: true })]);
    expect(shot.summary).toContain('may still charge with an order');
  });

  it('offers the melee alone and against the reinforced defence', () => {
    const r = unitAt({ id: 'r', side: 'csa' }, { xIn: 30, yIn: 16, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
    const state = stateOf([US(), CS(), r]);
    const offered = devilToPay.resolution!.offered(state, devilToPay.evaluate(state), 'att').filter((a) => a.kind === 'melee');
    expect(offered).toEqual([charge, { ...charge, targetUnitIds: ['r'] }]);
    expect(counts(state, offered[1]!)).toEqual([['attacker', 6], ['defender', 10]]);
  });
});
