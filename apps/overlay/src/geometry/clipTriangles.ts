/**
 * Triangles cut to an axis-aligned rectangle in table inches (the table's edges), on the CPU. Shapes that
 * run past the table edge stop there, as the projector needs (light off the table hits the floor), without
 * a stencil pass: on a software rasteriser that pass alone cost about a quarter of each map frame.
 */

/** A rectangle in table inches, `x0 < x1`, `y0 < y1`. */
export interface RectIn {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/**
 * Clips a flat triangle list [x0, y0, x1, y1, x2, y2, ...] to `rect`, appending the result to `out` as a
 * triangle list (a triangle cut by the rectangle becomes a fan of up to 5 triangles; one wholly outside
 * disappears). Winding is kept.
 * @example clipTrianglesToRect([-1, 0, 1, 0, 0, 1], { x0: 0, y0: 0, x1: 2, y1: 2 }, out) // half of it
 */
export function clipTrianglesToRect(flatXy: readonly number[], rect: RectIn, out: number[]): void {
  for (let i = 0; i + 5 < flatXy.length; i += 6) {
    const ax = flatXy[i]!;
    const ay = flatXy[i + 1]!;
    const bx = flatXy[i + 2]!;
    const by = flatXy[i + 3]!;
    const cx = flatXy[i + 4]!;
    const cy = flatXy[i + 5]!;
    // Most triangles are wholly inside or wholly outside one edge: no cutting.
    if (Math.max(ax, bx, cx) <= rect.x0 || Math.min(ax, bx, cx) >= rect.x1 || Math.max(ay, by, cy) <= rect.y0 || Math.min(ay, by, cy) >= rect.y1) continue;
    if (Math.min(ax, bx, cx) >= rect.x0 && Math.max(ax, bx, cx) <= rect.x1 && Math.min(ay, by, cy) >= rect.y0 && Math.max(ay, by, cy) <= rect.y1) {
      out.push(ax, ay, bx, by, cx, cy);
      continue;
    }
    let poly = [ax, ay, bx, by, cx, cy];
    poly = clipEdge(poly, 0, 1, rect.x0);
    poly = clipEdge(poly, 0, -1, -rect.x1);
    poly = clipEdge(poly, 1, 1, rect.y0);
    poly = clipEdge(poly, 1, -1, -rect.y1);
    for (let k = 2; k < poly.length / 2; k++) {
      out.push(poly[0]!, poly[1]!, poly[2 * (k - 1)]!, poly[2 * (k - 1) + 1]!, poly[2 * k]!, poly[2 * k + 1]!);
    }
  }
}

/**
 * One Sutherland–Hodgman step on a convex polygon [x, y, ...]: keeps the part where
 * `sign * coordinate(axis) >= limit`.
 */
function clipEdge(poly: readonly number[], axis: 0 | 1, sign: 1 | -1, limit: number): number[] {
  const n = poly.length / 2;
  const out: number[] = [];
  if (n === 0) return out;
  const inside = (k: number) => sign * poly[2 * k + axis]! >= limit;
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    const kIn = inside(k);
    const jIn = inside(j);
    if (kIn) out.push(poly[2 * k]!, poly[2 * k + 1]!);
    if (kIn !== jIn) {
      const vk = sign * poly[2 * k + axis]!;
      const vj = sign * poly[2 * j + axis]!;
      const t = (limit - vk) / (vj - vk);
      out.push(poly[2 * k]! + t * (poly[2 * j]! - poly[2 * k]!), poly[2 * k + 1]! + t * (poly[2 * j + 1]! - poly[2 * k + 1]!));
    }
  }
  return out;
}
