/**
 * Edge-to-edge distance between two convex footprints (the measuring tool). Zero when they touch or
 * overlap. Stands are rectangles, so the closest pair is always a vertex against an edge.
 */
import type { PointIn } from '@muster/rules';
import { pointInPolygon } from './standFootprint.ts';

export interface EdgeDistance {
  readonly distanceIn: number;
  /** Closest points, on a and on b (equal when touching). */
  readonly fromPoint: PointIn;
  readonly toPoint: PointIn;
}

function closestOnSegment(p: PointIn, a: PointIn, b: PointIn): PointIn {
  const dx = b.xIn - a.xIn;
  const dy = b.yIn - a.yIn;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.xIn - a.xIn) * dx + (p.yIn - a.yIn) * dy) / len2));
  return { xIn: a.xIn + t * dx, yIn: a.yIn + t * dy };
}

function segmentsIntersect(a: PointIn, b: PointIn, c: PointIn, d: PointIn): boolean {
  const cross = (o: PointIn, p: PointIn, q: PointIn) => (p.xIn - o.xIn) * (q.yIn - o.yIn) - (p.yIn - o.yIn) * (q.xIn - o.xIn);
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/**
 * @example edgeDistance(square at x 0..1, square at x 3..4).distanceIn // 2
 */
export function edgeDistance(a: readonly PointIn[], b: readonly PointIn[]): EdgeDistance {
  if (a.length < 3 || b.length < 3) throw new Error('edgeDistance needs two polygons of at least 3 vertices');
  let best: EdgeDistance = { distanceIn: Infinity, fromPoint: a[0]!, toPoint: b[0]! };
  const consider = (from: PointIn, to: PointIn) => {
    const d = Math.hypot(to.xIn - from.xIn, to.yIn - from.yIn);
    if (d < best.distanceIn) best = { distanceIn: d, fromPoint: from, toPoint: to };
  };
  for (let i = 0; i < a.length; i++) {
    const a0 = a[i]!;
    const a1 = a[(i + 1) % a.length]!;
    for (let j = 0; j < b.length; j++) {
      const b0 = b[j]!;
      const b1 = b[(j + 1) % b.length]!;
      if (segmentsIntersect(a0, a1, b0, b1)) {
        return { distanceIn: 0, fromPoint: a0, toPoint: a0 };
      }
      consider(a0, closestOnSegment(a0, b0, b1));
      consider(closestOnSegment(b0, a0, a1), b0);
    }
  }
  if (pointInPolygon(a[0]!, b) || pointInPolygon(b[0]!, a)) {
    return { distanceIn: 0, fromPoint: a[0]!, toPoint: a[0]! };
  }
  return best;
}
