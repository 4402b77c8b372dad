/**
 * Small helpers on table points (inches). All return new objects; none mutate.
 */
import type { PointIn } from '../model/units.ts';

export function pt(xIn: number, yIn: number): PointIn {
  return { xIn, yIn };
}

export function add(a: PointIn, b: PointIn): PointIn {
  return { xIn: a.xIn + b.xIn, yIn: a.yIn + b.yIn };
}

export function sub(a: PointIn, b: PointIn): PointIn {
  return { xIn: a.xIn - b.xIn, yIn: a.yIn - b.yIn };
}

export function scale(a: PointIn, k: number): PointIn {
  return { xIn: a.xIn * k, yIn: a.yIn * k };
}

export function dot(a: PointIn, b: PointIn): number {
  return a.xIn * b.xIn + a.yIn * b.yIn;
}

/** z of the 3-D cross product: positive when b is counter-clockwise of a. */
export function cross(a: PointIn, b: PointIn): number {
  return a.xIn * b.yIn - a.yIn * b.xIn;
}

/** Length of a vector, inches. */
export function length(a: PointIn): number {
  return Math.sqrt(a.xIn * a.xIn + a.yIn * a.yIn);
}

/** Distance between two points, inches. */
export function distanceIn(a: PointIn, b: PointIn): number {
  return Math.sqrt((a.xIn - b.xIn) ** 2 + (a.yIn - b.yIn) ** 2);
}

/** Point a fraction `t` (0 → a, 1 → b) of the way from a to b. */
export function lerp(a: PointIn, b: PointIn, t: number): PointIn {
  return { xIn: a.xIn + (b.xIn - a.xIn) * t, yIn: a.yIn + (b.yIn - a.yIn) * t };
}

/** Rotate `point` about `center` by `deg` degrees counter-clockwise. */
export function rotateAround(point: PointIn, center: PointIn, deg: number): PointIn {
  const r = (deg * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  const dx = point.xIn - center.xIn;
  const dy = point.yIn - center.yIn;
  return { xIn: center.xIn + dx * c - dy * s, yIn: center.yIn + dx * s + dy * c };
}

/** Unit vector along `a`; the zero vector stays zero. */
export function normalize(a: PointIn): PointIn {
  const l = Math.sqrt(a.xIn * a.xIn + a.yIn * a.yIn);
  return l === 0 ? { xIn: 0, yIn: 0 } : { xIn: a.xIn / l, yIn: a.yIn / l };
}

/** Midpoint of a and b. */
export function midpoint(a: PointIn, b: PointIn): PointIn {
  return { xIn: (a.xIn + b.xIn) / 2, yIn: (a.yIn + b.yIn) / 2 };
}
