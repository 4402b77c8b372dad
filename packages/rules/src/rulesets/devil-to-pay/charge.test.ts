import { describe, expect, it } from 'vitest';
import type { ChargeTargetOption, DiceBreakdown } from '../../engine/evaluation.ts';
import type { Formation, TableState } from '../../model/tableState.ts';
import { buildContext } from './context.ts';
import { canReinforce, chargeOptions, chargeReadOnlyEnemies, combinedCharges, meleeDice, meleeOutcome, meleeParticipantOf } from './charge.ts';
import { devilToPay } from './index.ts';
import { createEvaluator } from '../../engine/evaluate.ts';
import { ARTILLERY_BASE, CAVALRY_BASE, INFANTRY_BASE, grid, stateOf, unitAt } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';
import type { UnitSpec } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';

const US = (spec: Partial<UnitSpec> = {}, y = 10, x = 30, locals = grid(5, 5, INFANTRY_BASE)) =>
  unitAt({ id: 'att', side: 'union', ...spec }, { xIn: x, yIn: y, headingDeg: 90 }, locals);
const CS = (spec: Partial<UnitSpec> = {}, y = 14, x = 30, locals = grid(5, 5, INFANTRY_BASE)) =>
  unitAt({ id: 'def', side: 'csa', ...spec }, { xIn: x, yIn: y, headingDeg: 270 }, locals);

function okTarget(state: TableState, attackerId = 'att', targetId = 'def', chargeOrder = true): ChargeTargetOption {
  const r = chargeOptions(buildContext(state), attackerId, { chargeOrder }).charge.find((c) => c.targetUnitId === targetId);
  if (!r || !r.ok) throw new Error(`expected a charge option on ${targetId}, got ${JSON.stringify(r)}`);
  return r;
}

const labels = (b: DiceBreakdown) => b.modifiers.map((m) => `${m.label.replace(/^[^:]*: /, '')} ${m.dice > 0 ? '+' : ''}${m.dice}`);

