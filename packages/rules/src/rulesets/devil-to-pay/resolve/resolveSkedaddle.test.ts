import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceRequest, Outcome } from '../../../engine/resolve/resolution.ts';
import { applyOutcome, diceForAction, resolveAction } from '../../../engine/resolve/index.ts';
import { devilToPay } from '../index.ts';
import { scene, type SceneUnit } from '../../../../../../fixtures/rules/devil-to-pay/fireTestScene.ts';

const outcome = (r: Outcome | Refusal): Outcome => {
  if ('ok' in r) throw new Error(`expected an outcome, got ${r.reason}: ${r.detail}`);
  return r;
};
const run = { kind: 'skedaddle', unitId: 'u' } as const;
// 'u' faces +y with its colours at (40, 30); an enemy line 6" in front of it.
const me = (extra: Partial<SceneUnit> = {}): SceneUnit => ({ id: 'u', xIn: 40, yIn: 30, headingDeg: 90, ...extra });
const enemyAhead: SceneUnit = { id: 'e', side: 'confederate', xIn: 40, yIn: 36, headingDeg: 270 };

describe('skedaddle after the roll (Skedaddle: Process 1-4)', () => {
  it('falls back the full 3D6" straight away from the enemy, ends disordered facing it and takes one straggler hit', () => {
    const state = scene([me(), enemyAhead]);
    expect(diceForAction(devilToPay, state, run)).toEqual([expect.objectContaining({ id: 'skedaddle', count: 3, sides: 6, reading: 'total' })]);
    const got = outcome(resolveAction(devilToPay, state, run, { skedaddle: [3, 4, 5] }));
    expect(got.result).toBe('Skedaddle 12"');
    const effect = got.effects[0]!;
    expect(effect.move).toMatchObject({ kind: 'retreat', distanceIn: 12 });
    expect(effect.move!.path[0]).toEqual({ xIn: 40, yIn: 30 });
    expect(effect.move!.path[1]!.xIn).toBeCloseTo(40, 9);
    expect(effect.move!.path[1]!.yIn).toBeCloseTo(18, 9);
    expect(effect.move!.endHeadingDeg).toBeCloseTo(90, 6); // facing the enemy
    expect(effect.status).toEqual({ disordered: true, hitsByStand: { 'u-s4': 1 } });
    const after = applyOutcome(state, got);
    expect(after.units.find((u) => u.id === 'u')!.status).toEqual({ disordered: true, hitsByStand: { 'u-s4': 1 } });
  });

  it('adds 6" for mounted cavalry (Armies: Mounted Cavalry) and remounts dismounted cavalry', () => {
    const state = scene([me({ arm: 'cavalry' }), enemyAhead]);
    expect((diceForAction(devilToPay, state, run) as DiceRequest[])[0]).toMatchObject({ count: 3, modifier: 6 });
    expect(outcome(resolveAction(devilToPay, state, run, { skedaddle: [1, 1, 1] })).effects[0]!.move!.distanceIn).toBe(9);
    const onFoot = scene([me({ arm: 'cavalry', status: { dismounted: true } }), enemyAhead]);
    const got = outcome(resolveAction(devilToPay, onFoot, run, { skedaddle: [1, 1, 1] }));
    expect(got.effects[0]!.status?.dismounted).toBe(false);
    expect(got.effects[0]!.text).toContain('remounts');
  });

  it('ignores the straggler hit when it would remove a stand', () => {
    const allHit = { hitsByStand: Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`u-s${i}`, 1])) };
    const got = outcome(resolveAction(devilToPay, scene([me({ status: allHit }), enemyAhead]), run, { skedaddle: [2, 2, 2] }));
    expect(got.effects[0]!.status).toEqual({ disordered: true });
    expect(got.effects[0]!.standsLost).toBeUndefined();
    expect(got.effects[0]!.text).toContain('straggler hit ignored');
  });

  it('keeps within 45° of the rear: an enemy off to the side is fled at the arc\'s edge; the player may pick a rear quarter', () => {
    const enemyEast: SceneUnit = { id: 'e', side: 'confederate', xIn: 50, yIn: 30, headingDeg: 180, stands: 2 };
    const state = scene([me(), enemyEast]);
    const away = outcome(resolveAction(devilToPay, state, run, { skedaddle: [2, 2, 2] })).effects[0]!.move!;
    // Straight away would be due west (180°); the rear arc of a unit facing 90° spans 225°..315°.
    const end = away.path[1]!;
    expect(Math.atan2(end.yIn - 30, end.xIn - 40) * 180 / Math.PI + 360).toBeCloseTo(225, 6);
    const right = outcome(resolveAction(devilToPay, state, { ...run, choices: { direction: 'right-rear' } }, { skedaddle: [2, 2, 2] })).effects[0]!.move!;
    expect(right.path[1]!.xIn).toBeGreaterThan(40);
    expect(() => resolveAction(devilToPay, state, { ...run, choices: { direction: 'forward' } }, { skedaddle: [2, 2, 2] })).toThrow(/direction/);
  });

  it('disorders a friend within 3" it passes through', () => {
    const friend: SceneUnit = { id: 'friend', xIn: 40, yIn: 27, headingDeg: 90 };
    const got = outcome(resolveAction(devilToPay, scene([me(), friend, enemyAhead]), run, { skedaddle: [3, 3, 3] }));
    expect(got.effects.find((e) => e.unitId === 'friend')).toMatchObject({ status: { disordered: true } });
  });

  it('surrenders when it would pass through an enemy unit', () => {
    const behind: SceneUnit = { id: 'x', side: 'confederate', xIn: 40, yIn: 22, headingDeg: 90 };
    const got = outcome(resolveAction(devilToPay, scene([me(), enemyAhead, behind]), run, { skedaddle: [4, 4, 4] }));
    expect(got.result).toBe('Surrenders');
    expect(got.effects).toEqual([expect.objectContaining({ unitId: 'u', removed: true })]);
    expect(got.effects[0]!.move).toBeUndefined();
  });

  it('stops the path at the table edge and says so', () => {
    const state = scene([me({ yIn: 5 }), { ...enemyAhead, yIn: 11 }]);
    const move = outcome(resolveAction(devilToPay, state, run, { skedaddle: [6, 6, 6] })).effects[0]!.move!;
    expect(move.leavesTable).toBe(true);
    expect(move.path[1]!.yIn).toBeCloseTo(0, 9);
    expect(move.distanceIn).toBe(18);
  });

  it('is offered to every unit on the table', () => {
    const state = scene([me(), enemyAhead]);
    expect(devilToPay.resolution!.offered(state, devilToPay.evaluate(state), 'u')).toContainEqual(run);
  });
});
