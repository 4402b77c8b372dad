/**
 * Thick lines as triangles. WebGL draws GL_LINES one pixel wide whatever you ask, which vanishes on a
 * phone and on a projected cloth, so lines with a width in inches are built as quads instead.
 */
import type { PointIn } from '@muster/rules';

/**
 * Triangles (x, y pairs, 6 vertices per segment, plus a square cap on each inner joint so corners do not
 * show a notch) covering the polyline at `widthIn`.
 * @returns flat [x0, y0, x1, y1, ...] in inches, triangle list.
 */
export function polylineStrip(points: readonly PointIn[], widthIn: number): number[] {
  const out: number[] = [];
  const h = widthIn / 2;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const dx = b.xIn - a.xIn;
    const dy = b.yIn - a.yIn;
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    const nx = (-dy / len) * h;
    const ny = (dx / len) * h;
    // Extend each segment by half the width at inner joints so neighbouring quads overlap.
    const ex = i > 0 ? (dx / len) * h : 0;
    const ey = i > 0 ? (dy / len) * h : 0;
    const ax = a.xIn - ex;
    const ay = a.yIn - ey;
    out.push(ax + nx, ay + ny, ax - nx, ay - ny, b.xIn - nx, b.yIn - ny);
    out.push(ax + nx, ay + ny, b.xIn - nx, b.yIn - ny, b.xIn + nx, b.yIn + ny);
  }
  return out;
}

/**
 * A filled triangle at the last point of a polyline, pointing along the last segment.
 * @returns flat [x, y] × 3 in inches, or [] for a degenerate line.
 */
export function arrowHead(points: readonly PointIn[], sizeIn: number): number[] {
  const tip = points[points.length - 1];
  const prev = points[points.length - 2];
  if (!tip || !prev) return [];
  const dx = tip.xIn - prev.xIn;
  const dy = tip.yIn - prev.yIn;
  const len = Math.hypot(dx, dy);
  if (len === 0) return [];
  const ux = dx / len;
  const uy = dy / len;
  const bx = tip.xIn - ux * sizeIn;
  const by = tip.yIn - uy * sizeIn;
  const w = sizeIn * 0.5;
  return [tip.xIn, tip.yIn, bx - uy * w, by + ux * w, bx + uy * w, by - ux * w];
}
