/**
 * Distances in inches between points, segments, polygons and stands. Stand distances are edge to edge,
 * as tabletop rules measure: base edge to base edge, 0 when bases touch or overlap.
 */
import type { PointIn } from '../model/units.ts';
import { standCorners, type StandShape } from './footprint.ts';
import { pointInPolygon, polygonsOverlap, segmentIntersection, segmentsIntersect } from './intersect.ts';

/** Closest point to p on segment a–b. */
export function closestPointOnSegment(p: PointIn, a: PointIn, b: PointIn): PointIn {
  const dx = b.xIn - a.xIn;
  const dy = b.yIn - a.yIn;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return a;
  let t = ((p.xIn - a.xIn) * dx + (p.yIn - a.yIn) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return { xIn: a.xIn + dx * t, yIn: a.yIn + dy * t };
}

/** Squared distance from (px, py) to segment a–b; plain numbers so hot loops allocate nothing. */
function pointToSegmentDistanceSq(px: number, py: number, a: PointIn, b: PointIn): number {
  const dx = b.xIn - a.xIn;
  const dy = b.yIn - a.yIn;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - a.xIn) * dx + (py - a.yIn) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = px - (a.xIn + dx * t);
  const ey = py - (a.yIn + dy * t);
  return ex * ex + ey * ey;
}

/** Shortest distance from point p to segment a–b, inches. */
export function pointToSegmentDistanceIn(p: PointIn, a: PointIn, b: PointIn): number {
  // Math.sqrt of the square, not Math.hypot: hypot is several times slower in V8 and this is a hot path.
  return Math.sqrt(pointToSegmentDistanceSq(p.xIn, p.yIn, a, b));
}

/** Shortest distance between segments a1–a2 and b1–b2, inches (0 when they touch or cross). */
export function segmentToSegmentDistanceIn(a1: PointIn, a2: PointIn, b1: PointIn, b2: PointIn): number {
  if (segmentsIntersect(a1, a2, b1, b2)) return 0;
  return Math.min(
    pointToSegmentDistanceIn(a1, b1, b2),
    pointToSegmentDistanceIn(a2, b1, b2),
    pointToSegmentDistanceIn(b1, a1, a2),
    pointToSegmentDistanceIn(b2, a1, a2),
  );
}

/** Shortest distance from p to the polygon, inches: 0 inside, else to the nearest edge. */
export function pointToPolygonDistanceIn(p: PointIn, polygon: readonly PointIn[]): number {
  if (pointInPolygon(p, polygon)) return 0;
  let best = Infinity;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const d = pointToSegmentDistanceSq(p.xIn, p.yIn, polygon[j]!, polygon[i]!);
    if (d < best) best = d;
  }
  return Math.sqrt(best);
}

/** Edge-to-edge distance between two polygons, inches; 0 when they touch or overlap. */
export function polygonToPolygonDistanceIn(p: readonly PointIn[], q: readonly PointIn[]): number {
  if (polygonsOverlap(p, q)) return 0;
  let best = Infinity;
  // Without overlap the closest pair always involves a vertex of one polygon and an edge of the other.
  for (const v of p) {
    for (let i = 0, j = q.length - 1; i < q.length; j = i++) {
      const d = pointToSegmentDistanceSq(v.xIn, v.yIn, q[j]!, q[i]!);
      if (d < best) best = d;
    }
  }
  for (const v of q) {
    for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
      const d = pointToSegmentDistanceSq(v.xIn, v.yIn, p[j]!, p[i]!);
      if (d < best) best = d;
    }
  }
  return Math.sqrt(best);
}

/** The closest pair of points between two polygons (on p and on q) and their distance, inches. */
export interface ClosestPoints {
  readonly onA: PointIn;
  readonly onB: PointIn;
  readonly distanceIn: number;
}

/**
 * Closest points between two polygons, e.g. to draw a measuring line. When the polygons overlap the
 * distance is 0 and both points are a shared point (a vertex inside the other or an edge crossing).
 */
export function closestPointsBetweenPolygons(p: readonly PointIn[], q: readonly PointIn[]): ClosestPoints {
  let best: ClosestPoints | undefined;
  const consider = (onA: PointIn, onB: PointIn): void => {
    const d = Math.sqrt((onA.xIn - onB.xIn) ** 2 + (onA.yIn - onB.yIn) ** 2);
    if (!best || d < best.distanceIn) best = { onA, onB, distanceIn: d };
  };
  if (polygonsOverlap(p, q)) {
    for (const v of p) if (pointInPolygon(v, q)) return { onA: v, onB: v, distanceIn: 0 };
    for (const v of q) if (pointInPolygon(v, p)) return { onA: v, onB: v, distanceIn: 0 };
    // Overlap with no vertex inside the other: two edges cross (or touch); return that point.
    for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
      for (let k = 0, l = q.length - 1; k < q.length; l = k++) {
        const hit = segmentIntersection(p[j]!, p[i]!, q[l]!, q[k]!);
        if (hit) return { onA: hit.point, onB: hit.point, distanceIn: 0 };
      }
    }
  }
  for (const v of p) {
    for (let i = 0, j = q.length - 1; i < q.length; j = i++) consider(v, closestPointOnSegment(v, q[j]!, q[i]!));
  }
  for (const v of q) {
    for (let i = 0, j = p.length - 1; i < p.length; j = i++) consider(closestPointOnSegment(v, p[j]!, p[i]!), v);
  }
  if (!best) throw new Error('closestPointsBetweenPolygons: both polygons need at least one vertex');
  return best;
}

/** Edge-to-edge distance between two stands' bases, inches; 0 when touching or overlapping. */
export function standToStandDistanceIn(a: StandShape, b: StandShape): number {
  return polygonToPolygonDistanceIn(standCorners(a), standCorners(b));
}

/** Distance from a point to a stand's base, inches; 0 inside. */
export function pointToStandDistanceIn(p: PointIn, stand: StandShape): number {
  return pointToPolygonDistanceIn(p, standCorners(stand));
}
