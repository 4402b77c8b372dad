/**
 * The Devil to Pay (2018), SKEDADDLE: the 3D6" retreat within 45° of the rear, with no terrain penalties;
 * mounted units add 6"; the unit ends disordered facing the enemy and takes one straggler hit (ignored if it
 * would remove a stand); friends within 3" that it passes through are disordered; passing through an enemy
 * means surrender; dismounted cavalry remounts; unlimbered artillery leaves its guns behind.
 */
import type { Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn, PoseIn } from '../../model/units.ts';
import { angleDiffDeg, headingToVector, normalizeDeg, vectorToHeadingDeg } from '../../geometry/angles.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { pointInPolygon, segmentPolygonCrossings } from '../../geometry/intersect.ts';
import { closestPointInArc } from '../../geometry/wedge.ts';
import { boxGapIn, type DtpContext, type UnitInfo } from './context.ts';
import { MOUNTED_BONUS_IN } from './tables/movementTables.ts';
import { hypot2 } from '../../geometry/hypot.ts';

export const SKEDADDLE_SOURCE = 'The Devil to Pay (2018), Skedaddle';
/** 3D6": the least and the most three dice can roll (Skedaddle: Process 1). */
export const SKEDADDLE_MIN_IN = 3;
export const SKEDADDLE_MAX_IN = 18;
/** "The movement can be made within a 45-degree arc of the rear of the unit" (Skedaddle: Notes). */
export const SKEDADDLE_ARC_HALF_DEG = 45;
/** A friendly unit passed through within 3" is disordered (Skedaddle: Skedaddling through Units). */
export const SKEDADDLE_FRIEND_RANGE_IN = 3;

export interface SkedaddleZone {
  readonly ok: true;
  readonly unitId: string;
  /** The point measured from (the unit's reference point: command stand centre). */
  readonly from: PointIn;
  /** Straight back, degrees CCW from +x; the zone spans ±45° of it. */
  readonly rearHeadingDeg: number;
  /** Shortest and longest possible retreat, inches (3..18, +6 mounted). */
  readonly minIn: number;
  readonly maxIn: number;
  /** Mounted (or remounting) cavalry and horse artillery: +6" (Armies, Mounted Cavalry: "also applies to skedaddle"). */
  readonly mountedBonusIn: number;
  /** Dismounted cavalry remounts as part of the skedaddle (Armies, Dismounted Cavalry). */
  readonly remounts: boolean;
  /** Unlimbered artillery leaves its guns behind (Armies, Artillery: Batteries and Sections). */
  readonly abandonsGuns: boolean;
  /** Friendly units within 3" lying in the zone: disordered if the retreat passes through them. */
  readonly friendsAtRisk: readonly string[];
  /** Enemy units in the zone: passing through one means surrender. */
  readonly enemiesInZone: readonly string[];
  /** True when every stand already has a hit, so the straggler hit is ignored. */
  readonly stragglerHitIgnored: boolean;
  readonly notes: readonly string[];
}

export interface SkedaddleOutcome {
  readonly ok: true;
  readonly unitId: string;
  readonly distanceIn: number;
  /** Where the reference point ends, facing the nearest enemy (or the original facing without enemies). */
  readonly end: PoseIn;
  /** The unit ends disordered (always, unless it surrenders). */
  readonly disordered: boolean;
  /** The unit passed through an enemy unit and surrenders. */
  readonly surrenders: boolean;
  readonly surrenderedTo?: string;
  /** Friendly units within 3" passed through: they become disordered. */
  readonly disorderedFriendIds: readonly string[];
  /** One straggler hit, unless it would remove a stand. */
  readonly stragglerHit: 'placed' | 'ignored';
  readonly remounts: boolean;
  readonly abandonsGuns: boolean;
}

function unitFacts(ctx: DtpContext, info: UnitInfo) {
  const reading = ctx.formationOf(info.unit.id);
  const refStand = ctx.stands.get(reading.referenceStandId) ?? info.command ?? info.stands[0]!;
  const remounts = reading.dismounted;
  const mounted = reading.mounted || remounts || info.unit.horseArtillery === true;
  const abandonsGuns = info.unit.arm === 'artillery' && reading.limbered === false;
  const stragglerHitIgnored = info.stands.every((s) => s.hits >= 1);
  return { reading, from: refStand.center, rearHeadingDeg: normalizeDeg(reading.headingDeg + 180), remounts, mountedBonusIn: mounted ? MOUNTED_BONUS_IN : 0, abandonsGuns, stragglerHitIgnored };
}

