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
import type { AreaTerrain, Formation, LinearTerrain, Road } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { closestPointOnSegment } from '../../geometry/distance.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
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

/**
 * Math.hypot(x, y) to the last bit, as V8 computes it (math.tq: normalise by the larger magnitude, Kahan
 * sum, sqrt, scale back; with two terms the compensation is always 0), without the builtin's argument
 * array: that allocation made Math.hypot slow and a steady source of garbage here. Non-finite input goes
 * to the builtin. Checked equal to Math.hypot on tens of millions of random and special pairs.
 */
function hypot2(x: number, y: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (!(ax < Infinity && ay < Infinity)) return Math.hypot(x, y);
  const max = ax > ay ? ax : ay;
  if (max === 0) return 0;
  const nx = ax / max;
  const ny = ay / max;
  return Math.sqrt(nx * nx + ny * ny) * max;
}

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
  /** The largest radius, inches. */
  readonly maxIn: number;
}

/**
 * A cache keyed by five numbers through nested maps (no key string to build), emptied when it holds more
 * than 2000 entries, as the string-keyed maps it replaces were.
 */
class NumberKeyCache<T> {
  private root = new Map<number, Map<number, Map<number, Map<number, Map<number, T>>>>>();
  private entries = 0;

  get(a: number, b: number, c: number, d: number, e: number): T | undefined {
    return this.root.get(a)?.get(b)?.get(c)?.get(d)?.get(e);
  }

  /** Adds a key that is not in the cache. */
  add(a: number, b: number, c: number, d: number, e: number, value: T): void {
    if (this.entries > 2000) {
      this.root = new Map();
      this.entries = 0;
    }
    let m1 = this.root.get(a);
    if (m1 === undefined) this.root.set(a, (m1 = new Map()));
    let m2 = m1.get(b);
    if (m2 === undefined) m1.set(b, (m2 = new Map()));
    let m3 = m2.get(c);
    if (m3 === undefined) m2.set(c, (m3 = new Map()));
    let m4 = m3.get(d);
    if (m4 === undefined) m3.set(d, (m4 = new Map()));
    m4.set(e, value);
    this.entries++;
  }
}

const openReachCache = new NumberKeyCache<OpenReach>();

/** Unit vectors of the directions (bin 0 straight ahead, counter-clockwise), in the unit's frame. */
const BIN_COS = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.cos((b * 2 * Math.PI) / REACH_BINS));
const BIN_SIN = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.sin((b * 2 * Math.PI) / REACH_BINS));

/**
 * The shape caches below are keyed by each number's toFixed(2) (a result is computed from the first
 * caller's exact numbers and shared by every later one with the same key). `fixed2Class` gives that same
 * partition as a number, cheaply: an integer for ordinary values (hundredths, negative ones shifted by one
 * so "-0.00" stays apart from "0.00"), falling back to the string itself near a rounding tie or out of
 * range. Building four toFixed strings per call cost more than the rest of the cache lookup.
 */
function fixed2Class(x: number): number {
  const a = x < 0 ? -x : x;
  if (a < 1e6) {
    const y = a * 100;
    const whole = Math.floor(y);
    const frac = y - whole;
    // y is within 1e-8 of the exact hundredths; only a value that close to a tie needs the string.
    if (frac < 0.5 - 1e-6 || frac > 0.5 + 1e-6) {
      const n = frac > 0.5 ? whole + 1 : whole;
      return x < 0 ? -n - 1 : n;
    }
  }
  return fixed2ClassOfString(x.toFixed(2));
}

const otherFixed2Classes = new Map<string, number>();

/** The class of a toFixed(2) string: "-12.34" -> -1235, "12.34" -> 1234; anything else gets a non-integer id. */
function fixed2ClassOfString(text: string): number {
  const m = /^(-?)(\d{1,12})\.(\d\d)$/.exec(text);
  if (m) {
    const n = Number(m[2]! + m[3]!);
    return m[1] ? -n - 1 : n;
  }
  let c = otherFixed2Classes.get(text);
  if (c === undefined) otherFixed2Classes.set(text, (c = otherFixed2Classes.size + 0.5));
  return c;
}

const originMaskCache = new NumberKeyCache<Int32Array>();

/**
 * For each direction, which of the outline's 8 points (corners and edge midpoints of the unit's bounding
 * rectangle, half-size hx forward and hy sideways) rays leave from: the corners that lead that way.
 */
function originMasks(hx: number, hy: number): Int32Array {
  const kx = fixed2Class(hx);
  const ky = fixed2Class(hy);
  const hit = originMaskCache.get(kx, ky, 0, 0, 0);
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
  originMaskCache.add(kx, ky, 0, 0, 0, masks);
  return masks;
}


/**
 * Open-ground reach for a unit whose reference point is at the origin facing +x, with front corners at
 * (frontXIn, leftYIn) and (frontXIn, rightYIn) (left positive). Forward and oblique moves, wheels about
 * either front corner costing frontage × angle (Move: Movement, Wheel: measure the outside of the arc).
 */
