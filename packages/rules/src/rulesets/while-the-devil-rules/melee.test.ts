import { describe, expect, it } from 'vitest';
import type { LabelShape } from '../../engine/shapes.ts';
import { parseTableState } from '../../index.ts';
import { buildContext } from './evaluate.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { evaluateMelees } from './melee.ts';
import { WTDR_BASES, row, wtdrScene, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

// Two bases of commanded shot 'a' facing +y, front edge on y = 10; enemies placed touching it.
const D = WTDR_BASES.shot.d;
const W = WTDR_BASES.shot.w;
const actor = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'a', name: 'A', side: 'x', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 36, yIn: 10 }, headingDeg: 90, ...extra });
const enemy = (id: string, n: number, x: number, y: number, headingDeg: number, extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id, name: id.toUpperCase(), side: 'y', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, n), at: { xIn: x, yIn: y }, headingDeg, ...extra });

function melees(units: WtdrUnitSpec[], params: Record<string, number> = {}) {
  const state = parseTableState(wtdrScene(units, { params }));
  return { result: evaluateMelees(buildContext(state)), ev: evaluateWhileTheDevilRules(state) };
}

describe('melee readings (Combat: Melee)', () => {
  it('front to front: each may be Actor with the other as Target; bases, force ratio and the outcome table', () => {
    const { result, ev } = melees([actor(), enemy('t', 1, 36, 10.05, 270)], { 'modifier-melee-target-badly-outnumbered': 1 });
    expect(result.readings.map((r) => [r.actorId, r.targetId, r.actorBases, r.targetBases])).toEqual([['a', 't', 2, 1], ['t', 'a', 1, 2]]);
    const label = ev.shapes.find((s) => s.id === 'wtdr/a/melee/t') as LabelShape;
    expect(label.text).toBe('Melee v T: Target Badly Outnumbered 2 v 1 bases; d6 +1 v d6 +0: tie both lose 1 level, 1-3 one, 4-5 two, 6-7 three, 8+ destroyed (Combat (Charges and Melee): Melee)');
  });

  it('supporting units count their bases on both sides, and a flank contact by an enemy front marks the unit taken in flank', () => {
    // A second enemy's front against A's left side (left of +y is -x), touching: a supporting unit of T.
    const flanker = enemy('f', 1, 36 - W - 0.05, 10 - D / 2 - 0.6, 0);
    const { result } = melees([actor(), enemy('t', 1, 36, 10.05, 270), flanker]);
    const aOnT = result.readings.find((r) => r.actorId === 'a' && r.targetId === 't')!;
    expect(aOnT).toMatchObject({ actorSide: ['a'], targetSide: ['t', 'f'], actorBases: 2, targetBases: 2, actorFlanked: true, targetFlanked: false });
    expect(aOnT.defender.modifiers.map((m) => m.label)).toContain('Actor taken in Flank/Rear (value not entered: modifier-melee-flank-or-rear)');
    // F's front touches A, so F may be the Actor with A as its Target; A's front does not touch F.
    expect(result.readings.some((r) => r.actorId === 'f' && r.targetId === 'a')).toBe(true);
    expect(result.readings.some((r) => r.actorId === 'a' && r.targetId === 'f')).toBe(false);
  });

  it('a friendly unit in base contact with the Actor supports it: its bases count ("all bases in the involved units are counted")', () => {
    // B: two bases of shot beside A on its right (+x), fronts level, touching A but not T.
    const friend: WtdrUnitSpec = { ...actor(), id: 'b', name: 'B', at: { xIn: 36 + 2 * W + 0.05, yIn: 10 } };
    const { result, ev } = melees([actor(), friend, enemy('t', 1, 36, 10.05, 270)]);
    const aOnT = result.readings.find((r) => r.actorId === 'a' && r.targetId === 't')!;
    expect(aOnT).toMatchObject({ actorSide: ['a', 'b'], targetSide: ['t'], actorBases: 4, targetBases: 1 });
    // And T's reading counts B against it; B touches no enemy's front, so it is never the Actor.
    expect(result.readings.find((r) => r.actorId === 't')).toMatchObject({ actorBases: 1, targetBases: 4, targetSide: ['a', 'b'] });
    expect(result.readings.some((r) => r.actorId === 'b')).toBe(false);
    expect((ev.shapes.find((s) => s.id === 'wtdr/a/melee/t') as LabelShape).text).toContain('4 v 1 bases (supporting: B)');
    // A friend 1" away is not in contact and not counted.
    const apart = melees([actor(), { ...friend, at: { xIn: 37 + 2 * W, yIn: 10 } }, enemy('t', 1, 36, 10.05, 270)]).result;
    expect(apart.readings.find((r) => r.actorId === 'a')).toMatchObject({ actorSide: ['a'], actorBases: 2 });
  });

  it('no reading for units apart, and the missing modifiers are named once', () => {
    expect(melees([actor(), enemy('t', 1, 36, 12, 270)]).result.readings).toEqual([]);
    const { ev } = melees([actor(), enemy('t', 1, 36, 10.05, 270)]);
    expect(ev.warnings.filter((w) => w.parameterId === 'modifier-melee-target-badly-outnumbered')).toHaveLength(1);
  });
});
