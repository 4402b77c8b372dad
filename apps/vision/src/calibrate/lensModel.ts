/**
 * A calibrated lens as plain numbers: the pinhole camera matrix and OpenCV's Brown–Conrady distortion
 * (k1, k2, p1, p2, k3). Pure TypeScript (no WASM) so the per-frame undistortion is cheap and testable.
 */
import { readFileSync } from 'node:fs';
import type { PointPx } from '../pipeline/types.ts';
import { parseCharucoBoardSpec, type CharucoBoardSpec } from './charucoBoardSpec.ts';

export const LENS_CALIBRATION_FORMAT = 'muster-lens-calibration';

/** The saved file, `calibration/lens/<name>.json`. */
export interface LensCalibrationJson {
  readonly format: typeof LENS_CALIBRATION_FORMAT;
  readonly version: 1;
  readonly createdAt: string;
  readonly imageWidthPx: number;
  readonly imageHeightPx: number;
  /**
   * Row-major 3×3: [fx 0 cx; 0 fy cy; 0 0 1], pixels, in the detectors' convention (origin at the
   * top-left corner of the top-left pixel, like `PointPx`).
   */
  readonly cameraMatrix: readonly number[];
  /** OpenCV order and meaning; dimensionless (apply to normalised image coordinates). */
  readonly distortion: { readonly k1: number; readonly k2: number; readonly p1: number; readonly p2: number; readonly k3: number };
  /** RMS reprojection error over every corner of every used image, pixels. */
  readonly rmsReprojectionErrorPx: number;
  readonly images: readonly { readonly file: string; readonly cornerCount: number; readonly rmsPx: number }[];
  readonly board: CharucoBoardSpec;
}

export interface LensModel {
  readonly imageWidthPx: number;
  readonly imageHeightPx: number;
  readonly fxPx: number;
  readonly fyPx: number;
  readonly cxPx: number;
  readonly cyPx: number;
  readonly k1: number;
  readonly k2: number;
  readonly p1: number;
  readonly p2: number;
  readonly k3: number;
}

function finite(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`lens calibration: ${what} must be a finite number`);
  return v;
}

/** Validates a parsed lens calibration file (untrusted JSON) and returns it typed. */
export function parseLensCalibration(raw: unknown): LensCalibrationJson {
  if (typeof raw !== 'object' || raw === null) throw new Error('lens calibration: expected a JSON object');
  const r = raw as Record<string, unknown>;
  if (r['format'] !== LENS_CALIBRATION_FORMAT) {
    throw new Error(`lens calibration: "format" must be "${LENS_CALIBRATION_FORMAT}" (is this a lens calibration file?)`);
  }
  if (r['version'] !== 1) throw new Error(`lens calibration: unsupported version ${JSON.stringify(r['version'])}`);
  const k = r['cameraMatrix'];
  if (!Array.isArray(k) || k.length !== 9) throw new Error('lens calibration: cameraMatrix must be 9 numbers (row-major 3×3)');
  k.forEach((v, i) => finite(v, `cameraMatrix[${i}]`));
  const d = r['distortion'] as Record<string, unknown> | undefined;
  if (typeof d !== 'object' || d === null) throw new Error('lens calibration: distortion must be an object {k1,k2,p1,p2,k3}');
  for (const key of ['k1', 'k2', 'p1', 'p2', 'k3']) finite(d[key], `distortion.${key}`);
  const w = finite(r['imageWidthPx'], 'imageWidthPx');
  const h = finite(r['imageHeightPx'], 'imageHeightPx');
  if (w <= 0 || h <= 0) throw new Error('lens calibration: image size must be positive');
  finite(r['rmsReprojectionErrorPx'], 'rmsReprojectionErrorPx');
  parseCharucoBoardSpec(r['board'], 'lens calibration board');
  if (!Array.isArray(r['images'])) throw new Error('lens calibration: images must be a list');
  return raw as LensCalibrationJson;
}

export function createLensModel(json: LensCalibrationJson): LensModel {
  const k = json.cameraMatrix;
  const fxPx = k[0] ?? NaN;
  const fyPx = k[4] ?? NaN;
  if (!(fxPx > 0) || !(fyPx > 0)) throw new Error('lens calibration: focal lengths must be positive');
  return {
    imageWidthPx: json.imageWidthPx,
    imageHeightPx: json.imageHeightPx,
    fxPx,
    fyPx,
    cxPx: k[2] ?? NaN,
    cyPx: k[5] ?? NaN,
    ...json.distortion,
  };
}

