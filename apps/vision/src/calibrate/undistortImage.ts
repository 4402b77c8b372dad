/**
 * A whole frame with the lens distortion removed (same camera matrix, same size), for checking a
 * calibration by eye: straight table edges and board lines must come out straight.
 */
import type { Cv } from '../cv/loadCv.ts';
import type { GrayImage } from './detectCharucoCorners.ts';
import type { LensModel } from './lensModel.ts';

export function undistortImage(cv: Cv, image: GrayImage, lens: LensModel): GrayImage {
  if (image.widthPx !== lens.imageWidthPx || image.heightPx !== lens.imageHeightPx) {
    throw new Error(
      `image is ${image.widthPx}×${image.heightPx} but the lens was calibrated at ${lens.imageWidthPx}×${lens.imageHeightPx}`,
    );
  }
  const src = new cv.Mat(image.heightPx, image.widthPx, cv.CV_8UC1);
  const dst = new cv.Mat();
  // Calibrations live in the detector's convention (origin at the top-left pixel's corner); remap
  // samples with pixel centres at integers, so shift the principal point by half a pixel for it.
  const k = cv.matFromArray(3, 3, cv.CV_64F, [lens.fxPx, 0, lens.cxPx - 0.5, 0, lens.fyPx, lens.cyPx - 0.5, 0, 0, 1]);
  const d = cv.matFromArray(1, 5, cv.CV_64F, [lens.k1, lens.k2, lens.p1, lens.p2, lens.k3]);
  const r = cv.Mat.eye(3, 3, cv.CV_64F);
  const map1 = new cv.Mat();
  const map2 = new cv.Mat();
  try {
    src.data.set(image.data);
    cv.initUndistortRectifyMap(k, d, r, k, new cv.Size(image.widthPx, image.heightPx), cv.CV_32FC1, map1, map2);
    cv.remap(src, dst, map1, map2, cv.INTER_LINEAR, cv.BORDER_CONSTANT, new cv.Scalar(0));
    return { widthPx: dst.cols as number, heightPx: dst.rows as number, data: Uint8Array.from(dst.data as Uint8Array) };
  } finally {
    for (const m of [src, dst, k, d, r, map1, map2]) m.delete();
  }
}
