import { describe, expect, it } from 'vitest';
import { parseTableState } from '../../index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { WTDR_BASES, row, wtdrScene, type LeaderSpec, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

const unit = (id: string, x: number, extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id, side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: x, yIn: 20 }, headingDeg: 90, brigadeId: 'left', ...extra });
const leaderHalf = WTDR_BASES.leader.w / 2;

describe('command (Leaders and Command Control)', () => {
  it('is in command within 12" from any part of the leader\'s base to any part of a base of the unit', () => {
    // Leader centred at x = 10; unit's left edge at x = 10 + half leader base + 12 (in) or + 12.5 (out).
    const shotW = WTDR_BASES.shot.w;
    const leaders: LeaderSpec[] = [{ id: 'L', side: 'a', brigadeId: 'left', at: { xIn: 10, yIn: 20 - WTDR_BASES.shot.d / 2 } }];
    const inside = unit('in', 10 + leaderHalf + 12 + shotW - 0.001);
    const outside = unit('out', 10 - leaderHalf - 12.5 - shotW);
    const other = unit('other', 30, { brigadeId: 'right' });
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene([inside, outside, other], { leaders })));
    expect(ev.units['in']!.command).toMatchObject({ inCommand: true, commanderInRangeId: 'L', commandRadiusIn: 12, commanderDistanceIn: expect.closeTo(12, 2) });
    expect(ev.units['out']!.command).toMatchObject({ inCommand: false, commanderDistanceIn: expect.closeTo(12.5, 2) });
    expect(ev.units['out']!.command.commanderInRangeId).toBeUndefined();
    expect(ev.units['other']!.command.inCommand).toBe(false);
    expect(ev.shapes.find((s) => s.id === 'wtdr/out/command/L')).toMatchObject({ style: 'link-broken' });
    expect(ev.shapes.find((s) => s.id === 'wtdr/in/command/L')).toMatchObject({ style: 'link' });
    expect(ev.shapes.find((s) => s.id === 'wtdr/leader/L/move')).toMatchObject({ kind: 'circle', radiusIn: 24 });
  });

  it('lets the army commander command every unit of his side, the nearest commander giving the reading', () => {
    // Wing leader L (brigade "left") far off; army commander A within 12" of both units; the enemy's army
    // commander Z, within 12" of right1 as well, commands only his own side.
    const leaders: LeaderSpec[] = [
      { id: 'L', side: 'a', brigadeId: 'left', at: { xIn: 60, yIn: 40 } },
      { id: 'A', side: 'a', brigadeId: 'army', at: { xIn: 20, yIn: 26 } },
      { id: 'Z', side: 'b', brigadeId: 'army', at: { xIn: 34, yIn: 26 } },
    ];
    const units = [unit('left1', 14), unit('right1', 26, { brigadeId: 'right' }), unit('enemy', 40, { side: 'b', brigadeId: 'foe' })];
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, { leaders })));
    expect(ev.units['left1']!.command).toMatchObject({ inCommand: true, commanderInRangeId: 'A' });
    expect(ev.units['right1']!.command).toMatchObject({ inCommand: true, commanderInRangeId: 'A' });
    expect(ev.shapes.find((x) => x.id === 'wtdr/right1/command/A')).toMatchObject({ style: 'link' });
    // The enemy's army commander is his side's only: no link to side a's units, and side b's unit is his.
    expect(ev.shapes.some((x) => x.id === 'wtdr/left1/command/Z' || x.id === 'wtdr/right1/command/Z')).toBe(false);
    expect(ev.units['enemy']!.command.commanderInRangeId).toBe('Z');
    // Without the army commander, the right wing's unit has nobody and the left's is out of its leader's 12".
    const alone = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, { leaders: leaders.filter((l) => l.id !== 'A') })));
    expect(alone.units['right1']!.command.inCommand).toBe(false);
    expect(alone.units['left1']!.command).toMatchObject({ inCommand: false, commanderDistanceIn: expect.any(Number) });
  });

  it('adds the leader bonus to the app\'s 1-4 activations, by commander quality, overridable per game', () => {
    const leaders: LeaderSpec[] = [{ id: 'L', side: 'a', brigadeId: 'left', at: { xIn: 10, yIn: 10 }, quality: 'superb' }, { id: 'W', side: 'a', brigadeId: 'right', at: { xIn: 40, yIn: 10 }, quality: 'weak' }];
    const label = (params?: Record<string, number>, id = 'L') => {
      const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene([unit('u', 20), unit('v', 50, { brigadeId: 'right' })], { leaders, ...(params ? { params } : {}) })));
      const s = ev.shapes.find((x) => x.id === `wtdr/leader/${id}/label`);
      return s && s.kind === 'label' ? s.text : '';
    };
    expect(label()).toMatch(/^L: 2-5 activations \(app 1-4 \+1\)/);
    expect(label(undefined, 'W')).toMatch(/^W: 0-3 activations \(app 1-4 −1\)/);
    expect(label({ 'leader-bonus-superb': 2 })).toMatch(/^L: 3-6 activations/);
  });
});

