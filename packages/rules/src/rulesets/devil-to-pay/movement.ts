/**
 * The Devil to Pay (2018), MOVE: how far a unit may move and where its reference point (command stand
 * centre) may end up, honouring forward moves, 45° obliques, wheels measured on the outside of the arc,
 * terrain penalties paid when an obstacle is met, obstacles artillery and mounted cavalry cannot cross, and
 * the 1" enemy exclusion.
 *
 * How the reach is built: the open-ground reach of the unit's path family (forward and oblique moves,
 * wheels then moves, moves then wheels) is sampled once per formation shape and stored as a radius per
 * direction ("bin"); then a ray per bin is walked from the unit's leading edge through terrain, friends and
 * enemies, paying penalties against the remaining allowance. Paths that bend (wheels) cost more allowance
 * per inch of displacement; each bin remembers that ratio so penalties are charged in path inches.
 */
import type { MovementOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Formation, LinearTerrainKind, Road } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { closestPointOnSegment } from '../../geometry/distance.ts';
import { pointInPolygon, segmentIntersection } from '../../geometry/intersect.ts';
import type { DtpContext, UnitInfo } from './context.ts';
import { boxGapIn } from './context.ts';
import {
  AREA_TERRAIN_PENALTY_IN,
  AREA_TERRAIN_SOURCE,
  BLOCKS_ARTILLERY_AND_MOUNTED,
  ENEMY_CLEARANCE_IN,
  FACE_COST_IN,
  FUDGE_MOVE_IN,
  LINEAR_TERRAIN_PENALTY_IN,
  LINEAR_TERRAIN_SOURCE,
  MOVEMENT_TABLE_SOURCE,
  OBLIQUE_DEG,
  PASSAGE_OF_LINES_PENALTY_IN,
  ROAD_ENEMY_CLEARANCE_IN,
  ROAD_MOVE_IN,
  MOUNTED_BONUS_IN,
  movementAllowanceIn,
} from './movementTables.ts';

/** Directions sampled around the reference point (11.25° apart: the 45° oblique limit falls on a bin). */
export const REACH_BINS = 32;
const BIN_DEG = 360 / REACH_BINS;

/** Something met on the way: pay `penaltyIn` to cross it, or stop there when `stop` is set. */
export interface PathEvent {
  /** Displacement of the unit when it meets the obstacle, inches. */
  readonly atIn: number;
  readonly penaltyIn: number;
  /** The unit may not cross (impassable terrain, enemy exclusion, table edge). */
  readonly stop?: boolean;
  readonly label: string;
}

export interface PathWalk {
  /** How far the unit gets, inches of displacement. */
  readonly reachIn: number;
  /** The obstacle it stopped at, if any. */
  readonly stoppedBy?: string;
  /** Penalties paid on the way, inches. */
  readonly paidIn: number;
}

/**
 * Walk a straight path paying penalties when obstacles are met (Move: Terrain Penalties): "When a unit moves
 * and does not have enough movement to overcome an obstacle it stops" at it.
 *
 * @param allowanceIn movement allowance, inches of path
 * @param events obstacles on the way (any order)
 * @param pathPerDisplacement inches of path used per inch of displacement (1 for a straight move; more
 *   when the path wheels)
 * @param maxDisplacementIn how far the path could go on open ground, inches (default allowance / ratio)
 * @example walkPenalties(12, [{ atIn: 10, penaltyIn: 3, label: 'fence' }]).reachIn // 10 (stops at the fence)
 */
export function walkPenalties(allowanceIn: number, events: readonly PathEvent[], pathPerDisplacement = 1, maxDisplacementIn?: number): PathWalk {
  const k = pathPerDisplacement;
  let budget = allowanceIn;
  let paid = 0;
  let limit = maxDisplacementIn ?? allowanceIn / k;
  const sorted = [...events].sort((a, b) => a.atIn - b.atIn);
  for (const e of sorted) {
    const at = Math.max(0, e.atIn);
    // Out of movement before reaching it (strictly: reaching it exactly with nothing left is stopping there).
    if (at * k >= budget || at >= limit) break;
    if (e.stop) return { reachIn: at, stoppedBy: e.label, paidIn: paid };
    if (budget - at * k < e.penaltyIn) return { reachIn: at, stoppedBy: e.label, paidIn: paid };
    budget -= e.penaltyIn;
    paid += e.penaltyIn;
  }
  limit = Math.min(limit, budget / k);
  return { reachIn: Math.max(0, limit), paidIn: paid };
}

/** Open-ground reach radius per bin (bin 0 = straight ahead, counter-clockwise), and the formation shape it came from. */
interface OpenReach {
  readonly radiusIn: Float64Array;
}

const openReachCache = new Map<string, OpenReach>();

/** Unit vectors of the directions (bin 0 straight ahead, counter-clockwise), in the unit's frame. */
const BIN_COS = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.cos((b * 2 * Math.PI) / REACH_BINS));
const BIN_SIN = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.sin((b * 2 * Math.PI) / REACH_BINS));

const originMaskCache = new Map<string, Int32Array>();

/**
 * For each direction, which of the outline's 8 points (corners and edge midpoints of the unit's bounding
 * rectangle, half-size hx forward and hy sideways) rays leave from: the corners that lead that way.
 */
function originMasks(hx: number, hy: number): Int32Array {
  const key = `${hx.toFixed(2)}|${hy.toFixed(2)}`;
  const hit = originMaskCache.get(key);
  if (hit) return hit;
  const offsets = [[hx, hy], [hx, 0], [hx, -hy], [0, -hy], [-hx, -hy], [-hx, 0], [-hx, hy], [0, hy]] as const;
  const masks = new Int32Array(REACH_BINS);
  for (let b = 0; b < REACH_BINS; b++) {
    // The leading corners suffice: contact between two convex outlines under translation happens at a
    // corner of one of them, and the obstacles' corners are cast back separately.
    for (const i of [0, 2, 4, 6]) {
      const [x, y] = offsets[i]!;
      if (x * BIN_COS[b]! + y * BIN_SIN[b]! > 1e-9) masks[b] = masks[b]! | (1 << i);
    }
  }
  if (originMaskCache.size > 2000) originMaskCache.clear();
  originMaskCache.set(key, masks);
  return masks;
}

/** Per-direction group lists, reused between calls (cleared at the start of each; never escapes a call). */
const BIN_GROUPS: number[][] = Array.from({ length: REACH_BINS }, () => []);

