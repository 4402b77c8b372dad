/**
 * A quick, conservative overlap test for two convex polygons by separating axes: false only when an edge
 * normal of one of them separates the two by more than `marginIn`. Whenever `polygonsOverlap` says the
 * polygons meet (touching included), this says they may; it may also say so for polygons a hair apart.
 * Meant for deciding what to recompute (a session's sight corridors), where a false "may" only costs work.
 * Either polygon with fewer than three vertices, or not convex, is not handled here: callers check.
 */
import type { PointIn } from '../model/units.ts';

export function convexPolygonsMayOverlap(a: readonly PointIn[], b: readonly PointIn[], marginIn = 1e-6): boolean {
  return !separatedByEdgeOf(a, b, marginIn) && !separatedByEdgeOf(b, a, marginIn);
}

/** Whether some edge normal of `p` has all of `p` on one side and all of `q` beyond it by more than the margin. */
function separatedByEdgeOf(p: readonly PointIn[], q: readonly PointIn[], marginIn: number): boolean {
  const n = p.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ax = p[j]!.xIn, ay = p[j]!.yIn;
    const nx = p[i]!.yIn - ay;
    const ny = ax - p[i]!.xIn;
    const len = Math.sqrt(nx * nx + ny * ny);
    if (len === 0) continue;
    // Extent of p along the (unnormalised) normal, measured from the edge's start.
    let pMin = Infinity, pMax = -Infinity;
    for (const v of p) {
      const d = (v.xIn - ax) * nx + (v.yIn - ay) * ny;
      if (d < pMin) pMin = d;
      if (d > pMax) pMax = d;
    }
    let qMin = Infinity, qMax = -Infinity;
    for (const v of q) {
      const d = (v.xIn - ax) * nx + (v.yIn - ay) * ny;
      if (d < qMin) qMin = d;
      if (d > qMax) qMax = d;
    }
    const gap = Math.max(qMin - pMax, pMin - qMax) / len;
    if (gap > marginIn) return true;
  }
  return false;
}
