/**
 * Where the camera is above the table, from the anchors (all at table height z = 0), and the parallax
 * correction that follows from it: a tag on a base of thickness h is nearer the camera than the cloth,
 * so the z = 0 homography places it too far from the point under the camera.
 *
 * Table frame: x along the near edge, y away from it, z up (right-handed), inches.
 * Camera frame (OpenCV): x right, y down, z forward along the optical axis.
 */
import type { PointIn } from '@muster/rules';
import type { Cv } from '../cv/loadCv.ts';
import type { PointPx } from '../pipeline/types.ts';
import { pixelToNormalized, projectCameraPointPx, type LensModel } from './lensModel.ts';

export interface CameraPose {
  /** Row-major 3×3 rotation, table → camera: X_cam = R · X_table + t. */
  readonly rotation: readonly number[];
  /** Translation t, inches (camera frame). */
  readonly translationIn: readonly [number, number, number];
  /** Camera centre (projection centre) in table inches; zIn is the height above the cloth. */
  readonly cameraCentreIn: { readonly xIn: number; readonly yIn: number; readonly zIn: number };
  /** RMS distance between the anchor corners as seen and as reprojected through this pose, pixels. */
  readonly reprojectionRmsPx: number;
}

/**
 * A rough lens for a camera that has not been calibrated: square pixels, centred principal point, no
 * distortion, horizontal field of view `hfovDeg` (most webcams 60–78°). Good enough for a parallax
 * correction of a few millimetres; calibrate the lens for anything better.
 */
export function approximateLensModel(widthPx: number, heightPx: number, hfovDeg = 65): LensModel {
  const f = widthPx / 2 / Math.tan((hfovDeg * Math.PI) / 360);
  return { imageWidthPx: widthPx, imageHeightPx: heightPx, fxPx: f, fyPx: f, cxPx: (widthPx - 1) / 2, cyPx: (heightPx - 1) / 2, k1: 0, k2: 0, p1: 0, p2: 0, k3: 0 };
}

/** Projects a table point (inches, zIn up) to a distorted image pixel through `pose`. */
export function projectTablePointPx(xIn: number, yIn: number, zIn: number, pose: CameraPose, lens: LensModel): PointPx {
  const r = pose.rotation;
  const t = pose.translationIn;
  const x = r[0]! * xIn + r[1]! * yIn + r[2]! * zIn + t[0];
  const y = r[3]! * xIn + r[4]! * yIn + r[5]! * zIn + t[1];
  const z = r[6]! * xIn + r[7]! * yIn + r[8]! * zIn + t[2];
  return projectCameraPointPx(x, y, z, lens);
}

/** Builds a pose from R and t (computes the camera centre C = −Rᵀt). */
export function cameraPoseFromRt(rotation: readonly number[], translationIn: readonly [number, number, number], reprojectionRmsPx = 0): CameraPose {
  const r = rotation;
  const [tx, ty, tz] = translationIn;
  return {
    rotation: [...r],
    translationIn: [tx, ty, tz],
    cameraCentreIn: {
      xIn: -(r[0]! * tx + r[3]! * ty + r[6]! * tz),
      yIn: -(r[1]! * tx + r[4]! * ty + r[7]! * tz),
      zIn: -(r[2]! * tx + r[5]! * ty + r[8]! * tz),
    },
    reprojectionRmsPx,
  };
}

/**
 * Camera pose from anchor corners: `anchorCornersPx[i]` (as detected, distorted) is the image of
 * `anchorCornersIn[i]` (table inches, z = 0). Needs ≥ 4 points, not all on one line; every corner of
 * every visible anchor is best. Uses opencv.js solvePnP (iterative, LM) with the lens distortion.
 */
