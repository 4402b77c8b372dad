/**
 * Lens calibration from ChArUco views with opencv.js `calibrateCameraExtended` (the build exports it;
 * it is OpenCV's Zhang initialisation + Levenberg–Marquardt refinement).
 */
import type { PointPx } from '../pipeline/types.ts';
import { charucoCornerCount, charucoCornerMm, type CharucoBoardSpec } from './charucoBoardSpec.ts';
import type { Cv } from '../cv/loadCv.ts';
import { LENS_CALIBRATION_FORMAT, type LensCalibrationJson } from './lensModel.ts';

export interface CalibrationView {
  /** Where the view came from (file name), reported back per image. */
  readonly label: string;
  readonly ids: readonly number[];
  readonly cornersPx: readonly PointPx[];
}

export interface CalibrateLensOptions {
  /** Views with fewer corners are dropped (a homography per view needs ≥ 4, accuracy wants more). Default 8. */
  readonly minCornersPerView?: number;
  /** Fewer usable views than this is refused. Default 4. */
  readonly minViews?: number;
  /**
   * Estimate k3 too. Default false: with a handful of views of a small board k3 mostly fits noise and
   * makes the model diverge outside the covered area; webcams and phone lenses rarely need it.
   */
  readonly estimateK3?: boolean;
}

export class CalibrationInputError extends Error {
  override name = 'CalibrationInputError';
}

export interface LensCalibrationResult {
  readonly calibration: LensCalibrationJson;
  /** Views dropped before calibrating, with the reason. */
  readonly skipped: { readonly label: string; readonly reason: string }[];
}

export function calibrateLens(
  cv: Cv,
  views: readonly CalibrationView[],
  image: { readonly widthPx: number; readonly heightPx: number },
  board: CharucoBoardSpec,
  options: CalibrateLensOptions = {},
): LensCalibrationResult {
  const minCorners = options.minCornersPerView ?? 8;
  const minViews = options.minViews ?? 4;
  const maxId = charucoCornerCount(board);
  const used: CalibrationView[] = [];
  const skipped: { label: string; reason: string }[] = [];
  for (const v of views) {
    if (v.ids.length !== v.cornersPx.length) throw new Error(`${v.label}: ${v.ids.length} ids but ${v.cornersPx.length} corners`);
    if (v.ids.some((id) => !Number.isInteger(id) || id < 0 || id >= maxId)) throw new Error(`${v.label}: corner id outside the board`);
    if (v.ids.length < minCorners) skipped.push({ label: v.label, reason: `${v.ids.length} corners found, need ${minCorners}` });
    else if (cornersCollinear(board, v.ids)) skipped.push({ label: v.label, reason: 'corners found lie on one line' });
    else used.push(v);
  }
  if (used.length < minViews) {
    throw new CalibrationInputError(
      `only ${used.length} usable view(s) of the board (need at least ${minViews}, each with ≥ ${minCorners} corners); ` +
        'take more photos with the whole board in view, tilted different ways' +
        (skipped.length > 0 ? ` (skipped: ${skipped.slice(0, 5).map((x) => `${x.label}: ${x.reason}`).join('; ')}${skipped.length > 5 ? '; ...' : ''})` : ''),
    );
  }

  const objectPoints = new cv.MatVector();
  const imagePoints = new cv.MatVector();
  const cameraMatrix = new cv.Mat();
  const distCoeffs = new cv.Mat();
  const rvecs = new cv.MatVector();
  const tvecs = new cv.MatVector();
  const stdIntrinsics = new cv.Mat();
  const stdExtrinsics = new cv.Mat();
  const perViewErrors = new cv.Mat();
  try {
    for (const v of used) {
      const obj: number[] = [];
      const img: number[] = [];
      v.ids.forEach((id, i) => {
        const p = charucoCornerMm(board, id);
        const c = v.cornersPx[i] as PointPx;
        obj.push(p.xMm, p.yMm, 0);
        img.push(c.uPx, c.vPx);
      });
      const o = cv.matFromArray(v.ids.length, 1, cv.CV_32FC3, obj);
      const m = cv.matFromArray(v.ids.length, 1, cv.CV_32FC2, img);
      objectPoints.push_back(o);
      imagePoints.push_back(m);
      o.delete(); // push_back copies the header; the vector keeps the data alive
      m.delete();
    }
    const flags = options.estimateK3 ? 0 : cv.CALIB_FIX_K3;
    const criteria = new cv.TermCriteria(cv.TermCriteria_COUNT + cv.TermCriteria_EPS, 100, 1e-10);
    const rms = cv.calibrateCameraExtended(
      objectPoints, imagePoints, new cv.Size(image.widthPx, image.heightPx), cameraMatrix, distCoeffs,
      rvecs, tvecs, stdIntrinsics, stdExtrinsics, perViewErrors, flags, criteria,
    ) as number;
    const k = Array.from(cameraMatrix.data64F as Float64Array);
    const d = Array.from(distCoeffs.data64F as Float64Array);
    const calibration: LensCalibrationJson = {
      format: LENS_CALIBRATION_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      imageWidthPx: image.widthPx,
      imageHeightPx: image.heightPx,
      cameraMatrix: k,
      distortion: { k1: d[0] ?? 0, k2: d[1] ?? 0, p1: d[2] ?? 0, p2: d[3] ?? 0, k3: d[4] ?? 0 },
      rmsReprojectionErrorPx: rms,
      images: used.map((v, i) => ({ file: v.label, cornerCount: v.ids.length, rmsPx: perViewErrors.data64F[i] as number })),
      board,
    };
    if (!Number.isFinite(rms) || k.some((x) => !Number.isFinite(x))) {
      throw new CalibrationInputError('calibration did not converge (non-finite result); check the photos and the board file');
    }
    return { calibration, skipped };
  } finally {
    for (const m of [objectPoints, imagePoints, cameraMatrix, distCoeffs, rvecs, tvecs, stdIntrinsics, stdExtrinsics, perViewErrors]) m.delete();
  }
}

/** Corners all in one board row, column or diagonal give no homography: drop such views up front. */
function cornersCollinear(board: CharucoBoardSpec, ids: readonly number[]): boolean {
  const pts = ids.map((id) => charucoCornerMm(board, id));
  const a = pts[0];
  if (a === undefined) return true;
  const b = pts.find((p) => p.xMm !== a.xMm || p.yMm !== a.yMm);
  if (b === undefined) return true;
  return pts.every((p) => Math.abs((b.xMm - a.xMm) * (p.yMm - a.yMm) - (b.yMm - a.yMm) * (p.xMm - a.xMm)) < 1e-9);
}