/**
 * Open-ground reach for a unit whose reference point is at the origin facing +x, with front corners at
 * (frontXIn, leftYIn) and (frontXIn, rightYIn) (left positive). Forward and oblique moves, wheels about
 * either front corner costing frontage × angle (Move: Movement, Wheel: measure the outside of the arc).
 */
function openReach(allowanceIn: number, frontXIn: number, leftYIn: number, rightYIn: number, oblique: boolean, anyDirection: boolean): OpenReach {
  const key = `${allowanceIn.toFixed(2)}|${frontXIn.toFixed(2)}|${leftYIn.toFixed(2)}|${rightYIn.toFixed(2)}|${oblique}|${anyDirection}`;
  const hit = openReachCache.get(key);
  if (hit) return hit;
  const radiusIn = new Float64Array(REACH_BINS);
  if (anyDirection) {
    radiusIn.fill(allowanceIn);
  } else {
    const put = (x: number, y: number): void => {
      const r = Math.hypot(x, y);
      if (r < 1e-9) return;
      let deg = (Math.atan2(y, x) * 180) / Math.PI;
      if (deg < 0) deg += 360;
      const b = Math.round(deg / BIN_DEG) % REACH_BINS;
      if (r > radiusIn[b]!) radiusIn[b] = r;
    };
    const frontageIn = Math.max(0.1, leftYIn - rightYIn);
    const obliques: number[] = [];
    if (oblique) for (let a = -OBLIQUE_DEG; a <= OBLIQUE_DEG + 1e-9; a += BIN_DEG / 2) obliques.push((a * Math.PI) / 180);
    else obliques.push(0);
    const maxWheel = Math.min(Math.PI, allowanceIn / frontageIn);
    const steps = 24;
    for (let i = 0; i <= steps; i++) {
      const theta = (maxWheel * i) / steps;
      const rest = allowanceIn - theta * frontageIn;
      if (rest < -1e-9) break;
      for (const dir of [1, -1]) {
        // Wheel left pivots on the left front corner; wheel right on the right one.
        const py = dir > 0 ? leftYIn : rightYIn;
        const t = dir * theta;
        const c = Math.cos(t);
        const s = Math.sin(t);
        // Reference point (origin) rotated about the pivot (frontX, py).
        const wx = frontXIn + (0 - frontXIn) * c - (0 - py) * s;
        const wy = py + (0 - frontXIn) * s + (0 - py) * c;
        put(wx, wy);
        for (const a of obliques) {
          // Then straight on (or obliquely) in the new facing with what is left.
          put(wx + Math.cos(t + a) * rest, wy + Math.sin(t + a) * rest);
          for (let f = 0.25; f < 1; f += 0.25) put(wx + Math.cos(t + a) * rest * f, wy + Math.sin(t + a) * rest * f);
        }
        // Or straight on first, then wheel at the end.
        const mx = rest + frontXIn;
        const ex = mx + (0 - frontXIn) * c - (0 - py) * s;
        const ey = py + (0 - frontXIn) * s + (0 - py) * c;
        put(ex, ey);
      }
    }
  }
  const out = { radiusIn };
  if (openReachCache.size > 2000) openReachCache.clear();
  openReachCache.set(key, out);
  return out;
}

/** Extra facts a Devil to Pay movement option carries beyond the contract. */
export interface DtpMovementOption extends MovementOption {
  readonly formation: Formation;
  /** Whether the unit may oblique (green troops may not). */
  readonly oblique: boolean;
  /** 18" (+6" mounted) along a road for march column / limbered artillery beyond 12" of the enemy. */
  readonly roadAllowanceIn?: number;
  /** Road reach as polylines from the reference point along the road(s). */
  readonly roadReach?: readonly (readonly PointIn[])[];
  /** Fudge move: 3" in any direction, no terrain effects, still 1" from the enemy. */
  readonly fudgeReach: readonly PointIn[];
  /** Left/Right Face (March Column <-> Line): costs 3"; what is left to move in the new formation. */
  readonly face?: { readonly toFormation: Formation; readonly costIn: number; readonly remainingIn: number };
  /** Straight ahead: how far on this table, and what stops the unit, if anything. */
  readonly straightAheadIn: number;
  readonly straightAheadStoppedBy?: string;
}

export interface MovementResult {
  readonly movement: DtpMovementOption | Refusal;
  readonly shapes: readonly Shape[];
}

interface Box {
  minXIn: number;
  minYIn: number;
  maxXIn: number;
  maxYIn: number;
}

function boxOfPoints(points: readonly PointIn[]): Box {
  const b = { minXIn: Infinity, minYIn: Infinity, maxXIn: -Infinity, maxYIn: -Infinity };
  for (const p of points) {
    if (p.xIn < b.minXIn) b.minXIn = p.xIn;
    if (p.xIn > b.maxXIn) b.maxXIn = p.xIn;
    if (p.yIn < b.minYIn) b.minYIn = p.yIn;
    if (p.yIn > b.maxYIn) b.maxYIn = p.yIn;
  }
  return b;
}

/** A piece of something a move can meet: a segment (terrain) or a stand rectangle, with a bounding disc. */
interface Obstacle {
  /** Corners as [x0, y0, x1, y1, ...]: a grown rectangle's four, or a segment's two ends. */
  readonly corners: Float64Array;
  readonly seg: Float64Array | undefined;
  readonly rect: Float64Array | undefined;
  readonly grow: number;
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
}

function segmentObstacle(a: PointIn, b: PointIn): Obstacle {
  const seg = Float64Array.of(a.xIn, a.yIn, b.xIn, b.yIn);
  // Same fields in the same order as rectObstacle's: one object shape keeps the ray loops monomorphic (a
  // second shape deoptimised movementOptions over and over while the JIT warmed up).
  return {
    corners: seg,
    seg,
    rect: undefined,
    grow: 0,
    cx: (a.xIn + b.xIn) / 2,
    cy: (a.yIn + b.yIn) / 2,
    r: Math.hypot(b.xIn - a.xIn, b.yIn - a.yIn) / 2,
  };
}

/** Rectangle frames per stand footprint, kept while the footprint object lives (sessions reuse them). */
const rectFrames = new WeakMap<object, Float64Array>();

