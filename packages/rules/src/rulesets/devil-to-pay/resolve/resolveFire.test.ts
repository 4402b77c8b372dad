import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceRequest, Outcome } from '../../../engine/resolve/resolution.ts';
import { applyOutcome, diceForAction, resolveAction } from '../../../engine/resolve/index.ts';
import type { TableState } from '../../../model/tableState.ts';
import { devilToPay } from '../index.ts';
import { facingPair, rect, scene } from '../../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';

const outcome = (r: Outcome | Refusal): Outcome => {
  if ('ok' in r) throw new Error(`expected an outcome, got ${r.reason}: ${r.detail}`);
  return r;
};
// Hits placed at once (choice 'now'); the book's wait until both sides have fired is tested below.
const fire = { kind: 'fire', unitId: 'f', targetUnitId: 't', choices: { applyHits: 'now' } } as const;
const status = (state: TableState, id: string) => state.units.find((u) => u.id === id)!.status;
const fiveHits = (n: number) => Object.fromEntries(['t-s1', 't-s2', 't-s3', 't-s4', 't-s0'].slice(0, n).map((id) => [id, 1]));

describe('fire after the roll: the rulebook examples (Fire: Fire, p. 23)', () => {
  it('the crack 5-stand rifled musket at a line in open woods at 14" rolls the 3 dice its option shows; 4, 5 or 6 hit', () => {
    const state = scene(facingPair(14 - 0.75, { quality: 'crack' }), { areas: [{ id: 'woods', kind: 'open-woods', vertices: rect(25, 23, 55, 32) }] });
    const requests = diceForAction(devilToPay, state, fire) as DiceRequest[];
    const option = devilToPay.evaluate(state).units.f!.fire.find((o) => o.targetUnitId === 't');
    expect(option && option.ok && option.breakdown.dice).toBe(3);
    expect(requests).toEqual([expect.objectContaining({ id: 'fire', count: 3, sides: 6, reading: 'hits', hitOn: 4 })]);
    const got = outcome(resolveAction(devilToPay, state, fire, { fire: [4, 2, 6] }));
    expect(got.result).toBe('2 hits');
    expect(got.rolls[0]!.value).toBe(2);
    expect(got.effects).toHaveLength(1);
    const effect = got.effects[0]!;
    expect(effect.unitId).toBe('t');
    expect(effect.standsLost).toBeUndefined();
    // Two unhit stands take a hit each: the line's end stands, the colours last.
    expect(effect.status?.hitsByStand).toEqual({ 't-s4': 1, 't-s3': 1 });
    expect(got.summary).toMatch(/^f fires at t: 2 hits; t-s4, t-s3 hit/);
    const after = applyOutcome(state, got);
    expect(after.units.find((u) => u.id === 't')!.status?.hitsByStand).toEqual({ 't-s4': 1, 't-s3': 1 });
    // The hit stands no longer fire (Fire: Eligible Stands: "Stands with hits are not eligible to fire").
    const back = devilToPay.evaluate(after).units.t!.fire.find((o) => o.targetUnitId === 'f');
    expect(back && back.ok && back.eligibleStandIds).not.toContain('t-s4');
  });

  it('a five-stand regiment with four hits takes two more: every stand hit, the one with two hits removed', () => {
    const state = scene(facingPair(5, {}, { status: { hitsByStand: fiveHits(4) } }));
    const got = outcome(resolveAction(devilToPay, state, fire, { fire: [6, 4, 1, 1, 2, 3, 1].slice(0, (diceForAction(devilToPay, state, fire) as DiceRequest[])[0]!.count) }));
    expect(got.result).toBe('2 hits');
    const effect = got.effects[0]!;
    expect(effect.standsLost).toBe(1);
    expect(effect.removed).toBeUndefined();
    // The one unhit stand (the colours) takes the first; the second goes on the first stand in hit order.
    expect(effect.status?.hitsByStand).toEqual({ 't-s0': 1, 't-s4': 2 });
    expect(effect.standIds).toEqual(['t-s4']);
    expect(effect.text).toContain('t-s4 removed (second hit)');
  });
});

