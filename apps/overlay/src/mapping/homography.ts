/**
 * Plane-to-plane projective maps, row-major 3×3 (the same layout the vision pipeline uses for its
 * image→table homography). The views draw everything in table inches and push it through one of these to
 * reach screen pixels: a plain scale-and-offset for the map, the calibrated table→projector map for the
 * projector. Using one path for both means the test hook and the renderer can never disagree.
 */
import type { PointIn } from '@muster/rules';

/** Row-major 3×3: [h00, h01, h02, h10, h11, h12, h20, h21, h22]. */
export type Homography = readonly [number, number, number, number, number, number, number, number, number];

/** A point in CSS/screen pixels: x to the right, y down, origin at the top-left of the view. */
export interface ScreenPointPx {
  readonly xPx: number;
  readonly yPx: number;
}

export const IDENTITY_HOMOGRAPHY: Homography = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Validates and copies a homography that arrived as JSON. Throws with an actionable message. */
export function toHomography(values: readonly number[]): Homography {
  if (values.length !== 9 || values.some((v) => !Number.isFinite(v))) {
    throw new Error(`a homography needs 9 finite numbers (row-major 3×3), got ${JSON.stringify(values)}`);
  }
  return values.slice() as unknown as Homography;
}

/**
 * Maps a table point to screen pixels.
 * @example applyHomography(IDENTITY_HOMOGRAPHY, { xIn: 2, yIn: 3 }) // { xPx: 2, yPx: 3 }
 */
export function applyHomography(h: Homography, p: PointIn): ScreenPointPx {
  const w = h[6] * p.xIn + h[7] * p.yIn + h[8];
  return {
    xPx: (h[0] * p.xIn + h[1] * p.yIn + h[2]) / w,
    yPx: (h[3] * p.xIn + h[4] * p.yIn + h[5]) / w,
  };
}

/** Matrix product a·b (apply b first). */
export function composeHomography(a: Homography, b: Homography): Homography {
  const out: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out.push(a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!);
    }
  }
  return out as unknown as Homography;
}

/** Inverse by the adjugate; throws on a singular map (a calibration that collapsed the table). */
export function invertHomography(h: Homography): Homography {
  const [a, b, c, d, e, f, g, i, j] = h;
  const A = e * j - f * i;
  const B = -(d * j - f * g);
  const C = d * i - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-12) throw new Error('homography is singular: the calibration maps the table to a line');
  const inv = [
    A, -(b * j - c * i), b * f - c * e,
    B, a * j - c * g, -(a * f - c * d),
    C, -(a * i - b * g), a * e - b * d,
  ].map((v) => v / det);
  return inv as unknown as Homography;
}

/** Maps a screen point back to the table (for clicks). */
export function screenPxToTable(h: Homography, p: ScreenPointPx): PointIn {
  const inv = invertHomography(h);
  const w = inv[6] * p.xPx + inv[7] * p.yPx + inv[8];
  return {
    xIn: (inv[0] * p.xPx + inv[1] * p.yPx + inv[2]) / w,
    yIn: (inv[3] * p.xPx + inv[4] * p.yPx + inv[5]) / w,
  };
}

/**
 * Scales so that h22 > 0: the GPU clips points with negative w, so a calibration that arrives with the
 * opposite overall sign (equally valid as a homography) would otherwise draw nothing.
 */
export function normaliseHomography(h: Homography): Homography {
  const s = h[8] < 0 ? -1 : 1;
  const n = Math.abs(h[8]) > 1e-12 ? Math.abs(h[8]) : 1;
  return h.map((v) => (v * s) / n) as unknown as Homography;
}
