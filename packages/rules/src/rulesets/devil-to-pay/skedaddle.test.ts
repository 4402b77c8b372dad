import { describe, expect, it } from 'vitest';
import type { TableState } from '../../model/tableState.ts';
import { buildContext } from './context.ts';
import { skedaddleOutcome, skedaddleZone, type SkedaddleOutcome, type SkedaddleZone } from './skedaddle.ts';
import { ARTILLERY_BASE, CAVALRY_BASE, INFANTRY_BASE, grid, stateOf, unitAt } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';
import type { UnitSpec } from '../../../../../fixtures/rules/devil-to-pay/movementChargeTestScenes.ts';

/** The skedaddling unit: reference stand centre at (30, 20), facing +y (rear is 270°). */
const runner = (spec: Partial<UnitSpec> = {}, locals = grid(5, 5, INFANTRY_BASE), base: { widthIn: number; depthIn: number } = INFANTRY_BASE) =>
  unitAt({ id: 'r', side: 'union', ...spec }, { xIn: 30, yIn: 20, headingDeg: 90, base }, locals);
const enemyAhead = unitAt({ id: 'e', side: 'csa' }, { xIn: 30, yIn: 26, headingDeg: 270 }, grid(5, 5, INFANTRY_BASE));

function zoneOf(state: TableState): SkedaddleZone {
  const z = skedaddleZone(buildContext(state), 'r').zone;
  if (!z.ok) throw new Error(z.reason);
  return z;
}
function outcomeOf(state: TableState, distanceIn: number, directionDeg?: number): SkedaddleOutcome {
  const o = skedaddleOutcome(buildContext(state), 'r', distanceIn, directionDeg);
  if (!o.ok) throw new Error(o.reason);
  return o;
}

describe('skedaddleZone (Skedaddle)', () => {
  it('is the 3..18" ring sector within 45° of the rear, drawn as a sector', () => {
    const r = skedaddleZone(buildContext(stateOf([runner(), enemyAhead])), 'r');
    const z = r.zone as SkedaddleZone;
    expect(z).toMatchObject({ minIn: 3, maxIn: 18, rearHeadingDeg: 270, mountedBonusIn: 0, remounts: false, abandonsGuns: false, stragglerHitIgnored: false });
    expect(r.shapes[0]).toMatchObject({ kind: 'sector', innerRadiusIn: 3, radiusIn: 18, startDeg: 225, endDeg: 315, center: { xIn: 30, yIn: 20 } });
  });

  it('mounted cavalry adds 6"; dismounted cavalry remounts (and gets the 6" too)', () => {
    const mounted = grid(4, 4, CAVALRY_BASE).map((l, i) => ({ ...l, role: i === 0 ? ('command' as const) : ('mounted' as const) }));
    expect(zoneOf(stateOf([runner({ arm: 'cavalry' }, mounted, CAVALRY_BASE)]))).toMatchObject({ minIn: 9, maxIn: 24, remounts: false });
    const dismounted = [{ u: 0, v: -3, role: 'mounted' as const }, ...grid(4, 4, INFANTRY_BASE, 1.5).map((l) => ({ ...l, role: 'dismounted' as const }))];
    expect(zoneOf(stateOf([runner({ arm: 'cavalry' }, dismounted)]))).toMatchObject({ minIn: 9, maxIn: 24, remounts: true });
  });

  it('an unlimbered battery leaves its guns; a limbered one does not', () => {
    const guns = grid(3, 3, ARTILLERY_BASE).map((l) => ({ ...l, role: 'gun' as const }));
    expect(zoneOf(stateOf([runner({ arm: 'artillery' }, guns, ARTILLERY_BASE)])).abandonsGuns).toBe(true);
    expect(zoneOf(stateOf([runner({ arm: 'artillery', status: { limbered: true } }, guns, ARTILLERY_BASE)])).abandonsGuns).toBe(false);
  });

  it('lists friends within 3" in the zone and enemies in the zone', () => {
    const closeFriend = unitAt({ id: 'f1', side: 'union' }, { xIn: 30, yIn: 17, headingDeg: 90 }, grid(5, 5, INFANTRY_BASE));
    const farFriend = unitAt({ id: 'f2', side: 'union' }, { xIn: 30, yIn: 10, headingDeg: 90 }, grid(5, 5, INFANTRY_BASE));
    const enemyBehind = unitAt({ id: 'e2', side: 'csa' }, { xIn: 30, yIn: 5, headingDeg: 90 }, grid(3, 3, INFANTRY_BASE));
    const z = zoneOf(stateOf([runner(), closeFriend, farFriend, enemyAhead, enemyBehind]));
    expect(z.friendsAtRisk).toEqual(['f1']);
    expect(z.enemiesInZone).toEqual(['e2']);
  });

  it('the straggler hit is ignored when every stand already has one', () => {
    const allHit = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`r-s${i}`, 1]));
    expect(zoneOf(stateOf([runner({ status: { hitsByStand: allHit } })])).stragglerHitIgnored).toBe(true);
    expect(zoneOf(stateOf([runner({ status: { hitsByStand: { 'r-s1': 1 } } })])).stragglerHitIgnored).toBe(false);
  });
});