describe('chargeOptions: the rulebook melee examples (Charge: Melee)', () => {
  it('Example 1: five stands + charge order = 6 dice against the defender\'s 5', () => {
    const t = okTarget(stateOf([US(), CS()]));
    expect(t.attacker.baseDice).toBe(5);
    expect(t.attacker.dice).toBe(6);
    expect([t.attacker.hitOn, t.defender.hitOn]).toEqual([4, 4]); // Melee: "4, 5 or 6 scoring a hit"
    expect(labels(t.attacker)).toEqual(['Charge order +1']);
    expect(t.defender.dice).toBe(5);
    expect(t.distanceIn).toBeCloseTo(2.5, 5);
    expect(t.disorderedBy).toEqual([]);
    expect(t.enemyFlanked).toBe(false);
    const opt = chargeOptions(buildContext(stateOf([US(), CS()])), 'att').charge[0];
    expect(opt && opt.ok && opt.reinforcerIds).toEqual([]);
  });

  it('Example 2: a defender with two stands hit fights with three dice', () => {
    const t = okTarget(stateOf([US(), CS({ status: { hitsByStand: { 'def-s1': 1, 'def-s3': 1 } } })]));
    expect(t.attacker.dice).toBe(6);
    expect(t.defender.baseDice).toBe(3);
    expect(t.defender.dice).toBe(3);
  });

  it('Example 3: two attack columns (10 stands, +1 each, charge order once) = 13 dice against a reinforced 10', () => {
    const a1 = unitAt({ id: 'a1', side: 'union' }, { xIn: 28, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const a2 = unitAt({ id: 'a2', side: 'union' }, { xIn: 32, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const def = CS();
    const reinforcer = unitAt({ id: 'r', side: 'csa' }, { xIn: 30, yIn: 16, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
    const ctx = buildContext(stateOf([a1, a2, def, reinforcer]));
    expect(ctx.formationOf('a1').formation).toBe('attack-column');
    for (const a of ['a1', 'a2']) expect(chargeOptions(ctx, a).charge.some((c) => c.ok && c.targetUnitId === 'def')).toBe(true);
    expect(canReinforce(ctx, 'r', 'a1')).toBe(true);
    // The charge option says who may reinforce and what the defence would then roll.
    const opt = chargeOptions(ctx, 'a1').charge.find((c) => c.ok && c.targetUnitId === 'def');
    expect(opt && opt.ok && opt.reinforcerIds).toEqual(['r']);
    expect(opt && opt.ok && opt.reinforcedDefender?.dice).toBe(10);
    const attack = meleeDice([meleeParticipantOf(ctx, 'a1'), meleeParticipantOf(ctx, 'a2')], { chargeOrder: true });
    expect(attack.baseDice).toBe(10);
    expect(attack.modifiers.filter((m) => m.label === 'Charge order')).toHaveLength(1);
    expect(attack.dice).toBe(13);
    const defence = meleeDice([meleeParticipantOf(ctx, 'def'), meleeParticipantOf(ctx, 'r')], { chargeOrder: false });
    expect(defence.dice).toBe(10);
  });

  it('Example 3 through evaluate: one combined pool of 13 dice with the charge order once, against a reinforced 10', () => {
    const a1 = unitAt({ id: 'a1', side: 'union' }, { xIn: 28, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const a2 = unitAt({ id: 'a2', side: 'union' }, { xIn: 32, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const reinforcer = unitAt({ id: 'r', side: 'csa' }, { xIn: 30, yIn: 16, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));
    const ev = devilToPay.evaluate(stateOf([a1, a2, CS(), reinforcer]));
    // Each option alone carries the charge order: adding them would give 14, one too many.
    const single = ['a1', 'a2'].map((a) => ev.units[a]!.charge.find((c) => c.ok && c.targetUnitId === 'def'));
    expect(single.map((o) => o && o.ok && o.attacker.dice)).toEqual([7, 7]);
    const combined = ev.combinedCharges?.find((c) => c.targetUnitId === 'def');
    expect(combined).toMatchObject({ attackerUnitIds: ['a1', 'a2'], reinforcerIds: ['r'] });
    expect(combined!.attacker.baseDice).toBe(10);
    expect(combined!.attacker.modifiers.filter((m) => m.label === 'Charge order')).toHaveLength(1);
    expect(combined!.attacker.dice).toBe(13);
    expect(combined!.defender.dice).toBe(5);
    expect(combined!.reinforcedDefender?.dice).toBe(10);
    expect(combined!.source).toMatch(/only applied once.*Example 3/);
    // The combined pool is what meleeDice gives for both attackers together.
    const ctx = buildContext(stateOf([a1, a2, CS(), reinforcer]));
    expect(combined!.attacker.dice).toBe(meleeDice([meleeParticipantOf(ctx, 'a1'), meleeParticipantOf(ctx, 'a2')], { chargeOrder: true }).dice);
    // A session says the same, and drops the pool when a2 falls back out of reach.
    const session = createEvaluator(devilToPay);
    const state = stateOf([a1, a2, CS(), reinforcer]);
    expect(session.update(state)).toEqual(ev);
    const back = { ...state, stands: state.stands.map((st) => (st.unitId === 'a2' ? { ...st, pose: { ...st.pose, yIn: st.pose.yIn - 10 } } : st)) };
    const after = session.update(back);
    expect(after).toEqual(devilToPay.evaluate(back));
    // (def and r, facing a1, may now both charge it: that pool stays.)
    expect(after.combinedCharges?.map((c) => c.targetUnitId)).toEqual(['a1']);
  });

  it('combines no pool for a target only one unit may charge, and keeps the charge order off when no option had it', () => {
    expect(devilToPay.evaluate(stateOf([US(), CS()])).combinedCharges).toBeUndefined();
    const a1 = unitAt({ id: 'a1', side: 'union' }, { xIn: 28, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const a2 = unitAt({ id: 'a2', side: 'union' }, { xIn: 32, yIn: 10, headingDeg: 90 }, grid(5, 2, INFANTRY_BASE));
    const ctx = buildContext(stateOf([a1, a2, CS()]));
    const led = ['a1', 'a2'].map((id) => ({ unitId: id, charge: chargeOptions(ctx, id, { chargeOrder: false }).charge }));
    const [c] = combinedCharges(led);
    expect(c!.attacker.modifiers.some((m) => m.label === 'Charge order')).toBe(false);
    expect(c!.attacker.dice).toBe(12);
    expect(c!.reinforcerIds).toEqual([]);
    expect(c!.reinforcedDefender).toBeUndefined();
  });
});

describe('a charge cannot pass through another enemy unit (Terrain, Linear terrain exceptions: Enemy troop formations)', () => {
  it('refuses the unit behind the first enemy with the blocker named, and still offers the first', () => {
    // att faces +y; def 4" ahead; a two-stand 'back' unit right behind def, within the 6" reach.
    const back = unitAt({ id: 'back', side: 'csa' }, { xIn: 30, yIn: 16.25, headingDeg: 270 }, grid(2, 1, INFANTRY_BASE));
    const ctx = buildContext(stateOf([US(), CS(), back]));
    const r = chargeOptions(ctx, 'att').charge;
    expect(r.find((c) => c.targetUnitId === 'def')).toMatchObject({ ok: true });
    const behind = r.find((c) => c.targetUnitId === 'back');
    expect(behind).toMatchObject({ ok: false, reason: 'charge/path-through-enemy' });
    expect(behind && !behind.ok && behind.detail).toMatch(/\(def\) stands on the charge path; one cannot move through an enemy troop formation/);
    // Without def in between, 'back' may be charged.
    const open = chargeOptions(buildContext(stateOf([US(), back])), 'att').charge.find((c) => c.targetUnitId === 'back');
    expect(open).toMatchObject({ ok: true });
  });

  it('does not count an enemy beside the target, off the path, as in the way', () => {
    const beside = unitAt({ id: 'beside', side: 'csa' }, { xIn: 42, yIn: 14, headingDeg: 270 }, grid(2, 1, INFANTRY_BASE));
    const r = chargeOptions(buildContext(stateOf([US(), CS(), beside])), 'att').charge.find((c) => c.targetUnitId === 'def');
    expect(r).toMatchObject({ ok: true });
  });
});

describe('melee formation modifiers (Charge: Melee Modifiers, 1. Formation)', () => {
  const rows: [Formation, 'infantry' | 'artillery', number][] = [
    ['line', 'infantry', 0],
    ['double-line', 'infantry', 0],
    ['loose-order', 'infantry', -2],
    ['attack-column', 'infantry', 1],
    ['march-column', 'infantry', -3],
    ['unlimbered', 'artillery', 0],
    ['limbered', 'artillery', -3],
    ['disordered', 'infantry', -2],
    // Armies, Artillery: Disordered Artillery, Melee -3 Die.
    ['disordered', 'artillery', -3],
  ];
  for (const [formation, arm, dice] of rows) {
    it(`${arm} in ${formation}: ${dice} as defender`, () => {
      const base = arm === 'artillery' ? ARTILLERY_BASE : INFANTRY_BASE;
      const locals = grid(arm === 'artillery' ? 3 : 5, 5, base).map((l) => (arm === 'artillery' ? { ...l, role: 'gun' as const } : l));
      const def = CS({ arm, status: { formation } }, 14 + (base.depthIn - 1.5) / 2, 30, locals);
      const t = okTarget(stateOf([US(), def]));
      const eligible = arm === 'artillery' ? 3 : 5;
      expect(t.defender.dice).toBe(Math.max(0, eligible + dice));
    });
  }
});

describe('melee general and universal modifiers (Charge: Melee Modifiers, 2. General, 3. Universal)', () => {
  it('charge order +1 only when the charge uses an order (not when an attached commander leads it)', () => {
    const withOrder = okTarget(stateOf([US(), CS()]), 'att', 'def', true);
    const led = okTarget(stateOf([US({ status: { attachedCommanderId: 'gen' } }), CS()]), 'att', 'def', false);
    expect(withOrder.attacker.dice - 5).toBe(1);
    expect(labels(led.attacker)).toEqual(['Brigade commander attached +1']);
    expect(led.attacker.dice).toBe(6);
  });

  it('mounted cavalry +1 Die', () => {
    const cav = unitAt({ id: 'att', side: 'union', arm: 'cavalry' }, { xIn: 30, yIn: 10, headingDeg: 90, base: CAVALRY_BASE }, grid(4, 4, CAVALRY_BASE).map((l, i) => ({ ...l, role: i === 0 ? ('command' as const) : ('mounted' as const) })));
    const t = okTarget(stateOf([cav, CS()]));
    expect(labels(t.attacker)).toContain('mounted +1');
    expect(t.attacker.dice).toBe(4 + 1 + 1);
  });

  it('enemy flanked +2 Die when the command stand is fully behind the target\'s front line', () => {
    // Defender faces south with its front at y = 13.25; the attacker stands beside it, facing west.
    const att = unitAt({ id: 'att', side: 'union' }, { xIn: 39, yIn: 15, headingDeg: 180 }, grid(4, 4, INFANTRY_BASE));
    const t = okTarget(stateOf([att, CS()]));
    expect(t.enemyFlanked).toBe(true);
    expect(labels(t.attacker)).toContain('enemy flanked +2');
    expect(t.attacker.dice).toBe(4 + 1 + 2);
    // Head on, no flank.
    expect(okTarget(stateOf([US(), CS()])).enemyFlanked).toBe(false);
  });

  it('prone -2 Die for a prone defender; a prone unit cannot charge', () => {
    const t = okTarget(stateOf([US(), CS({ status: { prone: true } })]));
    expect(labels(t.defender)).toEqual(['prone -2']);
    expect(t.defender.dice).toBe(3);
    const r = chargeOptions(buildContext(stateOf([US({ status: { prone: true } }), CS()])), 'att').charge[0];
    expect(r).toMatchObject({ ok: false, reason: 'charge/prone', targetUnitId: 'def' });
  });

  it('attacking a fence, wall, hasty works or entrenchment held by the defender -1 Die; a brook does not count', () => {
    for (const kind of ['fence', 'wall', 'hasty-works', 'entrenchment'] as const) {
      const fence = { id: 'f', kind, points: [{ xIn: 20, yIn: 12.9 }, { xIn: 40, yIn: 12.9 }] };
      const t = okTarget(stateOf([US(), CS()], { linear: [fence] }));
      expect(t.attacker.dice).toBe(5);
      expect(t.attacker.modifiers.some((m) => m.dice === -1 && m.label.includes(kind.replace('-', ' ')))).toBe(true);
    }
    const brook = { id: 'b', kind: 'brook' as const, points: [{ xIn: 20, yIn: 12.9 }, { xIn: 40, yIn: 12.9 }] };
    expect(okTarget(stateOf([US(), CS()], { linear: [brook] })).attacker.dice).toBe(6);
  });

  it('attacking higher ground -1 Die', () => {
    const hill = { id: 'h', level: 1, vertices: [{ xIn: 20, yIn: 12.5 }, { xIn: 40, yIn: 12.5 }, { xIn: 40, yIn: 20 }, { xIn: 20, yIn: 20 }] };
    const t = okTarget(stateOf([US(), CS()], { elevations: [hill] }));
    expect(labels(t.attacker)).toContain('attacking higher ground -1');
    expect(t.attacker.dice).toBe(5);
    // Charging downhill: no modifier for the attacker, none for the defender either.
    const down = okTarget(stateOf([US(), CS()], { elevations: [{ ...hill, vertices: hill.vertices.map((v) => ({ ...v, yIn: v.yIn - 12 })) }] }));
    expect(down.attacker.dice).toBe(6);
    expect(down.defender.dice).toBe(5);
  });

  it('universal modifiers: crack +1 with commander +1; green -1', () => {
    const crack = okTarget(stateOf([US({ quality: 'crack', status: { attachedCommanderId: 'gen' } }), CS({ quality: 'green' })]));
    expect(crack.attacker.dice).toBe(5 + 1 + 1 + 1);
    expect(crack.defender.dice).toBe(4);
  });

  it('stands with a hit do not participate', () => {
    const t = okTarget(stateOf([US({ status: { hitsByStand: { 'att-s0': 1 } } }), CS()]));
    expect(t.attacker.baseDice).toBe(4);
  });

  it('never goes below 0 dice, and says so', () => {
    const def = CS({ status: { formation: 'march-column', prone: true, hitsByStand: { 'def-s1': 1, 'def-s2': 1, 'def-s3': 1 } } });
    const t = okTarget(stateOf([US(), def]));
    expect(t.defender.dice).toBe(0);
    expect(t.defender.limits[0]?.dice).toBe(3);
  });
});

describe('charge reach, arc and disorder (Charge: Charge Move)', () => {
  it('reaches 6" from the front centre and no further; terrain does not shorten it', () => {
    expect(okTarget(stateOf([US(), CS({}, 10 + 0.75 + 6 + 0.75 - 0.01)])).distanceIn).toBeLessThanOrEqual(6);
    const far = chargeOptions(buildContext(stateOf([US(), CS({}, 10 + 0.75 + 6 + 0.75 + 0.2)])), 'att').charge[0];
    expect(far).toMatchObject({ ok: false, reason: 'charge/target-out-of-reach' });
    const woods = { id: 'w', kind: 'thick-woods' as const, vertices: [{ xIn: 0, yIn: 11 }, { xIn: 60, yIn: 11 }, { xIn: 60, yIn: 30 }, { xIn: 0, yIn: 30 }] };
    expect(okTarget(stateOf([US(), CS({}, 17)], { areas: [woods] })).disorderedBy).toEqual([]);
  });

  it('refuses an enemy within 6" but outside 45° of the front centre', () => {
    // Far to the right, level with the attacker's front: well outside the 45° arc.
    const side = unitAt({ id: 'def', side: 'csa' }, { xIn: 35, yIn: 11, headingDeg: 180 }, grid(2, 1, INFANTRY_BASE));
    const r = chargeOptions(buildContext(stateOf([US({}, 10, 30, grid(2, 2, INFANTRY_BASE)), side])), 'att').charge[0];
    expect(r).toMatchObject({ ok: false, reason: 'charge/target-out-of-arc', targetUnitId: 'def' });
  });

  it('a session follows a friend coming into the charge path from afar and leaving it (friends are looked for within 8")', () => {
    // Frames as a tracker sends them (new objects each time): the session keeps a charge reading while no
    // changed friend comes within 8" (the 6" path + 1" box slack + 1") and no changed enemy within 14".
    const friendAt = (xIn: number, yIn: number) => unitAt({ id: 'friend', side: 'union' }, { xIn, yIn, headingDeg: 90 }, grid(2, 2, INFANTRY_BASE));
    const session = createEvaluator(devilToPay);
    const disorder = (xIn: number, yIn: number): readonly string[] => {
      const state = stateOf([US({}, 12), friendAt(xIn, yIn), CS({}, 19)]);
      const got = session.update(state);
      expect(got).toEqual(devilToPay.evaluate(state));
      const opt = got.units.att!.charge.find((c) => c.ok && c.targetUnitId === 'def') as ChargeTargetOption & { disorderedBy: readonly string[] };
      return opt.disorderedBy;
    };
    expect(disorder(90, 40)).toEqual([]);
    expect(disorder(30, 16)).toEqual(["friendly unit 'friend'"]);
    expect(disorder(30, 16)).toEqual(["friendly unit 'friend'"]);
    expect(disorder(52, 16)).toEqual([]);
    expect(disorder(50, 16)).toEqual([]);
    expect(disorder(30, 16.5)).toEqual(["friendly unit 'friend'"]);
    expect(disorder(90, 40)).toEqual([]);
  });

  it('says a result read no friend only when no option got as far as a charge path', () => {
    const friend = unitAt({ id: 'friend', side: 'union' }, { xIn: 30, yIn: 16, headingDeg: 90 }, grid(2, 2, INFANTRY_BASE));
    const of = (state: TableState) => chargeOptions(buildContext(state), 'att');
    // A target in reach: the path was laid out and friends on it looked for.
    expect(chargeReadOnlyEnemies(of(stateOf([US({}, 12), friend, CS({}, 19)])))).toBe(false);
    // Out of reach, out of arc, a prone charger, no enemy near: decided before any path.
    expect(chargeReadOnlyEnemies(of(stateOf([US(), friend, CS({}, 10 + 0.75 + 6 + 0.75 + 0.2)])))).toBe(true);
    const beside = unitAt({ id: 'def', side: 'csa' }, { xIn: 35, yIn: 11, headingDeg: 180 }, grid(2, 1, INFANTRY_BASE));
    expect(chargeReadOnlyEnemies(of(stateOf([US({}, 10, 30, grid(2, 2, INFANTRY_BASE)), beside])))).toBe(true);
    expect(chargeReadOnlyEnemies(of(stateOf([US({ status: { prone: true } }), CS()])))).toBe(true);
    expect(chargeReadOnlyEnemies(of(stateOf([US(), friend])))).toBe(true);
    // Refused for another enemy on the path: that path was laid out too. (On a table the enemy in the way
    // is itself an option that can be taken, so the refusal is also tried alone.)
    const between = unitAt({ id: 'mid', side: 'csa' }, { xIn: 30, yIn: 12.6, headingDeg: 270 }, grid(2, 1, INFANTRY_BASE));
    const through = of(stateOf([US({}, 10), between, CS({}, 16)]));
    const refusal = through.charge.find((c) => !c.ok && c.reason === 'charge/path-through-enemy');
    expect(refusal).toBeDefined();
    expect(chargeReadOnlyEnemies(through)).toBe(false);
    expect(chargeReadOnlyEnemies({ charge: [refusal!], shapes: [] })).toBe(false);
  });

  it('abatis, chevaux-de-frise, thicket, city and friendly units in the path disorder the charge; a fence does not', () => {
    const across = (kind: 'abatis' | 'chevaux-de-frise' | 'fence') => ({ id: kind, kind, points: [{ xIn: 20, yIn: 12 }, { xIn: 40, yIn: 12 }] });
    expect(okTarget(stateOf([US(), CS()], { linear: [across('abatis')] })).disorderedBy).toEqual(["abatis 'abatis'"]);
    expect(okTarget(stateOf([US(), CS()], { linear: [across('chevaux-de-frise')] })).disorderedBy).toHaveLength(1);
    expect(okTarget(stateOf([US(), CS()], { linear: [across('fence')] })).disorderedBy).toEqual([]);
    const around = (kind: 'thicket' | 'city' | 'town') => ({ id: kind, kind, vertices: [{ xIn: 20, yIn: 12.5 }, { xIn: 40, yIn: 12.5 }, { xIn: 40, yIn: 20 }, { xIn: 20, yIn: 20 }] });
    expect(okTarget(stateOf([US(), CS()], { areas: [around('thicket')] })).disorderedBy).toEqual(["thicket 'thicket'"]);
    expect(okTarget(stateOf([US(), CS()], { areas: [around('city')] })).disorderedBy).toEqual(["city 'city'"]);
    expect(okTarget(stateOf([US(), CS()], { areas: [around('town')] })).disorderedBy).toEqual([]);
    // A friendly two-stand unit between the lines, facing the enemy too.
    const friend = unitAt({ id: 'friend', side: 'union' }, { xIn: 30, yIn: 16, headingDeg: 90 }, grid(2, 2, INFANTRY_BASE));
    const far = CS({}, 19);
    expect(okTarget(stateOf([US({}, 12), friend, far])).disorderedBy).toEqual(["friendly unit 'friend'"]);
  });

  it('a charge disordered on its way fights disordered: -2 Die in place of its formation modifier (Charge Move; Melee Modifiers)', () => {
    const across = { id: 'abatis', kind: 'abatis' as const, points: [{ xIn: 20, yIn: 12 }, { xIn: 40, yIn: 12 }] };
    // Example 1's five-stand line: 5 dice + charge order = 6; disordered by the abatis: 6 - 2 = 4.
    const t = okTarget(stateOf([US(), CS()], { linear: [across] }));
    expect(labels(t.attacker)).toEqual(['disordered -2', 'Charge order +1']);
    expect(t.attacker.dice).toBe(4);
    // The defender is not the one disordered.
    expect(t.defender.dice).toBe(5);
  });

  it('draws the 6" arc and an arrow per target on the charge layer', () => {
    const r = chargeOptions(buildContext(stateOf([US(), CS()])), 'att');
    expect(r.shapes.map((s) => s.kind)).toEqual(['sector', 'polyline']);
    const arc = r.shapes[0]!;
    expect(arc.kind === 'sector' && [arc.radiusIn, arc.startDeg, arc.endDeg]).toEqual([6, 45, 135]);
  });
});

describe('meleeOutcome (Charge: Melee)', () => {
  it('fewer hits suffered wins; the defender wins ties; the loser skedaddles and the winner is disordered', () => {
    expect(meleeOutcome(1, 3)).toEqual({ winner: 'attacker', skedaddles: 'defender', winnerDisordered: true, attackerMayOccupy: true });
    expect(meleeOutcome(2, 2)).toMatchObject({ winner: 'defender', skedaddles: 'attacker', attackerMayOccupy: false });
    expect(meleeOutcome(4, 0).winner).toBe('defender');
    expect(() => meleeOutcome(-1, 0)).toThrow(/whole numbers/);
  });
});

describe('charge distance is 6" for everyone (Move: Movement table, Cavalry not for Charge)', () => {
  it('mounted cavalry does not add 6" to its charge', () => {
    const cavLocals = grid(4, 4, CAVALRY_BASE).map((l, i) => ({ ...l, role: i === 0 ? ('command' as const) : ('mounted' as const) }));
    const cav = unitAt({ id: 'att', side: 'union', arm: 'cavalry' }, { xIn: 30, yIn: 10, headingDeg: 90, base: CAVALRY_BASE }, cavLocals);
    // Front edge at y = 11; enemy front edge 8" away.
    const r = chargeOptions(buildContext(stateOf([cav, CS({}, 11 + 8 + 0.75)])), 'att').charge[0];
    expect(r).toMatchObject({ ok: false, reason: 'charge/target-out-of-reach' });
  });
});
