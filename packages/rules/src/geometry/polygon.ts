/**
 * Polygon measures and operations, inches. Simple polygons are rings without a repeated closing point,
 * either winding unless stated. Boolean operations (union, difference, intersection) use the
 * `polygon-clipping` library (Martinez-Rueda sweep line, pure JS, handles holes and degeneracies);
 * see the package README for why it was chosen over writing our own.
 */
import polygonClipping from 'polygon-clipping';
import type { Pair, Polygon as PcPolygon, MultiPolygon as PcMultiPolygon } from 'polygon-clipping';
import type { PointIn } from '../model/units.ts';
import { hypot2 } from './hypot.ts';
import { sortSmall } from './sortSmall.ts';

/** A polygon with holes: the first ring is the outer boundary, the rest are holes. */
export type PolygonWithHolesIn = readonly (readonly PointIn[])[];
/** Several disjoint polygons with holes (the result of a boolean operation). */
export type MultiPolygonIn = readonly PolygonWithHolesIn[];

/** Axis-aligned bounding box, inches. */
export interface BoundingBoxIn {
  readonly minXIn: number;
  readonly minYIn: number;
  readonly maxXIn: number;
  readonly maxYIn: number;
}

/** Signed area, square inches: positive for counter-clockwise rings. */
export function signedArea(polygon: readonly PointIn[]): number {
  let s = 0;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[j]!;
    const b = polygon[i]!;
    s += a.xIn * b.yIn - b.xIn * a.yIn;
  }
  return s / 2;
}

/** Area, square inches (either winding). */
export function polygonArea(polygon: readonly PointIn[]): number {
  return Math.abs(signedArea(polygon));
}

/** Area centroid; for a degenerate (zero-area) polygon, the mean of its vertices. */
export function polygonCentroid(polygon: readonly PointIn[]): PointIn {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const p = polygon[j]!;
    const q = polygon[i]!;
    const f = p.xIn * q.yIn - q.xIn * p.yIn;
    a += f;
    cx += (p.xIn + q.xIn) * f;
    cy += (p.yIn + q.yIn) * f;
  }
  if (Math.abs(a) < 1e-12) {
    let sx = 0;
    let sy = 0;
    for (const p of polygon) {
      sx += p.xIn;
      sy += p.yIn;
    }
    const n = Math.max(1, polygon.length);
    return { xIn: sx / n, yIn: sy / n };
  }
  return { xIn: cx / (3 * a), yIn: cy / (3 * a) };
}

/**
 * Bounding box of a set of points. An empty list gives an inverted box (min > max) that overlaps nothing,
 * which hot loops can use without a special case.
 */
export function pointsBoundingBox(points: readonly PointIn[]): BoundingBoxIn {
  let minXIn = Infinity, minYIn = Infinity, maxXIn = -Infinity, maxYIn = -Infinity;
  for (const p of points) {
    if (p.xIn < minXIn) minXIn = p.xIn;
    if (p.xIn > maxXIn) maxXIn = p.xIn;
    if (p.yIn < minYIn) minYIn = p.yIn;
    if (p.yIn > maxYIn) maxYIn = p.yIn;
  }
  return { minXIn, minYIn, maxXIn, maxYIn };
}

/** Bounding box of a set of points. Throws on an empty list (there is no box). */
export function boundingBox(points: readonly PointIn[]): BoundingBoxIn {
  if (points.length === 0) throw new Error('boundingBox: no points given');
  return pointsBoundingBox(points);
}

/** True when two boxes overlap or touch, optionally grown by `marginIn` each way. */
export function boxesOverlap(a: BoundingBoxIn, b: BoundingBoxIn, marginIn = 0): boolean {
  return (
    a.minXIn - marginIn <= b.maxXIn &&
    b.minXIn - marginIn <= a.maxXIn &&
    a.minYIn - marginIn <= b.maxYIn &&
    b.minYIn - marginIn <= a.maxYIn
  );
}

/** A box being grown: `emptyBox()` holds nothing (min above max) until `extendBox` gives it boxes. */
export interface GrowingBoxIn {
  minXIn: number;
  minYIn: number;
  maxXIn: number;
  maxYIn: number;
}

export function emptyBox(): GrowingBoxIn {
  return { minXIn: Infinity, minYIn: Infinity, maxXIn: -Infinity, maxYIn: -Infinity };
}