/** [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth, halfDiagonal] of a stand from its corners [FL, FR, RR, RL]. */
function rectFrame(corners: readonly PointIn[]): Float64Array {
  const cached = rectFrames.get(corners);
  if (cached) return cached;
  const fl = corners[0]!;
  const fr = corners[1]!;
  const rr = corners[2]!;
  const w = Math.hypot(fr.xIn - fl.xIn, fr.yIn - fl.yIn);
  const d = Math.hypot(fr.xIn - rr.xIn, fr.yIn - rr.yIn);
  const frame = Float64Array.of(
    (fl.xIn + rr.xIn) / 2,
    (fl.yIn + rr.yIn) / 2,
    (fr.xIn - fl.xIn) / w,
    (fr.yIn - fl.yIn) / w,
    (fr.xIn - rr.xIn) / d,
    (fr.yIn - rr.yIn) / d,
    w / 2,
    d / 2,
    Math.hypot(w, d) / 2,
  );
  rectFrames.set(corners, frame);
  return frame;
}

const rectObstacles = new Map<number, WeakMap<object, Obstacle>>();

/** A stand rectangle as an obstacle, grown by `grow` inches (0 friends, 1" enemies); kept while the footprint lives. */
function rectObstacle(corners: readonly PointIn[], grow: number): Obstacle {
  let cache = rectObstacles.get(grow);
  if (!cache) rectObstacles.set(grow, (cache = new WeakMap()));
  const hit = cache.get(corners);
  if (hit) return hit;
  const rect = rectFrame(corners);
  // The bounding radius (half diagonal) is kept in the frame's spare slot.
  const hu = rect[6]! + grow;
  const hv = rect[7]! + grow;
  const grown = new Float64Array(8);
  let k = 0;
  for (const [a, b] of [[1, 1], [1, -1], [-1, -1], [-1, 1]] as const) {
    grown[k++] = rect[0]! + a * hu * rect[2]! + b * hv * rect[4]!;
    grown[k++] = rect[1]! + a * hu * rect[3]! + b * hv * rect[5]!;
  }
  const o: Obstacle = { corners: grown, seg: undefined, rect, grow, cx: rect[0]!, cy: rect[1]!, r: rect[8]! + grow };
  cache.set(corners, o);
  return o;
}

/** A terrain feature's box and segments, kept while the feature object lives (sessions reuse states' terrain). */
const terrainPieces = new WeakMap<object, { box: Box; segments: Obstacle[] }>();

function piecesOf(feature: object, points: readonly PointIn[], closed: boolean): { box: Box; segments: Obstacle[] } {
  const hit = terrainPieces.get(feature);
  if (hit) return hit;
  const segments: Obstacle[] = [];
  for (let i = 0; i + 1 < points.length; i++) segments.push(segmentObstacle(points[i]!, points[i + 1]!));
  if (closed && points.length > 2) segments.push(segmentObstacle(points[points.length - 1]!, points[0]!));
  const pieces = { box: boxOfPoints(points), segments };
  terrainPieces.set(feature, pieces);
  return pieces;
}

/**
 * Distance along the ray from (ox, oy) with unit direction (dx, dy) to segment [ax, ay, bx, by], or -1 when
 * it misses within `lenIn`. (Same maths as geometry/intersect's segmentIntersection, without allocating:
 * this runs tens of thousands of times per table.)
 */
function raySegmentIn(ox: number, oy: number, dx: number, dy: number, lenIn: number, seg: Float64Array): number {
  const ax = seg[0]!;
  const ay = seg[1]!;
  const sx = seg[2]! - ax;
  const sy = seg[3]! - ay;
  const denom = dx * sy - dy * sx;
  if (Math.abs(denom) < 1e-12) return -1;
  const qx = ax - ox;
  const qy = ay - oy;
  const t = (qx * sy - qy * sx) / denom;
  if (t < -1e-9 || t > lenIn) return -1;
  const u = (qx * dy - qy * dx) / denom;
  if (u < -1e-9 || u > 1 + 1e-9) return -1;
  return Math.max(0, t);
}

/**
 * Distance along a ray to where it enters a stand rectangle grown by `growIn` on every side, or -1.
 * A ray that starts inside counts as meeting it at 0 only when it heads toward the rectangle's centre, so
 * a unit already too close may still move away; a ray that only grazes its start point does not count.
 */
function rayIntoRectIn(ox: number, oy: number, dx: number, dy: number, frame: Float64Array, growIn: number): number {
  const cx = frame[0]!;
  const cy = frame[1]!;
  const ux = frame[2]!;
  const uy = frame[3]!;
  const nx = frame[4]!;
  const ny = frame[5]!;
  const hu = frame[6]! + growIn;
  const hv = frame[7]! + growIn;
  const ou = (ox - cx) * ux + (oy - cy) * uy;
  const ov = (ox - cx) * nx + (oy - cy) * ny;
  const du = dx * ux + dy * uy;
  const dv = dx * nx + dy * ny;
  let t0 = 0;
  let t1 = Infinity;
  // Grazing along an edge (touching neighbours, exactly 1" from an enemy) is not meeting it.
  if (Math.abs(du) < 1e-12) {
    if (ou <= -hu + 1e-6 || ou >= hu - 1e-6) return -1;
  } else {
    const a = (-hu - ou) / du;
    const b = (hu - ou) / du;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  }
  if (Math.abs(dv) < 1e-12) {
    if (ov <= -hv + 1e-6 || ov >= hv - 1e-6) return -1;
  } else {
    const a = (-hv - ov) / dv;
    const b = (hv - ov) / dv;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  }
  if (t0 > t1 || t1 <= 1e-9) return -1;
  if (t0 === 0 && (cx - ox) * dx + (cy - oy) * dy <= 0) return -1;
  return t0;
}

/** Distance from a point to the nearest stand of any enemy unit, inches (centre-to-edge, cheap bound). */
function nearestEnemyIn(ctx: DtpContext, info: UnitInfo): number {
  let best = Infinity;
  for (const e of ctx.enemiesOf(info.unit.id)) {
    const gap = boxGapIn(info.box, e.box);
    if (gap < best) best = gap;
  }
  return best;
}

/**
 * Walk `distIn` inches along a road polyline from `start` (on segment `seg`), forward or backward, stopping
 * early where `blocked` says so (sampled every quarter inch). Returns the polyline walked.
 */
