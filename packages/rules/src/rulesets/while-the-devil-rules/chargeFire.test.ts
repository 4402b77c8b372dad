import { describe, expect, it } from 'vitest';
import type { ChargeRefusal, ChargeTargetOption, FireRefusal, FireTargetOption } from '../../engine/evaluation.ts';
import { parseTableState } from '../../index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { WTDR_BASES, row, wtdrScene, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

// Cuirassiers at (36, 10) facing +y charge a line of commanded shot 6" ahead, facing them.
const charger = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'c', name: 'Cuirassiers', side: 'a', troopType: 'cuirassier', slots: row(WTDR_BASES.cavalry, 2), at: { xIn: 36, yIn: 10 }, headingDeg: 90, ...extra });
const foot = (id: string, x: number, y: number, headingDeg = 270, extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id, name: id, side: 'b', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 1), at: { xIn: x, yIn: y }, headingDeg, ...extra });
const acted = { status: { rulesetStatus: { acted: true } } };

function chargeAt(units: WtdrUnitSpec[], params: Record<string, number> = { 'charge-cuirassier': 12 }): ChargeTargetOption {
  const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, { params })));
  const c = ev.units['c']!.charge.find((x: ChargeTargetOption | ChargeRefusal) => x.targetUnitId === 't')!;
  expect(c.ok).toBe(true);
  return c as ChargeTargetOption;
}
const lines = (c: ChargeTargetOption): string[] => c.attacker.limits.map((l) => l.label);

describe('fire during charges (Combat (Charges and Melee): Charges)', () => {
  it('a frontal charge takes defensive fire from a target that has not acted; a devastating fire stops it short', () => {
    const opt = chargeAt([charger(), foot('t', 36, 16)]);
    expect(lines(opt)[0]).toMatch(/^Defensive fire: t may fire first \(Musketeers\).*devastating fire \(2 status levels or more\) stops the charge 1" short/);
    expect(opt.attacker.limits[0]!.source).toBe('Combat (Charges and Melee): Charges');
  });

  it('no defensive fire from a target that has acted, is charged in flank, or never fires', () => {
    expect(lines(chargeAt([charger(), foot('t', 36, 16, 270, acted)]))[0]).toBe('No defensive fire from t: it has acted this turn');
    expect(lines(chargeAt([charger(), foot('t', 36 - WTDR_BASES.shot.w / 2, 16, 0)]))[0]).toBe('No defensive fire from t: the charge does not come at its front');
    expect(lines(chargeAt([charger(), foot('t', 36, 16, 270, { troopType: 'sword-and-buckler' })]))[0]).toMatch(/^No defensive fire from t: Sword & bucklermen never fires/);
  });

  it('cuirassiers receiving a charge fire their pistols at it', () => {
    const target: WtdrUnitSpec = { ...charger({ id: 't', name: 't', side: 'b', at: { xIn: 36, yIn: 16 }, headingDeg: 270 }) };
    expect(lines(chargeAt([charger(), target]))[0]).toMatch(/^Defensive fire: t may fire first \(Pistols\)/);
  });

  it('names enemies whose short-range arc the path crosses, if they have not acted', () => {
    // A second line of shot 4" to the right of the lane, facing across it: the lane is within its 6" short range.
    const flanker = foot('p', 36 + WTDR_BASES.cavalry.w + 4, 13, 180);
    expect(lines(chargeAt([charger(), foot('t', 36, 16), flanker]))[1]).toBe('Pass-through fire may come from p (path crosses its arc within short range; uses its action)');
    expect(lines(chargeAt([charger(), foot('t', 36, 16), { ...flanker, ...acted }]))[1]).toBe('No pass-through fire: the path crosses no other enemy arc within short range');
    // 9" off: within its 12" reach but beyond short range.
    expect(lines(chargeAt([charger(), foot('t', 36, 16), { ...flanker, at: { xIn: 36 + WTDR_BASES.cavalry.w + 9, yIn: 13 } }]))[1]).toMatch(/^No pass-through fire/);
    // Facing away from the lane: its arc does not cross it.
    expect(lines(chargeAt([charger(), foot('t', 36, 16), { ...flanker, headingDeg: 0 }]))[1]).toMatch(/^No pass-through fire/);
  });

  it('charging cuirassiers, reiters and harquebusiers fire at the target before contact; others do not', () => {
    expect(lines(chargeAt([charger(), foot('t', 36, 16)]))).toContainEqual('Cuirassiers fires at the target before contact, after any defensive fire, if contact is made (as a normal Fire action)');
    const lancers = chargeAt([charger({ troopType: 'guard-cuirassier' }), foot('t', 36, 16)], { 'charge-guard-cuirassier': 12 });
    expect(lines(lancers).some((l) => l.includes('fires at the target before contact'))).toBe(false);
  });
});

describe('Advancing Fire (Fire)', () => {
  function fireOf(firer: WtdrUnitSpec): FireTargetOption {
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene([firer, foot('t', 36, 16)], { params: {} })));
    const f = ev.units['f']!.fire.find((x: FireTargetOption | FireRefusal) => x.targetUnitId === 't')!;
    expect(f.ok).toBe(true);
    return f as FireTargetOption;
  }
  const advancing = (f: FireTargetOption): boolean => f.breakdown.limits.some((l) => l.source === 'Fire (Advancing Fire)');

  it('is offered to commanded shot, not to guns', () => {
    expect(advancing(fireOf({ id: 'f', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 36, yIn: 10 }, headingDeg: 90 }))).toBe(true);
    expect(advancing(fireOf({ id: 'f', side: 'a', troopType: 'light-artillery', slots: [{ size: WTDR_BASES.artillery, back: 0, left: 0 }], at: { xIn: 36, yIn: 10 }, headingDeg: 90 }))).toBe(false);
  });
});
