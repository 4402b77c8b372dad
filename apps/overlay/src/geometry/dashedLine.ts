/**
 * A polyline cut into dashes, measured along its length in inches (the pattern runs on through corners),
 * so a style can be told apart by its pattern as well as its colour. Pure, no three.js.
 */
import type { PointIn } from '@muster/rules';

/**
 * @param dashIn length of each drawn piece, inches (> 0)
 * @param gapIn length of each gap, inches (≥ 0; 0 gives the line back whole)
 * @returns the drawn pieces, each an open polyline
 * @example dashPolyline([{xIn:0,yIn:0},{xIn:3,yIn:0}], 1, 0.5) // [0..1], [1.5..2.5]
 */
export function dashPolyline(points: readonly PointIn[], dashIn: number, gapIn: number): PointIn[][] {
  if (!(dashIn > 0)) throw new Error(`dash length must be positive, got ${dashIn}`);
  if (gapIn <= 0 || points.length < 2) return points.length >= 2 ? [[...points]] : [];
  const out: PointIn[][] = [];
  let drawing = true;
  let left = dashIn;
  let current: PointIn[] = [points[0]!];
  for (let i = 0; i + 1 < points.length; i++) {
    let a = points[i]!;
    const b = points[i + 1]!;
    let segLeft = Math.hypot(b.xIn - a.xIn, b.yIn - a.yIn);
    while (segLeft > 1e-9) {
      const step = Math.min(left, segLeft);
      const t = step / segLeft;
      const p = { xIn: a.xIn + (b.xIn - a.xIn) * t, yIn: a.yIn + (b.yIn - a.yIn) * t };
      if (drawing) current.push(p);
      a = p;
      segLeft -= step;
      left -= step;
      if (left <= 1e-9) {
        if (drawing) {
          if (current.length >= 2) out.push(current);
          current = [];
        } else current = [p];
        drawing = !drawing;
        left = drawing ? dashIn : gapIn;
      }
    }
  }
  if (drawing && current.length >= 2) out.push(current);
  return out;
}