function walkRoad(points: readonly PointIn[], seg: number, start: PointIn, forward: boolean, distIn: number, blocked: (p: PointIn) => boolean): PointIn[] {
  const out: PointIn[] = [start];
  let left = distIn;
  let at = start;
  let i = forward ? seg + 1 : seg;
  const stepIn = 0.25;
  while (left > 1e-9 && i >= 0 && i < points.length) {
    const next = points[i]!;
    const len = Math.hypot(next.xIn - at.xIn, next.yIn - at.yIn);
    const take = Math.min(len, left);
    for (let d = Math.min(stepIn, take); ; d = Math.min(d + stepIn, take)) {
      const p = len === 0 ? next : { xIn: at.xIn + ((next.xIn - at.xIn) * d) / len, yIn: at.yIn + ((next.yIn - at.yIn) * d) / len };
      if (blocked(p)) {
        const back = Math.max(0, d - stepIn);
        if (back > 0) out.push(len === 0 ? next : { xIn: at.xIn + ((next.xIn - at.xIn) * back) / len, yIn: at.yIn + ((next.yIn - at.yIn) * back) / len });
        return out;
      }
      if (d >= take) {
        out.push(p);
        at = p;
        break;
      }
    }
    left -= take;
    i += forward ? 1 : -1;
  }
  return out;
}

function insideGrownRect(p: PointIn, frame: Float64Array, growIn: number): boolean {
  const ou = (p.xIn - frame[0]!) * frame[2]! + (p.yIn - frame[1]!) * frame[3]!;
  const ov = (p.xIn - frame[0]!) * frame[4]! + (p.yIn - frame[1]!) * frame[5]!;
  return Math.abs(ou) <= frame[6]! + growIn && Math.abs(ov) <= frame[7]! + growIn;
}

function roadReach(ctx: DtpContext, info: UnitInfo, ref: PointIn, roads: readonly Road[], distIn: number, leadIn: number): PointIn[][] {
  const out: PointIn[][] = [];
  const enemies = ctx.enemiesOf(info.unit.id).flatMap((e) => e.stands);
  const blocked = (p: PointIn): boolean => enemies.some((s) => insideGrownRect(p, rectFrame(s.corners), ENEMY_CLEARANCE_IN + leadIn));
  for (const road of roads) {
    const half = (road.widthIn ?? 1) / 2;
    for (let i = 0; i + 1 < road.points.length; i++) {
      const a = road.points[i]!;
      const b = road.points[i + 1]!;
      const c = closestPointOnSegment(ref, a, b);
      // On the road: the reference point within the road's width (plus half an inch of placement slack).
      if (Math.hypot(c.xIn - ref.xIn, c.yIn - ref.yIn) > half + 0.5) continue;
      out.push(walkRoad(road.points, i, c, true, distIn, blocked), walkRoad(road.points, i, c, false, distIn, blocked));
      break;
    }
  }
  return out.filter((l) => l.length > 1);
}

/** What `collectObstacles` reads. */
interface ObstacleSetup {
  readonly ctx: DtpContext;
  readonly info: UnitInfo;
  readonly unitId: string;
  readonly reachBox: Box;
  readonly rectTable: readonly PointIn[];
  readonly cannotCrossObstacles: boolean;
  readonly ref: PointIn;
  readonly unitRadiusIn: number;
  readonly maxOpenIn: number;
  readonly headingDeg: number;
  readonly open: OpenReach;
}

/**
 * Terrain, friends and enemies within the reach box as obstacle pieces grouped by what they belong to, and
 * which direction bins each group can matter for. Split out of movementOptions to keep each compiled
 * function small (see walkReach).
 */
function collectObstacles(o: ObstacleSetup) {
  const { ctx, info, unitId, reachBox, rectTable, cannotCrossObstacles, ref, unitRadiusIn, maxOpenIn, headingDeg, open } = o;
  const unit = info.unit;
  const near = (b: Box): boolean => !(b.maxXIn < reachBox.minXIn || b.minXIn > reachBox.maxXIn || b.maxYIn < reachBox.minYIn || b.minYIn > reachBox.maxYIn);
  // What can be met, each once per direction ("key"), and the pieces (segments, stand rectangles) that make it.
  const keys: { penaltyIn: number; stop: boolean; label: string; insideMask: number }[] = [];
  const obstacles: Obstacle[] = [];
  const startEvents: PathEvent[] = [];
  // Units' bounding discs come straight from their boxes.
  const unitDiscs = new Map<number, { cx: number; cy: number; r: number }>();
  const discOfBox = (b: Box, growIn: number) => ({ cx: (b.minXIn + b.maxXIn) / 2, cy: (b.minYIn + b.maxYIn) / 2, r: Math.hypot(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) / 2 + growIn });
  const obstacleKeys: number[] = [];
  const add = (key: number, o: Obstacle): void => {
    obstacles.push(o);
    obstacleKeys.push(key);
  };
  for (const line of ctx.state.terrain.linear) {
    const penalty = LINEAR_TERRAIN_PENALTY_IN[line.kind];
    if (penalty === 0) continue;
    const pieces = piecesOf(line, line.points, false);
    if (!near(pieces.box)) continue;
    const stop = penalty === undefined || (cannotCrossObstacles && BLOCKS_ARTILLERY_AND_MOUNTED.has(line.kind as LinearTerrainKind));
    const key = keys.push({ penaltyIn: penalty ?? 0, stop, label: `${line.kind} '${line.id}'`, insideMask: 0 }) - 1;
    for (const o of pieces.segments) add(key, o);
  }
  for (const area of ctx.state.terrain.areas) {
    const pieces = piecesOf(area, area.vertices, true);
    if (!near(pieces.box)) continue;
    const penaltyIn = AREA_TERRAIN_PENALTY_IN[area.kind];
    const label = `${area.kind} '${area.id}'`;
    if (pointInPolygon(ref, area.vertices)) {
      // Starting inside area terrain: the penalty is met at once.
      startEvents.push({ atIn: 0, penaltyIn, label });
      continue;
    }
    // Outline points already inside (part of the unit is in it): met at once when moving from them.
    let insideMask = 0;
    rectTable.forEach((p, i) => {
      if (pointInPolygon(p, area.vertices)) insideMask |= 1 << i;
    });
    const key = keys.push({ penaltyIn, stop: false, label, insideMask }) - 1;
    for (const o of pieces.segments) add(key, o);
  }
  for (const friend of ctx.unitsBySide.get(unit.side) ?? []) {
    if (friend === info || friend.stands.length === 0 || !near(friend.box)) continue;
    const key = keys.push({ penaltyIn: PASSAGE_OF_LINES_PENALTY_IN, stop: false, label: `passage of lines through '${friend.unit.id}'`, insideMask: 0 }) - 1;
    unitDiscs.set(key, discOfBox(friend.box, 0));
    for (const s of friend.stands) add(key, rectObstacle(s.corners, 0));
  }
  for (const enemy of ctx.enemiesOf(unitId)) {
    if (enemy.stands.length === 0 || !near(enemy.box)) continue;
    const key = keys.push({ penaltyIn: 0, stop: true, label: `1" from enemy '${enemy.unit.id}'`, insideMask: 0 }) - 1;
    unitDiscs.set(key, discOfBox(enemy.box, ENEMY_CLEARANCE_IN));
    for (const s of enemy.stands) add(key, rectObstacle(s.corners, ENEMY_CLEARANCE_IN));
  }

  // Pieces grouped by what they belong to (a fence, a wood, a unit), each group with a bounding disc, so
  // one cheap test skips a whole unit or wood.
  const groups: { members: number[]; cx: number; cy: number; r: number }[] = keys.map(() => ({ members: [], cx: 0, cy: 0, r: 0 }));
  for (let i = 0; i < obstacles.length; i++) groups[obstacleKeys[i]!]!.members.push(i);
  for (const [key, disc] of unitDiscs) Object.assign(groups[key]!, disc);
  for (const [key, g] of groups.entries()) {
    if (unitDiscs.has(key)) continue;
    for (const i of g.members) {
      g.cx += obstacles[i]!.cx / g.members.length;
      g.cy += obstacles[i]!.cy / g.members.length;
    }
    for (const i of g.members) {
      const o = obstacles[i]!;
      g.r = Math.max(g.r, Math.hypot(o.cx - g.cx, o.cy - g.cy) + o.r);
    }
  }

  // Which directions each group can matter for: its disc grown by the unit's radius, seen from the
  // reference point (a ray from any outline point is a ray from the reference point shifted by at most that).
  const binGroups = BIN_GROUPS;
  for (const list of binGroups) list.length = 0;
  const headingRad = (headingDeg * Math.PI) / 180;
  groups.forEach((g, gi) => {
    if (g.members.length === 0) return;
    const ox = g.cx - ref.xIn;
    const oy = g.cy - ref.yIn;
    const dist = Math.hypot(ox, oy);
    const grown = g.r + unitRadiusIn;
    if (dist - grown > maxOpenIn + 0.01) return;
    if (dist <= grown) {
      for (let b = 0; b < REACH_BINS; b++) if (open.radiusIn[b]! > 1e-9) binGroups[b]!.push(gi);
      return;
    }
    const centreDeg = ((Math.atan2(oy, ox) - headingRad) * 180) / Math.PI;
    const halfDeg = (Math.asin(grown / dist) * 180) / Math.PI + BIN_DEG / 2;
    const lo = Math.floor((centreDeg - halfDeg) / BIN_DEG);
    const hi = Math.ceil((centreDeg + halfDeg) / BIN_DEG);
    for (let b = lo; b <= hi && b < lo + REACH_BINS; b++) {
      const bb = b < 0 ? b + REACH_BINS * Math.ceil(-b / REACH_BINS) : b % REACH_BINS;
      if (open.radiusIn[bb]! > 1e-9) binGroups[bb]!.push(gi);
    }
  });

  return { keys, obstacles, startEvents, groups, binGroups };
}

