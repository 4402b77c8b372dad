/**
 * The Devil to Pay FIRE, Eligible Stands (p. 20): which stands may fire (front rank, no hits), which target
 * stands each has in its arc and within range (nearest first), and whether it sees any of them.
 */
import type { PointIn } from '../../../model/units.ts';
import { query } from '../../../engine/incremental/query.ts';
import { pointToPolygonDistanceIn } from '../../../geometry/distance.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { polygonsOverlap } from '../../../geometry/intersect.ts';
import { levelLineObstructed, lineOfSight, standCrossingFraction, type SightBox, type SightReport, type SightScene, type SightStand } from '../../../geometry/lineOfSight.ts';
import { polygonOverlapsPreparedWedge } from '../../../geometry/wedge.ts';
import type { DtpContext, StandArc, StandInfo, UnitInfo } from '../context.ts';
import type { Stand } from '../../../model/tableState.ts';
import { boxOutsideArc, outsideArc, standArc } from './fireArc.ts';
import { AREA_BLOCK_DEPTH_IN, sightBlocker, type FireScene } from './fireScene.ts';

/** The stands of a unit that may fire at all, with each one's arc of fire for the unit's arm. */
export interface FiringStands {
  readonly stands: readonly StandInfo[];
  readonly arcs: readonly StandArc[];
}

/** Stands of the unit that may fire at all: front rank (Formation Modifiers "1st Rank"), no hits (Eligible Stands). */
export const firingStandsQuery = query('dtp/firing-stands', (ctx: DtpContext, unitId): FiringStands => {
  const info = ctx.units.get(unitId)!;
  const front = new Set(ctx.formationOf(unitId).frontRankStandIds);
  const stands = info.stands.filter((s) => front.has(s.stand.id) && s.hits === 0);
  return { stands, arcs: stands.map((s) => standArc(s, info.unit.arm)) };
});

/** Stands of the unit that may fire at all (see `firingStandsQuery`). */
export function firingStands(ctx: DtpContext, unitId: string): readonly StandInfo[] {
  return ctx.t.get(firingStandsQuery, unitId).stands;
}

/** Closest point of a polygon to p (closestPointOnSegment per edge, allocating only the answer). */
export function closestPointOnPolygon(p: PointIn, polygon: readonly PointIn[]): PointIn {
  return closestPointOnPolygonInto(p, polygon, { xIn: 0, yIn: 0 });
}

/** The nearest point found so far by `nearerOnEdges`, and its distance. */
export interface NearestSoFar {
  d: number;
  x: number;
  y: number;
}

/**
 * Moves `best` to the nearest point to p on the polygon's edges when that is nearer than `best` (the first
 * of equals kept): `closestPointOnSegment` per edge, the same arithmetic, without an object per edge.
 */
export function nearerOnEdges(p: PointIn, polygon: readonly PointIn[], best: NearestSoFar): void {
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
    if (d < best.d) {
      best.d = d;
      best.x = qx;
      best.y = qy;
    }
  }
}

/** Scratch of `closestPointOnPolygonInto` (never re-entered). */
const POLYGON_BEST: NearestSoFar = { d: Infinity, x: 0, y: 0 };

/** `closestPointOnPolygon` written into `out` (returned). */
function closestPointOnPolygonInto(p: PointIn, polygon: readonly PointIn[], out: { xIn: number; yIn: number }): PointIn {
  const best = POLYGON_BEST;
  best.d = Infinity;
  best.x = polygon[0]!.xIn;
  best.y = polygon[0]!.yIn;
  nearerOnEdges(p, polygon, best);
  out.xIn = best.x;
  out.yIn = best.y;
  return out;
}

/** Shared answers without stands in range (most pairs on a big table): callers only read them. */
const NO_RANGED: readonly StandInfo[] = Object.freeze([]);
const NOT_IN_ARC = Object.freeze({ inArc: false, ranged: NO_RANGED });
const IN_ARC_NOT_IN_RANGE = Object.freeze({ inArc: true, ranged: NO_RANGED });