/**
 * The skedaddle zone of a unit: the ring sector 3..18" (+6" mounted) within 45° of its rear, and who is at
 * risk in it. Skedaddle needs no order and ignores terrain.
 *
 * @returns the zone (or a refusal for a unit with no stands) and a sector shape on the 'movement' layer
 */
export function skedaddleZone(ctx: DtpContext, unitId: string): { zone: SkedaddleZone | Refusal; shapes: readonly Shape[] } {
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`skedaddleZone: no unit '${unitId}' in the table state`);
  if (info.stands.length === 0) return { zone: { ok: false, reason: 'skedaddle/no-stands', detail: 'The unit has no stands on the table' }, shapes: [] };
  const facts = unitFacts(ctx, info);
  const minIn = SKEDADDLE_MIN_IN + facts.mountedBonusIn;
  const maxIn = SKEDADDLE_MAX_IN + facts.mountedBonusIn;
  const inZone = (other: UnitInfo, withinIn: number): boolean =>
    other.stands.some((s) => {
      const p = closestPointInArc(facts.from, facts.rearHeadingDeg, SKEDADDLE_ARC_HALF_DEG, s.corners);
      return p !== undefined && hypot2(p.xIn - facts.from.xIn, p.yIn - facts.from.yIn) <= withinIn;
    });
  const friendsAtRisk: string[] = [];
  for (const friend of ctx.unitsBySide.get(info.unit.side) ?? []) {
    if (friend === info || friend.stands.length === 0) continue;
    if (boxGapIn(friend.box, info.box) > SKEDADDLE_FRIEND_RANGE_IN) continue;
    if (unitGapIn(info, friend) <= SKEDADDLE_FRIEND_RANGE_IN && inZone(friend, maxIn)) friendsAtRisk.push(friend.unit.id);
  }
  const enemiesInZone: string[] = [];
  for (const enemy of ctx.enemiesOf(unitId)) {
    if (enemy.stands.length === 0 || boxGapIn(enemy.box, info.box) > maxIn) continue;
    if (inZone(enemy, maxIn)) enemiesInZone.push(enemy.unit.id);
  }
  const notes = [`Retreat 3D6" (${minIn}..${maxIn}") within 45° of the rear, no terrain penalties; ends disordered facing the enemy (${SKEDADDLE_SOURCE})`];
  if (facts.mountedBonusIn) notes.push(`Mounted +${facts.mountedBonusIn}" (Armies, Mounted Cavalry)`);
  if (facts.remounts) notes.push('Dismounted cavalry remounts as part of the skedaddle (Armies, Dismounted Cavalry)');
  if (facts.abandonsGuns) notes.push('Unlimbered battery leaves its guns behind (Armies, Artillery)');
  notes.push(facts.stragglerHitIgnored ? 'Straggler hit ignored: it would remove a stand' : 'Takes one straggler hit');
  const zone: SkedaddleZone = {
    ok: true,
    unitId,
    from: facts.from,
    rearHeadingDeg: facts.rearHeadingDeg,
    minIn,
    maxIn,
    mountedBonusIn: facts.mountedBonusIn,
    remounts: facts.remounts,
    abandonsGuns: facts.abandonsGuns,
    friendsAtRisk,
    enemiesInZone,
    stragglerHitIgnored: facts.stragglerHitIgnored,
    notes,
  };
  const shapes: Shape[] = [
    {
      id: `${unitId}/skedaddle/zone`,
      kind: 'sector',
      layer: 'movement',
      style: 'warning',
      unitId,
      side: info.unit.side,
      center: facts.from,
      radiusIn: maxIn,
      innerRadiusIn: minIn,
      startDeg: normalizeDeg(facts.rearHeadingDeg - SKEDADDLE_ARC_HALF_DEG),
      endDeg: normalizeDeg(facts.rearHeadingDeg + SKEDADDLE_ARC_HALF_DEG),
    },
  ];
  return { zone, shapes };
}

/** Edge-to-edge gap between two units' stands, inches. */
function unitGapIn(a: UnitInfo, b: UnitInfo): number {
  let best = Infinity;
  for (const s of a.stands) for (const t of b.stands) best = Math.min(best, polygonToPolygonDistanceIn(s.corners, t.corners));
  return best;
}

