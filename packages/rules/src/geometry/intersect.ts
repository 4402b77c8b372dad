/**
 * Intersection tests on segments and polygons, inches. Polygons are simple rings of points in either
 * winding, without a repeated closing point. Touching counts as intersecting.
 */
import type { PointIn } from '../model/units.ts';
import { sortSmall } from './sortSmall.ts';

/** Tolerance for collinearity and touching, inches (a thousandth of an inch is far below tabletop precision). */
export const EPSILON_IN = 1e-9;

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return (
    Math.min(ax, bx) - EPSILON_IN <= px &&
    px <= Math.max(ax, bx) + EPSILON_IN &&
    Math.min(ay, by) - EPSILON_IN <= py &&
    py <= Math.max(ay, by) + EPSILON_IN
  );
}

/** True when segments a1–a2 and b1–b2 share at least one point (touching and collinear overlap count). */
export function segmentsIntersect(a1: PointIn, a2: PointIn, b1: PointIn, b2: PointIn): boolean {
  const d1 = orient(b1.xIn, b1.yIn, b2.xIn, b2.yIn, a1.xIn, a1.yIn);
  const d2 = orient(b1.xIn, b1.yIn, b2.xIn, b2.yIn, a2.xIn, a2.yIn);
  const d3 = orient(a1.xIn, a1.yIn, a2.xIn, a2.yIn, b1.xIn, b1.yIn);
  const d4 = orient(a1.xIn, a1.yIn, a2.xIn, a2.yIn, b2.xIn, b2.yIn);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && onSegment(b1.xIn, b1.yIn, b2.xIn, b2.yIn, a1.xIn, a1.yIn)) return true;
  if (d2 === 0 && onSegment(b1.xIn, b1.yIn, b2.xIn, b2.yIn, a2.xIn, a2.yIn)) return true;
  if (d3 === 0 && onSegment(a1.xIn, a1.yIn, a2.xIn, a2.yIn, b1.xIn, b1.yIn)) return true;
  if (d4 === 0 && onSegment(a1.xIn, a1.yIn, a2.xIn, a2.yIn, b2.xIn, b2.yIn)) return true;
  return false;
}

/** Where two segments cross: the point and the parameters along each (0..1). */
export interface SegmentCrossing {
  readonly point: PointIn;
  /** Fraction along a1→a2. */
  readonly tA: number;
  /** Fraction along b1→b2. */
  readonly tB: number;
}

/**
 * The single crossing point of two segments, or undefined when they miss or are parallel (collinear
 * overlaps have no single point; use `segmentsIntersect` to detect them).
 */
export function segmentIntersection(a1: PointIn, a2: PointIn, b1: PointIn, b2: PointIn): SegmentCrossing | undefined {
  const rx = a2.xIn - a1.xIn;
  const ry = a2.yIn - a1.yIn;
  const sx = b2.xIn - b1.xIn;
  const sy = b2.yIn - b1.yIn;
  const denom = rx * sy - ry * sx;
  if (Math.abs(denom) < 1e-15) return undefined;
  const qx = b1.xIn - a1.xIn;
  const qy = b1.yIn - a1.yIn;
  const tA = (qx * sy - qy * sx) / denom;
  const tB = (qx * ry - qy * rx) / denom;
  const e = 1e-12;
  if (tA < -e || tA > 1 + e || tB < -e || tB > 1 + e) return undefined;
  return { point: { xIn: a1.xIn + rx * tA, yIn: a1.yIn + ry * tA }, tA, tB };
}

/**
 * Fraction along a1→a2 (0..1) where it crosses segment b1–b2, or NaN when they miss or are parallel.
 * Same test as `segmentIntersection` without allocating: for hot loops that only need the position.
 */
export function segmentIntersectionT(a1: PointIn, a2: PointIn, b1: PointIn, b2: PointIn): number {
  const rx = a2.xIn - a1.xIn;
  const ry = a2.yIn - a1.yIn;
  const sx = b2.xIn - b1.xIn;
  const sy = b2.yIn - b1.yIn;
  const denom = rx * sy - ry * sx;
  if (Math.abs(denom) < 1e-15) return Number.NaN;
  const qx = b1.xIn - a1.xIn;
  const qy = b1.yIn - a1.yIn;
  const tA = (qx * sy - qy * sx) / denom;
  const tB = (qx * ry - qy * rx) / denom;
  const e = 1e-12;
  if (tA < -e || tA > 1 + e || tB < -e || tB > 1 + e) return Number.NaN;
  return tA;
}