/** Grows `acc` to hold `b` (nothing when there is no `b`). */
export function extendBox(acc: GrowingBoxIn, b: BoundingBoxIn | undefined): void {
  if (!b) return;
  if (b.minXIn < acc.minXIn) acc.minXIn = b.minXIn;
  if (b.minYIn < acc.minYIn) acc.minYIn = b.minYIn;
  if (b.maxXIn > acc.maxXIn) acc.maxXIn = b.maxXIn;
  if (b.maxYIn > acc.maxYIn) acc.maxYIn = b.maxYIn;
}

/** Gap between two boxes, inches (0 when they overlap): never more than the true distance of what they hold. */
export function boxesGapIn(a: BoundingBoxIn, b: BoundingBoxIn): number {
  const dx = Math.max(0, b.minXIn - a.maxXIn, a.minXIn - b.maxXIn);
  const dy = Math.max(0, b.minYIn - a.maxYIn, a.minYIn - b.maxYIn);
  return hypot2(dx, dy);
}

/** Convex hull (Andrew's monotone chain), counter-clockwise, without collinear points. */
export function convexHull(points: readonly PointIn[]): PointIn[] {
  const pts = sortSmall([...points], (a, b) => a.xIn - b.xIn || a.yIn - b.yIn);
  if (pts.length < 3) return pts;
  const cross = (o: PointIn, a: PointIn, b: PointIn): number =>
    (a.xIn - o.xIn) * (b.yIn - o.yIn) - (a.yIn - o.yIn) * (b.xIn - o.xIn);
  const lower: PointIn[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: PointIn[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/**
 * Offset a convex polygon by `distanceIn`: outward (positive) gives the Minkowski sum with a disc, corners
 * rounded with arcs of `segmentsPerQuarter` chords per 90°; inward (negative) moves every edge in and
 * may return an empty list when the polygon vanishes. Result is counter-clockwise.
 */
export function offsetConvexPolygon(polygon: readonly PointIn[], distanceIn: number, segmentsPerQuarter = 4): PointIn[] {
  const ring = signedArea(polygon) < 0 ? [...polygon].reverse() : [...polygon];
  const n = ring.length;
  if (n < 3 || distanceIn === 0) return ring;
  // Outward normal of edge i (from ring[i] to ring[i+1]) for a counter-clockwise ring: direction turned clockwise.
  const normals = ring.map((p, i) => {
    const q = ring[(i + 1) % n]!;
    const dx = q.xIn - p.xIn;
    const dy = q.yIn - p.yIn;
    const l = hypot2(dx, dy) || 1;
    return { x: dy / l, y: -dx / l };
  });
  if (distanceIn > 0) {
    const out: PointIn[] = [];
    for (let i = 0; i < n; i++) {
      const v = ring[i]!;
      const nPrev = normals[(i - 1 + n) % n]!;
      const nNext = normals[i]!;
      const a0 = Math.atan2(nPrev.y, nPrev.x);
      let a1 = Math.atan2(nNext.y, nNext.x);
      while (a1 < a0) a1 += 2 * Math.PI;
      const steps = Math.max(1, Math.ceil(((a1 - a0) / (Math.PI / 2)) * segmentsPerQuarter));
      // The arc's points by turning the previous edge's normal (its direction is a0) one step at a time:
      // one cosine and sine per corner, not per point.
      const cosStep = Math.cos((a1 - a0) / steps);
      const sinStep = Math.sin((a1 - a0) / steps);
      let ux = nPrev.x;
      let uy = nPrev.y;
      for (let s = 0; s <= steps; s++) {
        out.push({ xIn: v.xIn + ux * distanceIn, yIn: v.yIn + uy * distanceIn });
        const turned = ux * cosStep - uy * sinStep;
        uy = ux * sinStep + uy * cosStep;
        ux = turned;
      }
    }
    return out;
  }
  // Inward: intersect consecutive shifted edge lines; drop the result if it turned inside out.
  const d = -distanceIn;
  const out: PointIn[] = [];
  for (let i = 0; i < n; i++) {
    const nPrev = normals[(i - 1 + n) % n]!;
    const nNext = normals[i]!;
    const pPrev = ring[(i - 1 + n) % n]!;
    const pNext = ring[i]!;
    // Lines: nPrev·x = nPrev·pPrev - d and nNext·x = nNext·pNext - d.
    const c1 = nPrev.x * pPrev.xIn + nPrev.y * pPrev.yIn - d;
    const c2 = nNext.x * pNext.xIn + nNext.y * pNext.yIn - d;
    const det = nPrev.x * nNext.y - nPrev.y * nNext.x;
    if (Math.abs(det) < 1e-12) {
      out.push({ xIn: pNext.xIn - nNext.x * d, yIn: pNext.yIn - nNext.y * d });
    } else {
      out.push({ xIn: (c1 * nNext.y - c2 * nPrev.y) / det, yIn: (nPrev.x * c2 - nNext.x * c1) / det });
    }
  }
  if (signedArea(out) <= 0) return [];
  // Every shifted edge must keep its direction, otherwise the polygon collapsed past that edge.
  for (let i = 0; i < n; i++) {
    const a = out[i]!;
    const b = out[(i + 1) % n]!;
    const p = ring[i]!;
    const q = ring[(i + 1) % n]!;
    if ((b.xIn - a.xIn) * (q.xIn - p.xIn) + (b.yIn - a.yIn) * (q.yIn - p.yIn) < 0) return [];
  }
  return out;
}

function toPc(polygon: PolygonWithHolesIn): PcPolygon {
  return polygon.map((ring) => ring.map((p): Pair => [p.xIn, p.yIn]));
}

function fromPc(mp: PcMultiPolygon): PointIn[][][] {
  // polygon-clipping closes every ring by repeating the first point; our rings are open.
  return mp.map((poly) =>
    poly.map((ring) => {
      const pts = ring.map(([x, y]) => ({ xIn: x, yIn: y }));
      const first = pts[0];
      const last = pts[pts.length - 1];
      if (first && last && pts.length > 1 && first.xIn === last.xIn && first.yIn === last.yIn) pts.pop();
      return pts;
    }),
  );
}

/** Union of simple polygons (or polygons with holes). */
export function polygonUnion(polygons: readonly (readonly PointIn[] | PolygonWithHolesIn)[]): PointIn[][][] {
  const geoms = polygons.map(asPolygonWithHoles).filter((p) => p.length > 0 && p[0]!.length >= 3).map(toPc);
  const [first, ...rest] = geoms;
  if (!first) return [];
  return fromPc(polygonClipping.union(first, ...rest));
}

/** `subject` minus every polygon in `clips`. */
export function polygonDifference(
  subject: readonly PointIn[] | PolygonWithHolesIn | MultiPolygonIn,
  clips: readonly (readonly PointIn[] | PolygonWithHolesIn)[],
): PointIn[][][] {
  const subj = asMulti(subject).filter((p) => p.length > 0 && p[0]!.length >= 3).map(toPc);
  if (subj.length === 0) return [];
  const cl = clips.map(asPolygonWithHoles).filter((p) => p.length > 0 && p[0]!.length >= 3).map(toPc);
  if (cl.length === 0) return fromPc(polygonClipping.union(subj[0]!, ...subj.slice(1)));
  return fromPc(polygonClipping.difference(subj, ...cl));
}

/** Intersection of two polygons. */
export function polygonIntersection(
  a: readonly PointIn[] | PolygonWithHolesIn,
  b: readonly PointIn[] | PolygonWithHolesIn,
): PointIn[][][] {
  const pa = asPolygonWithHoles(a);
  const pb = asPolygonWithHoles(b);
  if (pa.length === 0 || pa[0]!.length < 3 || pb.length === 0 || pb[0]!.length < 3) return [];
  return fromPc(polygonClipping.intersection(toPc(pa), toPc(pb)));
}

/** Total area of a multipolygon (outer rings minus holes), square inches. */
export function multiPolygonArea(mp: MultiPolygonIn): number {
  let sum = 0;
  for (const poly of mp) {
    poly.forEach((ring, i) => {
      sum += i === 0 ? polygonArea(ring) : -polygonArea(ring);
    });
  }
  return sum;
}

function isRing(x: readonly PointIn[] | PolygonWithHolesIn): x is readonly PointIn[] {
  const first = x[0];
  return first === undefined || !Array.isArray(first);
}

function asPolygonWithHoles(x: readonly PointIn[] | PolygonWithHolesIn): PolygonWithHolesIn {
  return isRing(x) ? [x] : (x as PolygonWithHolesIn);
}

function asMulti(x: readonly PointIn[] | PolygonWithHolesIn | MultiPolygonIn): MultiPolygonIn {
  const first = x[0];
  if (first === undefined) return [];
  if (!Array.isArray(first)) return [[x as readonly PointIn[]]];
  const inner = (first as readonly unknown[])[0];
  if (inner !== undefined && !Array.isArray(inner)) return [x as PolygonWithHolesIn];
  return x as MultiPolygonIn;
}