describe('status and army morale (Combat Effects and Rallying; Army Morale)', () => {
  it('destroys a unit at half its starting bases and counts points toward the army break point', () => {
    const units = [
      unit('a3', 10, { troopType: 'dutch-battalion', slots: row(WTDR_BASES.shot, 3), status: { rulesetStatus: { status: 'disordered', 'bases-lost': 1 } } }),
      unit('b2', 30, { status: { rulesetStatus: { 'bases-lost': 1 } } }),
      unit('c2', 50),
    ];
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units)));
    expect(ev.units['a3']!.morale).toMatchObject({ state: 'disordered', counted: { value: 1 } });
    expect(ev.units['a3']!.morale!.thresholds[0]).toMatchObject({ at: 2, reached: false });
    expect(ev.units['b2']!.morale).toMatchObject({ state: 'destroyed' });
    expect(ev.units['b2']!.morale!.thresholds[0]).toMatchObject({ at: 1, reached: true });
    expect(ev.units['b2']!.movement).toMatchObject({ ok: false, reason: 'movement/destroyed' });
    // 7 bases; points: 1 (disordered) + 3 (a base) + 6 (both bases of the destroyed unit) = 10 >= 7.
    expect(ev.units['c2']!.morale!.thresholds[1]).toMatchObject({ label: 'army break point (a: 10 points of 7)', at: 7, reached: true });
    expect(ev.warnings).toContainEqual(expect.objectContaining({ code: 'army/broken' }));
  });

  it('counts a leader killed or captured with a unit: 6 points for the army commander, 4 for a wing commander', () => {
    const units = [
      unit('a', 10, { status: { rulesetStatus: { 'leader-lost': 'army' } } }),
      unit('b', 30, { status: { rulesetStatus: { 'leader-lost': 'wing', status: 'disordered' } } }),
      unit('c', 50, { slots: row(WTDR_BASES.shot, 3) }),
    ];
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units)));
    // 7 bases; 6 (army commander) + 4 (wing commander) + 1 (disordered) = 11.
    expect(ev.units['c']!.morale!.thresholds[1]).toMatchObject({ label: 'army break point (a: 11 points of 7)', reached: true });
    // A destroyed unit still carries the leader who fell with it: 6 + 3 x 2 bases.
    const gone = evaluateWhileTheDevilRules(parseTableState(wtdrScene([unit('a', 10, { status: { rulesetStatus: { 'leader-lost': 'army', 'bases-lost': 1 } } }), unit('c', 50, { slots: row(WTDR_BASES.shot, 3) })])));
    expect(gone.units['c']!.morale!.thresholds[1]).toMatchObject({ label: 'army break point (a: 12 points of 5)' });
    // "none" (the default) adds nothing.
    const none = evaluateWhileTheDevilRules(parseTableState(wtdrScene([unit('a', 10, { status: { rulesetStatus: { 'leader-lost': 'none' } } }), unit('c', 50)])));
    expect(none.units['c']!.morale!.thresholds[1]).toMatchObject({ label: 'army break point (a: 0 points of 4)' });
  });

  it('multiplies the break point by army quality, rounded up', () => {
    const units = [unit('a', 10, { fields: { 'army-quality': 'higher' } }), unit('b', 30, { fields: { 'army-quality': 'higher' } }), unit('c', 50, { fields: { 'army-quality': 'higher' }, slots: row(WTDR_BASES.shot, 1) })];
    const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units)));
    expect(ev.units['a']!.morale!.thresholds[1]).toMatchObject({ at: 8, reached: false }); // 5 bases x 1.5 = 7.5 -> 8
  });
});
