/**
 * The Devil to Pay FIRE, Eligible Stands (p. 20): which stands may fire (front rank, no hits), which target
 * stands each has in its arc and within range (nearest first), and whether it sees any of them.
 */
import type { PointIn } from '../../../model/units.ts';
import { headingToVector } from '../../../geometry/angles.ts';
import { pointToPolygonDistanceIn } from '../../../geometry/distance.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { polygonsOverlap } from '../../../geometry/intersect.ts';
import { levelLineObstructed, lineOfSight, standCrossingFraction, type SightBox, type SightReport, type SightScene, type SightStand } from '../../../geometry/lineOfSight.ts';
import { sortSmall } from '../../../geometry/sortSmall.ts';
import { polygonOverlapsPreparedWedge } from '../../../geometry/wedge.ts';
import type { BoxIn, DtpContext, FireArcMemo, StandInfo, UnitInfo } from '../context.ts';
import { outsideArc } from './fireArc.ts';
import { AREA_BLOCK_DEPTH_IN, sightBlocker, sightBoxMeets, type FireScene } from './fireScene.ts';

// A constant of this module for the per-stand loops (V8 folds a module's own constants, not imports).
const boxMeets = sightBoxMeets;

/** Stands of the unit that may fire at all: front rank (Formation Modifiers "1st Rank"), no hits (Eligible Stands). */
export function firingStands(ctx: DtpContext, unitId: string): readonly StandInfo[] {
  // Asked once per (firer, target) pair: memoised per context.
  let memo = FIRING_STANDS.get(ctx);
  if (!memo) FIRING_STANDS.set(ctx, (memo = new Map()));
  let list = memo.get(unitId);
  if (!list) {
    const front = new Set(ctx.formationOf(unitId).frontRankStandIds);
    list = ctx.units.get(unitId)!.stands.filter((s) => front.has(s.stand.id) && s.hits === 0);
    memo.set(unitId, list);
  }
  return list;
}
const FIRING_STANDS = new WeakMap<DtpContext, Map<string, readonly StandInfo[]>>();

/** Closest point of a polygon to p (closestPointOnSegment per edge, allocating only the answer). */
export function closestPointOnPolygon(p: PointIn, polygon: readonly PointIn[]): PointIn {
  let bestD = Infinity;
  let bestX = polygon[0]!.xIn;
  let bestY = polygon[0]!.yIn;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[j]!;
    const b = polygon[i]!;
    const dx = b.xIn - a.xIn;
    const dy = b.yIn - a.yIn;
    const len2 = dx * dx + dy * dy;
    let qx = a.xIn;
    let qy = a.yIn;
    if (len2 !== 0) {
      let t = ((p.xIn - a.xIn) * dx + (p.yIn - a.yIn) * dy) / len2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      qx = a.xIn + dx * t;
      qy = a.yIn + dy * t;
    }
    const d = hypot2(qx - p.xIn, qy - p.yIn);
    if (d < bestD) {
      bestD = d;
      bestX = qx;
      bestY = qy;
    }
  }
  return { xIn: bestX, yIn: bestY };
}

/** Nearest first (module level: no comparator closure per call). */
const byDistance = (a: { d: number }, b: { d: number }): number => a.d - b.d;

/** Target stands in a firing stand's arc and within the weapon's longest range, nearest first. */
export function inArcAndRange(stand: StandInfo, standArc: FireArcMemo, target: UnitInfo, maxIn: number, needArc: boolean): { inArc: boolean; ranged: StandInfo[] } {
  // Every arc lies ahead of the stand's front edge: a target wholly behind that line is out of arc.
  const f = headingToVector(stand.stand.pose.headingDeg);
  const frontAt = stand.corners[0].xIn * f.x + stand.corners[0].yIn * f.y;
  const b = target.box;
  const ahead = Math.max(b.minXIn * f.x, b.maxXIn * f.x) + Math.max(b.minYIn * f.y, b.maxYIn * f.y);
  if (ahead < frontAt - 1e-9) return { inArc: false, ranged: [] };
  // A stand outside one of the arc's half-planes counts for nothing (neither arc nor range): drop it before
  // measuring. Then range (cheaper than the exact wedge test): a stand out of range needs the wedge test
  // only while no arc is known yet.
  const planes = standArc.planes;
  let inArc = false;
  let ranged: { t: StandInfo; d: number }[] | undefined;
  for (const t of target.stands) {
    if (planes && outsideArc(planes, t.corners)) continue;
    const d = pointToPolygonDistanceIn(stand.center, t.corners);
    const inRange = d <= maxIn;
    if (!inRange && (inArc || !needArc)) continue;
    if (!polygonOverlapsPreparedWedge(standArc.prepared, t.corners)) continue;
    inArc = true;
    if (inRange) (ranged ??= []).push({ t, d });
  }
  if (!ranged) return { inArc, ranged: [] };
  // Stable sort: equal distances keep the target's stand order.
  sortSmall(ranged, byDistance);
  const out: StandInfo[] = new Array(ranged.length);
  for (let i = 0; i < ranged.length; i++) out[i] = ranged[i]!.t;
  return { inArc, ranged: out };
}