function openReach(allowanceIn: number, frontXIn: number, leftYIn: number, rightYIn: number, oblique: boolean, anyDirection: boolean): OpenReach {
  // Keyed as toFixed(2) of each number (see fixed2Class) and the two flags.
  const flags = (oblique ? 1 : 0) + (anyDirection ? 2 : 0);
  const ka = fixed2Class(allowanceIn);
  const kf = fixed2Class(frontXIn);
  const kl = fixed2Class(leftYIn);
  const kr = fixed2Class(rightYIn);
  const hit = openReachCache.get(flags, ka, kf, kl, kr);
  if (hit) return hit;
  const radiusIn = new Float64Array(REACH_BINS);
  if (anyDirection) {
    radiusIn.fill(allowanceIn);
  } else {
    const put = (x: number, y: number): void => {
      const r = hypot2(x, y);
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
  let maxIn = 0;
  for (let b = 0; b < REACH_BINS; b++) maxIn = Math.max(maxIn, radiusIn[b]!);
  const out = { radiusIn, maxIn };
  openReachCache.add(flags, ka, kf, kl, kr, out);
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

/*
 * What a move can meet, as groups of pieces: a terrain feature's segments or a unit's stand rectangles
 * (friends as they stand, enemies grown by the 1" clearance). Each group keeps its pieces in one
 * Float64Array (struct of arrays, PIECE_STRIDE numbers per piece) so the ray loops read packed numbers
 * instead of chasing per-stand objects and typed arrays.
 */
/** Bounding disc of the piece: centre (a rectangle's centre, a segment's midpoint) and radius. */
const P_CX = 0;
const P_CY = 1;
const P_R = 2;
/** A rectangle's half-extents along u (across, to its right) and n (forward), already grown. */
const P_HU = 3;
const P_HV = 4;
/** A rectangle's unit axes u and n. */
const P_UX = 5;
const P_UY = 6;
const P_NX = 7;
const P_NY = 8;
/** Distance from the centre to the farthest point of the piece (a grown corner, a segment end), rounded up. */
const P_RC = 9;
/** Corners [x0, y0, ...]: a grown rectangle's four (+u+n, +u-n, -u-n, -u+n), or a segment's two ends. */
const P_CORNERS = 10;
const PIECE_STRIDE = 18;

/**
 * Rounding room for the distance lower bounds in the ray loops (coordinates are at most a few hundred
 * inches, so rounding errors are around 1e-13): a bound must be this far past the best hit to skip a test.
 */
const BOUND_SLACK_IN = 1e-7;

interface Group {
  /** Where the pieces start in the context's piece buffer (PIECE_STRIDE numbers each). */
  readonly off: number;
  readonly n: number;
  /** Segments (terrain) rather than rectangles (stands). */
  readonly seg: boolean;
  /** Bounding disc of the whole group, for the cheap whole-group cull. */
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  /**
   * How far any piece's disc reaches from the group's centre (centre distance + radius), plus a hair for
   * rounding: tighter than `r` for a unit (its disc is its box's), used only for culls that provably skip
   * nothing the per-piece tests would let through.
   */
  readonly spread: number;
  /** How far any point of any piece lies from the group's centre, rounded up (for distance lower bounds). */
  readonly reach: number;
}

/** The largest centre distance + radius of n pieces from `off` in p from (cx, cy), rounded up. */
function spreadOf(p: Float64Array, off: number, n: number, cx: number, cy: number): number {
  let spread = 0;
  for (let i = 0, at = off; i < n; i++, at += PIECE_STRIDE) {
    const ex = p[at + P_CX]! - cx;
    const ey = p[at + P_CY]! - cy;
    spread = Math.max(spread, Math.sqrt(ex * ex + ey * ey) + p[at + P_R]!);
  }
  return spread + 1e-7;
}

/** The largest centre distance + farthest-point radius of n pieces from `off` in p from (cx, cy), rounded up. */
function reachOf(p: Float64Array, off: number, n: number, cx: number, cy: number): number {
  let reach = 0;
  for (let i = 0, at = off; i < n; i++, at += PIECE_STRIDE) {
    const ex = p[at + P_CX]! - cx;
    const ey = p[at + P_CY]! - cy;
    reach = Math.max(reach, Math.sqrt(ex * ex + ey * ey) + p[at + P_RC]!);
  }
  return reach + 1e-7;
}

/** [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth, halfDiagonal] of a stand from its corners [FL, FR, RR, RL]. */
function rectFrame(corners: readonly PointIn[]): Float64Array {
  const fl = corners[0]!;
  const fr = corners[1]!;
  const rr = corners[2]!;
  const w = hypot2(fr.xIn - fl.xIn, fr.yIn - fl.yIn);
  const d = hypot2(fr.xIn - rr.xIn, fr.yIn - rr.yIn);
  return Float64Array.of(
    (fl.xIn + rr.xIn) / 2,
    (fl.yIn + rr.yIn) / 2,
    (fr.xIn - fl.xIn) / w,
    (fr.yIn - fl.yIn) / w,
    (fr.xIn - rr.xIn) / d,
    (fr.yIn - rr.yIn) / d,
    w / 2,
    d / 2,
    hypot2(w, d) / 2,
  );
}

/** Writes a stand rectangle grown by `growIn` as the piece at `at` (the same numbers rectFrame gives). */
function writeRectPiece(p: Float64Array, at: number, corners: readonly PointIn[], growIn: number): void {
  const fl = corners[0]!;
  const fr = corners[1]!;
  const rr = corners[2]!;
  const w = hypot2(fr.xIn - fl.xIn, fr.yIn - fl.yIn);
  const d = hypot2(fr.xIn - rr.xIn, fr.yIn - rr.yIn);
  const cx = (fl.xIn + rr.xIn) / 2;
  const cy = (fl.yIn + rr.yIn) / 2;
  const ux = (fr.xIn - fl.xIn) / w;
  const uy = (fr.yIn - fl.yIn) / w;
  const nx = (fr.xIn - rr.xIn) / d;
  const ny = (fr.yIn - rr.yIn) / d;
  const hu = w / 2 + growIn;
  const hv = d / 2 + growIn;
  p[at + P_CX] = cx;
  p[at + P_CY] = cy;
  // The half diagonal of the stand as it stands, plus the growth.
  p[at + P_R] = hypot2(w, d) / 2 + growIn;
  p[at + P_HU] = hu;
  p[at + P_HV] = hv;
  p[at + P_UX] = ux;
  p[at + P_UY] = uy;
  p[at + P_NX] = nx;
  p[at + P_NY] = ny;
  p[at + P_RC] = Math.sqrt(hu * hu + hv * hv) + 1e-9;
  const uxh = hu * ux;
  const uyh = hu * uy;
  const nxh = hv * nx;
  const nyh = hv * ny;
  p[at + P_CORNERS] = cx + uxh + nxh;
  p[at + P_CORNERS + 1] = cy + uyh + nyh;
  p[at + P_CORNERS + 2] = cx + uxh - nxh;
  p[at + P_CORNERS + 3] = cy + uyh - nyh;
  p[at + P_CORNERS + 4] = cx - uxh - nxh;
  p[at + P_CORNERS + 5] = cy - uyh - nyh;
  p[at + P_CORNERS + 6] = cx - uxh + nxh;
  p[at + P_CORNERS + 7] = cy - uyh + nyh;
}

/** Room for n more pieces in the context's buffer; returns where they start. */
function reservePieces(c: MovementContextCache, n: number): number {
  const off = c.used;
  const need = off + n * PIECE_STRIDE;
  if (need > c.buf.length) {
    const grown = new Float64Array(Math.max(need, c.buf.length * 2));
    grown.set(c.buf);
    c.buf = grown;
  }
  c.used = need;
  return off;
}

/** A unit's stands as one group; its disc comes from the unit's box (grown like the stands). */
function unitGroup(c: MovementContextCache, info: UnitInfo, enemy: boolean): Group {
  const n = info.stands.length;
  const off = reservePieces(c, n);
  const p = c.buf;
  const growIn = enemy ? ENEMY_CLEARANCE_IN : 0;
  for (let i = 0; i < n; i++) writeRectPiece(p, off + i * PIECE_STRIDE, info.stands[i]!.corners, growIn);
  const b = info.box;
  const cx = (b.minXIn + b.maxXIn) / 2;
  const cy = (b.minYIn + b.maxYIn) / 2;
  return { off, n, seg: false, cx, cy, r: hypot2(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) / 2 + growIn, spread: spreadOf(p, off, n, cx, cy), reach: reachOf(p, off, n, cx, cy) };
}

/** A terrain feature's segments (PIECE_STRIDE numbers each) with the group's disc, and its box. */
interface Pieces {
  readonly box: Box;
  readonly p: Float64Array;
  readonly n: number;
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly spread: number;
  readonly reach: number;
}

/** A terrain feature's segments copied into the context's buffer. */
function terrainGroup(c: MovementContextCache, pieces: Pieces): Group {
  const off = reservePieces(c, pieces.n);
  c.buf.set(pieces.p, off);
  return { off, n: pieces.n, seg: true, cx: pieces.cx, cy: pieces.cy, r: pieces.r, spread: pieces.spread, reach: pieces.reach };
}

/** A terrain feature's box and segments, kept while the feature object lives (sessions reuse states' terrain). */
const terrainPieces = new WeakMap<object, Pieces>();

function piecesOf(feature: object, points: readonly PointIn[], closed: boolean): Pieces {
  const hit = terrainPieces.get(feature);
  if (hit) return hit;
  const n = Math.max(0, points.length - 1) + (closed && points.length > 2 ? 1 : 0);
  const p = new Float64Array(n * PIECE_STRIDE);
  for (let i = 0; i < n; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    const at = i * PIECE_STRIDE;
    p[at + P_CX] = (a.xIn + b.xIn) / 2;
    p[at + P_CY] = (a.yIn + b.yIn) / 2;
    p[at + P_R] = hypot2(b.xIn - a.xIn, b.yIn - a.yIn) / 2;
    p[at + P_RC] = p[at + P_R]! + 1e-9;
    p[at + P_CORNERS] = a.xIn;
    p[at + P_CORNERS + 1] = a.yIn;
    p[at + P_CORNERS + 2] = b.xIn;
    p[at + P_CORNERS + 3] = b.yIn;
  }
  // The group's disc: centred on the mean of the pieces' centres, enclosing every piece's disc.
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    cx += p[i * PIECE_STRIDE + P_CX]! / n;
    cy += p[i * PIECE_STRIDE + P_CY]! / n;
  }
  let r = 0;
  for (let i = 0; i < n; i++) {
    const at = i * PIECE_STRIDE;
    r = Math.max(r, hypot2(p[at + P_CX]! - cx, p[at + P_CY]! - cy) + p[at + P_R]!);
  }
  const pieces: Pieces = { box: boxOfPoints(points), p, n, cx, cy, r, spread: spreadOf(p, 0, n, cx, cy), reach: reachOf(p, 0, n, cx, cy) };
  terrainPieces.set(feature, pieces);
  return pieces;
}

/**
 * Per context (one table state, one evaluation): the terrain features that can matter with their pieces,
 * and each unit's group as a friend and as an enemy. Every unit's movement looks at most of the same
 * neighbours, so this is built once per context instead of once per call; nothing outlives the context.
 */
interface MovementContextCache {
  readonly linear: readonly { readonly feature: LinearTerrain; readonly penaltyIn: number | undefined; readonly box: Box; readonly group: Group }[];
  readonly areas: readonly { readonly feature: AreaTerrain; readonly penaltyIn: number; readonly box: Box; readonly group: Group }[];
  /**
   * Unit groups as friends and as enemies, per list of units the context hands out (its side lists and
   * enemy lists, one array each per context) and index in it: one lookup per list per call, not per unit.
   */
  readonly friendGroups: Map<readonly UnitInfo[], (Group | undefined)[]>;
  readonly enemyGroups: Map<readonly UnitInfo[], (Group | undefined)[]>;
  /**
   * Every group's pieces, back to back: one buffer keeps the ray loops' data together and their bounds
   * checks on one array (a Float64Array per unit cost an allocation each and scattered the data).
   */
  buf: Float64Array;
  /** Numbers of buf in use. */
  used: number;
}
const contextCaches = new WeakMap<DtpContext, MovementContextCache>();

function contextCache(ctx: DtpContext): MovementContextCache {
  let c = contextCaches.get(ctx);
  if (c !== undefined) return c;
  const linear: { feature: LinearTerrain; penaltyIn: number | undefined; box: Box; group: Group }[] = [];
  const areas: { feature: AreaTerrain; penaltyIn: number; box: Box; group: Group }[] = [];
  // Room for every stand as friend and as enemy (a full evaluation builds both) and some terrain.
  c = { linear, areas, friendGroups: new Map(), enemyGroups: new Map(), buf: new Float64Array((2 * ctx.stands.size + 64) * PIECE_STRIDE), used: 0 };
  for (const line of ctx.state.terrain.linear) {
    const penaltyIn = LINEAR_TERRAIN_PENALTY_IN[line.kind];
    if (penaltyIn === 0) continue;
    const pieces = piecesOf(line, line.points, false);
    linear.push({ feature: line, penaltyIn, box: pieces.box, group: terrainGroup(c, pieces) });
  }
  for (const area of ctx.state.terrain.areas) {
    const pieces = piecesOf(area, area.vertices, true);
    areas.push({ feature: area, penaltyIn: AREA_TERRAIN_PENALTY_IN[area.kind], box: pieces.box, group: terrainGroup(c, pieces) });
  }
  contextCaches.set(ctx, c);
  return c;
}

/**
 * Distance along the ray from (ox, oy) with unit direction (dx, dy) to segment (ax, ay)-(bx, by), or -1 when
 * it misses within `lenIn`. (Same maths as geometry/intersect's segmentIntersection, without allocating:
 * this runs tens of thousands of times per table.)
 */
function raySegmentIn(ox: number, oy: number, dx: number, dy: number, lenIn: number, ax: number, ay: number, bx: number, by: number): number {
  const sx = bx - ax;
  const sy = by - ay;
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
 * Distance along a ray to where it enters the rectangle centred on (cx, cy) with unit axes u and n and
 * half-extents hu and hv (already grown), or -1.
 * A ray that starts inside counts as meeting it at 0 only when it heads toward the rectangle's centre, so
 * a unit already too close may still move away; a ray that only grazes its start point does not count.
 */
function rayIntoRectIn(ox: number, oy: number, dx: number, dy: number, cx: number, cy: number, ux: number, uy: number, nx: number, ny: number, hu: number, hv: number): number {
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

/** rayIntoRectIn against the piece at `at` of a rectangle group. */
function rayIntoPieceIn(ox: number, oy: number, dx: number, dy: number, p: Float64Array, at: number): number {
  return rayIntoRectIn(ox, oy, dx, dy, p[at + P_CX]!, p[at + P_CY]!, p[at + P_UX]!, p[at + P_UY]!, p[at + P_NX]!, p[at + P_NY]!, p[at + P_HU]!, p[at + P_HV]!);
}

/** rayIntoRectIn against the unit's own bounding rectangle (OUR_FRAME). */
function rayIntoOursIn(ox: number, oy: number, dx: number, dy: number): number {
  const f = OUR_FRAME;
  return rayIntoRectIn(ox, oy, dx, dy, f[0]!, f[1]!, f[2]!, f[3]!, f[4]!, f[5]!, f[6]! + 0, f[7]! + 0);
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
    const len = hypot2(next.xIn - at.xIn, next.yIn - at.yIn);
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
  const frames = ctx.enemiesOf(info.unit.id).flatMap((e) => e.stands.map((s) => rectFrame(s.corners)));
  const blocked = (p: PointIn): boolean => frames.some((frame) => insideGrownRect(p, frame, ENEMY_CLEARANCE_IN + leadIn));
  for (const road of roads) {
    const half = (road.widthIn ?? 1) / 2;
    for (let i = 0; i + 1 < road.points.length; i++) {
      const a = road.points[i]!;
      const b = road.points[i + 1]!;
      const c = closestPointOnSegment(ref, a, b);
      // On the road: the reference point within the road's width (plus half an inch of placement slack).
      if (hypot2(c.xIn - ref.xIn, c.yIn - ref.yIn) > half + 0.5) continue;
      out.push(walkRoad(road.points, i, c, true, distIn, blocked), walkRoad(road.points, i, c, false, distIn, blocked));
      break;
    }
  }
  return out.filter((l) => l.length > 1);
}

/*
 * Per-call scratch, reused between calls: movementOptions is synchronous and never re-entered, and nothing
 * here escapes a call. Keys are what can be met (a terrain feature, a unit), each met once per direction.
 */
const KEY_LINEAR = 0;
const KEY_AREA = 1;
const KEY_FRIEND = 2;
const KEY_ENEMY = 3;
const keyGroup: Group[] = [];
const keyPenaltyIn: number[] = [];
const keyStop: boolean[] = [];
/** Outline points (bits 0..7) already inside an area: met at once when moving from them. */
const keyInsideMask: number[] = [];
const keyKind: number[] = [];
/** The feature or unit behind a key; its label is only built when a walk reports stopping at it. */
const keySource: (LinearTerrain | AreaTerrain | UnitInfo)[] = [];
/** Areas the reference point starts in: their penalty is met at once in every direction. */
const startPenaltyIn: number[] = [];
const startArea: AreaTerrain[] = [];
/** Groups per direction bin (indices into the keys): bin b's list is binGroups[b * binCapacity ...] with binCount[b] entries. */
let binCapacity = 64;
let binGroups = new Int32Array(REACH_BINS * binCapacity);
const binCount = new Int32Array(REACH_BINS);
/** The unit's bounding rectangle's corners and edge midpoints in table inches, [x0, y0, ..., x7, y7]. */
const OUTLINE = new Float64Array(16);
/** The unit's bounding rectangle as a frame [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth] (u to its right). */
const OUR_FRAME = new Float64Array(8);
let firstAt = new Float64Array(64);
/** Keys with outline points already inside (areas), for the per-direction start. */
let insideKeys = new Int32Array(64);
/** One direction's events: where, penalty, stop, and source (key index, TABLE_EDGE, or START_BASE - start index). */
let evAt = new Float64Array(64);
let evPenaltyIn = new Float64Array(64);
let evStop = new Uint8Array(64);
let evSource = new Int32Array(64);
const TABLE_EDGE = -1;
const START_BASE = -2;
/** A point object for pointInPolygon, overwritten per test. */
const PROBE = { xIn: 0, yIn: 0 };
/** Enemy stands close enough to matter for the fudge move: their group's pieces and the piece's offset. */
const fudgePieces: Float64Array[] = [];
const fudgeAt: number[] = [];

function keyLabel(key: number): string {
  const kind = keyKind[key];
  if (kind === KEY_LINEAR) {
    const line = keySource[key] as LinearTerrain;
    return `${line.kind} '${line.id}'`;
  }
  if (kind === KEY_AREA) {
    const area = keySource[key] as AreaTerrain;
    return `${area.kind} '${area.id}'`;
  }
  const u = keySource[key] as UnitInfo;
  return kind === KEY_FRIEND ? `passage of lines through '${u.unit.id}'` : `1" from enemy '${u.unit.id}'`;
}

function eventLabel(source: number): string {
  if (source >= 0) return keyLabel(source);
  if (source === TABLE_EDGE) return 'table edge';
  const area = startArea[START_BASE - source]!;
  return `${area.kind} '${area.id}'`;
}

/** The groups built so far for the units of `list` (by index), created empty on first use. */
function groupsOfList(byList: Map<readonly UnitInfo[], (Group | undefined)[]>, list: readonly UnitInfo[]): (Group | undefined)[] {
  let groups = byList.get(list);
  if (groups === undefined) byList.set(list, (groups = new Array<Group | undefined>(list.length).fill(undefined)));
  return groups;
}

/**
 * Whether (x, y) is in the box grown by a hair. Outside it pointInPolygon is false (no edge straddles the
 * point's row, or every crossing lies on one side: an even count), so the test can be skipped.
 */
function inBox(x: number, y: number, b: Box): boolean {
  return x >= b.minXIn - 1e-6 && x <= b.maxXIn + 1e-6 && y >= b.minYIn - 1e-6 && y <= b.maxYIn + 1e-6;
}

function boxMeets(b: Box, minXIn: number, minYIn: number, maxXIn: number, maxYIn: number): boolean {
  return !(b.maxXIn < minXIn || b.minXIn > maxXIn || b.maxYIn < minYIn || b.minYIn > maxYIn);
}

/*
 * How many keys and start areas this call has. The arrays are written by index and never shrunk (setting
 * length = 0 frees their storage, so every call re-grew them); entries past the counts are stale.
 */
let keyCount = 0;
let startCount = 0;

/**
 * The keys' groups as parallel typed arrays for the ray loops (disc, spread, reach, where the pieces are,
 * how many, whether segments), and the context's piece buffer they point into.
 */
let keyCX = new Float64Array(64);
let keyCY = new Float64Array(64);
let keyR = new Float64Array(64);
let keySpread = new Float64Array(64);
let keyReach = new Float64Array(64);
let keyOff = new Int32Array(64);
let keyN = new Int32Array(64);
let keySeg = new Uint8Array(64);
let pieceBuf: Float64Array = new Float64Array(0);

function growKeyArrays(): void {
  const n = keyCX.length * 2;
  const more = <T extends Float64Array | Int32Array | Uint8Array>(a: T, next: T): T => {
    next.set(a);
    return next;
  };
  keyCX = more(keyCX, new Float64Array(n));
  keyCY = more(keyCY, new Float64Array(n));
  keyR = more(keyR, new Float64Array(n));
  keySpread = more(keySpread, new Float64Array(n));
  keyReach = more(keyReach, new Float64Array(n));
  keyOff = more(keyOff, new Int32Array(n));
  keyN = more(keyN, new Int32Array(n));
  keySeg = more(keySeg, new Uint8Array(n));
}

function pushKey(group: Group, penaltyIn: number, stop: boolean, insideMask: number, kind: number, source: LinearTerrain | AreaTerrain | UnitInfo): void {
  const i = keyCount++;
  if (i >= keyCX.length) growKeyArrays();
  keyCX[i] = group.cx;
  keyCY[i] = group.cy;
  keyR[i] = group.r;
  keySpread[i] = group.spread;
  keyReach[i] = group.reach;
  keyOff[i] = group.off;
  keyN[i] = group.n;
  keySeg[i] = group.seg ? 1 : 0;
  keyGroup[i] = group;
  keyPenaltyIn[i] = penaltyIn;
  keyStop[i] = stop;
  keyInsideMask[i] = insideMask;
  keyKind[i] = kind;
  keySource[i] = source;
}

/**
 * Terrain, friends and enemies within the reach box as keys (with their groups of pieces) in the scratch
 * arrays above, and which direction bins each group can matter for. Returns how many keys there are.
 */
function collectObstacles(
  ctx: DtpContext,
  info: UnitInfo,
  unitId: string,
  reachBox: Box,
  cannotCrossObstacles: boolean,
  ref: PointIn,
  unitRadiusIn: number,
  maxOpenIn: number,
  headingDeg: number,
  open: OpenReach,
): number {
  const cache = contextCache(ctx);
  const minX = reachBox.minXIn;
  const minY = reachBox.minYIn;
  const maxX = reachBox.maxXIn;
  const maxY = reachBox.maxYIn;
  keyCount = 0;
  startCount = 0;
  for (const l of cache.linear) {
    if (!boxMeets(l.box, minX, minY, maxX, maxY)) continue;
    const penalty = l.penaltyIn;
    const stop = penalty === undefined || (cannotCrossObstacles && BLOCKS_ARTILLERY_AND_MOUNTED.has(l.feature.kind));
    pushKey(l.group, penalty ?? 0, stop, 0, KEY_LINEAR, l.feature);
  }
  for (const a of cache.areas) {
    if (!boxMeets(a.box, minX, minY, maxX, maxY)) continue;
    const vertices = a.feature.vertices;
    if (inBox(ref.xIn, ref.yIn, a.box) && pointInPolygon(ref, vertices)) {
      // Starting inside area terrain: the penalty is met at once.
      startPenaltyIn[startCount] = a.penaltyIn;
      startArea[startCount++] = a.feature;
      continue;
    }
    // Outline points already inside (part of the unit is in it): met at once when moving from them. Only
    // the corners (even bits) ever lead a ray, so the edge midpoints are not tested.
    let insideMask = 0;
    for (let i = 0; i < 8; i += 2) {
      PROBE.xIn = OUTLINE[2 * i]!;
      PROBE.yIn = OUTLINE[2 * i + 1]!;
      if (inBox(PROBE.xIn, PROBE.yIn, a.box) && pointInPolygon(PROBE, vertices)) insideMask |= 1 << i;
    }
    pushKey(a.group, a.penaltyIn, false, insideMask, KEY_AREA, a.feature);
  }
  const unit = info.unit;
  const friends = ctx.unitsBySide.get(unit.side);
  if (friends !== undefined) {
    const groups = groupsOfList(cache.friendGroups, friends);
    for (let i = 0; i < friends.length; i++) {
      const friend = friends[i]!;
      if (friend === info || friend.stands.length === 0 || !boxMeets(friend.box, minX, minY, maxX, maxY)) continue;
      const g = groups[i] ?? (groups[i] = unitGroup(cache, friend, false));
      pushKey(g, PASSAGE_OF_LINES_PENALTY_IN, false, 0, KEY_FRIEND, friend);
    }
  }
  const enemies = ctx.enemiesOf(unitId);
  const enemyGroups = groupsOfList(cache.enemyGroups, enemies);
  for (let i = 0; i < enemies.length; i++) {
    const enemy = enemies[i]!;
    if (enemy.stands.length === 0 || !boxMeets(enemy.box, minX, minY, maxX, maxY)) continue;
    const g = enemyGroups[i] ?? (enemyGroups[i] = unitGroup(cache, enemy, true));
    pushKey(g, 0, true, 0, KEY_ENEMY, enemy);
  }

  // Which directions each group can matter for: its disc grown by the unit's radius, seen from the
  // reference point (a ray from any outline point is a ray from the reference point shifted by at most that).
  const headingRad = (headingDeg * Math.PI) / 180;
  const radiusIn = open.radiusIn;
  const nKeys = keyCount;
  pieceBuf = cache.buf;
  binCount.fill(0);
  if (nKeys > binCapacity) {
    binCapacity = nKeys * 2;
    binGroups = new Int32Array(REACH_BINS * binCapacity);
  }
  const cap = binCapacity;
  for (let gi = 0; gi < nKeys; gi++) {
    const g = keyGroup[gi]!;
    if (g.n === 0) continue;
    const ox = g.cx - ref.xIn;
    const oy = g.cy - ref.yIn;
    const grown = g.r + unitRadiusIn;
    const dist = hypot2(ox, oy);
    if (dist - grown > maxOpenIn + 0.01) continue;
    if (dist <= grown) {
      for (let b = 0; b < REACH_BINS; b++) if (radiusIn[b]! > 1e-9) binGroups[b * cap + binCount[b]!++] = gi;
      continue;
    }
    const centreDeg = ((Math.atan2(oy, ox) - headingRad) * 180) / Math.PI;
    const halfDeg = (Math.asin(grown / dist) * 180) / Math.PI + BIN_DEG / 2;
    const lo = Math.floor((centreDeg - halfDeg) / BIN_DEG);
    const hi = Math.ceil((centreDeg + halfDeg) / BIN_DEG);
    for (let b = lo; b <= hi && b < lo + REACH_BINS; b++) {
      // The bin modulo REACH_BINS (a power of two; b is a small integer, negative below the heading).
      const bb = b & (REACH_BINS - 1);
      if (radiusIn[bb]! > 1e-9) binGroups[bb * cap + binCount[bb]!++] = gi;
    }
  }
  return nKeys;
}

/** How far the last walkReach got straight ahead, and what stopped it (set by walkReach). */
let straightAheadInOut = 0;
let straightAheadStoppedByOut: string | undefined;

/**
 * The reach per direction: rays from the unit's outline to what they meet, and back from the obstacles'
 * corners (raysForDirection, forwardGroup), then the penalties paid in order (walkEvents, as
 * walkPenalties). Split in small functions so the JIT compiles each quickly; the rectangle tests are
 * written out in the loops because a call that V8 does not inline boxes every double argument.
 */
function walkReach(open: OpenReach, allowanceIn: number, fx: number, fy: number, masks: Int32Array, nKeys: number, unitRadiusIn: number, ref: PointIn, widthIn: number, depthIn: number): PointIn[] {
  straightAheadInOut = 0;
  straightAheadStoppedByOut = undefined;
  const nStart = startCount;
  if (firstAt.length < nKeys) firstAt = new Float64Array(nKeys * 2);
  if (evAt.length < nKeys + nStart + 1) {
    const n = (nKeys + nStart + 1) * 2;
    evAt = new Float64Array(n);
    evPenaltyIn = new Float64Array(n);
    evStop = new Uint8Array(n);
    evSource = new Int32Array(n);
  }
  const first = firstAt;
  const outline = OUTLINE;
  // Every key starts unmet; each direction puts back what it touched (its groups, the areas met at once),
  // instead of resetting every key per direction.
  first.fill(Infinity, 0, nKeys);
  if (insideKeys.length < nKeys) insideKeys = new Int32Array(nKeys * 2);
  let nInside = 0;
  for (let key = 0; key < nKeys; key++) if (keyInsideMask[key] !== 0) insideKeys[nInside++] = key;
  for (let b = 0; b < REACH_BINS; b++) {
    const openR = open.radiusIn[b]!;
    if (openR <= 1e-9) {
      REACH_XY[2 * b] = ref.xIn;
      REACH_XY[2 * b + 1] = ref.yIn;
      REACH_IS_REF[b] = 1;
      continue;
    }
    const k = allowanceIn / openR;
    const lx = BIN_COS[b]!;
    const ly = BIN_SIN[b]!;
    const dx = lx * fx - ly * fy;
    const dy = lx * fy + ly * fx;
    const lenIn = openR + 0.01;
    // Rays leave from the unit's corners that lead in this direction.
    const originMask = masks[b]!;
    let any = false;
    for (let i = 0; i < nInside; i++) {
      const key = insideKeys[i]!;
      if (keyInsideMask[key]! & originMask) {
        first[key] = 0;
        any = true;
      }
    }
    // The table edge: the nearest over the leading points of max(0, min(tx, ty)). Each of tx and ty is
    // monotone in one coordinate (rounded subtraction and division are monotone), so the smallest comes
    // from the extreme point and two divisions give the same number as two per point did.
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    let nOrigins = 0;
    for (let oi = 0; oi < 8; oi++) {
      if (!(originMask & (1 << oi))) continue;
      const ox = outline[2 * oi]!;
      const oy = outline[2 * oi + 1]!;
      ORIGINS[2 * nOrigins] = ox;
      ORIGINS[2 * nOrigins + 1] = oy;
      nOrigins++;
      if (ox < minX) minX = ox;
      if (ox > maxX) maxX = ox;
      if (oy < minY) minY = oy;
      if (oy > maxY) maxY = oy;
    }
    let tableAt = Infinity;
    if (originMask !== 0) {
      const tx = dx > 1e-12 ? (widthIn - maxX) / dx : dx < -1e-12 ? -minX / dx : Infinity;
      const ty = dy > 1e-12 ? (depthIn - maxY) / dy : dy < -1e-12 ? -minY / dy : Infinity;
      tableAt = Math.max(0, Math.min(tx, ty));
    }
    // The walk ends at the nearest stop at the latest; anything surely beyond it need not be tested. (Keys
    // met at once are areas, never stops.)
    RAY[RAY_STOP] = tableAt;
    RAY[RAY_DX] = dx;
    RAY[RAY_DY] = dy;
    RAY[RAY_LEN] = lenIn;
    RAY[RAY_UNIT_RADIUS] = unitRadiusIn;
    if (binCount[b]! > 0 && raysForDirection(b, nOrigins)) any = true;
    let reachIn = openR;
    if (any || nStart > 0 || tableAt <= lenIn) {
      // Something is met on the way: pay for it in order (most directions on a busy table meet nothing).
      reachIn = walkEvents(b, nInside, allowanceIn, tableAt <= lenIn ? tableAt : -1, k, openR);
    }
    if (b === 0) straightAheadInOut = reachIn;
    for (let li = b * binCapacity, end = li + binCount[b]!; li < end; li++) first[binGroups[li]!] = Infinity;
    for (let i = 0; i < nInside; i++) first[insideKeys[i]!] = Infinity;
    REACH_XY[2 * b] = ref.xIn + dx * reachIn;
    REACH_XY[2 * b + 1] = ref.yIn + dy * reachIn;
    REACH_IS_REF[b] = 0;
  }
  return polygonOf(REACH_XY, REACH_IS_REF, ref);
}

/**
 * The current direction for the ray passes: (dx, dy), ray length and unit radius, inches; and where the
 * nearest stop met so far lies (an enemy's 1", impassable terrain, the table edge). The penalty walk
 * never gets past that stop, so a test whose every hit would lie beyond it (by more than BOUND_SLACK_IN:
 * equal distances still count, their order decides the label) is skipped, as is one that cannot come
 * nearer than the key's best hit so far. Doubles passed as arguments to a call V8 does not inline are
 * boxed (one allocation each); read from here they are not.
 */
const RAY = new Float64Array(5);
const RAY_DX = 0;
const RAY_DY = 1;
const RAY_LEN = 2;
const RAY_UNIT_RADIUS = 3;
const RAY_STOP = 4;

/** The outline points rays leave from in the current direction, [x0, y0, ...] (at most 4). */
const ORIGINS = new Float64Array(8);

/**
 * Rays from the nOrigins leading outline points (ORIGINS) along (dx, dy) against group gi, lowering
 * firstAt[gi] and the nearest stop in RAY. Returns whether they met anything. The rectangle test is
 * rayIntoRectIn's arithmetic, written out.
 */
function forwardGroup(gi: number, nOrigins: number): boolean {
  let stopAtIn = RAY[RAY_STOP]!;
  const dx = RAY[RAY_DX]!;
  const dy = RAY[RAY_DY]!;
  const lenIn = RAY[RAY_LEN]!;
  const first = firstAt;
  const p = pieceBuf;
  const gr = keyR[gi]!;
  const gcx = keyCX[gi]!;
  const gcy = keyCY[gi]!;
  const reach = keyReach[gi]!;
  const m = keyN[gi]!;
  const seg = keySeg[gi] === 1;
  let any = false;
  for (let k = 0; k < nOrigins; k++) {
    const ox = ORIGINS[2 * k]!;
    const oy = ORIGINS[2 * k + 1]!;
    // Ray against the group's disc first.
    const qx = gcx - ox;
    const qy = gcy - oy;
    const along = qx * dx + qy * dy;
    const across = qx * dy - qy * dx;
    // One branch per test (| rather than ||): these culls are data-dependent and mispredict often.
    if (+(along < -gr) | +(along > lenIn + gr) | +(Math.abs(across) > gr)) continue;
    // No point of the group is nearer along the ray than its centre minus its reach.
    const groupNearest = along - reach - BOUND_SLACK_IN;
    if (+(groupNearest >= first[gi]!) | +(groupNearest > stopAtIn)) continue;
    for (let j = 0, at = keyOff[gi]!; j < m; j++, at += PIECE_STRIDE) {
      const cx = p[at + P_CX]!;
      const cy = p[at + P_CY]!;
      const px = cx - ox;
      const py = cy - oy;
      const pAlong = px * dx + py * dy;
      if (m > 1) {
        // The piece's own disc, when the group has more than one piece.
        const r = p[at + P_R]!;
        const pAcross = px * dy - py * dx;
        if (+(Math.abs(pAcross) > r) | +(pAlong < -r) | +(pAlong > lenIn + r)) continue;
      }
      const pieceNearest = pAlong - p[at + P_RC]! - BOUND_SLACK_IN;
      if (+(pieceNearest >= first[gi]!) | +(pieceNearest > stopAtIn)) continue;
      let t: number;
      if (seg) {
        t = raySegmentIn(ox, oy, dx, dy, lenIn, p[at + P_CORNERS]!, p[at + P_CORNERS + 1]!, p[at + P_CORNERS + 2]!, p[at + P_CORNERS + 3]!);
      } else {
        // rayIntoRectIn(ox, oy, dx, dy, piece).
        const ux = p[at + P_UX]!;
        const uy = p[at + P_UY]!;
        const nx = p[at + P_NX]!;
        const ny = p[at + P_NY]!;
        const hu = p[at + P_HU]!;
        const hv = p[at + P_HV]!;
        const ou = (ox - cx) * ux + (oy - cy) * uy;
        const ov = (ox - cx) * nx + (oy - cy) * ny;
        const du = dx * ux + dy * uy;
        const dv = dx * nx + dy * ny;
        let t0 = 0;
        let t1 = Infinity;
        if (Math.abs(du) < 1e-12) {
          if (ou <= -hu + 1e-6 || ou >= hu - 1e-6) continue;
        } else {
          const a = (-hu - ou) / du;
          const c = (hu - ou) / du;
          t0 = Math.max(t0, Math.min(a, c));
          t1 = Math.min(t1, Math.max(a, c));
        }
        if (Math.abs(dv) < 1e-12) {
          if (ov <= -hv + 1e-6 || ov >= hv - 1e-6) continue;
        } else {
          const a = (-hv - ov) / dv;
          const c = (hv - ov) / dv;
          t0 = Math.max(t0, Math.min(a, c));
          t1 = Math.min(t1, Math.max(a, c));
        }
        if (t0 > t1 || t1 <= 1e-9) continue;
        if (t0 === 0 && (cx - ox) * dx + (cy - oy) * dy <= 0) continue;
        t = t0;
      }
      if (t >= 0 && t <= lenIn && t < first[gi]!) {
        first[gi] = t;
        any = true;
        if (keyStop[gi] && t < stopAtIn) stopAtIn = t;
      }
    }
  }
  RAY[RAY_STOP] = stopAtIn;
  return any;
}

/**
 * Bin b's groups, one at a time: rays from the nOrigins leading outline points (ORIGINS) along (dx, dy)
 * (forwardGroup), then the other way round, the group's own corners (grown stands, segment ends) cast
 * along (-dx, -dy) at the unit's bounding rectangle, so a narrow obstacle between two leading points is
 * not missed. Lowers firstAt per key; returns whether anything was met. The rectangle test here is
 * rayIntoRectIn's arithmetic against OUR_FRAME. (One loop over the groups for both: the offsets from the
 * rectangle's centre serve both culls, and each group's pieces are read while in cache.)
 */
function raysForDirection(b: number, nOrigins: number): boolean {
  let stopAtIn = RAY[RAY_STOP]!;
  const dx = RAY[RAY_DX]!;
  const dy = RAY[RAY_DY]!;
  const lenIn = RAY[RAY_LEN]!;
  const unitRadiusIn = RAY[RAY_UNIT_RADIUS]!;
  const first = firstAt;
  const bins = binGroups;
  const frame = OUR_FRAME;
  const fcx = frame[0]!;
  const fcy = frame[1]!;
  const fux = frame[2]!;
  const fuy = frame[3]!;
  const fnx = frame[4]!;
  const fny = frame[5]!;
  const fhu = frame[6]! + 0;
  const fhv = frame[7]! + 0;
  // The unit's half-extent across and along this direction: corners outside that corridor cannot meet it.
  const halfAcross = frame[6]! * Math.abs(frame[2]! * -dy + frame[3]! * dx) + frame[7]! * Math.abs(frame[4]! * -dy + frame[5]! * dx);
  const halfAlong = frame[6]! * Math.abs(frame[2]! * dx + frame[3]! * dy) + frame[7]! * Math.abs(frame[4]! * dx + frame[5]! * dy);
  // The ray direction is (-dx, -dy) for every corner: its components along the frame's axes are fixed.
  const rdx = -dx;
  const rdy = -dy;
  const du = rdx * fux + rdy * fuy;
  const dv = rdx * fnx + rdy * fny;
  const duFlat = Math.abs(du) < 1e-12;
  const dvFlat = Math.abs(dv) < 1e-12;
  const listEnd = b * binCapacity + binCount[b]!;
  const p = pieceBuf;
  let any = false;
  for (let li = b * binCapacity; li < listEnd; li++) {
    const gi = bins[li]!;
    const gr = keyR[gi]!;
    const qx = keyCX[gi]! - fcx;
    const qy = keyCY[gi]! - fcy;
    const along = qx * dx + qy * dy;
    const across = qx * dy - qy * dx;
    // Forward rays first (their hits let the corner tests below skip more). Every outline point lies
    // within halfAcross across and halfAlong along of the rectangle's centre, so a group whose disc misses
    // that corridor fails forwardGroup's disc test from every origin (with room for rounding).
    const grF = gr + 1e-9;
    if (!(+(Math.abs(across) > grF + halfAcross) | +(along + halfAlong < -grF) | +(along - halfAlong > lenIn + grF))) {
      RAY[RAY_STOP] = stopAtIn;
      if (forwardGroup(gi, nOrigins)) any = true;
      stopAtIn = RAY[RAY_STOP]!;
    }
    const grown = gr + unitRadiusIn;
    // Tighter: every piece's disc misses the unit's swept corridor (the per-piece test below would skip each).
    const spread = keySpread[gi]!;
    if (
      +(along < -grown) | +(along > lenIn + gr + unitRadiusIn) | +(Math.abs(across) > grown) |
      +(Math.abs(across) > halfAcross + spread) | +(along < -halfAlong - spread) | +(along > lenIn + halfAlong + spread)
    ) {
      continue;
    }
    // A corner meets the unit no nearer than its distance along the ray less the unit's half-extent.
    const groupNearest = along - keyReach[gi]! - halfAlong - BOUND_SLACK_IN;
    if (+(groupNearest >= first[gi]!) | +(groupNearest > stopAtIn)) continue;
    const m = keyN[gi]!;
    const cornersEnd = keySeg[gi] === 1 ? 4 : 8;
    for (let j = 0, at = keyOff[gi]!; j < m; j++, at += PIECE_STRIDE) {
      // The piece's disc against the unit's swept corridor.
      const r = p[at + P_R]!;
      const mx = p[at + P_CX]! - fcx;
      const my = p[at + P_CY]! - fcy;
      const mAcross = mx * -dy + my * dx;
      const mAlong = mx * dx + my * dy;
      const pieceNearest = mAlong - p[at + P_RC]! - halfAlong - BOUND_SLACK_IN;
      if (+(Math.abs(mAcross) > halfAcross + r) | +(mAlong < -halfAlong - r) | +(mAlong > lenIn + halfAlong + r) | +(pieceNearest >= first[gi]!) | +(pieceNearest > stopAtIn)) continue;
      for (let c = at + P_CORNERS; c < at + P_CORNERS + cornersEnd; c += 2) {
        const ox = p[c]!;
        const oy = p[c + 1]!;
        const cx = ox - fcx;
        const cy = oy - fcy;
        const cAcross = cx * -dy + cy * dx;
        const cAlong = cx * dx + cy * dy;
        const cornerNearest = cAlong - halfAlong - BOUND_SLACK_IN;
        if (+(Math.abs(cAcross) > halfAcross) | +(cAlong < -halfAlong) | +(cAlong > lenIn + halfAlong) | +(cornerNearest >= first[gi]!) | +(cornerNearest > stopAtIn)) continue;
        // rayIntoRectIn(ox, oy, -dx, -dy, OUR_FRAME, 0).
        const ou = (ox - fcx) * fux + (oy - fcy) * fuy;
        const ov = (ox - fcx) * fnx + (oy - fcy) * fny;
        let t0 = 0;
        let t1 = Infinity;
        if (duFlat) {
          if (ou <= -fhu + 1e-6 || ou >= fhu - 1e-6) continue;
        } else {
          const a = (-fhu - ou) / du;
          const e = (fhu - ou) / du;
          t0 = Math.max(t0, Math.min(a, e));
          t1 = Math.min(t1, Math.max(a, e));
        }
        if (dvFlat) {
          if (ov <= -fhv + 1e-6 || ov >= fhv - 1e-6) continue;
        } else {
          const a = (-fhv - ov) / dv;
          const e = (fhv - ov) / dv;
          t0 = Math.max(t0, Math.min(a, e));
          t1 = Math.min(t1, Math.max(a, e));
        }
        if (t0 > t1 || t1 <= 1e-9) continue;
        if (t0 === 0 && (fcx - ox) * rdx + (fcy - oy) * rdy <= 0) continue;
        const t = t0;
        if (t <= lenIn && t < first[gi]!) {
          first[gi] = t;
          any = true;
          if (keyStop[gi] && t < stopAtIn) stopAtIn = t;
        }
      }
    }
  }
  RAY[RAY_STOP] = stopAtIn;
  return any;
}

/**
 * walkPenalties over this direction's events (start areas, then keys met, then the table edge at
 * `tableAtIn` when not negative), sorted stably by distance as walkPenalties' sort does. Returns the reach;
 * for the straight-ahead direction also records what stopped the unit.
 */
function walkEvents(b: number, nInside: number, allowanceIn: number, tableAtIn: number, k: number, limitIn: number): number {
  const straight = b === 0;
  let n = 0;
  for (let s = 0; s < startCount; s++) {
    evAt[n] = 0;
    evPenaltyIn[n] = startPenaltyIn[s]!;
    evStop[n] = 0;
    evSource[n++] = START_BASE - s;
  }
  // Only this direction's groups and the areas met at once can have been met: walk both lists (each in
  // key order) merged, so the events come in key order as before.
  const bins = binGroups;
  let li = b * binCapacity;
  const listEnd = li + binCount[b]!;
  let ii = 0;
  while (li < listEnd || ii < nInside) {
    const fromList = li < listEnd ? bins[li]! : 0x7fffffff;
    const fromInside = ii < nInside ? insideKeys[ii]! : 0x7fffffff;
    const key = fromList < fromInside ? fromList : fromInside;
    if (fromList === key) li++;
    if (fromInside === key) ii++;
    const a = firstAt[key]!;
    if (a === Infinity) continue;
    evAt[n] = a;
    evPenaltyIn[n] = keyPenaltyIn[key]!;
    evStop[n] = keyStop[key] ? 1 : 0;
    evSource[n++] = key;
  }
  if (tableAtIn >= 0) {
    evAt[n] = tableAtIn;
    evPenaltyIn[n] = 0;
    evStop[n] = 1;
    evSource[n++] = TABLE_EDGE;
  }
  // Stable insertion sort by distance (a handful of events).
  for (let i = 1; i < n; i++) {
    const a = evAt[i]!;
    const p = evPenaltyIn[i]!;
    const st = evStop[i]!;
    const src = evSource[i]!;
    let j = i - 1;
    while (j >= 0 && evAt[j]! > a) {
      evAt[j + 1] = evAt[j]!;
      evPenaltyIn[j + 1] = evPenaltyIn[j]!;
      evStop[j + 1] = evStop[j]!;
      evSource[j + 1] = evSource[j]!;
      j--;
    }
    evAt[j + 1] = a;
    evPenaltyIn[j + 1] = p;
    evStop[j + 1] = st;
    evSource[j + 1] = src;
  }
  // The same steps as walkPenalties.
  let budget = allowanceIn;
  let limit = limitIn;
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, evAt[i]!);
    if (a * k >= budget || a >= limit) break;
    if (evStop[i] || budget - a * k < evPenaltyIn[i]!) {
      if (straight) straightAheadStoppedByOut = eventLabel(evSource[i]!);
      return a;
    }
    budget -= evPenaltyIn[i]!;
  }
  limit = Math.min(limit, budget / k);
  return Math.max(0, limit);
}

/** The fudge move's reach per direction (3", still 1" from the enemy); see movementOptions. */
function fudgeWalk(nKeys: number, ref: PointIn, fx: number, fy: number, masks: Int32Array, unitRadiusIn: number): PointIn[] {
  // Enemy stands whose grown disc comes within the fudge move plus the unit's size.
  let nPieces = 0;
  const limitIn = FUDGE_MOVE_IN + unitRadiusIn + 0.01;
  for (let key = 0; key < nKeys; key++) {
    if (keyKind[key] !== KEY_ENEMY) continue;
    const p = pieceBuf;
    for (let j = 0, at = keyOff[key]!; j < keyN[key]!; j++, at += PIECE_STRIDE) {
      const ex = p[at + P_CX]! - ref.xIn;
      const ey = p[at + P_CY]! - ref.yIn;
      const r = p[at + P_R]!;
      if (hypot2(ex, ey) - r <= limitIn) {
        fudgePieces[nPieces] = p;
        fudgeAt[nPieces++] = at;
      }
    }
  }
  const outline = OUTLINE;
  for (let b = 0; b < REACH_BINS; b++) {
    const lx = BIN_COS[b]!;
    const ly = BIN_SIN[b]!;
    const dx = lx * fx - ly * fy;
    const dy = lx * fy + ly * fx;
    let limit = FUDGE_MOVE_IN;
    if (nPieces > 0) {
      const mask = masks[b]!;
      for (let i = 0; i < 8; i++) {
        if (!(mask & (1 << i))) continue;
        const ox = outline[2 * i]!;
        const oy = outline[2 * i + 1]!;
        for (let j = 0; j < nPieces; j++) {
          const t = rayIntoPieceIn(ox, oy, dx, dy, fudgePieces[j]!, fudgeAt[j]!);
          if (t >= 0 && t < limit) limit = t;
        }
      }
      // The enemies' grown corners cast back at the unit's outline.
      for (let j = 0; j < nPieces; j++) {
        const p = fudgePieces[j]!;
        const at = fudgeAt[j]!;
        for (let c = at + P_CORNERS; c < at + P_CORNERS + 8; c += 2) {
          const t = rayIntoOursIn(p[c]!, p[c + 1]!, -dx, -dy);
          if (t >= 0 && t < limit) limit = t;
        }
      }
    }
    FUDGE_XY[2 * b] = ref.xIn + dx * limit;
    FUDGE_XY[2 * b + 1] = ref.yIn + dy * limit;
  }
  return polygonOf(FUDGE_XY, NONE_IS_REF, ref);
}

function setOutline(i: number, ref: PointIn, fx: number, fy: number, x: number, y: number): void {
  OUTLINE[2 * i] = ref.xIn + x * fx - y * fy;
  OUTLINE[2 * i + 1] = ref.yIn + x * fy + y * fx;
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
  const fx = f.x;
  const fy = f.y;
  // Extent of the unit around the reference point: forward (x') and left (y') of every corner.
  let frontX = -Infinity;
  let backX = Infinity;
  let leftY = -Infinity;
  let rightY = Infinity;
  let unitRadiusIn = 0;
  for (const s of info.stands) {
    if (s.stand.role === 'limber' && !reading.limbered) continue;
    for (const c of s.corners) {
      const dx = c.xIn - ref.xIn;
      const dy = c.yIn - ref.yIn;
      const x = dx * fx + dy * fy;
      const y = -dx * fy + dy * fx;
      // Everything that could matter lies within the open reach plus the unit's size of the reference point.
      unitRadiusIn = Math.max(unitRadiusIn, hypot2(x, y));
      if (x > frontX) frontX = x;
      if (x < backX) backX = x;
      if (y > leftY) leftY = y;
      if (y < rightY) rightY = y;
    }
  }
  const open = openReach(allowanceIn, frontX, leftY, rightY, oblique, prolong);

  // Rays leave from points on the unit's outline: its bounding rectangle's corners and edge midpoints.
  const midX = (frontX + backX) / 2;
  const midY = (leftY + rightY) / 2;
  setOutline(0, ref, fx, fy, frontX, leftY);
  setOutline(1, ref, fx, fy, frontX, midY);
  setOutline(2, ref, fx, fy, frontX, rightY);
  setOutline(3, ref, fx, fy, midX, rightY);
  setOutline(4, ref, fx, fy, backX, rightY);
  setOutline(5, ref, fx, fy, backX, midY);
  setOutline(6, ref, fx, fy, backX, leftY);
  setOutline(7, ref, fx, fy, midX, leftY);

  const maxOpenIn = open.maxIn;
  const horizonIn = maxOpenIn + unitRadiusIn + ENEMY_CLEARANCE_IN + 0.01;
  const reachBox: Box = { minXIn: ref.xIn - horizonIn, minYIn: ref.yIn - horizonIn, maxXIn: ref.xIn + horizonIn, maxYIn: ref.yIn + horizonIn };

  const nKeys = collectObstacles(ctx, info, unitId, reachBox, cannotCrossObstacles, ref, unitRadiusIn, maxOpenIn, headingDeg, open);

  const table = ctx.state.table;
  const masks = originMasks((frontX - backX) / 2, (leftY - rightY) / 2);
  // The unit's bounding rectangle as a frame [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth] (u to its right).
  OUR_FRAME[0] = ref.xIn + midX * fx - midY * fy;
  OUR_FRAME[1] = ref.yIn + midX * fy + midY * fx;
  OUR_FRAME[2] = fy;
  OUR_FRAME[3] = -fx;
  OUR_FRAME[4] = fx;
  OUR_FRAME[5] = fy;
  OUR_FRAME[6] = (leftY - rightY) / 2;
  OUR_FRAME[7] = (frontX - backX) / 2;
  const reach = walkReach(open, allowanceIn, fx, fy, masks, nKeys, unitRadiusIn, ref, table.widthIn, table.depthIn);
  const straightAheadIn = straightAheadInOut;
  const straightAheadStoppedBy = straightAheadStoppedByOut;
  const polygon = reach;
  let terrainMet = startCount > 0;
  for (let key = 0; !terrainMet && key < nKeys; key++) terrainMet = keyKind[key] === KEY_LINEAR || keyKind[key] === KEY_AREA;
  if (terrainMet) notes.push(`Terrain penalties paid when met (${LINEAR_TERRAIN_SOURCE}; ${AREA_TERRAIN_SOURCE})`);
  if (cannotCrossObstacles) notes.push('Artillery and mounted cavalry cannot cross fences, walls, hasty works, entrenchments, abatis or chevaux-de-frise');
  if (straightAheadStoppedBy) notes.push(`Straight ahead: stops after ${straightAheadIn.toFixed(1)}" at ${straightAheadStoppedBy}`);

  // Fudge move (Special Movements): 3" any way, terrain does not matter, still 1" from the enemy.
  const fudgeReach = fudgeWalk(nKeys, ref, fx, fy, masks, unitRadiusIn);


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
    fudgeReach,
    straightAheadIn,
    ...(straightAheadStoppedBy ? { straightAheadStoppedBy } : {}),
    ...(roadAllowanceIn !== undefined ? { roadAllowanceIn, roadReach: roadLines! } : {}),
    ...(face ? { face } : {}),
  };
  // Other units and terrain are only read within the reach box unless the road move looked at enemies
  // further away (nearest enemy, stands along the road): then no box is recorded.
  if (roadLooked) return { movement, shapes };
  return new DependentMovementResult(movement, shapes, {
    box: reachBox,
    refX: ref.xIn,
    refY: ref.yIn,
    reachIn: maxOpenIn + 0.01 + ENEMY_CLEARANCE_IN + unitRadiusIn + DEPENDENCY_SLACK_IN,
    fudgeIn: FUDGE_MOVE_IN + 0.01 + ENEMY_CLEARANCE_IN + unitRadiusIn + DEPENDENCY_SLACK_IN,
    outlineIn: hypot2(Math.max(frontX, -backX), Math.max(leftY, -rightY)),
  });
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
  /** Furthest point of the unit's outline (its bounding rectangle in its own frame) from the reference point. */
  readonly outlineIn: number;
}

/**
 * A movement result that records what it read other units through. A private field rather than a
 * WeakMap entry per result: the WeakMap insert (and its ephemeron work in GC) cost about 3% of the whole
 * call. JSON, spreads and structural equality see only `movement` and `shapes`, as on a plain result.
 */
class DependentMovementResult implements MovementResult {
  readonly movement: DtpMovementOption;
  readonly shapes: readonly Shape[];
  readonly #dependency: Dependency;

  constructor(movement: DtpMovementOption, shapes: readonly Shape[], dependency: Dependency) {
    this.movement = movement;
    this.shapes = shapes;
    this.#dependency = dependency;
  }

  /** The recorded dependency, or undefined for a result without one (road moves, refusals). */
  static of(result: MovementResult): Dependency | undefined {
    return #dependency in result ? (result as DependentMovementResult).#dependency : undefined;
  }
}

/**
 * Whether a unit whose box is `b` (before or after a change) can matter to this result; undefined when
 * the result has no recorded dependency (road moves, refusals: anything may matter). Another unit is read
 * only when its box meets the reach box (collectObstacles' `boxMeets`), and then counts only if its group's
 * disc (the box's circumscribed disc, grown by at most the 1" enemy clearance) passes the direction cull
 * (distance from the reference point minus that radius within the open reach plus the unit's radius), or
 * one of its stands passes fudgeWalk's disc test (a stand's centre lies in the box and its half-diagonal
 * is at most the box's, so the box centre is then within the fudge radius plus twice the box's half-diagonal).
 */
export function movementDependsOnBox(result: MovementResult, b: Readonly<Box>): boolean | undefined {
  const d = DependentMovementResult.of(result);
  if (!d) return undefined;
  const r = d.box;
  // The same overlap test as collectObstacles' `boxMeets`, with a little margin.
  if (b.maxXIn < r.minXIn - 0.01 || b.minXIn > r.maxXIn + 0.01 || b.maxYIn < r.minYIn - 0.01 || b.minYIn > r.maxYIn + 0.01) return false;
  const half = hypot2(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) / 2;
  const cx = (b.minXIn + b.maxXIn) / 2;
  const cy = (b.minYIn + b.maxYIn) / 2;
  const dist = hypot2(cx - d.refX, cy - d.refY);
  if (!(dist <= d.reachIn + half || dist <= d.fudgeIn + 2 * half)) return false;
  // Tighter: every ray leaves from the unit's outline and another unit counts only where it is met before
  // the unit stops, so it must come within the outline's radius (and the 1" clearance) of the path the
  // reference point took in some direction: a segment to a reach or fudge vertex.
  const m = result.movement as DtpMovementOption;
  const limitIn = d.outlineIn + half + ENEMY_CLEARANCE_IN + DEPENDENCY_SLACK_IN;
  return nearPath(m.reach, d.refX, d.refY, cx, cy, limitIn) || nearPath(m.fudgeReach, d.refX, d.refY, cx, cy, limitIn);
}

/** Whether (cx, cy) lies within `limitIn` of a segment from (rx, ry) to one of `ends`. */
function nearPath(ends: readonly PointIn[], rx: number, ry: number, cx: number, cy: number, limitIn: number): boolean {
  const limit2 = limitIn * limitIn;
  for (const v of ends) {
    const dx = v.xIn - rx;
    const dy = v.yIn - ry;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((cx - rx) * dx + (cy - ry) * dy) / len2));
    const ex = rx + dx * t - cx;
    const ey = ry + dy * t - cy;
    if (ex * ex + ey * ey <= limit2) return true;
  }
  return false;
}