/** Everything the per-direction walk reads (see `walkReach`). */
interface ReachSetup {
  readonly open: OpenReach;
  readonly allowanceIn: number;
  readonly f: { x: number; y: number };
  readonly masks: Int32Array;
  readonly keys: readonly { penaltyIn: number; stop: boolean; label: string; insideMask: number }[];
  readonly rectTable: readonly PointIn[];
  readonly binGroups: readonly (readonly number[])[];
  readonly groups: readonly { members: number[]; cx: number; cy: number; r: number }[];
  readonly obstacles: readonly Obstacle[];
  readonly firstAt: Float64Array;
  readonly table: { readonly widthIn: number; readonly depthIn: number };
  readonly ourFrame: Float64Array;
  readonly unitRadiusIn: number;
  readonly startEvents: readonly PathEvent[];
  readonly ref: PointIn;
}

/**
 * The reach per direction: rays from the unit's outline to what they meet, and back from the obstacles'
 * corners, then the penalties paid in order. Its own function (not inline in movementOptions) so the JIT
 * compiles a small hot loop quickly instead of re-optimising one very large function for seconds of CPU.
 */
function walkReach(w: ReachSetup): { reach: PointIn[]; straightAheadIn: number; straightAheadStoppedBy: string | undefined } {
  const { open, allowanceIn, f, masks, keys, rectTable, binGroups, groups, obstacles, firstAt, table, ourFrame, unitRadiusIn, startEvents, ref } = w;
  const reach: PointIn[] = [];
  let straightAheadIn = 0;
  let straightAheadStoppedBy: string | undefined;
  for (let b = 0; b < REACH_BINS; b++) {
    const openR = open.radiusIn[b]!;
    if (openR <= 1e-9) {
      reach.push(ref);
      continue;
    }
    const k = allowanceIn / openR;
    const lx = BIN_COS[b]!;
    const ly = BIN_SIN[b]!;
    const dx = lx * f.x - ly * f.y;
    const dy = lx * f.y + ly * f.x;
    const lenIn = openR + 0.01;
    // Rays leave from the unit's corners that lead in this direction.
    const originMask = masks[b]!;
    firstAt.fill(Infinity);
    for (let key = 0; key < keys.length; key++) if (keys[key]!.insideMask & originMask) firstAt[key] = 0;
    let tableAt = Infinity;
    for (let oi = 0; oi < rectTable.length; oi++) {
      if (!(originMask & (1 << oi))) continue;
      const o = rectTable[oi]!;
      for (const gi of binGroups[b]!) {
        const g = groups[gi]!;
        // Ray against the group's disc first.
        const qx = g.cx - o.xIn;
        const qy = g.cy - o.yIn;
        const along = qx * dx + qy * dy;
        if (along < -g.r || along > lenIn + g.r) continue;
        const across = qx * dy - qy * dx;
        if (across > g.r || across < -g.r) continue;
        for (const idx of g.members) {
          const ob = obstacles[idx]!;
          if (g.members.length > 1) {
            // The piece's own disc, when the group has more than one piece.
            const px = ob.cx - o.xIn;
            const py = ob.cy - o.yIn;
            const pAcross = px * dy - py * dx;
            if (pAcross > ob.r || pAcross < -ob.r) continue;
            const pAlong = px * dx + py * dy;
            if (pAlong < -ob.r || pAlong > lenIn + ob.r) continue;
          }
          const t = ob.seg ? raySegmentIn(o.xIn, o.yIn, dx, dy, lenIn, ob.seg) : rayIntoRectIn(o.xIn, o.yIn, dx, dy, ob.rect!, ob.grow);
          if (t >= 0 && t <= lenIn && t < firstAt[gi]!) firstAt[gi] = t;
        }
      }
      // The table edge.
      const tx = dx > 1e-12 ? (table.widthIn - o.xIn) / dx : dx < -1e-12 ? -o.xIn / dx : Infinity;
      const ty = dy > 1e-12 ? (table.depthIn - o.yIn) / dy : dy < -1e-12 ? -o.yIn / dy : Infinity;
      tableAt = Math.min(tableAt, Math.max(0, Math.min(tx, ty)));
    }
    // And the other way round: the obstacles' own corners (grown stands, segment ends) against the unit's
    // outline, so a narrow obstacle between two leading points is not missed.
    // The unit's half-extent across and along this direction: corners outside that corridor cannot meet it.
    const halfAcross = ourFrame[6]! * Math.abs(ourFrame[2]! * -dy + ourFrame[3]! * dx) + ourFrame[7]! * Math.abs(ourFrame[4]! * -dy + ourFrame[5]! * dx);
    const halfAlong = ourFrame[6]! * Math.abs(ourFrame[2]! * dx + ourFrame[3]! * dy) + ourFrame[7]! * Math.abs(ourFrame[4]! * dx + ourFrame[5]! * dy);
    for (const gi of binGroups[b]!) {
      const g = groups[gi]!;
      const qx = g.cx - ourFrame[0]!;
      const qy = g.cy - ourFrame[1]!;
      const along = qx * dx + qy * dy;
      if (along < -(g.r + unitRadiusIn) || along > lenIn + g.r + unitRadiusIn) continue;
      const across = qx * dy - qy * dx;
      if (across > g.r + unitRadiusIn || across < -(g.r + unitRadiusIn)) continue;
      for (const idx of g.members) {
        const ob = obstacles[idx]!;
        // The piece's disc against the unit's swept corridor.
        const mx = ob.cx - ourFrame[0]!;
        const my = ob.cy - ourFrame[1]!;
        const mAcross = mx * -dy + my * dx;
        if (mAcross > halfAcross + ob.r || mAcross < -halfAcross - ob.r) continue;
        const mAlong = mx * dx + my * dy;
        if (mAlong < -halfAlong - ob.r || mAlong > lenIn + halfAlong + ob.r) continue;
        const corners = ob.corners;
        for (let c = 0; c < corners.length; c += 2) {
          const cx = corners[c]! - ourFrame[0]!;
          const cy = corners[c + 1]! - ourFrame[1]!;
          const cAcross = cx * -dy + cy * dx;
          if (cAcross > halfAcross || cAcross < -halfAcross) continue;
          const cAlong = cx * dx + cy * dy;
          if (cAlong < -halfAlong || cAlong > lenIn + halfAlong) continue;
          const t = rayIntoRectIn(corners[c]!, corners[c + 1]!, -dx, -dy, ourFrame, 0);
          if (t >= 0 && t <= lenIn && t < firstAt[gi]!) firstAt[gi] = t;
        }
      }
    }
    let met = startEvents.length > 0 || tableAt <= lenIn;
    for (let key = 0; !met && key < keys.length; key++) met = firstAt[key] !== Infinity;
    let reachIn = openR;
    if (met) {
      // Something is met on the way: pay for it in order (most directions on a busy table meet nothing).
      const events: PathEvent[] = [...startEvents];
      for (let key = 0; key < keys.length; key++) {
        const at = firstAt[key]!;
        if (at !== Infinity) events.push({ atIn: at, penaltyIn: keys[key]!.penaltyIn, stop: keys[key]!.stop, label: keys[key]!.label });
      }
      if (tableAt <= lenIn) events.push({ atIn: tableAt, penaltyIn: 0, stop: true, label: 'table edge' });
      const walk = walkPenalties(allowanceIn, events, k, openR);
      reachIn = walk.reachIn;
      if (b === 0) straightAheadStoppedBy = walk.stoppedBy;
    }
    if (b === 0) straightAheadIn = reachIn;
    reach.push({ xIn: ref.xIn + dx * reachIn, yIn: ref.yIn + dy * reachIn });
  }
  return { reach, straightAheadIn, straightAheadStoppedBy };
}