/** Reads and validates a saved lens calibration (`muster calibrate lens --out ...`); errors name the file. */
export function loadLensModel(path: string): LensModel {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: cannot read the lens calibration (${(err as Error).message})`);
  }
  try {
    return createLensModel(parseLensCalibration(json));
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}

/** Applies the distortion model to normalised (x/z, y/z) coordinates. */
export function distortNormalized(x: number, y: number, lens: LensModel): [number, number] {
  const r2 = x * x + y * y;
  const radial = 1 + r2 * (lens.k1 + r2 * (lens.k2 + r2 * lens.k3));
  return [
    x * radial + 2 * lens.p1 * x * y + lens.p2 * (r2 + 2 * x * x),
    y * radial + lens.p1 * (r2 + 2 * y * y) + 2 * lens.p2 * x * y,
  ];
}

/**
 * Inverts the distortion model (opencv.js does not export undistortPoints). Newton's method on the 2×2
 * system starting from the distorted point; converges in a handful of steps for real lenses, and stops
 * early once the step is below 1e-12 (≈1e-9 px).
 */
export function undistortNormalized(xd: number, yd: number, lens: LensModel): [number, number] {
  const { k1, k2, k3, p1, p2 } = lens;
  let x = xd;
  let y = yd;
  for (let iter = 0; iter < 20; iter++) {
    const r2 = x * x + y * y;
    const radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3));
    const dRadialDr2 = k1 + r2 * (2 * k2 + 3 * r2 * k3);
    const fx = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x) - xd;
    const fy = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y - yd;
    // Jacobian of the distortion map.
    const a = radial + 2 * x * x * dRadialDr2 + 2 * p1 * y + 6 * p2 * x;
    const b = 2 * x * y * dRadialDr2 + 2 * p1 * x + 2 * p2 * y;
    const c = 2 * x * y * dRadialDr2 + 2 * p1 * x + 2 * p2 * y;
    const d = radial + 2 * y * y * dRadialDr2 + 6 * p1 * y + 2 * p2 * x;
    const det = a * d - b * c;
    if (!Number.isFinite(det) || Math.abs(det) < 1e-12) break;
    const dx = (d * fx - b * fy) / det;
    const dy = (-c * fx + a * fy) / det;
    x -= dx;
    y -= dy;
    if (dx * dx + dy * dy < 1e-24) break;
  }
  return [x, y];
}

/** Pixel → normalised undistorted coordinates (the ray direction (x, y, 1) in the camera frame). */
export function pixelToNormalized(p: PointPx, lens: LensModel): [number, number] {
  return undistortNormalized((p.uPx - lens.cxPx) / lens.fxPx, (p.vPx - lens.cyPx) / lens.fyPx, lens);
}

/**
 * Removes lens distortion from detected points: the result is where an ideal pinhole camera with the same
 * camera matrix would have seen them, so straight table edges stay straight and a plain homography fits.
 */
export function undistortPointsPx(points: readonly PointPx[], lens: LensModel): PointPx[] {
  return points.map((p) => {
    const [x, y] = pixelToNormalized(p, lens);
    return { uPx: lens.fxPx * x + lens.cxPx, vPx: lens.fyPx * y + lens.cyPx };
  });
}

/** Camera-frame point (x right, y down, z forward; any length unit) → distorted image pixel. */
export function projectCameraPointPx(x: number, y: number, z: number, lens: LensModel): PointPx {
  const [xd, yd] = distortNormalized(x / z, y / z, lens);
  return { uPx: lens.fxPx * xd + lens.cxPx, vPx: lens.fyPx * yd + lens.cyPx };
}

/**
 * `undistortPointsPx` for the detector's flat corner arrays [u0, v0, u1, v1, ...] (pixels), so the
 * existing homography code runs unchanged on the result.
 */
export function undistortFlatPx(flat: ArrayLike<number>, lens: LensModel): Float64Array {
  const out = new Float64Array(flat.length);
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [x, y] = pixelToNormalized({ uPx: flat[i]!, vPx: flat[i + 1]! }, lens);
    out[i] = lens.fxPx * x + lens.cxPx;
    out[i + 1] = lens.fyPx * y + lens.cyPx;
  }
  return out;
}