const NO_TERRAIN: SightScene['terrain'] = { areas: [], linear: [], roads: [], elevations: [] };
const NO_BOXES: readonly SightBox[] = [];
const NO_STANDS: readonly SightStand[] = [];

/**
 * Whether a firing stand sees any of the (in-arc, in-range) target stands, nearest first. Its lines lie in
 * the box around its front-edge centre and the target, so only stands and terrain meeting that box are tried.
 */
export function seesAny(ctx: DtpContext, scene: FireScene, sight: SightScene, stand: StandInfo, target: UnitInfo, ranged: readonly StandInfo[]): boolean {
  const from = { xIn: (stand.corners[0].xIn + stand.corners[1].xIn) / 2, yIn: (stand.corners[0].yIn + stand.corners[1].yIn) / 2 };
  const box: BoxIn = {
    minXIn: Math.min(from.xIn, target.box.minXIn),
    minYIn: Math.min(from.yIn, target.box.minYIn),
    maxXIn: Math.max(from.xIn, target.box.maxXIn),
    maxYIn: Math.max(from.yIn, target.box.maxYIn),
  };
  const stands: SightStand[] = [];
  for (const st of sight.stands) if (boxMeets(st.box, box)) stands.push(st);
  // `sight` is the visibility scene: its areas are the blocking (non-rough) ones.
  let terrainMayBlock = false;
  for (let i = 0; !terrainMayBlock && i < sight.elevationBoxes.length; i++) terrainMayBlock = boxMeets(sight.elevationBoxes[i]!, box);
  for (let i = 0; !terrainMayBlock && i < sight.areaBoxes.length; i++) terrainMayBlock = boxMeets(sight.areaBoxes[i]!, box);
  if (stands.length === 0 && !terrainMayBlock) return true;
  if (!terrainMayBlock) {
    // No elevation or blocking area anywhere near: both ends are on level ground (an elevation under either
    // end would meet the box), so a line is clear exactly when it touches no stand.
    // The stand that blocked one line usually blocks the next (the same friendly line in front): try it first.
    let witness = -1;
    for (const t of ranged) {
      const to = closestPointOnPolygon(from, t.corners);
      const line = [from, to];
      if (witness >= 0 && lineMeetsStand(line, stands[witness]!)) continue;
      witness = -1;
      for (let k = 0; witness < 0 && k < stands.length; k++) if (lineMeetsStand(line, stands[k]!)) witness = k;
      if (witness < 0) return true;
    }
    return false;
  }
  // Stands and terrain are traced apart (lineOfSight's parts are independent): with both ends on level
  // ground the first stand on the line blocks whatever the terrain, so most blocked lines skip the terrain.
  const narrowStands: SightScene = { stands, terrain: NO_TERRAIN, areaBoxes: NO_BOXES, linearBoxes: NO_BOXES, elevationBoxes: NO_BOXES };
  const narrowTerrain: SightScene = { stands: NO_STANDS, terrain: sight.terrain, areaBoxes: sight.areaBoxes, linearBoxes: sight.linearBoxes, elevationBoxes: sight.elevationBoxes };
  const fromFlat = ctx.elevationLevelAt(from) === 0;
  let witness = -1; // as above: the stand that blocked the last level line is tried first
  for (const t of ranged) {
    const to = closestPointOnPolygon(from, t.corners);
    if (fromFlat && ctx.elevationLevelAt(to) === 0) {
      // Both ends on level ground: nothing is seen over, so any stand, a hill between, or more than 6" of a
      // blocking area blocks the line (sightBlocker's answer for level ends, without building a report).
      if (witness >= 0 && standCrossingFraction(stands[witness]!, from, to) >= 0) continue;
      witness = -1;
      for (let k = 0; witness < 0 && k < stands.length; k++) if (standCrossingFraction(stands[k]!, from, to) >= 0) witness = k;
      if (witness >= 0) continue;
      if (!levelLineObstructed(narrowTerrain, from, to, AREA_BLOCK_DEPTH_IN)) return true;
      continue;
    }
    const crossing = stands.length > 0 ? lineOfSight(narrowStands, from, to).stands : [];
    const report: SightReport = { ...lineOfSight(narrowTerrain, from, to), stands: crossing };
    if (sightBlocker(ctx, scene, from, to, report) === undefined) return true;
  }
  return false;
}

/** Whether the sight line [from, to] touches the stand (box first, then the exact overlap test). */
function lineMeetsStand(line: readonly PointIn[], st: SightStand): boolean {
  const a = line[0]!, b = line[1]!;
  const box = st.box;
  if (box.maxX < Math.min(a.xIn, b.xIn) || box.minX > Math.max(a.xIn, b.xIn) || box.maxY < Math.min(a.yIn, b.yIn) || box.minY > Math.max(a.yIn, b.yIn)) return false;
  return polygonsOverlap(line, st.corners);
}