/** The fudge move's reach per direction (3", still 1" from the enemy); see movementOptions. */
function fudgeWalk(enemyRects: readonly Obstacle[], ref: PointIn, f: { x: number; y: number }, rectTable: readonly PointIn[], masks: Int32Array, ourFrame: Float64Array): PointIn[] {
  const fudgeReach: PointIn[] = [];
  for (let b = 0; b < REACH_BINS; b++) {
    const lx = BIN_COS[b]!;
    const ly = BIN_SIN[b]!;
    const dx = lx * f.x - ly * f.y;
    const dy = lx * f.y + ly * f.x;
    let limit = FUDGE_MOVE_IN;
    for (let i = 0; enemyRects.length > 0 && i < rectTable.length; i++) {
      if (!(masks[b]! & (1 << i))) continue;
      const o = rectTable[i]!;
      for (const ob of enemyRects) {
        const t = rayIntoRectIn(o.xIn, o.yIn, dx, dy, ob.rect!, ob.grow);
        if (t >= 0 && t < limit) limit = t;
      }
    }
    // The enemies' grown corners cast back at the unit's outline.
    for (const ob of enemyRects) {
      for (let c = 0; c < ob.corners.length; c += 2) {
        const t = rayIntoRectIn(ob.corners[c]!, ob.corners[c + 1]!, -dx, -dy, ourFrame, 0);
        if (t >= 0 && t < limit) limit = t;
      }
    }
    fudgeReach.push({ xIn: ref.xIn + dx * limit, yIn: ref.yIn + dy * limit });
  }

  return fudgeReach;
}

/**
 * Movement options for one unit on a MOVE order.
 *
 * @param ctx the per-state context
 * @param unitId the unit to move
 * @returns the allowance and reach (or a refusal), and shapes on the 'movement' layer
 */
