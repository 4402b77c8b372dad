import { describe, expect, it } from 'vitest';
import type { ChargeRefusal, ChargeTargetOption } from '../../engine/evaluation.ts';
import { parseTableState } from '../../index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { WTDR_BASES, column, row, swarmSlots, wtdrScene, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

const CAV_FRONT = 2 * WTDR_BASES.cavalry.w;
const charger = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'c', side: 'a', troopType: 'cuirassier', slots: row(WTDR_BASES.cavalry, 2), at: { xIn: 36, yIn: 10 }, headingDeg: 90, ...extra });
const foot = (id: string, x: number, y: number, headingDeg = 270, extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id, side: 'b', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 1), at: { xIn: x, yIn: y }, headingDeg, ...extra });

function chargeOf(units: WtdrUnitSpec[], params: Record<string, number> = { 'charge-cuirassier': 12 }, id = 'c') {
  const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, { params })));
  return { ev, charge: ev.units[id]!.charge };
}
const on = (c: readonly (ChargeTargetOption | ChargeRefusal)[], id = 't') => c.find((x) => x.targetUnitId === id)!;

describe('charges (Combat: Charges)', () => {
  it('moves straight ahead into contact when the target is ahead', () => {
    const opt = on(chargeOf([charger(), foot('t', 36, 16)]).charge) as ChargeTargetOption;
    expect(opt).toMatchObject({ ok: true, distanceIn: expect.closeTo(6, 4), enemyFlanked: false });
    expect(opt.attacker.modifiers.map((m) => m.label)).toEqual([
      'Actor is Charging (value not entered: modifier-melee-actor-charging)',
      'Target Badly Outnumbered (2 v 1 bases, all bases count) (value not entered: modifier-melee-target-badly-outnumbered)',
    ]);
  });

  it('pays for a wheel by the moving corner when the target is not straight ahead', () => {
    const opt = on(chargeOf([charger(), foot('t', 36 + 6, 16)]).charge) as ChargeTargetOption;
    expect(opt.ok).toBe(true);
    expect(opt.distanceIn).toBeGreaterThan(6);
    // Never cheaper than the straight gap, never dearer than a 90° wheel plus the gap's diagonal.
    expect(opt.distanceIn).toBeLessThan(6 + (CAV_FRONT * Math.PI) / 2);
  });

  it('refuses beyond the reach entered, and says what is missing when none is', () => {
    expect(on(chargeOf([charger(), foot('t', 36, 16)], { 'charge-cuirassier': 5 }).charge)).toMatchObject({ ok: false, reason: 'charge/out-of-reach' });
    const none = chargeOf([charger(), foot('t', 36, 16)], {});
    expect(on(none.charge)).toMatchObject({ ok: false, reason: 'charge/reach-not-entered' });
    expect(none.ev.warnings).toContainEqual(expect.objectContaining({ code: 'parameter/missing', parameterId: 'charge-cuirassier' }));
  });

  it('wheels clear of another enemy\'s front within 1", and cannot pass through a unit', () => {
    const open = on(chargeOf([charger(), foot('t', 36, 20)]).charge) as ChargeTargetOption;
    expect(open.distanceIn).toBeCloseTo(10, 4);
    // An enemy facing the charge lane from the right, its front 0.6" from the lane: its 1" zone reaches into it.
    const laneRight = 36 + CAV_FRONT / 2;
    const side = foot('s', laneRight + 0.6 + WTDR_BASES.shot.d / 2 + WTDR_BASES.shot.d / 2, 15, 180);
    const sideStepped = on(chargeOf([charger(), foot('t', 36, 20), { ...side, at: { xIn: laneRight + 0.6, yIn: 15 } }]).charge) as ChargeTargetOption;
    expect(sideStepped.ok).toBe(true);
    expect(sideStepped.distanceIn).toBeGreaterThan(10);
    const wall: WtdrUnitSpec = { id: 'w', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 3), at: { xIn: 36, yIn: 16 }, headingDeg: 90 };
    expect(on(chargeOf([charger(), foot('t', 36, 18.5), wall]).charge)).toMatchObject({ ok: false, reason: 'charge/path-blocked' });
  });

  it('is not blocked by a friend standing touching alongside', () => {
    const friend: WtdrUnitSpec = { ...charger(), id: 'f', at: { xIn: 36 + CAV_FRONT, yIn: 10 } };
    expect(on(chargeOf([charger(), friend, foot('t', 36, 16)]).charge)).toMatchObject({ ok: true, distanceIn: expect.closeTo(6, 4) });
  });

  it('says when the target is taken in flank', () => {
    const opt = on(chargeOf([charger(), foot('t', 36 - WTDR_BASES.shot.w / 2, 16, 0)]).charge) as ChargeTargetOption;
    expect(opt).toMatchObject({ ok: true, enemyFlanked: true });
    expect(opt.attacker.modifiers.map((m) => m.label)).toContainEqual(expect.stringMatching(/^Target taken in Flank\/Rear/));
  });

  it('warns that an impetuous unit must charge the nearest formed enemy in reach', () => {
    const { ev } = chargeOf([charger({ fields: { impetuous: true } }), foot('t', 36, 16), foot('far', 30, 19)]);
    expect(ev.warnings).toContainEqual(expect.objectContaining({ code: 'charge/impetuous', unitId: 'c', message: expect.stringContaining('must charge t,') }));
    const calm = chargeOf([charger(), foot('t', 36, 16)]).ev;
    expect(calm.warnings.filter((w) => w.code === 'charge/impetuous')).toEqual([]);
  });

  it('a unit in contact front to front fights on: no charge, fire or move', () => {
    const { ev } = chargeOf([charger(), foot('t', 36, 10.05)]);
    expect(on(ev.units['c']!.charge)).toMatchObject({ ok: false, reason: 'charge/in-combat' });
    expect(ev.units['c']!.movement).toMatchObject({ ok: false, reason: 'movement/in-combat' });
    expect(ev.units['t']!.fire.find((f) => f.targetUnitId === 'c')).toMatchObject({ ok: false, reason: 'fire/in-combat' });
    // Side by side, fronts level and not facing each other: not a combat.
    const beside = chargeOf([charger(), foot('t', 36 + CAV_FRONT / 2 + WTDR_BASES.shot.w / 2 + 0.05, 10, 90)]).ev;
    expect(beside.units['c']!.movement).toMatchObject({ ok: false, reason: 'movement/allowance-not-entered' });
    expect(beside.units['t']!.fire.find((f) => f.targetUnitId === 'c')).not.toMatchObject({ reason: 'fire/in-combat' });
  });

  it('draws where a charged forlorn hope may evade: its own movement reach (Charges: "performed like any other movement")', () => {
    const fh = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 't', name: 'Hope', side: 'b', troopType: 'forlorn-hope', slots: swarmSlots(4, WTDR_BASES.figureFoot, 1.5), at: { xIn: 36, yIn: 16 }, headingDeg: 270, ...extra });
    const params = { 'charge-cuirassier': 12, 'advance-forlorn-hope': 8 };
    const { ev, charge } = chargeOf([charger(), fh()], params);
    const opt = on(charge) as ChargeTargetOption;
    expect(opt.ok).toBe(true);
    expect(opt.attacker.limits.map((l) => l.label)).toContain('Hope may evade instead of firing (uses its action): any move within its 8" reach, facing change paid (drawn); the charger may then use its remaining move to reach it');
    const evade = ev.shapes.find((sh) => sh.id === 'wtdr/c/charge/t/evade');
    expect(evade).toMatchObject({ kind: 'polygon', layer: 'charge', style: 'reach', unitId: 't' });
    expect((evade as unknown as { vertices: unknown[] }).vertices).toEqual((ev.units["t"]!.movement as unknown as { reach: unknown[] }).reach);
    // A target that has acted may not evade (evading uses its action): named, not drawn.
    const acted = chargeOf([charger(), fh({ status: { rulesetStatus: { acted: true } } })], params);
    expect((on(acted.charge) as ChargeTargetOption).attacker.limits.map((l) => l.label)).toContain('Hope has acted: no evasion (evading uses its action)');
    expect(acted.ev.shapes.some((sh) => sh.id.endsWith('/evade'))).toBe(false);
    // Formed foot do not evade.
    expect(chargeOf([charger(), foot('t', 36, 16)]).ev.shapes.some((sh) => sh.id.endsWith('/evade'))).toBe(false);
  });

  it('keeps who may charge whom', () => {
    expect(on(chargeOf([charger({ troopType: 'light-artillery', slots: [{ size: WTDR_BASES.artillery, back: 0, left: 0 }] }), foot('t', 36, 16)]).charge)).toMatchObject({ reason: 'charge/artillery' });
    expect(on(chargeOf([charger({ slots: column(WTDR_BASES.cavalry, 2) }), foot('t', 36, 16)]).charge)).toMatchObject({ reason: 'charge/march-column' });
    const harq = { 'charge-harquebusier': 12 };
    // At an undisordered front the charge is open, but stops 1" short unless its fire disorders the target
    // ("If the target is not disordered, Harquebusiers will refuse to contact the enemy frontally, stopping an
    // inch short of contact"): the stop is drawn, its front edge 1" from the target's (at y = 16).
    const undisordered = chargeOf([charger({ troopType: 'harquebusier' }), foot('t', 36, 16)], harq);
    const opt = on(undisordered.charge) as ChargeTargetOption;
    expect(opt.ok).toBe(true);
    expect(opt.attacker.limits.at(-1)!.label).toMatch(/stop 1" short \(drawn\), no melee/);
    const stop = undisordered.ev.shapes.find((sh) => sh.id === 'wtdr/c/charge/t/stop-short');
    expect(stop).toMatchObject({ kind: 'polyline', style: 'blocked', layer: 'charge' });
    for (const p of (stop as unknown as { points: { yIn: number }[] }).points) expect(p.yIn).toBeCloseTo(15, 6);
    const disordered = chargeOf([charger({ troopType: 'harquebusier' }), foot('t', 36, 16, 270, { status: { rulesetStatus: { status: 'disordered' } } })], harq);
    expect((on(disordered.charge) as ChargeTargetOption).attacker.limits.some((l) => /short/.test(l.label) && /harquebusiers refuse/.test(l.label))).toBe(false);
    expect(disordered.ev.shapes.some((sh) => sh.id.endsWith('/stop-short'))).toBe(false);
    const ilh = { 'charge-light-horse': 12 };
    expect(on(chargeOf([charger({ troopType: 'light-horse' }), foot('t', 36, 16)], ilh).charge)).toMatchObject({ reason: 'charge/light-horse-target' });
    expect(on(chargeOf([charger({ troopType: 'light-horse' }), foot('t', 36 - WTDR_BASES.shot.w / 2, 16, 0)], ilh).charge)).toMatchObject({ ok: true, enemyFlanked: true });
    const fh: Partial<WtdrUnitSpec> = { troopType: 'forlorn-hope', slots: swarmSlots(8, WTDR_BASES.figureFoot, 1.5) };
    expect(on(chargeOf([charger(fh), foot('t', 36, 16)], { 'charge-forlorn-hope': 12 }).charge)).toMatchObject({ reason: 'charge/skirmishers-in-open' });
  });

  it('lets light horse charge the front of any target already in an ongoing combat (Charges)', () => {
    // "Irregular Light Horse may not charge any but Irregular Light Horse, Dragoon, Forlorn Hope, or
    // Artillery units unless the Target of the Charge is already engaged in an ongoing combat or is being
    // charged in the flank or rear."
    const ilh = { 'charge-light-horse': 12 };
    const lightHorse = charger({ troopType: 'light-horse' });
    // A friend of the light horse fights the target's rear: front to rear, 0.05" apart.
    const friend: WtdrUnitSpec = { id: 'e', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 1), at: { xIn: 36, yIn: 16 + WTDR_BASES.shot.d + 0.05 }, headingDeg: 270 };
    const engaged = chargeOf([lightHorse, foot('t', 36, 16), friend], ilh);
    expect(engaged.ev.units['t']!.movement).toMatchObject({ ok: false, reason: 'movement/in-combat' });
    expect(on(engaged.charge)).toMatchObject({ ok: true, enemyFlanked: false });
    // The same target out of combat: refused.
    const apart: WtdrUnitSpec = { ...friend, at: { xIn: 36, yIn: 16 + WTDR_BASES.shot.d + 3 } };
    expect(on(chargeOf([lightHorse, foot('t', 36, 16), apart], ilh).charge)).toMatchObject({ ok: false, reason: 'charge/light-horse-target' });
  });
});