/** Scratch for `inArcAndRange`: stands in range and their distances, nearest first. */
const RANGED_T: (StandInfo | undefined)[] = [];
const RANGED_D: number[] = [];

/** Target stands in a firing stand's arc and within the weapon's longest range, nearest first. */
export function inArcAndRange(stand: StandInfo, standArc: StandArc, target: UnitInfo, maxIn: number, needArc: boolean): { readonly inArc: boolean; readonly ranged: readonly StandInfo[] } {
  // Every arc lies ahead of the stand's front edge: a target wholly behind that line is out of arc.
  // The facing and the front edge's place along it, prepared with the arc (fireArc.ts).
  const fx = standArc.facingX;
  const fy = standArc.facingY;
  const frontAt = standArc.frontAt;
  const b = target.box;
  const ahead = Math.max(b.minXIn * fx, b.maxXIn * fx) + Math.max(b.minYIn * fy, b.maxYIn * fy);
  if (ahead < frontAt - 1e-9) return NOT_IN_ARC;
  // A stand outside one of the arc's half-planes counts for nothing (neither arc nor range): drop it before
  // measuring. Then range (cheaper than the exact wedge test): a stand out of range needs the wedge test
  // only while no arc is known yet.
  const planes = standArc.planes;
  // The target's box wholly outside a half-plane: so is each of its stands (skipped one by one below).
  if (planes && boxOutsideArc(planes, b.minXIn, b.minYIn, b.maxXIn, b.maxYIn)) return NOT_IN_ARC;
  let inArc = false;
  // Stands in range, kept sorted nearest first as they come (insertion after equal distances: the order a
  // stable sort gives, the target's stand order among ties), in module scratch: no object per stand.
  let n = 0;
  for (const t of target.stands) {
    if (planes && outsideArc(planes, t.corners)) continue;
    const d = pointToPolygonDistanceIn(stand.center, t.corners);
    const inRange = d <= maxIn;
    if (!inRange && (inArc || !needArc)) continue;
    if (!polygonOverlapsPreparedWedge(standArc.prepared, t.corners)) continue;
    inArc = true;
    if (!inRange) continue;
    let k = n++;
    for (; k > 0 && RANGED_D[k - 1]! > d; k--) {
      RANGED_D[k] = RANGED_D[k - 1]!;
      RANGED_T[k] = RANGED_T[k - 1];
    }
    RANGED_D[k] = d;
    RANGED_T[k] = t;
  }
  if (n === 0) return inArc ? IN_ARC_NOT_IN_RANGE : NOT_IN_ARC;
  const out: StandInfo[] = new Array(n);
  for (let k = 0; k < n; k++) {
    out[k] = RANGED_T[k]!;
    RANGED_T[k] = undefined; // hold no stand past the call
  }
  return { inArc, ranged: out };
}

const NO_TERRAIN: SightScene['terrain'] = { areas: [], linear: [], roads: [], elevations: [] };
const NO_BOXES: readonly SightBox[] = [];
const NO_STANDS: readonly SightStand[] = [];

/** Room around a firing stand's sight lines in which the stands that may meet them are read (rounding). */
const SIGHT_READ_SLACK_IN = 0.01;

/**
 * A sight line is read in pieces of about this extent across, inches: a long diagonal line's own box holds
 * the neighbours of both ends, which it never meets.
 */
const SIGHT_READ_PIECE_IN = 4;

/**
 * Whether the stand's disc (centre and half diagonal, with room for rounding) comes near the segment: a
 * stand whose footprint meets a line does, so the exact tests need only these (a cull, never a decision).
 */
function discNearSegment(st: Stand, from: PointIn, to: PointIn): boolean {
  const dx = to.xIn - from.xIn;
  const dy = to.yIn - from.yIn;
  const len2 = dx * dx + dy * dy;
  const tc = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((st.pose.xIn - from.xIn) * dx + (st.pose.yIn - from.yIn) * dy) / len2));
  const ex = from.xIn + dx * tc - st.pose.xIn;
  const ey = from.yIn + dy * tc - st.pose.yIn;
  const r = Math.sqrt(st.widthIn * st.widthIn + st.depthIn * st.depthIn) / 2 + 1e-6;
  return ex * ex + ey * ey <= r * r;
}