export function movementOptions(ctx: DtpContext, unitId: string): MovementResult {
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`movementOptions: no unit '${unitId}' in the table state`);
  if (info.stands.length === 0) return { movement: { ok: false, reason: 'movement/no-stands', detail: 'The unit has no stands on the table' }, shapes: [] };
  const unit = info.unit;
  if (unit.status?.prone) {
    return { movement: { ok: false, reason: 'movement/prone', detail: 'Prone: N/A on the Movement table; stand up on a RALLY order first (Optional Rules: Going Prone)' }, shapes: [] };
  }
  const reading = ctx.formationOf(unitId);
  const notes: string[] = [];
  let formation = reading.formation;
  if (formation === 'unknown') {
    notes.push('Formation not recognised: using Line (9") until the stands are dressed or status.formation is set');
    formation = 'line';
  }
  const mounted = reading.mounted;
  const horse = unit.horseArtillery === true;
  const allowanceIn = movementAllowanceIn(formation, { mounted, horseArtillery: horse })!;
  notes.push(`${formation} ${allowanceIn}" (${MOVEMENT_TABLE_SOURCE}${mounted || (horse && formation !== 'unlimbered') ? `; cavalry +${MOUNTED_BONUS_IN}"` : ''})`);
  const isArtillery = unit.arm === 'artillery';
  const prolong = isArtillery && formation === 'unlimbered';
  if (prolong) notes.push('Prolong: 3" in any direction or turn up to 45° (Move: Special Movements, Prolong)');
  const green = unit.quality === 'green';
  const oblique = !green;
  if (green) notes.push('Green troops may not oblique (Move: Movement, Oblique)');
  if (formation === 'disordered') notes.push('Disordered: changing formation needs a RALLY order (reform into line facing the nearest enemy)');
  if (reading.dismounted && (formation === 'line' || formation === 'attack-column')) {
    notes.push('Dismounted cavalry may not use Line or Attack Column (Armies, Dismounted Cavalry)');
  }
  if (formation === 'attack-column' && info.stands.length < 5) notes.push('An attack column needs at least five stands (Armies, Infantry: Attack Column)');
  const cannotCrossObstacles = isArtillery || mounted;

  // The unit's frame: reference point (command stand centre) and heading.
  const refStand = ctx.stands.get(reading.referenceStandId) ?? info.command ?? info.stands[0]!;
  const ref = refStand.center;
  const headingDeg = reading.headingDeg;
  const f = headingToVector(headingDeg);
  // Extent of the unit around the reference point: forward (x') and left (y') of every corner.
  let frontX = -Infinity;
  let backX = Infinity;
  let leftY = -Infinity;
  let rightY = Infinity;
  const localCorners: { x: number; y: number }[] = [];
  for (const s of info.stands) {
    if (s.stand.role === 'limber' && !reading.limbered) continue;
    for (const c of s.corners) {
      const dx = c.xIn - ref.xIn;
      const dy = c.yIn - ref.yIn;
      const x = dx * f.x + dy * f.y;
      const y = -dx * f.y + dy * f.x;
      localCorners.push({ x, y });
      if (x > frontX) frontX = x;
      if (x < backX) backX = x;
      if (y > leftY) leftY = y;
      if (y < rightY) rightY = y;
    }
  }
  const open = openReach(allowanceIn, frontX, leftY, rightY, oblique, prolong);

  // Rays leave from points on the unit's outline: its bounding rectangle's corners and edge midpoints.
  const rectLocal = [
    { x: frontX, y: leftY },
    { x: frontX, y: (leftY + rightY) / 2 },
    { x: frontX, y: rightY },
    { x: (frontX + backX) / 2, y: rightY },
    { x: backX, y: rightY },
    { x: backX, y: (leftY + rightY) / 2 },
    { x: backX, y: leftY },
    { x: (frontX + backX) / 2, y: leftY },
  ];
  const toTable = (x: number, y: number): PointIn => ({ xIn: ref.xIn + x * f.x - y * f.y, yIn: ref.yIn + x * f.y + y * f.x });

  // Everything that could matter lies within the open reach plus the unit's size of the reference point.
  let unitRadiusIn = 0;
  for (const c of localCorners) unitRadiusIn = Math.max(unitRadiusIn, Math.hypot(c.x, c.y));
  let maxOpenIn = 0;
  for (let b = 0; b < REACH_BINS; b++) maxOpenIn = Math.max(maxOpenIn, open.radiusIn[b]!);
  const horizonIn = maxOpenIn + unitRadiusIn + ENEMY_CLEARANCE_IN + 0.01;
  const reachBox: Box = { minXIn: ref.xIn - horizonIn, minYIn: ref.yIn - horizonIn, maxXIn: ref.xIn + horizonIn, maxYIn: ref.yIn + horizonIn };

  const rectTable = rectLocal.map((p) => toTable(p.x, p.y));
  const { keys, obstacles, startEvents, groups, binGroups } = collectObstacles({
    ctx, info, unitId, reachBox, rectTable, cannotCrossObstacles, ref, unitRadiusIn, maxOpenIn, headingDeg, open,
  });

  const table = ctx.state.table;
  const firstAt = new Float64Array(keys.length);
  const masks = originMasks((frontX - backX) / 2, (leftY - rightY) / 2);
  // The unit's bounding rectangle as a frame [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth] (u to its right).
  const centre = toTable((frontX + backX) / 2, (leftY + rightY) / 2);
  const ourFrame = Float64Array.of(centre.xIn, centre.yIn, f.y, -f.x, f.x, f.y, (leftY - rightY) / 2, (frontX - backX) / 2);
  const { reach, straightAheadIn, straightAheadStoppedBy } = walkReach({
    open, allowanceIn, f, masks, keys, rectTable, binGroups, groups, obstacles, firstAt, table, ourFrame, unitRadiusIn, startEvents, ref,
  });
  const polygon = dedupe(reach);
  if (keys.some((k) => !k.label.startsWith("passage") && !k.label.startsWith("1\"")) || startEvents.length > 0) notes.push(`Terrain penalties paid when met (${LINEAR_TERRAIN_SOURCE}; ${AREA_TERRAIN_SOURCE})`);
  if (cannotCrossObstacles) notes.push('Artillery and mounted cavalry cannot cross fences, walls, hasty works, entrenchments, abatis or chevaux-de-frise');
  if (straightAheadStoppedBy) notes.push(`Straight ahead: stops after ${straightAheadIn.toFixed(1)}" at ${straightAheadStoppedBy}`);

  // Fudge move (Special Movements): 3" any way, terrain does not matter, still 1" from the enemy.
  const enemyRects = obstacles.filter(
    (o) => o.rect !== undefined && o.grow > 0 && Math.hypot(o.cx - ref.xIn, o.cy - ref.yIn) - o.r <= FUDGE_MOVE_IN + unitRadiusIn + 0.01,
  );
  const fudgeReach = fudgeWalk(enemyRects, ref, f, rectTable, masks, ourFrame);

  // Roads: March Column and Limbered Artillery move 18" on a road beyond 12" of the enemy, ignoring terrain.
  let roadAllowanceIn: number | undefined;
  let roadLines: PointIn[][] | undefined;
  const roadLooked = (formation === 'march-column' || formation === 'limbered') && ctx.state.terrain.roads.length > 0;
  if (roadLooked) {
    if (nearestEnemyIn(ctx, info) > ROAD_ENEMY_CLEARANCE_IN) {
      roadAllowanceIn = ROAD_MOVE_IN + (mounted || horse ? MOUNTED_BONUS_IN : 0);
      const lines = roadReach(ctx, info, ref, ctx.state.terrain.roads, roadAllowanceIn, Math.max(0, frontX));
      if (lines.length > 0) {
        roadLines = lines;
        notes.push(`On road: ${roadAllowanceIn}" along the road, no terrain penalties (${MOVEMENT_TABLE_SOURCE})`);
      } else roadAllowanceIn = undefined;
    } else notes.push('Road move (18") not allowed within 12" of an enemy (Armies, Infantry: March Column)');
  }

  // Left/Right Face between March Column and Line costs 3" (Move: Formation Change, option 2).
  let face: DtpMovementOption['face'];
  if (formation === 'line' || formation === 'march-column') {
    const toFormation: Formation = formation === 'line' ? 'march-column' : 'line';
    const next = movementAllowanceIn(toFormation, { mounted })!;
    face = { toFormation, costIn: FACE_COST_IN, remainingIn: next - FACE_COST_IN };
  }

  const side = unit.side;
  const shapes: Shape[] = [{ id: `${unitId}/movement/reach`, kind: 'polygon', layer: 'movement', style: 'reach', unitId, side, vertices: polygon }];
  roadLines?.forEach((points, i) => shapes.push({ id: `${unitId}/movement/road/${i}`, kind: 'polyline', layer: 'movement', style: 'reach-road', unitId, side, points }));

  const movement: DtpMovementOption = {
    ok: true,
    allowanceIn,
    reach: polygon,
    notes,
    formation,
    oblique,
    fudgeReach: dedupe(fudgeReach),
    straightAheadIn,
    ...(straightAheadStoppedBy ? { straightAheadStoppedBy } : {}),
    ...(roadAllowanceIn !== undefined ? { roadAllowanceIn, roadReach: roadLines! } : {}),
    ...(face ? { face } : {}),
  };
  const result: MovementResult = { movement, shapes };
  // Other units and terrain are only read through `near(reachBox)` unless the road move looked at enemies
  // further away (nearest enemy, stands along the road): then no box is recorded.
  if (!roadLooked) {
    DEPENDS_ON.set(result, {
      box: reachBox,
      refX: ref.xIn,
      refY: ref.yIn,
      reachIn: maxOpenIn + 0.01 + ENEMY_CLEARANCE_IN + unitRadiusIn + DEPENDENCY_SLACK_IN,
      fudgeIn: FUDGE_MOVE_IN + 0.01 + ENEMY_CLEARANCE_IN + unitRadiusIn + DEPENDENCY_SLACK_IN,
    });
  }
  return result;
}

