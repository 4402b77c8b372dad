/**
 * The Devil to Pay FIRE, Eligible Stands (p. 20): which stands may fire (front rank, no hits), which target
 * stands each has in its arc and within range (nearest first), and whether it sees any of them.
 */
import type { PointIn } from '../../../model/units.ts';
import { ownedMemo } from '../../../engine/ownedMemo.ts';
import { pointToPolygonDistanceIn } from '../../../geometry/distance.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { polygonsOverlap } from '../../../geometry/intersect.ts';
import { levelLineObstructed, lineOfSight, standCrossingFraction, type SightBox, type SightReport, type SightScene, type SightStand } from '../../../geometry/lineOfSight.ts';
import { polygonOverlapsPreparedWedge } from '../../../geometry/wedge.ts';
import type { DtpContext, FireArcMemo, StandInfo, UnitInfo } from '../context.ts';
import { boxOutsideArc, outsideArc } from './fireArc.ts';
import { AREA_BLOCK_DEPTH_IN, sightBlocker, type FireScene } from './fireScene.ts';

/** Stands of the unit that may fire at all: front rank (Formation Modifiers "1st Rank"), no hits (Eligible Stands). */
export function firingStands(ctx: DtpContext, unitId: string): readonly StandInfo[] {
  // Asked once per (firer, target) pair: memoised per context.
  const memo = FIRING_STANDS.get(ctx);
  let list = memo.get(unitId);
  if (!list) {
    const front = new Set(ctx.formationOf(unitId).frontRankStandIds);
    list = ctx.units.get(unitId)!.stands.filter((s) => front.has(s.stand.id) && s.hits === 0);
    memo.set(unitId, list);
  }
  return list;
}
const FIRING_STANDS = ownedMemo((_ctx: DtpContext) => new Map<string, readonly StandInfo[]>());

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
export function inArcAndRange(stand: StandInfo, standArc: FireArcMemo, target: UnitInfo, maxIn: number, needArc: boolean): { readonly inArc: boolean; readonly ranged: readonly StandInfo[] } {
  // Every arc lies ahead of the stand's front edge: a target wholly behind that line is out of arc.
  // The facing and the front edge's place along it, memoised with the arc (fireArc.ts).
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

/**
 * What a traced pair's answer rests on besides the two units and the terrain, for a session deciding what
 * to trace again. A line found clear stays clear unless a stand comes onto it; a blocked line stays
 * blocked while the stand that blocked it stays (more stands never clear a line; terrain does not move),
 * or while the blocking unit, moved, still has a stand on it by the same test.
 */
export interface SightTrace {
  /** The clear lines found, as x0, y0, x1, y1 in turn. */
  readonly clear: number[];
  /** Units one of whose stands blocked a line (no duplicates). */
  readonly blockers: string[];
  /**
   * The lines blocked by those units, BLOCKED_STRIDE numbers each: x0, y0, x1, y1, how the stand blocked it
   * (BLOCK_MEETS, BLOCK_CROSSES, or BLOCK_SEEN_OVER for a line with a raised end), and the blocker's place in
   * `blockers`.
   */
  readonly blocked: number[];
}

/** Numbers per blocked line in `SightTrace.blocked`. */
export const BLOCKED_STRIDE = 6;
/** Blocked on level ground with no terrain near: the stand overlaps the line (`lineMeetsStand`). */
export const BLOCK_MEETS = 0;
/** Blocked on level ground near terrain: the stand crosses the line (`standCrossingFraction` >= 0). */
export const BLOCK_CROSSES = 1;
/** Blocked where an end is raised: whether a moved stand still blocks depends on more than the line. */
export const BLOCK_SEEN_OVER = 2;

function blockedBy(trace: SightTrace | undefined, unitId: string, how: number, from: PointIn, to: PointIn): void {
  if (!trace) return;
  let k = trace.blockers.indexOf(unitId);
  if (k < 0) k = trace.blockers.push(unitId) - 1;
  trace.blocked.push(from.xIn, from.yIn, to.xIn, to.yIn, how, k);
}

/** Scratch ends and line for `standStillBlocks`. */
const CHECK_FROM = { xIn: 0, yIn: 0 };
const CHECK_TO = { xIn: 0, yIn: 0 };
const CHECK_LINE: readonly PointIn[] = [CHECK_FROM, CHECK_TO];

/**
 * Whether the troop stand blocks the line (x0, y0) → (x1, y1) by the test `how` that blocked it when traced
 * (BLOCK_MEETS or BLOCK_CROSSES; never for BLOCK_SEEN_OVER): the same answer seesAny would give for it.
 */
export function standStillBlocks(how: number, st: SightStand, x0: number, y0: number, x1: number, y1: number): boolean {
  CHECK_FROM.xIn = x0;
  CHECK_FROM.yIn = y0;
  CHECK_TO.xIn = x1;
  CHECK_TO.yIn = y1;
  if (how === BLOCK_MEETS) return lineMeetsStand(CHECK_LINE, st);
  if (how === BLOCK_CROSSES) return standCrossingFraction(st, CHECK_FROM, CHECK_TO) >= 0;
  return false;
}

function clearLine(trace: SightTrace | undefined, from: PointIn, to: PointIn): true {
  trace?.clear.push(from.xIn, from.yIn, to.xIn, to.yIn);
  return true;
}

/**
 * Walk state of one sight line through the stand grid (module level: no closure per line). The walk
 * visits stands nearest the line's start first, skipping the firer's and the target's own and stale ones.
 */
const walk = {
  stands: NO_STANDS as readonly SightStand[],
  stale: undefined as ReadonlySet<string> | undefined,
  firerId: '',
  targetId: '',
  from: { xIn: 0, yIn: 0 } as PointIn,
  to: { xIn: 0, yIn: 0 } as PointIn,
  line: [] as readonly PointIn[],
  found: undefined as SightStand | undefined,
  collected: [] as SightStand[],
};
/** Whether the stand can block this walk's line at all: not the firer's or the target's, not stale. */
function other(st: SightStand): boolean {
  return st.unitId !== walk.firerId && st.unitId !== walk.targetId && (walk.stale === undefined || !walk.stale.has(st.unitId));
}
/** A stand on the line by the level-ground test of the open-ground path (`lineMeetsStand`). */
const meetsLine = (st: SightStand): boolean => {
  if (!other(st) || !lineMeetsStand(walk.line, st)) return false;
  walk.found = st;
  return true;
};
/** A stand on the line by `standCrossingFraction` (the terrain path's level-line test). */
const crossesLine = (st: SightStand): boolean => {
  if (!other(st) || standCrossingFraction(st, walk.from, walk.to) < 0) return false;
  walk.found = st;
  return true;
};
/** Every other unit's stand near the line (candidates for a full sight report). */
const collect = (st: SightStand): boolean => {
  if (other(st)) walk.collected.push(st);
  return false;
};
const meetsLineAt = (i: number): boolean => meetsLine(walk.stands[i]!);
const crossesLineAt = (i: number): boolean => crossesLine(walk.stands[i]!);
const collectAt = (i: number): boolean => collect(walk.stands[i]!);

/**
 * Offers the scene's stands near the segment to `test` (grid cells first, then the stale units' stands
 * now), until it says stop; whether it did.
 */
function someNearLine(scene: FireScene, from: PointIn, to: PointIn, inGrid: (i: number) => boolean, test: (st: SightStand) => boolean): boolean {
  if (scene.standGrid.someAlongSegment(from.xIn, from.yIn, to.xIn, to.yIn, inGrid)) return true;
  const extra = scene.extraStands;
  if (extra.length === 0) return false;
  // Stale units' stands are skipped in the grid; their stands now are tested here, ruled out by box first.
  walk.stale = undefined;
  let stop = false;
  const minX = Math.min(from.xIn, to.xIn), maxX = Math.max(from.xIn, to.xIn), minY = Math.min(from.yIn, to.yIn), maxY = Math.max(from.yIn, to.yIn);
  for (let i = 0; !stop && i < extra.length; i++) {
    const b = extra[i]!.box;
    if (b.maxX < minX - 0.01 || b.minX > maxX + 0.01 || b.maxY < minY - 0.01 || b.minY > maxY + 0.01) continue;
    stop = test(extra[i]!);
  }
  walk.stale = scene.staleUnits.size > 0 ? scene.staleUnits : undefined;
  return stop;
}

/**
 * Whether a firing stand sees any of the (in-arc, in-range) target stands, nearest first. Only stands in
 * the grid cells a line crosses can touch it, and only terrain meeting the box around the stand's
 * front-edge centre and the target can block it. The firer's and the target's own stands never block.
 * `trace`, when given, collects the clear line found or, when none is, what blocked each line.
 */
export function seesAny(ctx: DtpContext, scene: FireScene, stand: StandInfo, firerId: string, target: UnitInfo, ranged: readonly StandInfo[], trace?: SightTrace): boolean {
  const fromX = (stand.corners[0].xIn + stand.corners[1].xIn) / 2;
  const fromY = (stand.corners[0].yIn + stand.corners[1].yIn) / 2;
  // The box around the front-edge centre and the target, as numbers (sightBoxMeets' test written out).
  const tb = target.box;
  const minX = Math.min(fromX, tb.minXIn);
  const minY = Math.min(fromY, tb.minYIn);
  const maxX = Math.max(fromX, tb.maxXIn);
  const maxY = Math.max(fromY, tb.maxYIn);
  walk.stands = scene.sight.stands;
  walk.stale = scene.staleUnits.size > 0 ? scene.staleUnits : undefined;
  walk.firerId = firerId;
  walk.targetId = target.unit.id;
  // `visibility` holds the elevations and the blocking (non-rough) areas.
  const sight = scene.visibility;
  let terrainMayBlock = false;
  for (let i = 0; !terrainMayBlock && i < sight.elevationBoxes.length; i++) terrainMayBlock = boxMeetsXY(sight.elevationBoxes[i]!, minX, minY, maxX, maxY);
  for (let i = 0; !terrainMayBlock && i < sight.areaBoxes.length; i++) terrainMayBlock = boxMeetsXY(sight.areaBoxes[i]!, minX, minY, maxX, maxY);
  if (!terrainMayBlock) {
    // No elevation or blocking area anywhere near: both ends are on level ground (an elevation under either
    // end would meet the box), so a line is clear exactly when it touches no stand.
    // The stand that blocked one line usually blocks the next (the same friendly line in front): try it first.
    let witness = lastBlockerOf(scene, stand, firerId, target.unit.id);
    // Module scratch ends and line for every line of this loop (nothing keeps them past a test).
    const from = LEVEL_FROM;
    const to = LEVEL_TO;
    const line = LEVEL_LINE;
    from.xIn = fromX;
    from.yIn = fromY;
    for (const t of ranged) {
      closestPointOnPolygonInto(from, t.corners, to);
      if (witness !== undefined && lineMeetsStand(line, witness)) {
        blockedBy(trace, witness.unitId, BLOCK_MEETS, from, to);
        continue;
      }
      walk.line = line;
      if (!someNearLine(scene, from, to, meetsLineAt, meetsLine)) return clearLine(trace, from, to);
      witness = walk.found!;
      scene.lastBlocker.set(stand, witness);
      blockedBy(trace, witness.unitId, BLOCK_MEETS, from, to);
    }
    return false;
  }
  // Scratch ends again (the sight functions below read them and keep nothing).
  const from = TERRAIN_FROM;
  from.xIn = fromX;
  from.yIn = fromY;
  walk.from = from;
  // Stands and terrain are traced apart (lineOfSight's parts are independent): with both ends on level
  // ground the first stand on the line blocks whatever the terrain, so most blocked lines skip the terrain.
  const narrowTerrain: SightScene = { stands: NO_STANDS, terrain: sight.terrain, areaBoxes: sight.areaBoxes, linearBoxes: sight.linearBoxes, elevationBoxes: sight.elevationBoxes };
  const fromFlat = ctx.elevationLevelAt(from) === 0;
  // As above: the stand that blocked the last level line is tried first.
  let witness = lastBlockerOf(scene, stand, firerId, target.unit.id);
  const to = TERRAIN_TO;
  for (const t of ranged) {
    closestPointOnPolygonInto(from, t.corners, to);
    if (fromFlat && ctx.elevationLevelAt(to) === 0) {
      // Both ends on level ground: nothing is seen over, so any stand, a hill between, or more than 6" of a
      // blocking area blocks the line (sightBlocker's answer for level ends, without building a report).
      if (witness !== undefined && standCrossingFraction(witness, from, to) >= 0) {
        blockedBy(trace, witness.unitId, BLOCK_CROSSES, from, to);
        continue;
      }
      walk.to = to;
      if (someNearLine(scene, from, to, crossesLineAt, crossesLine)) {
        witness = walk.found!;
        scene.lastBlocker.set(stand, witness);
        blockedBy(trace, witness.unitId, BLOCK_CROSSES, from, to);
        continue;
      }
      witness = undefined;
      if (!levelLineObstructed(narrowTerrain, from, to, AREA_BLOCK_DEPTH_IN)) return clearLine(trace, from, to);
      continue;
    }
    walk.collected = [];
    someNearLine(scene, from, to, collectAt, collect);
    const near = walk.collected;
    const crossing = near.length > 0 ? lineOfSight({ stands: near, terrain: NO_TERRAIN, areaBoxes: NO_BOXES, linearBoxes: NO_BOXES, elevationBoxes: NO_BOXES }, from, to).stands : [];
    const report: SightReport = { ...lineOfSight(narrowTerrain, from, to), stands: crossing };
    const blocker = sightBlocker(ctx, scene, from, to, report);
    if (blocker === undefined) return clearLine(trace, from, to);
    if (blocker.startsWith('troops:')) blockedBy(trace, blocker.slice('troops:'.length), BLOCK_SEEN_OVER, from, to);
  }
  return false;
}

/** `sightBoxMeets(b, box)` with the box as numbers (no object per call). */
function boxMeetsXY(b: SightBox, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return !(b.maxX < minX || b.minX > maxX || b.maxY < minY || b.minY > maxY);
}

/** seesAny's level-ground scratch: the line's ends and the line itself, rewritten for every line. */
const LEVEL_FROM = { xIn: 0, yIn: 0 };
const LEVEL_TO = { xIn: 0, yIn: 0 };
const LEVEL_LINE: readonly PointIn[] = [LEVEL_FROM, LEVEL_TO];
/** The same for the lines near terrain. */
const TERRAIN_FROM = { xIn: 0, yIn: 0 };
const TERRAIN_TO = { xIn: 0, yIn: 0 };

/** The stand that last blocked a line from this firing stand, unless it belongs to the firer or the target. */
function lastBlockerOf(scene: FireScene, stand: StandInfo, firerId: string, targetId: string): SightStand | undefined {
  const w = scene.lastBlocker.get(stand);
  return w === undefined || w.unitId === firerId || w.unitId === targetId ? undefined : w;
}

/** Whether the sight line [from, to] touches the stand (box first, then the exact overlap test). */
function lineMeetsStand(line: readonly PointIn[], st: SightStand): boolean {
  const a = line[0]!, b = line[1]!;
  const box = st.box;
  if (box.maxX < Math.min(a.xIn, b.xIn) || box.minX > Math.max(a.xIn, b.xIn) || box.maxY < Math.min(a.yIn, b.yIn) || box.minY > Math.max(a.yIn, b.yIn)) return false;
  return polygonsOverlap(line, st.corners);
}