/**
 * The box within which other units' stands were looked at for this result: a unit whose box (before and
 * after a change) does not meet it cannot change the result. Undefined when the result may depend on units
 * further away (road moves, refusals): then the caller must assume anything can.
 */
export function movementDependencyBox(result: MovementResult): Readonly<Box> | undefined {
  return DependentMovementResult.of(result)?.box;
}

/** One point per direction, [x0, y0, ...]: the reach and the fudge reach, before they become polygons. */
const REACH_XY = new Float64Array(2 * REACH_BINS);
const FUDGE_XY = new Float64Array(2 * REACH_BINS);
/** Directions where the reach is the reference point itself (no open ground that way). */
const REACH_IS_REF = new Uint8Array(REACH_BINS);
const NONE_IS_REF = new Uint8Array(REACH_BINS);
/** polygonOf's scratch: which directions' points stay. */
const KEEP = new Uint8Array(REACH_BINS);

/**
 * The points as a polygon without repeats: a point within 1e-9 of the previous kept one is dropped, and so
 * is the last when it matches the first (what building every point then deduping gave, without building
 * the dropped ones). `isRef` marks directions whose point is the reference point object itself.
 */
function polygonOf(xy: Float64Array, isRef: Uint8Array, ref: PointIn): PointIn[] {
  // Which points stay (marked in KEEP), then the array at its final length (growing it by push cost a
  // copy or two per polygon).
  let kept = 0;
  let lastX = 0;
  let lastY = 0;
  let firstX = 0;
  let firstY = 0;
  for (let b = 0; b < REACH_BINS; b++) {
    const x = xy[2 * b]!;
    const y = xy[2 * b + 1]!;
    const keep = kept === 0 || Math.abs(lastX - x) > 1e-9 || Math.abs(lastY - y) > 1e-9;
    KEEP[b] = keep ? 1 : 0;
    if (keep) {
      if (kept === 0) {
        firstX = x;
        firstY = y;
      }
      kept++;
      lastX = x;
      lastY = y;
    }
  }
  if (kept > 1 && Math.abs(firstX - lastX) < 1e-9 && Math.abs(firstY - lastY) < 1e-9) {
    // The last kept point closes onto the first: drop it.
    for (let b = REACH_BINS - 1; b >= 0; b--) {
      if (KEEP[b]) {
        KEEP[b] = 0;
        break;
      }
    }
    kept--;
  }
  const out = new Array<PointIn>(kept);
  for (let b = 0, i = 0; b < REACH_BINS; b++) {
    if (KEEP[b]) out[i++] = isRef[b] ? ref : { xIn: xy[2 * b]!, yIn: xy[2 * b + 1]! };
  }
  return out;
}
