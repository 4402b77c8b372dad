import { describe, expect, it } from 'vitest';
import { fireAndFuryRegimental } from './index.ts';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { applyOutcome, diceForAction, resolveAction, rollRequestedDice } from '../../engine/resolve/index.ts';
import type { DiceRequest, Outcome, PendingAction } from '../../engine/resolve/resolution.ts';
import { createRng } from '../../dice/rng.ts';
import type { TableState } from '../../model/tableState.ts';
import { inf, mapUnit, table, type FfrUnitSpec } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';

const R = fireAndFuryRegimental;
const dice = (s: TableState, a: PendingAction) => diceForAction(R, s, a) as DiceRequest[];
const resolve = (s: TableState, a: PendingAction, faces: Record<string, number[]>) => {
  const o = resolveAction(R, s, a, faces);
  if (!('rulesetId' in o)) throw new Error(`refused: ${o.reason} ${o.detail}`);
  return o as Outcome;
};
const effectOn = (o: Outcome, id: string) => o.effects.filter((e) => e.unitId === id);
/** Firer facing +y with its front edge at y = 10, target facing it `rangeIn` away (test parameters: rifles 1 point at 6"). */
const duel = (rangeIn: number, firer: Partial<FfrUnitSpec> = {}, target: Partial<FfrUnitSpec> = {}, extra: FfrUnitSpec[] = []) =>
  table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, firer), inf('t', 'b', { xIn: 36, yIn: 10 + rangeIn }, 270, target), ...extra]);
const FIRE: PendingAction = { kind: 'fire', unitId: 'u', targetUnitId: 't' };

describe('after the roll: the rule set declares d10 tables (QRS II, Maneuver Table Procedure "Roll one 10-sided die")', () => {
  it('declares d10 dice and its four kinds, and offers what the evaluation allows', () => {
    expect(R.resolution!.dice.sides).toBe(10);
    expect(R.resolution!.kinds.map((k) => k.kind)).toEqual(['maneuver', 'fire', 'charge', 'fallen-leader']);
    const s = duel(5);
    const offered = R.resolution!.offered(s, evaluateFireAndFuryRegimental(s), 'u');
    expect(offered).toContainEqual({ kind: 'maneuver', unitId: 'u' });
    expect(offered).toContainEqual({ kind: 'fire', unitId: 'u', targetUnitId: 't' });
    expect(offered).toContainEqual({ kind: 'charge', unitId: 'u', targetUnitId: 't' });
    // Out of range: no fire offered.
    expect(R.resolution!.offered(duel(30), evaluateFireAndFuryRegimental(duel(30)), 'u').some((a) => a.kind === 'fire')).toBe(false);
  });

  it('rolls one d10 with the evaluation\'s modifier and the seeded roller fills it', () => {
    const [req] = dice(duel(5), FIRE);
    // 6 rifle stands at close range: 6 points, -1 (test parameter).
    expect(req).toMatchObject({ id: 'fire', count: 1, sides: 10, reading: 'each', modifier: -1 });
    const faces = rollRequestedDice([req!], createRng(7));
    expect(faces['fire']![0]).toBeGreaterThanOrEqual(1);
    expect(faces['fire']![0]).toBeLessThanOrEqual(10);
  });
});