/** Which test `standOnLine` applies: the open-ground overlap (`lineMeetsStand`) or the crossing (`standCrossingFraction`). */
const MEETS = 0;
const CROSSES = 1;
const PIECE_FROM = { xIn: 0, yIn: 0 };
const PIECE_TO = { xIn: 0, yIn: 0 };
/** The line `standOnLine` tests, as a two-point polygon (module scratch). */
const SEGMENT: PointIn[] = [{ xIn: 0, yIn: 0 }, { xIn: 0, yIn: 0 }];

/**
 * The first troop stand of another unit than firer and target (commanders are individuals, not troop
 * formations, and do not block) that comes near the line from `from` to `to` and passes `test` (MEETS or
 * CROSSES), if any;
 * with `all`, every such stand is collected there instead. The stands are read in pieces along the line
 * from its start, and no further than the first that passes: only a stand moving near the traced part of
 * a line touches the pair, and only one whose footprint comes near the line itself (a segment read).
 */
function standOnLine(ctx: DtpContext, from: PointIn, to: PointIn, firerId: string, targetId: string, test: number, all?: SightStand[]): SightStand | undefined {
  const dx = to.xIn - from.xIn;
  const dy = to.yIn - from.yIn;
  const pieces = Math.max(1, Math.ceil(Math.min(Math.abs(dx), Math.abs(dy)) / SIGHT_READ_PIECE_IN));
  SEGMENT[0] = from;
  SEGMENT[1] = to;
  for (let k = 0; k < pieces; k++) {
    const x0 = from.xIn + (dx * k) / pieces, y0 = from.yIn + (dy * k) / pieces;
    const x1 = k + 1 === pieces ? to.xIn : from.xIn + (dx * (k + 1)) / pieces, y1 = k + 1 === pieces ? to.yIn : from.yIn + (dy * (k + 1)) / pieces;
    PIECE_FROM.xIn = x0;
    PIECE_FROM.yIn = y0;
    PIECE_TO.xIn = x1;
    PIECE_TO.yIn = y1;
    // Module scratch: the reader takes the numbers at once.
    for (const st of ctx.t.standsAlong(PIECE_FROM, PIECE_TO, SIGHT_READ_SLACK_IN)) {
      if (st.role === 'commander' || st.unitId === firerId || st.unitId === targetId || !discNearSegment(st, from, to)) continue;
      const sight = ctx.stands.get(st.id)!.sight;
      if (all !== undefined) {
        if (!all.some((x) => x.id === sight.id)) all.push(sight);
      } else if (test === MEETS ? lineMeetsStand(SEGMENT, sight) : standCrossingFraction(sight, from, to) >= 0) return sight;
    }
  }
  return undefined;
}

/**
 * Whether a firing stand sees any of the (in-arc, in-range) target stands, nearest first. Only stands of
 * other units in a line's box can touch it (read line by line, and not at all for a line the stand that
 * blocked the last one blocks too), and only terrain meeting the box around the stand's front-edge centre
 * and the target can block it. The firer's and the target's own stands never block.
 */
