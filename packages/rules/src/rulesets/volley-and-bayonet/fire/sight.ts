/**
 * Line of sight as this supplement draws it (Terrain Effects, p. 3; Combat: Firing lanes, p. 5): forests,
 * thickets, woods and town blocks block a line from outside (a stand inside sees out, and is seen, only from
 * the edge; stands inside the same forest or thicket see each other up to 4", in woods up to 12"); swamps do
 * not block; hills block unless the obstacle is no higher than both stands, or one stand is a contour above
 * it and it is nearer the higher stand, or one stand is two contours above it and it is at least 8" from the
 * lower stand; other stands block, except that artillery fires past enemy skirmishers while small arms
 * "must fire at the skirmishers".
 */
import type { PointIn } from '../../../model/units.ts';
import { elevationLevelAt, lineOfSight } from '../../../geometry/lineOfSight.ts';
import { pointInPolygon, segmentInsideIntervals } from '../../../geometry/intersect.ts';
import type { VbContext, VbStand } from '../context.ts';
import { AREA_CLASSES, AREA_KIND_CLASS, HILL_SIGHT_FAR_IN, SIGHT_NEUTRAL_AREA_KINDS } from '../tables/terrain.ts';

export type SightBlock = 'terrain' | 'hill' | 'stands' | 'skirmishers';

export interface SightResult {
  readonly clear: boolean;
  readonly blockedBy?: SightBlock;
  /** Unit of the screening skirmishers, when small arms must fire at them instead. */
  readonly screenUnitId?: string;
}

/** A stand is on the edge of an area when its base is not wholly inside it. */
function onEdge(s: VbStand, polygon: readonly PointIn[]): boolean {
  return !s.corners.every((c) => pointInPolygon(c, polygon));
}

export function isSkirmisher(ctx: VbContext, s: VbStand): boolean {
  if (s.type === 'infantry-skirmisher' || s.type === 'mounted-skirmisher') return true;
  const u = s.unitId !== undefined ? ctx.units.get(s.unitId) : undefined;
  return u !== undefined && u.skirmishOrder;
}

/** Sight along one line from `from` (on the firer) to `to` (on the target). */
export function sightLine(ctx: VbContext, from: PointIn, to: PointIn, firer: VbStand, target: VbStand, artillery: boolean): SightResult {
  const report = lineOfSight(ctx.sight, from, to, { ignoreStandIds: [firer.stand.id, target.stand.id] });
  // Terrain areas.
  for (const a of report.areas) {
    if (SIGHT_NEUTRAL_AREA_KINDS.includes(a.kind)) continue;
    const rule = AREA_CLASSES[AREA_KIND_CLASS[a.kind]];
    if (rule.sight !== 'blocks' || a.lengthInsideIn <= 1e-6) continue;
    const area = ctx.state.terrain.areas.find((x) => x.id === a.id)!;
    const firerIn = pointInPolygon(firer.center, area.vertices);
    const targetIn = pointInPolygon(target.center, area.vertices);
    if (firerIn && targetIn) {
      const within = rule.insideSightIn !== undefined && report.lengthIn <= rule.insideSightIn + 1e-9 && a.lengthInsideIn >= report.lengthIn - 1e-6;
      if (!within) return { clear: false, blockedBy: 'terrain' };
      continue;
    }
    // One inside: it sees out (and is seen) only from the edge; the line may run inside only along its own base.
    let allowedIn = 0;
    if (firerIn) allowedIn += onEdge(firer, area.vertices) ? Math.max(firer.stand.widthIn, firer.stand.depthIn) : 0;
    if (targetIn) allowedIn += onEdge(target, area.vertices) ? Math.max(target.stand.widthIn, target.stand.depthIn) : 0;
    if (a.lengthInsideIn > allowedIn + 1e-6) return { clear: false, blockedBy: 'terrain' };
  }
  // Hills: the obstacle is higher ground between the stands that is not the ground either stands on.
  const fromLevel = elevationLevelAt(firer.center, ctx.state.terrain);
  const toLevel = elevationLevelAt(target.center, ctx.state.terrain);
  if (report.elevation.maxLevelBetween > Math.min(fromLevel, toLevel)) {
    let obstacle = 0;
    let nearFromIn = Infinity;
    let nearToIn = Infinity;
    for (const e of ctx.state.terrain.elevations) {
      if (e.level <= Math.min(fromLevel, toLevel)) continue;
      for (const [t0, t1] of segmentInsideIntervals(from, to, e.vertices)) {
        if (t0 <= 1e-9 && e.level <= fromLevel) continue; // the firer's own hill
        if (t1 >= 1 - 1e-9 && e.level <= toLevel) continue; // the target's own hill
        if (e.level > obstacle) (obstacle = e.level), (nearFromIn = Infinity), (nearToIn = Infinity);
        if (e.level === obstacle) {
          nearFromIn = Math.min(nearFromIn, t0 * report.lengthIn);
          nearToIn = Math.min(nearToIn, (1 - t1) * report.lengthIn);
        }
      }
    }
    if (obstacle > Math.min(fromLevel, toLevel)) {
      const hi = Math.max(fromLevel, toLevel);
      const fromIsHigher = fromLevel >= toLevel;
      const nearHigherIn = fromIsHigher ? nearFromIn : nearToIn;
      const nearLowerIn = fromIsHigher ? nearToIn : nearFromIn;
      const seen =
        (hi - obstacle >= 2 && nearLowerIn >= HILL_SIGHT_FAR_IN - 1e-9) || (hi - obstacle >= 1 && nearHigherIn < nearLowerIn);
      if (!seen) return { clear: false, blockedBy: 'hill' };
    }
  }
  // Stands in the way (commanders' stands do not block: a reading).
  for (const c of report.stands) {
    const s = ctx.standById.get(c.standId);
    if (!s || s.type === 'command') continue;
    if (s.side !== firer.side && isSkirmisher(ctx, s)) {
      if (artillery) continue;
      return { clear: false, blockedBy: 'skirmishers', ...(s.unitId !== undefined ? { screenUnitId: s.unitId } : {}) };
    }
    return { clear: false, blockedBy: 'stands' };
  }
  return { clear: true };
}
