/**
 * Whether a segment meets a box grown by a margin: the test behind `TableReader.standsAlong`, used both to
 * answer the read and to match a change against it, so the two always agree.
 */

/**
 * True when the segment (ax, ay)-(bx, by) meets the box [x0, x1] x [y0, y1] grown by `r` on every side
 * (inclusive). Liang-Barsky clipping of the segment against the grown box.
 */
export function segmentMeetsGrownBox(ax: number, ay: number, bx: number, by: number, r: number, x0: number, y0: number, x1: number, y1: number): boolean {
  const minX = x0 - r, minY = y0 - r, maxX = x1 + r, maxY = y1 + r;
  const dx = bx - ax, dy = by - ay;
  let t0 = 0, t1 = 1;
  // Each side: p t <= q keeps the part of the line inside that side's half-plane.
  const p = [-dx, dx, -dy, dy];
  const q = [ax - minX, maxX - ax, ay - minY, maxY - ay];
  for (let i = 0; i < 4; i++) {
    const pi = p[i]!, qi = q[i]!;
    if (pi === 0) {
      if (qi < 0) return false;
      continue;
    }
    const t = qi / pi;
    if (pi < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  return t0 <= t1;
}