/** True when any corner's path (or the reference point's) crosses or ends inside the polygon. */
function sweptHits(paths: readonly (readonly [PointIn, PointIn])[], polygon: readonly PointIn[]): boolean {
  return paths.some(([a, b]) => segmentPolygonCrossings(a, b, polygon).length > 0 || pointInPolygon(b, polygon));
}

/**
 * The result of a rolled skedaddle: the unit moves the full distance straight along `directionDeg` (default
 * straight back), then faces the nearest enemy.
 *
 * @param distanceIn the 3D6 roll (plus 6" when mounted), inches; must be positive
 * @param directionDeg retreat direction, degrees CCW from +x; must be within 45° of the rear
 * @returns the outcome, or a refusal when the direction is outside the rear arc
 * @throws when the distance is not a positive finite number
 */
export function skedaddleOutcome(ctx: DtpContext, unitId: string, distanceIn: number, directionDeg?: number): SkedaddleOutcome | Refusal {
  if (!(distanceIn > 0) || !Number.isFinite(distanceIn)) throw new Error(`skedaddleOutcome: distance must be a positive number of inches, got ${distanceIn}`);
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`skedaddleOutcome: no unit '${unitId}' in the table state`);
  if (info.stands.length === 0) return { ok: false, reason: 'skedaddle/no-stands', detail: 'The unit has no stands on the table' };
  const facts = unitFacts(ctx, info);
  const dir = directionDeg ?? facts.rearHeadingDeg;
  if (Math.abs(angleDiffDeg(facts.rearHeadingDeg, dir)) > SKEDADDLE_ARC_HALF_DEG + 1e-9) {
    return { ok: false, reason: 'skedaddle/direction-out-of-arc', detail: 'A skedaddle goes within 45° of the unit\'s rear (Skedaddle: Notes)' };
  }
  const v = headingToVector(dir);
  const shift = (p: PointIn): PointIn => ({ xIn: p.xIn + v.x * distanceIn, yIn: p.yIn + v.y * distanceIn });
  const paths: [PointIn, PointIn][] = [[facts.from, shift(facts.from)]];
  for (const s of info.stands) for (const c of s.corners) paths.push([c, shift(c)]);

  let surrenderedTo: string | undefined;
  let nearestEnemy: PointIn | undefined;
  let nearestIn = Infinity;
  const end = shift(facts.from);
  for (const enemy of ctx.enemiesOf(unitId)) {
    for (const s of enemy.stands) {
      const d = hypot2(s.center.xIn - end.xIn, s.center.yIn - end.yIn);
      if (d < nearestIn) {
        nearestIn = d;
        nearestEnemy = s.center;
      }
    }
    if (surrenderedTo === undefined && boxGapIn(enemy.box, info.box) <= distanceIn && enemy.stands.some((s) => sweptHits(paths, s.corners))) {
      // Skedaddling through Units: "If the skedaddling unit passes through an enemy unit, the skedaddling unit surrenders."
      surrenderedTo = enemy.unit.id;
    }
  }
  const disorderedFriendIds: string[] = [];
  for (const friend of ctx.unitsBySide.get(info.unit.side) ?? []) {
    if (friend === info || friend.stands.length === 0 || boxGapIn(friend.box, info.box) > SKEDADDLE_FRIEND_RANGE_IN) continue;
    if (unitGapIn(info, friend) > SKEDADDLE_FRIEND_RANGE_IN) continue;
    if (friend.stands.some((s) => sweptHits(paths, s.corners))) disorderedFriendIds.push(friend.unit.id);
  }
  const headingDeg = nearestEnemy ? vectorToHeadingDeg(nearestEnemy.xIn - end.xIn, nearestEnemy.yIn - end.yIn) : facts.reading.headingDeg;
  return {
    ok: true,
    unitId,
    distanceIn,
    end: { xIn: end.xIn, yIn: end.yIn, headingDeg },
    disordered: surrenderedTo === undefined,
    surrenders: surrenderedTo !== undefined,
    ...(surrenderedTo !== undefined ? { surrenderedTo } : {}),
    disorderedFriendIds,
    stragglerHit: facts.stragglerHitIgnored ? 'ignored' : 'placed',
    remounts: facts.remounts,
    abandonsGuns: facts.abandonsGuns,
  };
}