describe('fire effects (QRS II, Figure 3; Fire Combat Effects, Inflicting Troop Casualties; Changes 20)', () => {
  // Veteran target with the test columns: withering 11, telling 9, galling 7, lively 5. Modifier -1.
  it('Telling Fire: "Troops disordered and lose 1 stand"', () => {
    const o = resolve(duel(5), FIRE, { fire: [10] });
    expect(o.result).toBe('Telling Fire');
    expect(effectOn(o, 't')[0]).toMatchObject({ standsLost: 1, status: { disordered: true } });
    const after = applyOutcome(duel(5), o);
    expect(after.units.find((u) => u.id === 't')!.status?.disordered).toBe(true);
  });

  it('Galling Fire: "Troops disordered or lose 1 stand if already disordered"', () => {
    const fresh = resolve(duel(5), FIRE, { fire: [8] });
    expect(fresh.result).toBe('Galling Fire');
    expect(effectOn(fresh, 't')[0]!.standsLost).toBeUndefined();
    expect(effectOn(fresh, 't')[0]!.status).toEqual({ disordered: true });
    const already = resolve(duel(5, {}, { status: { disordered: true } }), FIRE, { fire: [8] });
    expect(effectOn(already, 't')[0]!.standsLost).toBe(1);
  });

  it('Lively Fire: "From cannonade only, troops disordered ... Musketry no effect"', () => {
    const musketry = resolve(duel(5), FIRE, { fire: [6] });
    expect(musketry.result).toBe('Lively Fire');
    expect(effectOn(musketry, 't')[0]!.status).toBeUndefined();
    expect(effectOn(musketry, 't')[0]!.text).toContain('no effect (musketry)');
    // Guns (test LR: 3 points a stand at 4" canister) disorder the target.
    const s = duel(3, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 });
    const [req] = dice(s, FIRE);
    const face = 5 - req!.modifier!;
    const cannonade = resolve(s, FIRE, { fire: [face] });
    expect(cannonade.result).toBe('Lively Fire');
    expect(effectOn(cannonade, 't')[0]!.status).toEqual({ disordered: true });
  });

  it('Desultory Fire: "No effect"', () => {
    const o = resolve(duel(5), FIRE, { fire: [1] });
    expect(o.result).toBe('Desultory Fire');
    expect(o.effects.every((e) => !e.standsLost && !e.status)).toBe(true);
  });

  it('Withering Fire: lose 2 stands, one more on 15 or more, never more than three (Changes 20)', () => {
    // 13 smoothbore stands at close range, 2 points each: 26 points, +5; a green target (withering at 9).
    const s = duel(3, { weapon: 'SM', stands: 13, files: 13 }, { quality: 'green', stands: 10, files: 10 });
    expect(dice(s, FIRE)[0]!.modifier).toBe(5);
    const at14 = resolve(s, FIRE, { fire: [9] });
    expect(at14.result).toBe('Withering Fire');
    expect(effectOn(at14, 't')[0]).toMatchObject({ standsLost: 2, status: { disordered: true } });
    const at15 = resolve(s, FIRE, { fire: [10] });
    expect(effectOn(at15, 't')[0]!.standsLost).toBe(3);
    expect(effectOn(at15, 't')[0]!.text).toContain('15 or more');
  });

  it('removes an infantry unit reduced to a single stand ("removed from the game immediately")', () => {
    const s = duel(3, { weapon: 'SM', stands: 13, files: 13 }, { quality: 'green', stands: 3, files: 3 });
    const o = resolve(s, FIRE, { fire: [9] });
    expect(effectOn(o, 't')[0]).toMatchObject({ standsLost: 2, removed: true });
  });

  it('on guns: Telling damages 1 gun stand and silences 1; Withering wrecks 1 and silences the rest', () => {
    const guns = { arm: 'artillery' as const, weapon: 'LR', stands: 3, files: 3 };
    const telling = resolve(duel(5, {}, guns), FIRE, { fire: [10] });
    expect(telling.result).toBe('Telling Fire');
    expect(effectOn(telling, 't')[0]!.standsLost).toBeUndefined();
    expect(effectOn(telling, 't')[0]!.status!.rulesetStatus).toEqual({ silencedGunStands: 1, damagedGunStands: 1 });
    const s = duel(3, { weapon: 'SM', stands: 13, files: 13 }, { ...guns, quality: 'green' });
    const withering = resolve(s, FIRE, { fire: [9] });
    expect(effectOn(withering, 't')[0]).toMatchObject({ standsLost: 1, status: { rulesetStatus: { silencedGunStands: 2, silenced: true } } });
    // A silenced battery refuses to fire after the outcome is applied.
    const after = applyOutcome(s, withering);
    const back = evaluateFireAndFuryRegimental(after).units['t']!.fire.find((f) => f.targetUnitId === 'u');
    expect(back).toMatchObject({ ok: false, reason: 'fire/silenced' });
  });

  it('Massed Target: a unit within 2" behind the target suffers the next lower effect', () => {
    // A second unit 1" behind the target (the target is 1.5" deep).
    const behind = inf('t2', 'b', { xIn: 36, yIn: 17.5 }, 270);
    const o = resolve(duel(5, {}, {}, [behind]), FIRE, { fire: [10] });
    expect(o.result).toBe('Telling Fire');
    expect(effectOn(o, 't2')[0]!.text).toContain('Galling Fire');
    expect(effectOn(o, 't2')[0]!.status).toEqual({ disordered: true });
  });

  it('a base 10 marks troops firing half or more stands Low on Ammo and calls the Fallen Leader check', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('t', 'b', { xIn: 36, yIn: 15 }, 270)], {
      commanders: [{ id: 'gen', name: 'Gen. B', side: 'b', brigadeId: 'x', quality: 'capable', at: { xIn: 36, yIn: 19 }, headingDeg: 270 }],
    });
    const o = resolve(s, FIRE, { fire: [10] });
    expect(effectOn(o, 'u')[0]).toMatchObject({ status: { rulesetStatus: { lowOnAmmo: true } } });
    expect(o.followUps).toEqual([{ kind: 'fallen-leader', commanderId: 'gen', targetUnitId: 't' }]);
    expect(resolve(s, FIRE, { fire: [9] }).followUps).toEqual([]);
  });

  it('a charging target is checked by Withering or Telling Fire (retreat 2"), goes home otherwise', () => {
    const charging = { ...FIRE, choices: { targetCharging: true } };
    const checked = resolve(duel(5), charging, { fire: [10] });
    const move = checked.effects.find((e) => e.move)!.move!;
    expect(move).toMatchObject({ kind: 'retreat', distanceIn: 2 });
    // Straight away from the firer: +y.
    expect(move.path[1]!.yIn - move.path[0]!.yIn).toBeCloseTo(2, 6);
    const home = resolve(duel(5), charging, { fire: [8] });
    expect(home.effects.some((e) => e.move)).toBe(false);
    expect(home.steps.map((s) => s.text).join(' ')).toContain('Charge home');
  });

  it('refuses to roll when the target cannot be fired at, with the reason', () => {
    expect(diceForAction(R, duel(30), FIRE)).toMatchObject({ ok: false, reason: 'fire/out-of-range' });
  });
});

