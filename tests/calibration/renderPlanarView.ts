/**
 * Test renderer: photographs a flat textured sheet (z = 0 in its own frame, millimetres) with a known
 * pinhole camera and known lens distortion, per pixel, 2×2 supersampled. For every output pixel the
 * distortion is inverted to get the ray, the ray is cut with the sheet's plane and the texture is
 * sampled bilinearly, so the image obeys exactly the model the calibration must recover.
 */
import type { GrayImage } from '../../apps/vision/src/calibrate/detectCharucoCorners.ts';
import { undistortNormalized, type LensModel } from '../../apps/vision/src/calibrate/lensModel.ts';

export interface SheetTexture {
  readonly widthPx: number;
  readonly heightPx: number;
  readonly data: Uint8Array;
  /** Texels per millimetre; texel (0,0) covers [0, 1/texelsPerMm) mm in x and y. */
  readonly texelsPerMm: number;
  /** White border drawn around the texture (paper margin), millimetres. */
  readonly paperMarginMm: number;
}

/** Rigid transform sheet → camera: X_cam = R · X_sheet + t (R row-major 3×3, t in mm). */
export interface SheetPose {
  readonly r: readonly number[];
  readonly tMm: readonly [number, number, number];
}

/** R = Rz(c) · Ry(b) · Rx(a), degrees. */
export function rotationXYZ(aDeg: number, bDeg: number, cDeg: number): number[] {
  const [a, b, c] = [aDeg, bDeg, cDeg].map((d) => (d * Math.PI) / 180) as [number, number, number];
  const rx = [1, 0, 0, 0, Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a)];
  const ry = [Math.cos(b), 0, Math.sin(b), 0, 1, 0, -Math.sin(b), 0, Math.cos(b)];
  const rz = [Math.cos(c), -Math.sin(c), 0, Math.sin(c), Math.cos(c), 0, 0, 0, 1];
  return mul3(rz, mul3(ry, rx));
}

export function mul3(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[3 * i + j]! += a[3 * i + k]! * b[3 * k + j]!;
  return out;
}

/**
 * Pose that puts the sheet centre (cxMm, cyMm in sheet coordinates) at camera point `centreCam`, rotated
 * by R: X_cam = R (X_sheet − centre) + centreCam.
 */
export function poseAbout(r: readonly number[], sheetCentreMm: readonly [number, number], centreCam: readonly [number, number, number]): SheetPose {
  const [sx, sy] = sheetCentreMm;
  const t: [number, number, number] = [0, 1, 2].map((i) => centreCam[i]! - (r[3 * i]! * sx + r[3 * i + 1]! * sy)) as [number, number, number];
  return { r, tMm: t };
}

export function renderPlanarView(
  tex: SheetTexture,
  pose: SheetPose,
  lens: LensModel,
  backgroundGray = 90,
): GrayImage {
  const { imageWidthPx: w, imageHeightPx: h } = lens;
  const out = new Uint8Array(w * h);
  const r = pose.r as number[];
  const [tx, ty, tz] = pose.tMm;
  // Plane z_sheet = 0 in camera coordinates: normal n = third column of R, passes through t.
  const nx = r[2]!, ny = r[5]!, nz = r[8]!;
  const nDotT = nx * tx + ny * ty + nz * tz;
  const texW = tex.widthPx / tex.texelsPerMm;
  const texH = tex.heightPx / tex.texelsPerMm;
  const m = tex.paperMarginMm;
  const sample = (u: number, v: number): number => {
    const [x, y] = undistortNormalized((u - lens.cxPx) / lens.fxPx, (v - lens.cyPx) / lens.fyPx, lens);
    const denom = nx * x + ny * y + nz;
    if (denom === 0) return backgroundGray;
    const s = nDotT / denom;
    if (s <= 0) return backgroundGray;
    // Camera point → sheet point: X_sheet = Rᵀ (X_cam − t).
    const px = s * x - tx, py = s * y - ty, pz = s - tz;
    const xs = r[0]! * px + r[3]! * py + r[6]! * pz;
    const ys = r[1]! * px + r[4]! * py + r[7]! * pz;
    if (xs < -m || ys < -m || xs > texW + m || ys > texH + m) return backgroundGray;
    if (xs < 0 || ys < 0 || xs >= texW || ys >= texH) return 255;
    const fx = Math.min(Math.max(xs * tex.texelsPerMm - 0.5, 0), tex.widthPx - 1.001);
    const fy = Math.min(Math.max(ys * tex.texelsPerMm - 0.5, 0), tex.heightPx - 1.001);
    const ix = Math.floor(fx), iy = Math.floor(fy);
    const ax = fx - ix, ay = fy - iy;
    const i0 = iy * tex.widthPx + ix;
    const d = tex.data;
    return (
      (1 - ay) * ((1 - ax) * d[i0]! + ax * d[i0 + 1]!) +
      ay * ((1 - ax) * d[i0 + tex.widthPx]! + ax * d[i0 + tex.widthPx + 1]!)
    );
  };
  for (let v = 0; v < h; v++) {
    for (let u = 0; u < w; u++) {
      // Pixel (u, v) covers [u, u+1) × [v, v+1): the PointPx convention, which is also what the ArUco
      // and ChArUco detectors report (measured: a square edge between pixels 105 and 106 comes back at 106).
      const sum = sample(u + 0.25, v + 0.25) + sample(u + 0.75, v + 0.25) + sample(u + 0.25, v + 0.75) + sample(u + 0.75, v + 0.75);
      out[v * w + u] = Math.round(sum / 4);
    }
  }
  return { widthPx: w, heightPx: h, data: out };
}
