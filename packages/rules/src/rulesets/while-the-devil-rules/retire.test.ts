import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../engine/evaluation.ts';
import type { PolygonShape } from '../../engine/shapes.ts';
import { parseTableState } from '../../index.ts';
import { evaluateWhileTheDevilRules } from './evaluate.ts';
import { WTDR_BASES, row, wtdrScene, type WtdrUnitSpec } from '../../../../../fixtures/rules/while-the-devil-rules/wtdrScene.ts';

// Two bases of commanded shot facing +y, front edge centred on (36, 10); an enemy line touching its front.
const D = WTDR_BASES.shot.d;
const W = WTDR_BASES.shot.w;
const unit = (extra: Partial<WtdrUnitSpec> = {}): WtdrUnitSpec => ({ id: 'm', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 2), at: { xIn: 36, yIn: 10 }, headingDeg: 90, ...extra });
const enemy = (id: string, x: number, y: number, headingDeg: number): WtdrUnitSpec => ({ id, side: 'b', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 1), at: { xIn: x, yIn: y }, headingDeg });
const inFront = enemy('e', 36, 10.05, 270);

function retireOf(units: WtdrUnitSpec[], params: Record<string, number> = { 'advance-commanded-shot': 6 }) {
  const ev = evaluateWhileTheDevilRules(parseTableState(wtdrScene(units, { params })));
  const movement = ev.units['m']!.movement as Refusal;
  const shape = ev.shapes.find((s) => s.id === 'wtdr/m/movement/retire') as PolygonShape | undefined;
  return { ev, movement, shape };
}

describe('Retire (Movement; Actions; Ongoing Combats)', () => {
  it('a unit in contact is refused Advance but shown its Retire reach: straight back up to 45° either side, the base move', () => {
    const { movement, shape } = retireOf([unit(), inFront]);
    expect(movement).toMatchObject({ ok: false, reason: 'movement/in-combat' });
    expect(movement.detail).toMatch(/Retire: straight back up to 45° either side, no wheel, 6 base inches \("advance-commanded-shot"\)/);
    expect(shape).toBeDefined();
    const centre = { xIn: 36, yIn: 10 - D / 2 };
    const [apex, ...ends] = shape!.vertices;
    expect(apex).toEqual(expect.objectContaining({ xIn: expect.closeTo(centre.xIn, 3), yIn: expect.closeTo(centre.yIn, 3) }));
    expect(ends).toHaveLength(19);
    for (const p of ends) {
      // Every end lies behind, within 45° of straight back, 6" out on open ground.
      expect(Math.hypot(p.xIn - centre.xIn, p.yIn - centre.yIn)).toBeCloseTo(6, 3);
      expect(centre.yIn - p.yIn).toBeGreaterThanOrEqual(6 * Math.cos(Math.PI / 4) - 1e-3);
    }
  });

  it('stops short of a unit behind, and is not held by the enemy front it leaves', () => {
    const friendBehind: WtdrUnitSpec = { id: 'f', side: 'a', troopType: 'commanded-shot', slots: row(WTDR_BASES.shot, 3), at: { xIn: 36, yIn: 10 - D - 3 }, headingDeg: 90 };
    const { shape } = retireOf([unit(), inFront, friendBehind]);
    const straightBack = shape!.vertices[1 + 9]!;
    // The unit's rear (D/2 behind its centre) meets the friend's front 3" behind.
    expect(10 - D / 2 - straightBack.yIn).toBeCloseTo(3, 3);
  });

  it('no Retire when contacted on more than one face, and none drawn without the base move', () => {
    const onFlank = enemy('g', 36 - W - 0.05, 10 - D / 2, 0);
    const { movement, shape } = retireOf([unit(), inFront, onFlank]);
    expect(movement.detail).toMatch(/contacted on more than one face \(front, [a-z, ]*left[a-z, ]*\): no Retire/);
    expect(shape).toBeUndefined();
    const bare = retireOf([unit(), inFront], {});
    expect(bare.movement.detail).toMatch(/enter "advance-commanded-shot" from the app to draw the Retire reach/);
    expect(bare.shape).toBeUndefined();
    expect(bare.ev.warnings).toContainEqual(expect.objectContaining({ code: 'parameter/missing', parameterId: 'advance-commanded-shot' }));
  });
});
