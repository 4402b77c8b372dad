import { describe, expect, it } from 'vitest';
import { parseTableState } from '../../index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { WTDR_BASES, row, wtdrScene, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

// Side x: two bases of commanded shot and a camp; side y: one base of commanded shot.
const D = WTDR_BASES.shot.d;
const shot = (id: string, side: string, x: number, y: number, headingDeg: number, extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id, name: id.toUpperCase(), side, troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, id === 'e' || id === 'e2' ? 1 : 2), at: { xIn: x, yIn: y }, headingDeg, ...extra });
const camp = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'camp', name: 'Swedish camp', side: 'x', troopType: 'camp', slots: row(WTDR_BASES.artillery, 1), at: { xIn: 60, yIn: 10 }, headingDeg: 90, ...extra });

function evaluate(units: WtdrUnitSpec[], params: Record<string, number> = {}) {
  return evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, { params })));
}
const breakLabel = (ev: ReturnType<typeof evaluate>, unitId: string) => ev.units[unitId]!.morale!.thresholds[1]!.label;

describe('army morale with a camp (Army Morale)', () => {
  it('counts the baggage or camp as a unit of one base in the break point ("counting the baggage or camp as a unit if there is one (generally as a single base)")', () => {
    expect(breakLabel(evaluate([shot('a', 'x', 20, 10, 90), shot('e', 'y', 20, 40, 270)]), 'a')).toBe('army break point (x: 0 points of 2)');
    const ev = evaluate([shot('a', 'x', 20, 10, 90), camp(), shot('e', 'y', 20, 40, 270)]);
    expect(breakLabel(ev, 'a')).toBe('army break point (x: 0 points of 3)');
    // The camp neither moves nor charges nor fires in the guide.
    expect(ev.units['camp']!.movement).toMatchObject({ ok: false, reason: 'movement/camp' });
    expect(ev.units['camp']!.charge.every((c) => !c.ok && c.reason === 'charge/camp')).toBe(true);
    expect(ev.units['camp']!.fire.every((f) => !f.ok)).toBe(true);
  });

  it('a sacked camp adds 6 points (suggested), a parameter; its base is never counted as lost', () => {
    const sacked = camp({ status: { rulesetStatus: { 'camp-sacked': true } } });
    expect(breakLabel(evaluate([shot('a', 'x', 20, 10, 90), sacked, shot('e', 'y', 20, 40, 270)]), 'a')).toBe('army break point (x: 6 points of 3)');
    expect(breakLabel(evaluate([shot('a', 'x', 20, 10, 90), sacked, shot('e', 'y', 20, 40, 270)], { 'camp-sacked-points': 4 }), 'a')).toBe('army break point (x: 4 points of 3)');
    expect(evaluate([shot('a', 'x', 20, 10, 90), sacked, shot('e', 'y', 20, 40, 270)]).warnings.map((w) => w.code)).toContain('army/broken');
  });

  it('names the camp that may be sacked: an enemy touches it and is in contact with no other enemy (Combat Effects and Rallying)', () => {
    // E's front against the camp's front edge (y = 10), E facing -y.
    const raider = shot('e', 'y', 60, 10 + 0.05, 270);
    const ev = evaluate([shot('a', 'x', 20, 10, 90), camp(), raider]);
    const w = ev.warnings.find((x) => x.code === 'camp/may-be-sacked')!;
    expect(w.unitId).toBe('camp');
    expect(w.message).toMatch(/Swedish camp is in contact with E, itself in contact with no other enemy.*Disordered \(Demoralized if already Disordered\), with no base losses/);
    // Contact with a camp is no combat: E may still move (no Retire-only refusal).
    expect(ev.units['e']!.movement).not.toMatchObject({ reason: 'movement/in-combat' });
    // E also in contact with A (A's front against E's rear): it may not sack the camp.
    const guard = shot('a', 'x', 60, 10 + 0.05 + D + 0.02, 270, { slots: row(WTDR_BASES.shot, 1) });
    const held = evaluate([guard, camp(), raider]);
    expect(held.warnings.some((x) => x.code === 'camp/may-be-sacked')).toBe(false);
    // Once marked sacked, no more warning.
    expect(evaluate([shot('a', 'x', 20, 10, 90), camp({ status: { rulesetStatus: { 'camp-sacked': true } } }), raider]).warnings.some((x) => x.code === 'camp/may-be-sacked')).toBe(false);
  });
});