describe('charge results (QRS II, Figure 4; Charge Table Changes 21)', () => {
  const CHARGE: PendingAction = { kind: 'charge', unitId: 'u', targetUnitId: 't' };
  /** Faces giving a difference `diff` with the requests' modifiers (attacker face a, defender face d). */
  const facesFor = (s: TableState, diff: number, a = CHARGE) => {
    const [att, def] = dice(s, a);
    const net = att!.modifier! - def!.modifier!;
    for (let x = 1; x <= 10; x++) for (let y = 1; y <= 10; y++) if (x - y + net === diff) return { attacker: [x], defender: [y] };
    throw new Error(`no faces give ${diff} with net ${net}`);
  };
  const s = duel(4, {}, { stands: 6, files: 6 });

  it('Swept from the Field (8 or more): defender loses 2 stands and full retreats broken; a leader attached is checked', () => {
    const withLeader = { ...s, commanders: [{ id: 'col', name: 'Col. T', side: 'b', brigadeId: 'x', quality: 'capable' as const, attachedToUnitId: 't' }] };
    const o = resolve(withLeader, CHARGE, facesFor(withLeader, 8));
    expect(o.result).toBe('Swept from the Field');
    const d = effectOn(o, 't')[0]!;
    expect(d).toMatchObject({ standsLost: 2, status: { disordered: true, rulesetStatus: { formation: 'broken' } } });
    expect(d.move).toMatchObject({ kind: 'rout', distanceIn: 16 });
    expect(o.followUps).toEqual([{ kind: 'fallen-leader', commanderId: 'col', targetUnitId: 't' }]);
    expect(effectOn(o, 'u')[0]!.text).toContain('breakthrough charges a half move at the double quick');
  });

  it('Swept from the Field: "additional stands equal to the die result difference over 9"', () => {
    const big = duel(4, { stands: 12, files: 12, quality: 'crack' }, { stands: 8, files: 8, quality: 'green', status: { disordered: true } });
    const o = resolve(big, CHARGE, facesFor(big, 11));
    expect(effectOn(o, 't')[0]!.standsLost).toBe(4);
  });

  it('Driven Back (4 to 7): lose 1 stand, disordered, retreat out of close range', () => {
    const o = resolve(s, CHARGE, facesFor(s, 5));
    expect(o.result).toBe('Driven Back');
    const d = effectOn(o, 't')[0]!;
    expect(d).toMatchObject({ standsLost: 1, status: { disordered: true } });
    // The attacker's rifles: close range 6" (test parameter).
    expect(d.move).toMatchObject({ kind: 'retreat', distanceIn: 6 });
    expect(effectOn(o, 'u')[0]!.text).toContain('carries the position');
  });

  it('Driven Back by cavalry: "Lose 1 additional stand and full retreat broken"', () => {
    const cav = duel(4, { arm: 'cavalry', weapon: 'RC', stands: 6, files: 6 }, { stands: 6, files: 6 });
    const o = resolve(cav, CHARGE, facesFor(cav, 6));
    expect(effectOn(o, 't')[0]).toMatchObject({ standsLost: 2, move: { kind: 'rout', distanceIn: 16 } });
    // "Disordered if charged over ... cavalry"
    expect(effectOn(o, 'u')[0]!.status).toEqual({ disordered: true });
  });

  it('Hard Pressed (1 to 3): disordered and retreat 2"; a fortified defender holds and the attacker retreats 2"', () => {
    const o = resolve(s, CHARGE, facesFor(s, 2));
    expect(o.result).toBe('Hard Pressed');
    expect(effectOn(o, 't')[0]).toMatchObject({ status: { disordered: true }, move: { distanceIn: 2 } });
    expect(effectOn(o, 't')[0]!.standsLost).toBeUndefined();
    const fort = mapUnit(s, 't', (u) => ({ ...u, status: { rulesetStatus: { fortified: true } } }));
    const f = resolve(fort, CHARGE, facesFor(fort, 2));
    expect(effectOn(f, 't')[0]!.move).toBeUndefined();
    expect(effectOn(f, 'u')[0]!.move).toMatchObject({ distanceIn: 2 });
  });

  it('Desperate Struggle (0): both lose 1 stand and roll again without cold steel', () => {
    const cs = mapUnit(s, 'u', (u) => ({ ...u, status: { rulesetStatus: { chargeMode: 'cold-steel' } } }));
    const o = resolve(cs, CHARGE, facesFor(cs, 0));
    expect(o.result).toBe('Desperate Struggle');
    expect(effectOn(o, 'u')[0]!.standsLost).toBe(1);
    expect(effectOn(o, 't')[0]!.standsLost).toBe(1);
    expect(o.followUps).toEqual([{ ...CHARGE, choices: { desperateStruggle: true } }]);
    const again = dice(cs, o.followUps[0]!);
    expect(again[0]!.modifier).toBe(dice(cs, CHARGE)[0]!.modifier! - 1);
  });

  it('Falter, Recoil and Repulsed fall on the attacker; the defender holds', () => {
    const falter = resolve(s, CHARGE, facesFor(s, -2));
    expect(falter.result).toBe('Falter');
    expect(effectOn(falter, 'u')[0]).toMatchObject({ status: { disordered: true }, move: { distanceIn: 2 } });
    expect(effectOn(falter, 't')[0]!.text).toContain('holds position');
    const recoil = resolve(s, CHARGE, facesFor(s, -5));
    expect(recoil.result).toBe('Recoil');
    expect(effectOn(recoil, 'u')[0]).toMatchObject({ standsLost: 1, status: { disordered: true }, move: { distanceIn: 6 } });
    const repulsed = resolve(s, CHARGE, facesFor(s, -8));
    expect(repulsed.result).toBe('Repulsed');
    expect(effectOn(repulsed, 'u')[0]).toMatchObject({ standsLost: 2, move: { kind: 'rout' } });
  });
});