/** Rounding room added to the dependency radii below (they only decide what a session recomputes). */
const DEPENDENCY_SLACK_IN = 0.05;

/**
 * What a movement result read other units through (see `movementDependsOnBox`): the reach box, the
 * reference point, and the two radii a unit's box disc or box must come within to matter.
 */
interface Dependency {
  readonly box: Box;
  readonly refX: number;
  readonly refY: number;
  /** walkReach: a unit's group is skipped unless its box disc (grown 1" at most) comes this near. */
  readonly reachIn: number;
  /** fudgeWalk: an enemy stand's grown disc must come within 3" + the unit's radius (+ its own 1"). */
  readonly fudgeIn: number;
}
const DEPENDS_ON = new WeakMap<MovementResult, Dependency>();

/**
 * Whether a unit whose box is `b` (before or after a change) can matter to this result; undefined when
 * the result has no recorded dependency (road moves, refusals: anything may matter). Another unit is read
 * only when its box meets the reach box (collectObstacles' `near`), and then counts only if its group's
 * disc (the box's circumscribed disc, grown by at most the 1" enemy clearance) passes the direction cull
 * (distance from the reference point minus that radius within the open reach plus the unit's radius), or
 * one of its stands passes fudgeWalk's disc test (a stand's centre lies in the box and its half-diagonal
 * is at most the box's, so the box centre is then within the fudge radius plus twice the box's half-diagonal).
 */
export function movementDependsOnBox(result: MovementResult, b: Readonly<Box>): boolean | undefined {
  const d = DEPENDS_ON.get(result);
  if (!d) return undefined;
  const r = d.box;
  // The same overlap test as collectObstacles' `near`, with a little margin.
  if (b.maxXIn < r.minXIn - 0.01 || b.minXIn > r.maxXIn + 0.01 || b.maxYIn < r.minYIn - 0.01 || b.minYIn > r.maxYIn + 0.01) return false;
  const half = Math.hypot(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) / 2;
  const dist = Math.hypot((b.minXIn + b.maxXIn) / 2 - d.refX, (b.minYIn + b.maxYIn) / 2 - d.refY);
  return dist <= d.reachIn + half || dist <= d.fudgeIn + 2 * half;
}

/**
 * The box within which other units' stands were looked at for this result: a unit whose box (before and
 * after a change) does not meet it cannot change the result. Undefined when the result may depend on units
 * further away (road moves, refusals): then the caller must assume anything can.
 */
export function movementDependencyBox(result: MovementResult): Readonly<Box> | undefined {
  return DEPENDS_ON.get(result)?.box;
}

function dedupe(points: readonly PointIn[]): PointIn[] {
  const out: PointIn[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || Math.abs(last.xIn - p.xIn) > 1e-9 || Math.abs(last.yIn - p.yIn) > 1e-9) out.push(p);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (out.length > 1 && first && last && Math.abs(first.xIn - last.xIn) < 1e-9 && Math.abs(first.yIn - last.yIn) < 1e-9) out.pop();
  return out;
}
