/**
 * Plane-to-plane projective maps as plain row-major 3×3 arrays (9 numbers): image pixels → table inches
 * for the detector, table inches → projector or screen pixels for the views. Pure TypeScript, so the
 * detector, the frame generator, the projector solver and the browser all map points through the same
 * code, without touching the WASM heap.
 */

/** Row-major 3×3: [h00, h01, h02, h10, h11, h12, h20, h21, h22]. Functions accept any 9-number array. */
export type Homography = readonly number[];

/** The same map with its length in the type: what `toHomography` returns for values that came as JSON. */
export type Homography3x3 = readonly [number, number, number, number, number, number, number, number, number];

export const IDENTITY_HOMOGRAPHY: Homography3x3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Validates and copies a homography that arrived as JSON. Throws with an actionable message. */
export function toHomography(values: readonly number[]): Homography3x3 {
  if (values.length !== 9 || values.some((v) => !Number.isFinite(v))) {
    throw new Error(`a homography needs 9 finite numbers (row-major 3×3), got ${JSON.stringify(values)}`);
  }
  return values.slice() as unknown as Homography3x3;
}

/**
 * Scales so that h22 > 0 (and = 1 when it can): the GPU clips points with negative w, so a calibration
 * that arrives with the opposite overall sign (equally valid as a homography) would otherwise draw nothing.
 */
export function normaliseHomography(h: Homography): Homography3x3 {
  const s = h[8]! < 0 ? -1 : 1;
  const n = Math.abs(h[8]!) > 1e-12 ? Math.abs(h[8]!) : 1;
  return h.map((v) => (v * s) / n) as unknown as Homography3x3;
}

/** Map (x, y) through `h`. Returns [x', y']; NaN when the point maps to infinity. */
export function applyHomography(h: Homography, x: number, y: number): [number, number] {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

/**
 * Inverse of a 3×3 matrix, scaled so that element [8] is 1 when possible. Throws on a singular map (for
 * a calibration: one that collapses the table onto a line).
 */
export function invertHomography(h: Homography): Homography3x3 {
  const [a, b, c, d, e, f, g, hh, i] = h as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * hh;
  const B = -(d * i - f * g);
  const C = d * hh - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-300) throw new Error('homography is singular: it maps the plane onto a line');
  const inv = [A, -(b * i - c * hh), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * hh - b * g), a * e - b * d].map(
    (v) => v / det,
  );
  const s = Math.abs(inv[8]!) > 1e-12 ? inv[8]! : 1;
  return inv.map((v) => v / s) as unknown as Homography3x3;
}

/** Product a·b of two 3×3 matrices (apply b first, then a). */
export function multiplyHomography(a: Homography, b: Homography): Homography3x3 {
  const out = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += a[r * 3 + k]! * b[k * 3 + c]!;
      out[r * 3 + c] = s;
    }
  }
  return out as unknown as Homography3x3;
}

/** Similarity transform that moves the points' centroid to 0 and their mean distance to √2 (Hartley). */
function normaliser(points: readonly (readonly [number, number])[]): number[] {
  let cx = 0;
  let cy = 0;
  for (const [x, y] of points) {
    cx += x;
    cy += y;
  }
  cx /= points.length;
  cy /= points.length;
  let d = 0;
  for (const [x, y] of points) d += Math.hypot(x - cx, y - cy);
  d /= points.length;
  const s = d > 0 ? Math.SQRT2 / d : 1;
  return [s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1];
}

/** Solve the n×n system m·x = v in place (Gaussian elimination, partial pivoting). */
function solveLinear(m: number[][], v: number[]): number[] {
  const n = v.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) throw new Error('points are degenerate (collinear or repeated): no homography');
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    [v[col], v[pivot]] = [v[pivot]!, v[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / m[col]![col]!;
      if (f === 0) continue;
      for (let c = col; c < n; c++) m[r]![c]! -= f * m[col]![c]!;
      v[r]! -= f * v[col]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = v[r]!;
    for (let c = r + 1; c < n; c++) s -= m[r]![c]! * x[c]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/**
 * Least-squares homography mapping each `from[i]` to `to[i]` (≥ 4 pairs, DLT on Hartley-normalised
 * points with h33 = 1). Exact for 4 pairs.
 *
 * @example homographyFromPoints([[0,0],[1,0],[1,1],[0,1]], [[0,0],[2,0],[2,2],[0,2]]) // scale 2
 */
export function homographyFromPoints(
  from: readonly (readonly [number, number])[],
  to: readonly (readonly [number, number])[],
): Homography3x3 {
  if (from.length !== to.length || from.length < 4) {
    throw new Error(`a homography needs at least 4 point pairs (got ${from.length} and ${to.length})`);
  }
  const tf = normaliser(from);
  const tt = normaliser(to);
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  const addRow = (row: number[], rhs: number): void => {
    for (let r = 0; r < 8; r++) {
      if (row[r] === 0) continue;
      for (let c = 0; c < 8; c++) ata[r]![c]! += row[r]! * row[c]!;
      atb[r]! += row[r]! * rhs;
    }
  };
  for (let i = 0; i < from.length; i++) {
    const [x, y] = applyHomography(tf, from[i]![0], from[i]![1]);
    const [u, v] = applyHomography(tt, to[i]![0], to[i]![1]);
    addRow([x, y, 1, 0, 0, 0, -u * x, -u * y], u);
    addRow([0, 0, 0, x, y, 1, -v * x, -v * y], v);
  }
  const sol = solveLinear(ata, atb);
  const hn = [...sol, 1];
  // Undo the normalisation: H = Tt⁻¹ · Hn · Tf.
  const h = multiplyHomography(invertHomography(tt), multiplyHomography(hn, tf));
  const s = h[8]!;
  return h.map((val) => val / s) as unknown as Homography3x3;
}