describe('maneuver results (QRS II, Figure 5; Maneuver Effects; Gun Maneuvers)', () => {
  const M: PendingAction = { kind: 'maneuver', unitId: 'u' };
  const faceFor = (s: TableState, modified: number) => modified - dice(s, M)[0]!.modifier!;

  it('Panic in the disordered column: "remove two stands" at a modified -2, none at 0', () => {
    // A green unit out of command, disordered: -2 -1 = -3.
    const s = duel(20, { quality: 'green', status: { disordered: true } });
    expect(dice(s, M)[0]!.modifier).toBe(-3);
    const o = resolve(s, M, { maneuver: [faceFor(s, -2)] });
    expect(o.result).toBe('Panic');
    expect(effectOn(o, 'u')[0]).toMatchObject({ standsLost: 2, status: { disordered: true, rulesetStatus: { formation: 'broken' } }, move: { kind: 'rout', distanceIn: 16 } });
    expect(effectOn(resolve(s, M, { maneuver: [faceFor(s, 0)] }), 'u')[0]!.standsLost).toBeUndefined();
  });

  it('Panic in the good-order column loses no stands unless the other reading is chosen', () => {
    const s = duel(20, { quality: 'green' });
    const o = resolve(s, M, { maneuver: [faceFor(s, -2)] });
    expect(o.result).toBe('Panic');
    expect(effectOn(o, 'u')[0]!.standsLost).toBeUndefined();
    const both = { ...s, rulesetParameters: { ...s.rulesetParameters, 'panic-stand-losses': 'both-columns' } };
    expect(effectOn(resolve(both, M, { maneuver: [faceFor(both, -2)] }), 'u')[0]!.standsLost).toBe(2);
  });

  it('Rally with Élan and Rally return a disordered unit to good order', () => {
    // Crack (+2), fresh (+2), out of command (-2): +2.
    const s = duel(20, { quality: 'crack', status: { disordered: true }, fields: { startingStands: 6, wornAtStandsLost: 2, spentAtStandsLost: 4 } });
    expect(dice(s, M)[0]!.modifier).toBe(2);
    const elan = resolve(s, M, { maneuver: [faceFor(s, 11)] });
    expect(elan.result).toBe('Rally with Élan');
    expect(applyOutcome(s, elan).units.find((u) => u.id === 'u')!.status?.disordered).toBeUndefined();
    const rally = resolve(s, M, { maneuver: [faceFor(s, 6)] });
    expect(rally.result).toBe('Rally');
    // "may remain disordered and move up to its full move rate"
    const stay = resolve(s, { ...M, choices: { fullMoveDisordered: true } }, { maneuver: [faceFor(s, 6)] });
    expect(effectOn(stay, 'u')[0]!.status).toEqual({ disordered: true });
  });

  it('Shaken in close range retreats to just beyond it; out of close range it holds', () => {
    // The enemy's rifles reach 6" close range; the unit 4" away retreats 2".
    const s = duel(4, { status: { disordered: true } });
    const o = resolve(s, M, { maneuver: [faceFor(s, 3)] });
    expect(o.result).toBe('Shaken');
    const e = effectOn(o, 'u')[0]!;
    expect(e.move!.distanceIn).toBeCloseTo(2, 6);
    expect(e.status).toEqual({ disordered: null });
    const far = duel(20, { status: { disordered: true } });
    expect(effectOn(resolve(far, M, { maneuver: [faceFor(far, 3)] }), 'u')[0]!.move).toBeUndefined();
  });

  it('Fall Back: troops in close range retreat out of it disordered', () => {
    const s = duel(4, { quality: 'green' });
    const o = resolve(s, M, { maneuver: [faceFor(s, 0)] });
    expect(o.result).toBe('Fall Back');
    expect(effectOn(o, 'u')[0]).toMatchObject({ status: { disordered: true }, move: { kind: 'fall-back' } });
    // "Hold position and fire only if out of close range"
    const far = duel(20, { quality: 'green' });
    const held = effectOn(resolve(far, M, { maneuver: [faceFor(far, 0)] }), 'u')[0]!;
    expect(held.move).toBeUndefined();
    expect(held.status).toBeUndefined();
    expect(held.text).toContain('holds position and may fire only');
  });

  it('guns: a silenced gun rallies only with Well Handled, not with Tardy (Gun Maneuver Changes 12)', () => {
    const s = duel(20, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2, status: { rulesetStatus: { silenced: true } } });
    const wh = resolve(s, { ...M, choices: { gunRally: true } }, { maneuver: [faceFor(s, 5)] });
    expect(wh.result).toBe('Well Handled');
    expect(effectOn(wh, 'u')[0]!.status).toEqual({ rulesetStatus: { silenced: null, silencedGunStands: null } });
    expect(effectOn(wh, 'u')[0]!.text).toContain('Hand haul 2"');
    const tardy = resolve(s, { ...M, choices: { gunRally: true } }, { maneuver: [faceFor(s, 2)] });
    expect(tardy.result).toBe('Tardy');
    expect(effectOn(tardy, 'u')[0]!.status).toBeUndefined();
    expect(effectOn(tardy, 'u')[0]!.text).toContain('cannot rally with a Tardy maneuver');
    // Heavy guns are offered no hand haul or prolong.
    const hh = mapUnit(s, 'u', (u) => ({ ...u, weapon: 'HH' }));
    expect(effectOn(resolve(hh, M, { maneuver: [faceFor(hh, 5)] }), 'u')[0]!.text).not.toContain('Hand haul');
  });
});

