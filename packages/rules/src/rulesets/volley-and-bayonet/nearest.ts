/**
 * Closest points from a point or a segment (a stand's front) to a target stand's corners, for the ranges,
 * sight lines and charge paths of every (stand, target stand) pair. Same answers, to the last bit, as geometry's
 * `closestPointsBetweenPolygons` (the same candidates, in the same order, with the same arithmetic), without
 * its per-candidate objects and closure: pairs whose boxes come near each other are handed to it unchanged.
 */
import type { PointIn } from '../../model/units.ts';
import { closestPointsBetweenPolygons, type ClosestPoints } from '../../geometry/distance.ts';
import { pointBoxesApart } from '../../geometry/intersect.ts';
import type { BoundingBoxIn } from '../../geometry/polygon.ts';

/** Boxes closer than this take the general path (it handles overlap and touching); far above its 1e-9. */
const NEAR_MARGIN_IN = 1e-3;

/** The best candidate so far (module scratch, so a call makes no objects but its answer). */
const best = { d: Infinity, d2: Infinity, ax: 0, ay: 0, bx: 0, by: 0, aVertex: -1, bVertex: -1 };

/**
 * Each vertex of `from` against each edge of `to` (the nearest point on the edge), in the general
 * function's order; a strictly nearer candidate replaces `best`. `fromIsP`: the vertex is on p's side.
 */
function scanVertexToEdges(from: readonly PointIn[], to: readonly PointIn[], fromIsP: boolean): void {
  const n = to.length;
  for (let fv = 0; fv < from.length; fv++) {
    const v = from[fv]!;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const a = to[j]!;
      const b = to[i]!;
      const dx = b.xIn - a.xIn;
      const dy = b.yIn - a.yIn;
      const len2 = dx * dx + dy * dy;
      let cx: number;
      let cy: number;
      let cVertex = -1;
      if (len2 === 0) {
        cx = a.xIn;
        cy = a.yIn;
        cVertex = j;
      } else {
        let t = ((v.xIn - a.xIn) * dx + (v.yIn - a.yIn) * dy) / len2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        cx = a.xIn + dx * t;
        cy = a.yIn + dy * t;
      }
      // Squares of a difference and of its negation are the same double: one formula for both sides. The
      // square root only where the square is smaller (a square no smaller has a root no smaller; a smaller
      // one may share its root, so the roots still decide, as in the general function).
      const d2 = (v.xIn - cx) ** 2 + (v.yIn - cy) ** 2;
      if (d2 >= best.d2) continue;
      const d = Math.sqrt(d2);
      if (d < best.d) {
        best.d = d;
        best.d2 = d2;
        if (fromIsP) {
          best.ax = v.xIn;
          best.ay = v.yIn;
          best.aVertex = fv;
          best.bx = cx;
          best.by = cy;
          best.bVertex = cVertex;
        } else {
          best.ax = cx;
          best.ay = cy;
          best.aVertex = cVertex;
          best.bx = v.xIn;
          best.by = v.yIn;
          best.bVertex = fv;
        }
      }
    }
  }
}

/** `best` from scratch: every vertex of p against the edges of q, then every vertex of q against those of p. */
function scanBoth(p: readonly PointIn[], q: readonly PointIn[]): void {
  best.d = Infinity;
  best.d2 = Infinity;
  best.aVertex = -1;
  best.bVertex = -1;
  scanVertexToEdges(p, q, true);
  scanVertexToEdges(q, p, false);
}

/**
 * `closestPointsBetweenPolygons(p, q)` for a `p` of one or two points (a point, or a front edge) and any `q`.
 * The candidates: each vertex of p against each edge of q (the point on the edge), then each vertex of q
 * against each edge of p; the first strictly nearest wins.
 */
export function closestPointsFromFront(p: readonly PointIn[], q: readonly PointIn[]): ClosestPoints {
  if (p.length === 0 || p.length > 2 || q.length === 0 || !pointBoxesApart(p, q, NEAR_MARGIN_IN)) return closestPointsBetweenPolygons(p, q);
  scanBoth(p, q);
  // The general function hands back the given vertex objects where a candidate is one; so does this.
  const onA = best.aVertex >= 0 ? p[best.aVertex]! : { xIn: best.ax, yIn: best.ay };
  const onB = best.bVertex >= 0 ? q[best.bVertex]! : { xIn: best.bx, yIn: best.by };
  return { onA, onB, distanceIn: best.d };
}

/**
 * `pointBoxesApart` for a box given by its corners and `q`'s box (`qBox`, the box of `q`'s points, as a
 * stand's `box` is): the same test without reading `q`'s points again.
 */
function boxApartFrom(minX: number, minY: number, maxX: number, maxY: number, qBox: BoundingBoxIn): boolean {
  const m = NEAR_MARGIN_IN;
  return maxX < qBox.minXIn - m || qBox.maxXIn < minX - m || maxY < qBox.minYIn - m || qBox.maxYIn < minY - m;
}

/** Two-point scratch list for `frontDistanceIn`. */
const FRONT: PointIn[] = [{ xIn: 0, yIn: 0 }, { xIn: 0, yIn: 0 }];

/**
 * `closestPointsFromFront([left, right], q).distanceIn` (the same number, to the last bit) without the list
 * and the answer: the range from a front edge, where only the distance is wanted. `qBox`, when given, is
 * the box of `q`'s points (a stand's `box`).
 */
export function frontDistanceIn(left: PointIn, right: PointIn, q: readonly PointIn[], qBox?: BoundingBoxIn): number {
  FRONT[0] = left;
  FRONT[1] = right;
  const apart = qBox ? boxApartFrom(Math.min(left.xIn, right.xIn), Math.min(left.yIn, right.yIn), Math.max(left.xIn, right.xIn), Math.max(left.yIn, right.yIn), qBox) : pointBoxesApart(FRONT, q, NEAR_MARGIN_IN);
  if (q.length === 0 || !apart) return closestPointsBetweenPolygons(FRONT, q).distanceIn;
  scanBoth(FRONT, q);
  return best.d;
}

/** One-point scratch list for `nearestOnBaseFrom`. */
const ONE_POINT: PointIn[] = [{ xIn: 0, yIn: 0 }];

/**
 * `closestPointsFromFront([p], q).onB` (the same point, to the last bit, and the same vertex object where
 * that is one) without the one-point list and the answer object: a sight line's end on the target. `qBox`,
 * when given, is the box of `q`'s points (a stand's `box`).
 */
export function nearestOnBaseFrom(p: PointIn, q: readonly PointIn[], qBox?: BoundingBoxIn): PointIn {
  ONE_POINT[0] = p;
  const apart = qBox ? boxApartFrom(p.xIn, p.yIn, p.xIn, p.yIn, qBox) : pointBoxesApart(ONE_POINT, q, NEAR_MARGIN_IN);
  if (q.length === 0 || !apart) return closestPointsBetweenPolygons(ONE_POINT, q).onB;
  scanBoth(ONE_POINT, q);
  return best.bVertex >= 0 ? q[best.bVertex]! : { xIn: best.bx, yIn: best.by };
}