describe('fire after the roll: each result', () => {
  it('no hits changes nothing', () => {
    const state = scene(facingPair(5));
    const n = (diceForAction(devilToPay, state, fire) as DiceRequest[])[0]!.count;
    const got = outcome(resolveAction(devilToPay, state, fire, { fire: Array(n).fill(3) }));
    expect(got.result).toBe('No hits');
    expect(got.effects).toEqual([]);
    expect(applyOutcome(state, got)).toBe(state);
  });

  it('removes an infantry regiment reduced to a single stand; a battery becomes a section instead', () => {
    const allHit = { hitsByStand: { 't-s0': 1, 't-s1': 1, 't-s2': 1 } };
    const state = scene(facingPair(5, {}, { stands: 3, status: allHit }));
    const n = (diceForAction(devilToPay, state, fire) as DiceRequest[])[0]!.count;
    const got = outcome(resolveAction(devilToPay, state, fire, { fire: [5, 5, ...Array(n - 2).fill(1)] }));
    expect(got.effects[0]).toMatchObject({ unitId: 't', standsLost: 2, removed: true });
    expect(got.effects[0]!.text).toContain('reduced to a single stand: removed from the game');

    const battery = scene(facingPair(5, {}, { stands: 2, arm: 'artillery', status: { hitsByStand: { 't-s0': 1, 't-s1': 1 } } }));
    const m = (diceForAction(devilToPay, battery, fire) as DiceRequest[])[0]!.count;
    const gun = outcome(resolveAction(devilToPay, battery, fire, { fire: [6, ...Array(m - 1).fill(1)] }));
    expect(gun.effects[0]!.removed).toBeUndefined();
    expect(gun.effects[0]!.standsLost).toBe(1);
    expect(gun.effects[0]!.text).toContain('independent section');
  });

  it('places first hits on the rear rank of a double line', () => {
    const state = scene(facingPair(5, {}, { stands: 6, perRank: 3 }));
    const n = (diceForAction(devilToPay, state, fire) as DiceRequest[])[0]!.count;
    const got = outcome(resolveAction(devilToPay, state, fire, { fire: [6, 6, 6, ...Array(n - 3).fill(1)] }));
    // Stands 3..5 are the rear rank (Armies, Infantry: Double Line: "Hits may be applied to the second rank before the first").
    expect(Object.keys(got.effects[0]!.status!.hitsByStand!).sort()).toEqual(['t-s3', 't-s4', 't-s5']);
  });

  it('answers a target the evaluation refuses with its refusal (target priority), and a unit that cannot fire', () => {
    const state = scene([
      { id: 'f', xIn: 40, yIn: 10, headingDeg: 90 },
      { id: 't', side: 'confederate', xIn: 40, yIn: 22, headingDeg: 270 },
      { id: 'near', side: 'confederate', xIn: 40, yIn: 16, headingDeg: 270, stands: 1 },
    ]);
    expect(diceForAction(devilToPay, state, fire)).toMatchObject({ ok: false, reason: 'fire/target-priority' });
    expect(resolveAction(devilToPay, state, fire, {})).toMatchObject({ ok: false, reason: 'fire/target-priority' });
    const column = scene(facingPair(5, { column: true, status: { formation: 'march-column' } }));
    expect(diceForAction(devilToPay, column, fire)).toMatchObject({ ok: false });
  });

  it('calls for Shot from the Saddle when the target has an attached commander; a 6 removes him', () => {
    const commander = { id: 'gen', name: 'Gen. Lee', side: 'confederate', brigadeId: 'b', quality: 'capable' as const, attachedToUnitId: 't' };
    const state = scene(facingPair(5), {}, [{ commander }]);
    const n = (diceForAction(devilToPay, state, fire) as DiceRequest[])[0]!.count;
    const got = outcome(resolveAction(devilToPay, state, fire, { fire: [4, ...Array(n - 1).fill(1)] }));
    expect(got.followUps).toEqual([{ kind: 'shot-from-the-saddle', unitId: 't', commanderId: 'gen' }]);
    const saddle = got.followUps[0]!;
    expect(diceForAction(devilToPay, state, saddle)).toEqual([expect.objectContaining({ id: 'saddle', count: 1, sides: 6 })]);
    const shot = outcome(resolveAction(devilToPay, state, saddle, { saddle: [6] }));
    expect(shot.result).toBe('Shot from the Saddle');
    expect(shot.effects[0]).toMatchObject({ commanderId: 'gen', removed: true });
    expect(shot.effects[0]!.text).toContain('new Weak commander');
    expect(outcome(resolveAction(devilToPay, state, saddle, { saddle: [5] })).effects).toEqual([]);
    // No commander attached: nothing to roll for.
    const bare = scene(facingPair(5), {}, [{ commander: { ...commander, attachedToUnitId: undefined } as never }]);
    expect(diceForAction(devilToPay, bare, saddle)).toMatchObject({ ok: false, reason: 'shot-from-the-saddle/not-attached' });
  });

  it('offers a fire at every target the evaluation allows, with the same dice', () => {
    const state = scene(facingPair(5));
    const evaluation = devilToPay.evaluate(state);
    const offered = devilToPay.resolution!.offered(state, evaluation, 'f');
    expect(offered).toContainEqual({ kind: 'fire', unitId: 'f', targetUnitId: 't' });
    expect(offered[0]!.kind).toBe('fire');
    const option = evaluation.units.f!.fire.find((o) => o.targetUnitId === 't');
    expect((diceForAction(devilToPay, state, offered[0]!) as DiceRequest[])[0]!.count).toBe(option && option.ok ? option.breakdown.dice : -1);
  });
});