describe('the Fallen Leader Table (QRS II, Figure 4)', () => {
  const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90)], { commanders: [{ id: 'gen', name: 'Gen. A', side: 'a', brigadeId: 'x', quality: 'capable', at: { xIn: 20, yIn: 5 }, headingDeg: 90 }] });
  const FL: PendingAction = { kind: 'fallen-leader', commanderId: 'gen' };
  it.each([
    [10, 'Shot dead in the saddle', true],
    [9, 'Mortally wounded', true],
    [8, 'Grievously wounded', true],
    [7, 'Mere flesh wound', false],
    [6, 'Horse shot out from under', false],
    [5, 'Coat pierced but unscathed', false],
    [4, 'Staff officer struck', false],
    [2, 'Coolly ignores the fire', false],
  ])('%i: %s', (face, result, removed) => {
    const o = resolve(s, FL, { 'fallen-leader': [face] });
    expect(o.result).toBe(result);
    expect(o.effects[0]!.commanderId).toBe('gen');
    expect(o.effects[0]!.removed === true).toBe(removed);
  });
  it('says "Remove leader for one turn" on a 7 and "Leader dismounted for one turn" on a 6', () => {
    expect(resolve(s, FL, { 'fallen-leader': [7] }).summary).toContain('Remove leader for one turn.');
    expect(resolve(s, FL, { 'fallen-leader': [6] }).summary).toContain('Leader dismounted for one turn.');
  });
});