export function solveCameraPose(
  cv: Cv,
  anchorCornersPx: readonly PointPx[],
  anchorCornersIn: readonly PointIn[],
  lens: LensModel,
): CameraPose {
  const n = anchorCornersPx.length;
  if (n !== anchorCornersIn.length) throw new Error(`solveCameraPose: ${n} image points but ${anchorCornersIn.length} table points`);
  if (n < 4) throw new Error(`solveCameraPose: need at least 4 anchor corners, got ${n}`);
  const obj = cv.matFromArray(n, 1, cv.CV_64FC3, anchorCornersIn.flatMap((p) => [p.xIn, p.yIn, 0]));
  const img = cv.matFromArray(n, 1, cv.CV_64FC2, anchorCornersPx.flatMap((p) => [p.uPx, p.vPx]));
  const k = cv.matFromArray(3, 3, cv.CV_64F, [lens.fxPx, 0, lens.cxPx, 0, lens.fyPx, lens.cyPx, 0, 0, 1]);
  const d = cv.matFromArray(1, 5, cv.CV_64F, [lens.k1, lens.k2, lens.p1, lens.p2, lens.k3]);
  const rvec = new cv.Mat();
  const tvec = new cv.Mat();
  const rmat = new cv.Mat();
  try {
    const ok = cv.solvePnP(obj, img, k, d, rvec, tvec, false, cv.SOLVEPNP_ITERATIVE) as boolean;
    if (!ok) throw new Error('solveCameraPose: solvePnP found no pose (are the anchor corners in the right order?)');
    cv.Rodrigues(rvec, rmat);
    const rotation = Array.from(rmat.data64F as Float64Array);
    const t = Array.from(tvec.data64F as Float64Array) as [number, number, number];
    let pose = cameraPoseFromRt(rotation, t);
    if (!(pose.cameraCentreIn.zIn > 0)) {
      throw new Error('solveCameraPose: the camera comes out below the table; the anchors\' table coordinates look mirrored');
    }
    let sum = 0;
    anchorCornersIn.forEach((p, i) => {
      const q = projectTablePointPx(p.xIn, p.yIn, 0, pose, lens);
      const s = anchorCornersPx[i]!;
      sum += (q.uPx - s.uPx) ** 2 + (q.vPx - s.vPx) ** 2;
    });
    pose = { ...pose, reprojectionRmsPx: Math.sqrt(sum / n) };
    return pose;
  } finally {
    for (const m of [obj, img, k, d, rvec, tvec, rmat]) m.delete();
  }
}

/**
 * Where the camera ray through image point `pointPx` meets the horizontal plane z = heightIn (table
 * inches). With heightIn = 0 this is the cloth point; with the base thickness it is the tag itself.
 */
export function pixelToTableIn(pointPx: PointPx, pose: CameraPose, lens: LensModel, heightIn = 0): PointIn {
  const [x, y] = pixelToNormalized(pointPx, lens);
  const r = pose.rotation;
  // Ray direction in table coordinates: Rᵀ (x, y, 1).
  const dx = r[0]! * x + r[3]! * y + r[6]!;
  const dy = r[1]! * x + r[4]! * y + r[7]!;
  const dz = r[2]! * x + r[5]! * y + r[8]!;
  const c = pose.cameraCentreIn;
  if (dz >= 0 || c.zIn <= heightIn) throw new Error('pixelToTableIn: the ray does not reach that height (point above the horizon?)');
  const s = (heightIn - c.zIn) / dz;
  return { xIn: c.xIn + s * dx, yIn: c.yIn + s * dy };
}

/**
 * Parallax correction for a tag raised `heightIn` above the cloth (base thickness). `pointIn` is where the
 * z = 0 homography put the tag point. The camera ray through that image point runs from the camera centre
 * C to `pointIn` (on z = 0); it crosses z = h at C + (1 − h/C_z)(P − C) = P + (C_xy − P)·h/C_z, which is
 * where the tag really is.
 *
 * @example correctParallaxIn({ xIn: 60, yIn: 40 }, pose, 0.125) // camera above (36, 24, 60) → (59.95, 39.97)
 */
export function correctParallaxIn(pointIn: PointIn, pose: CameraPose, heightIn: number): PointIn {
  const c = pose.cameraCentreIn;
  if (!(c.zIn > heightIn)) throw new Error(`correctParallaxIn: camera height ${c.zIn.toFixed(2)} in is not above ${heightIn} in`);
  const f = heightIn / c.zIn;
  return { xIn: pointIn.xIn + (c.xIn - pointIn.xIn) * f, yIn: pointIn.yIn + (c.yIn - pointIn.yIn) * f };
}
