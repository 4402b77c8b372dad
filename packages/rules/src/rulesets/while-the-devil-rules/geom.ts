/**
 * Small geometry this rule set needs and src/geometry does not have: a unit's oriented box (its four faces),
 * half-plane clipping of a convex polygon, and segment-to-polygon distance. Inches, degrees CCW.
 */
import type { PointIn } from '../../model/units.ts';
import { segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';

/** The unit's frame: forward (`f`) along its heading, left (`l`) 90° CCW of it. */
export interface UnitFrame {
  readonly headingDeg: number;
  readonly fx: number;
  readonly fy: number;
}

export function frameOf(headingDeg: number): UnitFrame {
  const r = (headingDeg * Math.PI) / 180;
  return { headingDeg, fx: Math.cos(r), fy: Math.sin(r) };
}

/** Coordinate along the heading. */
export function along(fr: UnitFrame, p: PointIn): number {
  return p.xIn * fr.fx + p.yIn * fr.fy;
}

/** Coordinate to the left of the heading. */
export function across(fr: UnitFrame, p: PointIn): number {
  return -p.xIn * fr.fy + p.yIn * fr.fx;
}

/** The point at (`a` along, `c` across) in the frame. */
export function fromFrame(fr: UnitFrame, a: number, c: number): PointIn {
  return { xIn: a * fr.fx - c * fr.fy, yIn: a * fr.fy + c * fr.fx };
}

/** Extent of points in a frame. */
export interface FrameBox {
  readonly front: number;
  readonly rear: number;
  readonly left: number;
  readonly right: number;
}

export function frameBox(fr: UnitFrame, points: readonly PointIn[]): FrameBox {
  let front = -Infinity, rear = Infinity, left = -Infinity, right = Infinity;
  for (const p of points) {
    const a = along(fr, p);
    const c = across(fr, p);
    if (a > front) front = a;
    if (a < rear) rear = a;
    if (c > left) left = c;
    if (c < right) right = c;
  }
  return { front, rear, left, right };
}

/** A half-plane: points p with (p - origin) · normal >= 0. */
export interface HalfPlane {
  readonly origin: PointIn;
  readonly nx: number;
  readonly ny: number;
}

/** Sutherland–Hodgman: the part of a convex polygon inside every half-plane (possibly empty). */
export function clipConvex(polygon: readonly PointIn[], planes: readonly HalfPlane[]): PointIn[] {
  let ring: PointIn[] = [...polygon];
  for (const h of planes) {
    if (ring.length === 0) break;
    const side = (p: PointIn): number => (p.xIn - h.origin.xIn) * h.nx + (p.yIn - h.origin.yIn) * h.ny;
    const out: PointIn[] = [];
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i]!;
      const b = ring[(i + 1) % ring.length]!;
      const sa = side(a);
      const sb = side(b);
      if (sa >= 0) out.push(a);
      if ((sa >= 0) !== (sb >= 0)) {
        const t = sa / (sa - sb);
        out.push({ xIn: a.xIn + (b.xIn - a.xIn) * t, yIn: a.yIn + (b.yIn - a.yIn) * t });
      }
    }
    ring = out;
  }
  return ring;
}

/** Half-plane to the right of a ray leaving `origin` at `dirDeg` (clockwise side, boundary included). */
export function rightOfRay(origin: PointIn, dirDeg: number): HalfPlane {
  const r = (dirDeg * Math.PI) / 180;
  return { origin, nx: Math.sin(r), ny: -Math.cos(r) };
}

/** Half-plane to the left of a ray leaving `origin` at `dirDeg`. */
export function leftOfRay(origin: PointIn, dirDeg: number): HalfPlane {
  const r = (dirDeg * Math.PI) / 180;
  return { origin, nx: -Math.sin(r), ny: Math.cos(r) };
}

/** Half-plane ahead of a line through `origin`, facing `dirDeg`. */
export function aheadOf(origin: PointIn, dirDeg: number): HalfPlane {
  const r = (dirDeg * Math.PI) / 180;
  return { origin, nx: Math.cos(r), ny: Math.sin(r) };
}

/** Shortest distance from segment a–b to a polygon (0 when they touch or the segment is inside). */
export function segmentToPolygonDistanceIn(a: PointIn, b: PointIn, polygon: readonly PointIn[]): number {
  if (polygon.length === 0) return Infinity;
  if (pointInPolygon(a, polygon)) return 0;
  let best = Infinity;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const d = segmentToSegmentDistanceIn(a, b, polygon[j]!, polygon[i]!);
    if (d < best) best = d;
    if (best === 0) return 0;
  }
  return best;
}

/** Index of the lowest point (then leftmost) of a ring: where a Minkowski merge starts. */
function lowestIndex(ring: readonly PointIn[]): number {
  let k = 0;
  for (let i = 1; i < ring.length; i++) {
    const p = ring[i]!;
    const q = ring[k]!;
    if (p.yIn < q.yIn || (p.yIn === q.yIn && p.xIn < q.xIn)) k = i;
  }
  return k;
}

/**
 * Minkowski sum of two convex counter-clockwise rings (as `convexHull` returns them) by merging their edges
 * in angle order: linear in the vertex count, where the hull of all pairwise sums sorts |a|·|b| points.
 * Rings of fewer than 3 points fall back to that hull.
 */
export function convexMinkowskiSum(a: readonly PointIn[], b: readonly PointIn[], hull: (pts: PointIn[]) => PointIn[]): PointIn[] {
  if (a.length < 3 || b.length < 3) {
    const pts: PointIn[] = [];
    for (const p of a) for (const q of b) pts.push({ xIn: p.xIn + q.xIn, yIn: p.yIn + q.yIn });
    return hull(pts);
  }
  const n = a.length;
  const m = b.length;
  const i0 = lowestIndex(a);
  const j0 = lowestIndex(b);
  const out: PointIn[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const p = a[(i0 + i) % n]!;
    const q = b[(j0 + j) % m]!;
    out.push({ xIn: p.xIn + q.xIn, yIn: p.yIn + q.yIn });
    const p1 = a[(i0 + i + 1) % n]!;
    const q1 = b[(j0 + j + 1) % m]!;
    const cross = i >= n ? -1 : j >= m ? 1 : (p1.xIn - p.xIn) * (q1.yIn - q.yIn) - (p1.yIn - p.yIn) * (q1.xIn - q.xIn);
    if (cross >= 0) i++;
    if (cross <= 0) j++;
  }
  return out;
}