describe('several units firing together (QRS II, Changes 16-18; Fire Combat Modifier; Massing Artillery Fire)', () => {
  /** Two firers side by side facing +y at y = 10 (x 30 and 40), a 16-stand target `rangeIn` away. */
  const two = (rangeIn: number, u: Partial<FfrUnitSpec> = {}, v: Partial<FfrUnitSpec> = {}, more: Parameters<typeof table>[1] = {}) =>
    table([inf('u', 'a', { xIn: 30, yIn: 10 }, 90, u), inf('v', 'a', { xIn: 40, yIn: 10 }, 90, v), inf('t', 'b', { xIn: 35, yIn: 10 + rangeIn }, 270, { stands: 16, files: 16 })], more);
  const TOGETHER: PendingAction = { kind: 'fire', unitId: 'u', unitIds: ['u', 'v'], targetUnitId: 't' };

  it('one unit alone rolls with exactly the evaluation\'s modifier', () => {
    for (const s of [duel(5), duel(10, { stands: 7, files: 7 }), duel(3, { weapon: 'SM', quality: 'green', stands: 9, files: 9 })]) {
      const f = evaluateFireAndFuryRegimental(s).units['u']!.fire.find((x) => x.targetUnitId === 't') as { breakdown: { dice: number } };
      expect(dice(s, FIRE)[0]!.modifier).toBe(f.breakdown.dice);
    }
  });

  it('adds the fire points of both and rounds down once: 3.5 + 3.5 = 7 points, not 3 and 3', () => {
    // Seven rifle stands each at effective range (half a point): alone 3 points (-2), together 7 (0).
    const s = two(9, { stands: 7, files: 7 }, { stands: 7, files: 7 });
    expect(dice(s, FIRE)[0]!.modifier).toBe(-2);
    const [req] = dice(s, TOGETHER);
    expect(req!.label).toContain('7 fire points');
    expect(req!.modifier).toBe(0);
  });

  it('judges "half or more of the total fire points" over the combined fire (green)', () => {
    // Green 4 stands (4 points) with veteran 6 (6 points): green short of half, no -1; 6 and 6: -1.
    const few = two(5, { quality: 'green', stands: 4, files: 4 }, { stands: 6, files: 6 });
    expect(dice(few, TOGETHER)[0]!.label).toContain('10 fire points');
    const fewMods = (resolve(few, TOGETHER, { fire: [1] }).steps[0]!.text);
    expect(fewMods).not.toContain('Green');
    const half = two(5, { quality: 'green', stands: 6, files: 6 }, { stands: 6, files: 6 });
    expect(resolve(half, TOGETHER, { fire: [1] }).steps[0]!.text).toContain('Green troops or guns firing');
  });

  it('adds 1 for buck and ball or repeaters only in a charge, and never more than 1 with sharpshooters', () => {
    const s = duel(3, { weapon: 'SM' });
    const plain = dice(s, FIRE)[0]!.modifier!;
    expect(dice(s, { ...FIRE, choices: { inCharge: true } })[0]!.modifier).toBe(plain + 1);
    const rp = duel(3, { weapon: 'RPR' });
    expect(dice(rp, { ...FIRE, choices: { inCharge: true } })[0]!.modifier).toBe(dice(rp, FIRE)[0]!.modifier! + 1);
    const sharp = mapUnit(s, 'u', (u) => ({ ...u, sharpshooters: true }));
    expect(dice(sharp, { ...FIRE, choices: { inCharge: true } })[0]!.modifier).toBe(dice(sharp, FIRE)[0]!.modifier);
  });

  it('lets two batteries mass their fire only in canister range or at the closest target, under an artillery leader', () => {
    const guns = { arm: 'artillery' as const, weapon: 'LR', stands: 2, files: 2, brigadeId: 'arty' };
    const chief = [{ id: 'chief', name: 'Col. Alexander', side: 'a', brigadeId: 'arty', quality: 'capable' as const, at: { xIn: 35, yIn: 6 }, headingDeg: 90 }];
    // Canister range (4") under an artillery leader: massed.
    expect(Array.isArray(dice(two(3, guns, guns, { commanders: chief }), TOGETHER))).toBe(true);
    // No artillery leader: refused.
    expect(dice(two(3, guns, guns), TOGETHER)).toMatchObject({ ok: false, reason: 'fire/massing-artillery' });
    // A leader of an infantry brigade is no artillery leader.
    const general = [{ ...chief[0]!, brigadeId: 'inf' }];
    expect(dice(two(3, guns, guns, { commanders: general }), TOGETHER)).toMatchObject({ ok: false, reason: 'fire/massing-artillery' });
    // Shell range at a target that is not the closest: refused.
    const near = table(
      [inf('u', 'a', { xIn: 30, yIn: 10 }, 90, guns), inf('v', 'a', { xIn: 40, yIn: 10 }, 90, guns), inf('t', 'b', { xIn: 35, yIn: 25 }, 270, { stands: 16, files: 16 }), inf('n', 'b', { xIn: 35, yIn: 18 }, 270, { stands: 2, files: 2 })],
      { commanders: chief },
    );
    expect(dice(near, TOGETHER)).toMatchObject({ ok: false, reason: 'fire/massing-artillery' });
    expect(Array.isArray(dice(near, { ...TOGETHER, targetUnitId: 'n' }))).toBe(true);
  });
});

