/**
 * What a move can meet, as groups of pieces: a terrain feature's segments or a unit's stand rectangles
 * (friends as they stand, enemies grown by the 1" clearance). Every group's pieces sit back to back in one
 * Float64Array per call (struct of arrays, PIECE_STRIDE numbers per piece), so the ray loops
 * (`reachWalk.ts`, `fudgeWalk.ts`) read packed numbers instead of chasing per-stand objects and typed
 * arrays. The terrain's pieces are made once per terrain (`movementTerrainQuery`) and copied in; a unit's
 * are written from its stands. The layout is `PIECE`.
 */
import type { AreaTerrain, LinearTerrain } from '../../../model/tableState.ts';
import { query } from '../../../engine/incremental/query.ts';
import type { PointIn } from '../../../model/units.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { pointsBoundingBox } from '../../../geometry/polygon.ts';
import type { BoxIn, DtpContext, UnitInfo } from '../context.ts';
import { AREA_TERRAIN_PENALTY_IN, ENEMY_CLEARANCE_IN, LINEAR_TERRAIN_PENALTY_IN } from '../tables/movementTables.ts';

/**
 * Where each number of a piece sits, PIECE_STRIDE numbers per piece. Every module that reads or writes
 * pieces, this one included, copies the layout into constants of its own (`const { P_CX, ... } = PIECE`):
 * V8 (Node 20) folds a module's own constants into its loops' index arithmetic, but not imported or
 * exported ones (a loop like the ray passes' ran at half speed).
 */
export const PIECE = {
  /** Bounding disc of the piece: centre (a rectangle's centre, a segment's midpoint) and radius. */
  P_CX: 0,
  P_CY: 1,
  P_R: 2,
  /** A rectangle's half-extents along u (across, to its right) and n (forward), already grown. */
  P_HU: 3,
  P_HV: 4,
  /** A rectangle's unit axes u and n. */
  P_UX: 5,
  P_UY: 6,
  P_NX: 7,
  P_NY: 8,
  /** Distance from the centre to the farthest point of the piece (a grown corner, a segment end), rounded up. */
  P_RC: 9,
  /** Corners [x0, y0, ...]: a grown rectangle's four (+u+n, +u-n, -u-n, -u+n), or a segment's two ends. */
  P_CORNERS: 10,
  PIECE_STRIDE: 18,
} as const;

const { P_CX, P_CY, P_R, P_HU, P_HV, P_UX, P_UY, P_NX, P_NY, P_RC, P_CORNERS, PIECE_STRIDE } = PIECE;