/** True when segment a→b crosses or touches any edge of the polygon. Allocation-free. */
export function segmentTouchesPolygonBoundary(a: PointIn, b: PointIn, polygon: readonly PointIn[]): boolean {
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    if (segmentsIntersect(a, b, polygon[j]!, polygon[i]!)) return true;
  }
  return false;
}

/** Point in polygon (even-odd rule). Points exactly on the boundary may go either way. */
export function pointInPolygon(p: PointIn, polygon: readonly PointIn[]): boolean {
  let inside = false;
  const n = polygon.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.yIn > p.yIn !== b.yIn > p.yIn) {
      const x = a.xIn + ((p.yIn - a.yIn) * (b.xIn - a.xIn)) / (b.yIn - a.yIn);
      if (p.xIn < x) inside = !inside;
    }
  }
  return inside;
}

const ascending = (x: number, y: number): number => x - y;

/**
 * Fractions (0..1, ascending) along a→b where the segment crosses the polygon's boundary.
 * Crossings at a shared vertex of two edges may appear twice; callers that need intervals should use
 * `segmentInsideIntervals`.
 */
export function segmentPolygonCrossings(a: PointIn, b: PointIn, polygon: readonly PointIn[]): number[] {
  return segmentPolygonCrossingsInto(a, b, polygon, []);
}

/** `segmentPolygonCrossings` written into `out` (emptied first): for callers that reuse one list per walk. */
export function segmentPolygonCrossingsInto(a: PointIn, b: PointIn, polygon: readonly PointIn[], out: number[]): number[] {
  // Setting a length is a runtime call: only when there is something to clear.
  if (out.length !== 0) out.length = 0;
  const n = polygon.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const t = segmentIntersectionT(a, b, polygon[j]!, polygon[i]!);
    if (t === t) out.push(Math.min(1, Math.max(0, t))); // t === t: not NaN
  }
  sortSmall(out, ascending);
  return out;
}

/**
 * The parts of segment a→b inside the polygon, as [tStart, tEnd] fraction pairs in order. Robust to
 * crossings through vertices: each piece between consecutive crossings is classified by its midpoint.
 */
export function segmentInsideIntervals(a: PointIn, b: PointIn, polygon: readonly PointIn[]): [number, number][] {
  const flat = segmentInsideIntervalsInto(a, b, polygon, []);
  const out: [number, number][] = [];
  for (let k = 0; k < flat.length; k += 2) out.push([flat[k]!, flat[k + 1]!]);
  return out;
}

/** Scratch of `segmentInsideIntervalsInto` (never re-entered: `pointInPolygon` calls neither). */
const CUTS: number[] = [];
const MID: { xIn: number; yIn: number } = { xIn: 0, yIn: 0 };

/**
 * `segmentInsideIntervals` written flat into `out` (emptied first) as t0, t1, t0, t1, ...: the same pieces
 * to the last bit, without a list or point per piece, for walks that price many segments.
 */
export function segmentInsideIntervalsInto(a: PointIn, b: PointIn, polygon: readonly PointIn[], out: number[]): number[] {
  if (out.length !== 0) out.length = 0;
  const ts = segmentPolygonCrossingsInto(a, b, polygon, CUTS);
  const n = ts.length;
  // The pieces between cuts 0, ts..., 1, each kept when its midpoint is inside; touching pieces merge.
  for (let k = -1; k < n; k++) {
    const t0 = k < 0 ? 0 : ts[k]!;
    const t1 = k + 1 < n ? ts[k + 1]! : 1;
    if (t1 - t0 <= 1e-12) continue;
    const tm = (t0 + t1) / 2;
    MID.xIn = a.xIn + (b.xIn - a.xIn) * tm;
    MID.yIn = a.yIn + (b.yIn - a.yIn) * tm;
    if (!pointInPolygon(MID, polygon)) continue;
    const m = out.length;
    if (m !== 0 && Math.abs(out[m - 1]! - t0) <= 1e-12) out[m - 1] = t1;
    else out.push(t0, t1);
  }
  return out;
}

/** Scratch for `fractionInsidePolygon`'s crossings (reused: the engine calls it thousands of times a table). */
const CROSSINGS: number[] = [];

