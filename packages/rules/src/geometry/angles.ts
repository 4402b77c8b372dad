/**
 * Angle helpers. Headings are degrees counter-clockwise from +x (table x along the near edge), in [0, 360).
 */

const DEG_TO_RAD = Math.PI / 180;
const RAD_TO_DEG = 180 / Math.PI;

/**
 * Normalise any finite angle to [0, 360).
 * @example normalizeDeg(-90) // 270
 */
export function normalizeDeg(deg: number): number {
  const r = deg % 360;
  // `r + 360` can round up to exactly 360 for tiny negative r; fold that back to 0.
  const n = r < 0 ? r + 360 : r;
  return n >= 360 ? 0 : n === 0 ? 0 : n; // `=== 0` turns -0 into 0
}

/**
 * Signed smallest difference `b - a`, degrees in (-180, 180]: positive when b is counter-clockwise of a.
 * @example angleDiffDeg(350, 10) // 20
 */
export function angleDiffDeg(a: number, b: number): number {
  const d = normalizeDeg(b - a);
  return d > 180 ? d - 360 : d;
}

/** Unit vector `{ x, y }` pointing along a heading (degrees CCW from +x). */
export function headingToVector(deg: number): { x: number; y: number } {
  const r = deg * DEG_TO_RAD;
  return { x: Math.cos(r), y: Math.sin(r) };
}

/** Heading of a direction vector, degrees in [0, 360). The zero vector gives 0. */
export function vectorToHeadingDeg(dx: number, dy: number): number {
  if (dx === 0 && dy === 0) return 0;
  return normalizeDeg(Math.atan2(dy, dx) * RAD_TO_DEG);
}

export function degToRad(deg: number): number {
  return deg * DEG_TO_RAD;
}

export function radToDeg(rad: number): number {
  return rad * RAD_TO_DEG;
}