describe('fire is simultaneous (Fire: Process: "place hits next to stands until step 3: Apply Hits")', () => {
  it('keeps the hits beside the stands while both sides fire at full strength, then applies them in one step', () => {
    const state = scene([...facingPair(5), { id: 'g', xIn: 46, yIn: 10, headingDeg: 90, stands: 3 }]);
    const first = { kind: 'fire', unitId: 'f', targetUnitId: 't' } as const;
    const count = (s: TableState, a: { kind: string; unitId: string; targetUnitId: string }) => (diceForAction(devilToPay, s, a) as DiceRequest[])[0]!.count;
    const n = count(state, first);
    const got = outcome(resolveAction(devilToPay, state, first, { fire: [5, 6, ...Array(n - 2).fill(1)] }));
    expect(got.effects[0]!.status).toEqual({ rulesetStatus: { pendingFireHits: 2 } });
    expect(got.effects[0]!.text).toContain('2 hits placed beside the stands (2 waiting)');
    expect(got.followUps).toEqual([{ kind: 'apply-hits', unitId: 't' }]);
    const s1 = applyOutcome(state, got);
    expect(status(s1, 't')).toEqual({ rulesetStatus: { pendingFireHits: 2 } });
    // The target answers with every stand: its dice are those before it was hit.
    const back = { kind: 'fire', unitId: 't', targetUnitId: 'f' } as const;
    expect(count(s1, back)).toBe(count(state, back));
    // A second firer adds to the hits waiting.
    const second = { kind: 'fire', unitId: 'g', targetUnitId: 't' } as const;
    const m = count(s1, second);
    const s2 = applyOutcome(s1, outcome(resolveAction(devilToPay, s1, second, { fire: [4, ...Array(m - 1).fill(2)] })));
    expect(status(s2, 't')).toEqual({ rulesetStatus: { pendingFireHits: 3 } });
    expect(devilToPay.resolution!.offered(s2, devilToPay.evaluate(s2), 't')).toContainEqual({ kind: 'apply-hits', unitId: 't' });
    // Step 3: apply hits.
    const applied = outcome(resolveAction(devilToPay, s2, { kind: 'apply-hits', unitId: 't' }, {}));
    expect(applied.result).toBe('3 hits applied');
    const s3 = applyOutcome(s2, applied);
    expect(status(s3, 't')).toEqual({ hitsByStand: { 't-s4': 1, 't-s3': 1, 't-s2': 1 } });
    expect(diceForAction(devilToPay, s3, { kind: 'apply-hits', unitId: 't' })).toMatchObject({ ok: false, reason: 'apply-hits/none-waiting' });
  });
});