export function seesAny(ctx: DtpContext, scene: FireScene, stand: StandInfo, firerId: string, target: UnitInfo, ranged: readonly StandInfo[]): boolean {
  const fromX = (stand.corners[0].xIn + stand.corners[1].xIn) / 2;
  const fromY = (stand.corners[0].yIn + stand.corners[1].yIn) / 2;
  // The box around the front-edge centre and the target, as numbers (sightBoxMeets' test written out).
  const tb = target.box;
  const minX = Math.min(fromX, tb.minXIn);
  const minY = Math.min(fromY, tb.minYIn);
  const maxX = Math.max(fromX, tb.maxXIn);
  const maxY = Math.max(fromY, tb.maxYIn);
  // `visibility` holds the elevations and the blocking (non-rough) areas.
  const sight = scene.visibility;
  let terrainMayBlock = false;
  for (let i = 0; !terrainMayBlock && i < sight.elevationBoxes.length; i++) terrainMayBlock = boxMeetsXY(sight.elevationBoxes[i]!, minX, minY, maxX, maxY);
  for (let i = 0; !terrainMayBlock && i < sight.areaBoxes.length; i++) terrainMayBlock = boxMeetsXY(sight.areaBoxes[i]!, minX, minY, maxX, maxY);
  if (!terrainMayBlock) {
    // No elevation or blocking area anywhere near: both ends are on level ground (an elevation under either
    // end would meet the box), so a line is clear exactly when it touches no stand.
    // The stand that blocked one line usually blocks the next (the same friendly line in front): try it first.
    let witness: SightStand | undefined;
    const from = { xIn: fromX, yIn: fromY };
    const to = { xIn: 0, yIn: 0 };
    const line: readonly PointIn[] = [from, to];
    for (const t of ranged) {
      closestPointOnPolygonInto(from, t.corners, to);
      if (witness !== undefined && lineMeetsStand(line, witness)) continue;
      witness = standOnLine(ctx, from, to, firerId, target.unit.id, MEETS);
      if (witness === undefined) return true;
    }
    return false;
  }
  const from = { xIn: fromX, yIn: fromY };
  // Stands and terrain are traced apart (lineOfSight's parts are independent): with both ends on level
  // ground the first stand on the line blocks whatever the terrain, so most blocked lines skip the terrain.
  const narrowTerrain: SightScene = { stands: NO_STANDS, terrain: sight.terrain, areaBoxes: sight.areaBoxes, linearBoxes: sight.linearBoxes, elevationBoxes: sight.elevationBoxes };
  const fromFlat = ctx.elevationLevelAt(from) === 0;
  let witness: SightStand | undefined;
  for (const t of ranged) {
    const to = closestPointOnPolygonInto(from, t.corners, { xIn: 0, yIn: 0 });
    if (fromFlat && ctx.elevationLevelAt(to) === 0) {
      // Both ends on level ground: nothing is seen over, so any stand, a hill between, or more than 6" of a
      // blocking area blocks the line (sightBlocker's answer for level ends, without building a report).
      if (witness !== undefined && standCrossingFraction(witness, from, to) >= 0) continue;
      witness = standOnLine(ctx, from, to, firerId, target.unit.id, CROSSES);
      if (witness !== undefined) continue;
      if (!levelLineObstructed(narrowTerrain, from, to, AREA_BLOCK_DEPTH_IN)) return true;
      continue;
    }
    const onLine: SightStand[] = [];
    standOnLine(ctx, from, to, firerId, target.unit.id, CROSSES, onLine);
    const crossing = onLine.length > 0 ? lineOfSight({ stands: onLine, terrain: NO_TERRAIN, areaBoxes: NO_BOXES, linearBoxes: NO_BOXES, elevationBoxes: NO_BOXES }, from, to).stands : [];
    const report: SightReport = { ...lineOfSight(narrowTerrain, from, to), stands: crossing };
    if (sightBlocker(ctx, scene, from, to, report) === undefined) return true;
  }
  return false;
}

/** `sightBoxMeets(b, box)` with the box as numbers (no object per call). */
function boxMeetsXY(b: SightBox, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return !(b.maxX < minX || b.minX > maxX || b.maxY < minY || b.minY > maxY);
}

/** Whether the sight line [from, to] touches the stand (box first, then the exact overlap test). */
function lineMeetsStand(line: readonly PointIn[], st: SightStand): boolean {
  const a = line[0]!, b = line[1]!;
  const box = st.box;
  if (box.maxX < Math.min(a.xIn, b.xIn) || box.minX > Math.max(a.xIn, b.xIn) || box.maxY < Math.min(a.yIn, b.yIn) || box.minY > Math.max(a.yIn, b.yIn)) return false;
  return polygonsOverlap(line, st.corners);
}
