/**
 * Small geometry the Devil to Pay charge and skedaddle rules need that the generic `geometry/` folder
 * does not have (yet): the nearest point of a polygon inside an apex arc. Generic in nature; a candidate to
 * move to `geometry/wedge.ts`.
 */
import type { PointIn } from '../../model/units.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { closestPointOnSegment } from '../../geometry/distance.ts';
import { pointInPolygon, segmentIntersection } from '../../geometry/intersect.ts';
import { pointInWedge } from '../../geometry/wedge.ts';
import { hypot2 } from '../../geometry/hypot.ts';

/** Length of the arc's boundary rays for intersection tests, inches: longer than any table. */
const RAY_IN = 10_000;

/**
 * The point of `polygon` (area, not just outline) nearest to `apex` among those within `halfDeg` of
 * `headingDeg` as seen from the apex; undefined when no part of the polygon lies in the arc.
 *
 * @param apex the arc's apex, inches
 * @param headingDeg the arc's centre line, degrees CCW from +x
 * @param halfDeg half the opening, degrees (45 for a 90° arc)
 * @param polygon a simple polygon, inches
 * @example closestPointInArc({xIn:0,yIn:0}, 0, 45, square) // nearest point of the square in front
 */
export function closestPointInArc(apex: PointIn, headingDeg: number, halfDeg: number, polygon: readonly PointIn[]): PointIn | undefined {
  if (pointInPolygon(apex, polygon)) return apex;
  const left = headingDeg + halfDeg;
  const right = headingDeg - halfDeg;
  const inArc = (p: PointIn): boolean => pointInWedge(apex, left, right, p);
  let best: PointIn | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  const consider = (p: PointIn): void => {
    const d = hypot2(p.xIn - apex.xIn, p.yIn - apex.yIn);
    if (d < bestD && inArc(p)) {
      bestD = d;
      best = p;
    }
  };
  const rays = [left, right].map((deg) => {
    const v = headingToVector(deg);
    return { xIn: apex.xIn + v.x * RAY_IN, yIn: apex.yIn + v.y * RAY_IN };
  });
  const n = polygon.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = polygon[j]!;
    const b = polygon[i]!;
    consider(b);
    consider(closestPointOnSegment(apex, a, b));
    // Where the arc's boundary rays enter the polygon.
    for (const end of rays) {
      const hit = segmentIntersection(apex, end, a, b);
      if (hit) consider(hit.point);
    }
  }
  return best;
}