describe('skedaddleOutcome (Skedaddle)', () => {
  it('moves the full distance straight back, ends disordered facing the enemy, takes a straggler hit', () => {
    const o = outcomeOf(stateOf([runner(), enemyAhead]), 10);
    expect(o.end.xIn).toBeCloseTo(30, 9);
    expect(o.end.yIn).toBeCloseTo(10, 9);
    expect(o.end.headingDeg).toBeCloseTo(90, 9);
    expect(o).toMatchObject({ disordered: true, surrenders: false, stragglerHit: 'placed', disorderedFriendIds: [] });
  });

  it('may go anywhere within 45° of the rear, not beyond', () => {
    const o = outcomeOf(stateOf([runner(), enemyAhead]), 10, 225);
    expect(o.end.xIn).toBeCloseTo(30 - 10 * Math.SQRT1_2, 9);
    const r = skedaddleOutcome(buildContext(stateOf([runner()])), 'r', 10, 200);
    expect(r).toMatchObject({ ok: false, reason: 'skedaddle/direction-out-of-arc' });
  });

  it('disorders friends within 3" it passes through, not friends beside the path or further away', () => {
    const behind = unitAt({ id: 'f1', side: 'union' }, { xIn: 30, yIn: 17, headingDeg: 90 }, grid(5, 5, INFANTRY_BASE));
    const beside = unitAt({ id: 'f2', side: 'union' }, { xIn: 40, yIn: 20, headingDeg: 90 }, grid(3, 3, INFANTRY_BASE));
    const farBehind = unitAt({ id: 'f3', side: 'union' }, { xIn: 30, yIn: 12, headingDeg: 90 }, grid(5, 5, INFANTRY_BASE));
    const o = outcomeOf(stateOf([runner(), behind, beside, farBehind, enemyAhead]), 12);
    expect(o.disorderedFriendIds).toEqual(['f1']);
  });

  it('surrenders when it passes through an enemy unit', () => {
    const enemyBehind = unitAt({ id: 'e2', side: 'csa' }, { xIn: 30, yIn: 12, headingDeg: 90 }, grid(3, 3, INFANTRY_BASE));
    const o = outcomeOf(stateOf([runner(), enemyAhead, enemyBehind]), 12);
    expect(o).toMatchObject({ surrenders: true, surrenderedTo: 'e2', disordered: false });
    // A short roll that stops before the enemy does not surrender.
    expect(outcomeOf(stateOf([runner(), enemyAhead, enemyBehind]), 4).surrenders).toBe(false);
  });

  it('rejects a distance that is not a positive number', () => {
    expect(() => skedaddleOutcome(buildContext(stateOf([runner()])), 'r', 0)).toThrow(/positive/);
  });
});