/**
 * The fraction of segment a→b inside the polygon: the sum of `segmentInsideIntervals`' (t1 - t0), bit for
 * bit (same crossings, same merging, same order of addition), without building the intervals.
 */
export function fractionInsidePolygon(a: PointIn, b: PointIn, polygon: readonly PointIn[]): number {
  const ts = segmentPolygonCrossingsInto(a, b, polygon, CROSSINGS);
  let sum = 0;
  let open = false;
  let start = 0;
  let end = 0;
  for (let k = -1; k < ts.length; k++) {
    const t0 = k < 0 ? 0 : ts[k]!;
    const t1 = k + 1 < ts.length ? ts[k + 1]! : 1;
    if (t1 - t0 <= 1e-12) continue;
    const tm = (t0 + t1) / 2;
    if (!pointInPolygonXY(a.xIn + (b.xIn - a.xIn) * tm, a.yIn + (b.yIn - a.yIn) * tm, polygon)) continue;
    if (open && Math.abs(end - t0) <= 1e-12) end = t1;
    else {
      if (open) sum += end - start;
      open = true;
      start = t0;
      end = t1;
    }
  }
  if (open) sum += end - start;
  return sum;
}

/** `pointInPolygon` on plain numbers. */
function pointInPolygonXY(px: number, py: number, polygon: readonly PointIn[]): boolean {
  let inside = false;
  const n = polygon.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.yIn > py !== b.yIn > py) {
      const x = a.xIn + ((py - a.yIn) * (b.xIn - a.xIn)) / (b.yIn - a.yIn);
      if (px < x) inside = !inside;
    }
  }
  return inside;
}

/**
 * Length of segment a→b that lies inside the polygon, inches. For rules such as "may not fire through
 * more than 6\" of woods".
 */
export function lengthInsidePolygonIn(a: PointIn, b: PointIn, polygon: readonly PointIn[]): number {
  const len = Math.sqrt((b.xIn - a.xIn) ** 2 + (b.yIn - a.yIn) ** 2);
  let sum = 0;
  for (const [t0, t1] of segmentInsideIntervals(a, b, polygon)) sum += t1 - t0;
  return sum * len;
}

/** True when the open polyline (e.g. a fence) touches or crosses segment a→b. */
export function polylineCrossesSegment(polyline: readonly PointIn[], a: PointIn, b: PointIn): boolean {
  for (let i = 0; i + 1 < polyline.length; i++) {
    if (segmentsIntersect(polyline[i]!, polyline[i + 1]!, a, b)) return true;
  }
  return false;
}

/**
 * True when the bounding boxes of two point sets are more than `marginIn` apart on some axis, so the shapes
 * cannot meet. No allocation: hot loops call it for every pair.
 */
export function pointBoxesApart(p: readonly PointIn[], q: readonly PointIn[], marginIn: number): boolean {
  let pminx = Infinity, pminy = Infinity, pmaxx = -Infinity, pmaxy = -Infinity;
  for (const v of p) {
    if (v.xIn < pminx) pminx = v.xIn;
    if (v.xIn > pmaxx) pmaxx = v.xIn;
    if (v.yIn < pminy) pminy = v.yIn;
    if (v.yIn > pmaxy) pmaxy = v.yIn;
  }
  let qminx = Infinity, qminy = Infinity, qmaxx = -Infinity, qmaxy = -Infinity;
  for (const v of q) {
    if (v.xIn < qminx) qminx = v.xIn;
    if (v.xIn > qmaxx) qmaxx = v.xIn;
    if (v.yIn < qminy) qminy = v.yIn;
    if (v.yIn > qmaxy) qmaxy = v.yIn;
  }
  return pmaxx < qminx - marginIn || qmaxx < pminx - marginIn || pmaxy < qminy - marginIn || qmaxy < pminy - marginIn;
}

/** True when two polygons share any area or boundary point (edges cross, touch, or one contains the other). */
export function polygonsOverlap(p: readonly PointIn[], q: readonly PointIn[]): boolean {
  if (p.length === 0 || q.length === 0) return false;
  // Cheap bounding-box reject first: most pairs on a table are far apart.
  if (pointBoxesApart(p, q, EPSILON_IN)) return false;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
    for (let k = 0, l = q.length - 1; k < q.length; l = k++) {
      if (segmentsIntersect(p[j]!, p[i]!, q[l]!, q[k]!)) return true;
    }
  }
  return pointInPolygon(p[0]!, q) || pointInPolygon(q[0]!, p);
}