describe('plunging fire through wooded high ground (QRS II, Plunging Fire through Wooded High Ground)', () => {
  it('subtracts 2 through full cover and 1 through partial cover, only when half or more of the points are the guns\'', () => {
    const guns = duel(3, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 });
    const plain = dice(guns, FIRE)[0]!.modifier!;
    expect(dice(guns, { ...FIRE, choices: { plunging: 'full-cover' } })[0]!.modifier).toBe(plain - 2);
    expect(dice(guns, { ...FIRE, choices: { plunging: 'partial-cover' } })[0]!.modifier).toBe(plain - 1);
    // Guns (2 stands x 3 = 6 points) with 7 rifle stands (7 points): the plunging fire is under half, no -2.
    const mixed = table([inf('g', 'a', { xIn: 30, yIn: 10 }, 90, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 }), inf('r', 'a', { xIn: 40, yIn: 10 }, 90, { stands: 7, files: 7 }), inf('t', 'b', { xIn: 35, yIn: 13 }, 270, { stands: 16, files: 16 })]);
    const together: PendingAction = { kind: 'fire', unitId: 'g', unitIds: ['g', 'r'], targetUnitId: 't' };
    expect(dice(mixed, together)[0]!.label).toContain('13 fire points');
    expect(dice(mixed, { ...together, choices: { plunging: 'full-cover' } })[0]!.modifier).toBe(dice(mixed, together)[0]!.modifier);
  });
});