/** A group of pieces in the context's buffer, with its bounding discs for the culls. */
export interface Group {
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

/**
 * The largest centre distance + radius of n pieces from `off` in p from (cx, cy), rounded up; the radius is
 * the piece's number at `radiusAt` (P_R: its disc, for a group's spread; P_RC: its farthest point, for its reach).
 */
function discReachOf(p: Float64Array, off: number, n: number, cx: number, cy: number, radiusAt: number): number {
  let out = 0;
  for (let i = 0, at = off; i < n; i++, at += PIECE_STRIDE) {
    const ex = p[at + P_CX]! - cx;
    const ey = p[at + P_CY]! - cy;
    out = Math.max(out, Math.sqrt(ex * ex + ey * ey) + p[at + radiusAt]!);
  }
  return out + 1e-7;
}

/** Writes a stand rectangle (corners [FL, FR, RR, RL]) grown by `growIn` as the piece at `at`. */
export function writeRectPiece(p: Float64Array, at: number, corners: readonly PointIn[], growIn: number): void {
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

/**
 * The pieces of one `movementOptions` call, back to back (module scratch, written over by the next call:
 * movementOptions is synchronous and never re-entered, and no piece outlives the call). One buffer keeps
 * the ray loops' data together and their bounds checks on one array.
 */
let buf = new Float64Array(64 * PIECE_STRIDE);
let used = 0;

/** Starts a call's pieces: none yet. */
export function startPieces(): void {
  used = 0;
}

/** The buffer the call's groups point into (read once every group is made: it may have grown). */
export function callPieces(): Float64Array {
  return buf;
}

/** Room for n more pieces in the call's buffer; returns where they start. */
function reservePieces(n: number): number {
  const off = used;
  const need = off + n * PIECE_STRIDE;
  if (need > buf.length) {
    const grown = new Float64Array(Math.max(need, buf.length * 2));
    grown.set(buf.subarray(0, off));
    buf = grown;
  }
  used = need;
  return off;
}

/** A unit's stands as one group in the call's buffer; its disc comes from the unit's box (grown like the stands). */
export function unitGroup(info: UnitInfo, enemy: boolean): Group {
  const n = info.stands.length;
  const off = reservePieces(n);
  const p = buf;
  const growIn = enemy ? ENEMY_CLEARANCE_IN : 0;
  for (let i = 0; i < n; i++) writeRectPiece(p, off + i * PIECE_STRIDE, info.stands[i]!.corners, growIn);
  const b = info.box;
  const cx = (b.minXIn + b.maxXIn) / 2;
  const cy = (b.minYIn + b.maxYIn) / 2;
  return { off, n, seg: false, cx, cy, r: hypot2(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) / 2 + growIn, spread: discReachOf(p, off, n, cx, cy, P_R), reach: discReachOf(p, off, n, cx, cy, P_RC) };
}

/** A terrain feature's segments (PIECE_STRIDE numbers each) with the group's disc, and its box. */
export interface Pieces {
  readonly box: BoxIn;
  readonly p: Float64Array;
  readonly n: number;
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly spread: number;
  readonly reach: number;
}

/** A terrain feature's segments copied into the call's buffer. */
export function terrainGroup(pieces: Pieces): Group {
  const off = reservePieces(pieces.n);
  buf.set(pieces.p, off);
  return { off, n: pieces.n, seg: true, cx: pieces.cx, cy: pieces.cy, r: pieces.r, spread: pieces.spread, reach: pieces.reach };
}

/** A terrain feature's box and segments. */
function piecesOf(points: readonly PointIn[], closed: boolean): Pieces {
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
  return { box: pointsBoundingBox(points), p, n, cx, cy, r, spread: discReachOf(p, 0, n, cx, cy, P_R), reach: discReachOf(p, 0, n, cx, cy, P_RC) };
}

/** What a move can meet of the terrain: each linear feature that costs or stops, and each area, with its pieces. */
export interface MovementTerrain {
  readonly linear: readonly { readonly feature: LinearTerrain; readonly penaltyIn: number | undefined; readonly pieces: Pieces }[];
  readonly areas: readonly { readonly feature: AreaTerrain; readonly penaltyIn: number; readonly pieces: Pieces }[];
}

/** The terrain's pieces for movement, made once per terrain. */
export const movementTerrainQuery = query('dtp/movement-terrain', (ctx: DtpContext): MovementTerrain => {
  const terrain = ctx.state.terrain;
  const linear: MovementTerrain['linear'][number][] = [];
  for (const line of terrain.linear) {
    const penaltyIn = LINEAR_TERRAIN_PENALTY_IN[line.kind];
    if (penaltyIn === 0) continue;
    linear.push({ feature: line, penaltyIn, pieces: piecesOf(line.points, false) });
  }
  const areas = terrain.areas.map((area) => ({ feature: area, penaltyIn: AREA_TERRAIN_PENALTY_IN[area.kind], pieces: piecesOf(area.vertices, true) }));
  return { linear, areas };
});

/**
 * Whether (x, y) is in the box grown by a hair. Outside it pointInPolygon is false (no edge straddles the
 * point's row, or every crossing lies on one side: an even count), so the test can be skipped.
 */
export function inBox(x: number, y: number, b: BoxIn): boolean {
  return x >= b.minXIn - 1e-6 && x <= b.maxXIn + 1e-6 && y >= b.minYIn - 1e-6 && y <= b.maxYIn + 1e-6;
}

/** Whether box b meets the box [minXIn, maxXIn] x [minYIn, maxYIn]. */
export function boxMeets(b: BoxIn, minXIn: number, minYIn: number, maxXIn: number, maxYIn: number): boolean {
  return !(b.maxXIn < minXIn || b.minXIn > maxXIn || b.maxYIn < minYIn || b.minYIn > maxYIn);
}
