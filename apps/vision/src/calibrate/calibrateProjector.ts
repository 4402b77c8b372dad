/**
 * Projector calibration from one camera frame of the projected pattern (`projectorPattern.ts`):
 *
 *   projected tag corners (projector px, known) ↔ the same corners in the camera frame (detected)
 *     → projector → camera homography (RANSAC, opencv.js `findHomography`)
 *   camera → table homography (the table anchors, by the frame detector, or given)
 *     → table inches → projector pixels = (cameraToTable · projectorToCamera)⁻¹
 *
 * Both maps are plane homographies because the projector and the camera are (near) pinholes looking at
 * the flat cloth; with a lens calibration the camera side is undistorted first, as the detector does.
 * Every opencv.js object is freed before a function returns (withMats).
 */
import type { Cv } from '../cv/loadCv.ts';
import { withMats } from '../cv/withMats.ts';
import { applyHomography, invertHomography, multiplyHomography, type Homography } from '@muster/table-mapping';
import { createFrameDetector } from '../detect/frameDetector.ts';
import type { GrayFrame } from '../pipeline/types.ts';
import type { TableProfile } from '../profile/tableProfile.ts';
import { undistortFlatPx, type LensModel } from './lensModel.ts';
import { PROJECTOR_CALIBRATION_FORMAT, type ProjectorCalibrationJson } from './projectorCalibration.ts';
import { PROJECTOR_PATTERN_DICTIONARY, projectorPattern, type ProjectorPattern } from '@muster/table-mapping';

/** A solver input the user can fix (too few tags, poor fit, wrong sizes): the message says how. */
export class ProjectorCalibrationInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectorCalibrationInputError';
  }
}

/** One 8-bit grey image, row-major. */
export type GrayImagePx = Pick<GrayFrame, 'widthPx' | 'heightPx' | 'data'>;

/** One detected pattern tag: id and corners [u0,v0,…,u3,v3], camera pixels (PointPx convention, as found). */
export interface DetectedPatternTag {
  readonly id: number;
  readonly cornersPx: Float64Array;
}

/**
 * Finds the projected tags in a camera frame (DICT_APRILTAG_36h11, sub-pixel corners). Corners come back
 * in the `PointPx` convention (OpenCV's pixel-centre coordinates + 0.5), like the table detector's, so
 * both homographies use the same pixels.
 */
export function detectPatternTags(cv: Cv, image: GrayImagePx): DetectedPatternTag[] {
  if (image.data.length !== image.widthPx * image.heightPx) {
    throw new ProjectorCalibrationInputError(`image data is ${image.data.length} bytes, expected ${image.widthPx}×${image.heightPx}`);
  }
  return withMats((track) => {
    const gray = track(new cv.Mat(image.heightPx, image.widthPx, cv.CV_8UC1));
    gray.data.set(image.data);
    const dict = track(cv.getPredefinedDictionary(cv[PROJECTOR_PATTERN_DICTIONARY]));
    const params = track(new cv.aruco_DetectorParameters());
    params.cornerRefinementMethod = cv.CORNER_REFINE_SUBPIX ?? 1;
    const refine = track(new cv.aruco_RefineParameters(10, 3, true));
    const detector = track(new cv.aruco_ArucoDetector(dict, params, refine));
    const corners = track(new cv.MatVector());
    const rejected = track(new cv.MatVector());
    const ids = track(new cv.Mat());
    detector.detectMarkers(gray, corners, ids, rejected);
    const n: number = ids.rows * ids.cols;
    const out: DetectedPatternTag[] = [];
    for (let i = 0; i < n; i++) {
      const c = track(corners.get(i));
      const f = c.data32F as Float32Array;
      const pts = new Float64Array(8);
      for (let k = 0; k < 8; k++) pts[k] = f[k]! + 0.5;
      out.push({ id: (ids.data32S as Int32Array)[i]!, cornersPx: pts });
    }
    return out;
  });
}

export interface ProjectorFitOptions {
  /** RANSAC inlier threshold, camera pixels. Default 2. */
  readonly ransacThresholdPx?: number;
  /** Refuse with fewer distinct pattern tags seen. Default 6 (24 corners). */
  readonly minTags?: number;
  /** Refuse when the inliers' RMS residual exceeds this, projector pixels. Default 2. */
  readonly maxRmsProjectorPx?: number;
}

export interface ProjectorFit {
  /** Row-major 3×3, projector pixels → camera pixels (undistorted when a lens was used), h[8] = 1. */
  readonly projectorToCamera: number[];
  readonly tagsShown: number;
  /** Distinct pattern ids seen once each. */
  readonly tagsSeen: number;
  readonly cornersSeen: number;
  readonly cornersUsed: number;
  /** Ids the pattern does not contain, or seen more than once (ignored). */
  readonly ignoredIds: number[];
  /** Inlier residuals: camera corner mapped back to the projector vs where the pattern drew it, px. */
  readonly rmsProjectorPx: number;
  readonly maxProjectorPx: number;
  /** Inlier pairs (projector px, camera px) for the table-space residuals. */
  readonly inliers: { readonly projectorPx: readonly [number, number]; readonly cameraPx: readonly [number, number] }[];
}

/**
 * Projector → camera homography from the detected tags of `pattern`, RANSAC then least squares on the
 * inliers (opencv.js `findHomography`). `cameraCornersPx` must already be undistorted if a lens is used.
 */
export function fitProjectorToCamera(cv: Cv, pattern: ProjectorPattern, tags: readonly DetectedPatternTag[], options: ProjectorFitOptions = {}): ProjectorFit {
  const threshold = options.ransacThresholdPx ?? 2;
  const minTags = options.minTags ?? 6;
  const maxRms = options.maxRmsProjectorPx ?? 2;
  const byId = new Map(pattern.tags.map((t) => [t.id, t]));
  const counts = new Map<number, number>();
  for (const t of tags) counts.set(t.id, (counts.get(t.id) ?? 0) + 1);
  const ignoredIds = [...counts].filter(([id, n]) => n > 1 || !byId.has(id)).map(([id]) => id).sort((a, b) => a - b);
  const usable = tags.filter((t) => byId.has(t.id) && counts.get(t.id) === 1);
  if (usable.length < minTags) {
    throw new ProjectorCalibrationInputError(
      `only ${usable.length} of the ${pattern.tags.length} projected tags were seen (need ${minTags}): show projector.html?calibrate=1 ` +
        'full-screen on the projector, make sure the camera sees the projection in focus, and dim the room if the tags look washed out',
    );
  }
  const projectorPts: [number, number][] = [];
  const cameraPts: [number, number][] = [];
  for (const t of usable) {
    const shown = byId.get(t.id)!;
    for (let k = 0; k < 4; k++) {
      projectorPts.push([shown.cornersPx[k]!.xPx, shown.cornersPx[k]!.yPx]);
      cameraPts.push([t.cornersPx[2 * k]!, t.cornersPx[2 * k + 1]!]);
    }
  }
  const { h, mask } = withMats((track) => {
    const src = track(cv.matFromArray(projectorPts.length, 1, cv.CV_64FC2, projectorPts.flat()));
    const dst = track(cv.matFromArray(cameraPts.length, 1, cv.CV_64FC2, cameraPts.flat()));
    const inlierMask = track(new cv.Mat());
    const hm = track(cv.findHomography(src, dst, cv.RANSAC, threshold, inlierMask, 2000, 0.999));
    if (hm.rows !== 3 || hm.cols !== 3) return { h: null, mask: [] as number[] };
    return { h: Array.from(hm.data64F as Float64Array), mask: Array.from(inlierMask.data as Uint8Array) };
  });
  const inlierCount = mask.filter((m) => m !== 0).length;
  if (!h || inlierCount < 4 * Math.min(minTags, 4)) {
    throw new ProjectorCalibrationInputError(
      `the ${usable.length} projected tags seen do not fit one projector → camera map (${inlierCount} of ${projectorPts.length} corners agree): ` +
        `was the pattern shown at ${pattern.widthPx}×${pattern.heightPx}? The pattern page prints the size it draws at; pass that as --projector-size`,
    );
  }
  const s = h[8]!;
  const projectorToCamera = h.map((v) => v / s);
  const cameraToProjector = invertHomography(projectorToCamera);
  const inliers: ProjectorFit['inliers'] = [];
  let sum = 0;
  let max = 0;
  projectorPts.forEach((p, i) => {
    if (!mask[i]) return;
    const c = cameraPts[i]!;
    const [x, y] = applyHomography(cameraToProjector, c[0], c[1]);
    const d = Math.hypot(x - p[0], y - p[1]);
    sum += d * d;
    max = Math.max(max, d);
    inliers.push({ projectorPx: p, cameraPx: c });
  });
  const rms = Math.sqrt(sum / inliers.length);
  if (inliers.length < (projectorPts.length * 3) / 4) {
    throw new ProjectorCalibrationInputError(
      `only ${inliers.length} of ${projectorPts.length} tag corners fit one projector → camera map: was the pattern shown at ` +
        `${pattern.widthPx}×${pattern.heightPx}, flat on the table and still while the photo was taken?`,
    );
  }
  if (rms > maxRms) {
    throw new ProjectorCalibrationInputError(
      `the fit is poor: RMS residual ${rms.toFixed(2)} projector px (limit ${maxRms}); check that the table is flat, the camera and ` +
        'projector did not move, and the photo is sharp (or raise the limit with --max-residual-px)',
    );
  }
  return {
    projectorToCamera,
    tagsShown: pattern.tags.length,
    tagsSeen: usable.length,
    cornersSeen: projectorPts.length,
    cornersUsed: inliers.length,
    ignoredIds,
    rmsProjectorPx: rms,
    maxProjectorPx: max,
    inliers,
  };
}

/** table inches → projector pixels from the two measured maps, normalised so h[8] = 1. */
export function composeTableToProjector(cameraToTable: Homography, projectorToCamera: Homography): Homography {
  return invertHomography(multiplyHomography(cameraToTable, projectorToCamera));
}

/** The fit's residuals on the table: each inlier corner seen vs predicted, both mapped to inches. */
export function tableResidualsIn(fit: ProjectorFit, cameraToTable: Homography): { rmsTableIn: number; maxTableIn: number } {
  let sum = 0;
  let max = 0;
  for (const { projectorPx, cameraPx } of fit.inliers) {
    const predicted = applyHomography(fit.projectorToCamera, projectorPx[0], projectorPx[1]);
    const [xp, yp] = applyHomography(cameraToTable, predicted[0], predicted[1]);
    const [xs, ys] = applyHomography(cameraToTable, cameraPx[0], cameraPx[1]);
    const d = Math.hypot(xp - xs, yp - ys);
    sum += d * d;
    max = Math.max(max, d);
  }
  return { rmsTableIn: Math.sqrt(sum / fit.inliers.length), maxTableIn: max };
}

export interface ProjectorCalibrationOptions extends ProjectorFitOptions {
  readonly projectorWidthPx: number;
  readonly projectorHeightPx: number;
  /** Lens calibration of the camera: tag corners are undistorted, as the table detector does. */
  readonly lens?: LensModel;
  /** Camera (undistorted) pixels → table inches, when known; otherwise the profile's anchors in `frame` give it. */
  readonly cameraToTable?: Homography;
  /** A separate frame for the anchors (same camera, not moved), when the projection hides them. */
  readonly anchorsFrame?: GrayImagePx;
}

export interface ProjectorCalibrationResult {
  readonly tableToProjector: Homography;
  readonly cameraToTable: number[];
  readonly fit: ProjectorFit;
  readonly rmsTableIn: number;
  readonly maxTableIn: number;
  /** Anchor RMS of the camera → table homography, inches; null when it was given. */
  readonly anchorRmsIn: number | null;
  readonly anchorIds: readonly number[];
}

/** Camera → table homography from the profile's anchors in `frame` (the frame detector, full frame). */
export async function cameraToTableFromAnchors(
  profile: TableProfile,
  frame: GrayImagePx,
  lens?: LensModel,
): Promise<{ cameraToTable: number[]; anchorRmsIn: number | null; anchorIds: readonly number[] }> {
  const detector = await createFrameDetector(profile, lens ? { lens } : {});
  try {
    const d = detector.detect({ ...frame, captureTimeMs: 0, seq: 0 });
    if (!d.homography) {
      const expected = profile.anchors.map((a) => a.id).join(', ');
      throw new ProjectorCalibrationInputError(
        `the table anchors were not found (seen: ${d.anchorIds.join(', ') || 'none'} of ${expected}), so the camera cannot be tied to the table: ` +
          'keep the anchors in view and lit, or take a second photo without the pattern and pass it as --anchors-frame',
      );
    }
    return { cameraToTable: [...d.homography], anchorRmsIn: d.homographyResidualIn, anchorIds: d.anchorIds };
  } finally {
    detector.dispose();
  }
}

/** The whole measurement from one frame of the projected pattern (plus the anchors). */
export async function calibrateProjector(cv: Cv, profile: TableProfile, frame: GrayImagePx, options: ProjectorCalibrationOptions): Promise<ProjectorCalibrationResult> {
  const pattern = projectorPattern(options.projectorWidthPx, options.projectorHeightPx);
  const { lens, anchorsFrame } = options;
  if (lens && (frame.widthPx !== lens.imageWidthPx || frame.heightPx !== lens.imageHeightPx)) {
    throw new ProjectorCalibrationInputError(
      `the frame is ${frame.widthPx}×${frame.heightPx} px but the lens calibration is for ${lens.imageWidthPx}×${lens.imageHeightPx}; take the photo in the camera mode you calibrated`,
    );
  }
  if (anchorsFrame && (anchorsFrame.widthPx !== frame.widthPx || anchorsFrame.heightPx !== frame.heightPx)) {
    throw new ProjectorCalibrationInputError(
      `the anchors frame is ${anchorsFrame.widthPx}×${anchorsFrame.heightPx} px but the pattern frame is ${frame.widthPx}×${frame.heightPx}; both must come from the same camera mode`,
    );
  }
  const table = options.cameraToTable
    ? { cameraToTable: [...options.cameraToTable], anchorRmsIn: null, anchorIds: [] as number[] }
    : await cameraToTableFromAnchors(profile, anchorsFrame ?? frame, lens);
  const detected = detectPatternTags(cv, frame).map((t) => (lens ? { id: t.id, cornersPx: undistortFlatPx(t.cornersPx, lens) } : t));
  const fit = fitProjectorToCamera(cv, pattern, detected, options);
  const tableToProjector = composeTableToProjector(table.cameraToTable, fit.projectorToCamera);
  return { tableToProjector, cameraToTable: table.cameraToTable, fit, ...tableResidualsIn(fit, table.cameraToTable), anchorRmsIn: table.anchorRmsIn, anchorIds: table.anchorIds };
}

/** The file `muster calibrate projector` writes (`createdAt` from the caller: no clock here). */
export function projectorCalibrationJson(
  result: ProjectorCalibrationResult,
  meta: { createdAt: string; projectorWidthPx: number; projectorHeightPx: number; cameraWidthPx: number; cameraHeightPx: number; profile: Pick<TableProfile, 'widthIn' | 'heightIn'>; lens: string | null },
): ProjectorCalibrationJson {
  const round = (v: number, digits: number): number => Number(v.toPrecision(digits));
  return {
    format: PROJECTOR_CALIBRATION_FORMAT,
    version: 1,
    createdAt: meta.createdAt,
    projectorWidthPx: meta.projectorWidthPx,
    projectorHeightPx: meta.projectorHeightPx,
    tableWidthIn: meta.profile.widthIn,
    tableHeightIn: meta.profile.heightIn,
    tableToProjector: result.tableToProjector.map((v) => round(v, 12)),
    camera: {
      widthPx: meta.cameraWidthPx,
      heightPx: meta.cameraHeightPx,
      projectorToCamera: result.fit.projectorToCamera.map((v) => round(v, 12)),
      lens: meta.lens,
    },
    pattern: {
      dictionary: PROJECTOR_PATTERN_DICTIONARY,
      tagsShown: result.fit.tagsShown,
      tagsSeen: result.fit.tagsSeen,
      cornersUsed: result.fit.cornersUsed,
      cornersSeen: result.fit.cornersSeen,
    },
    residuals: {
      rmsProjectorPx: round(result.fit.rmsProjectorPx, 4),
      maxProjectorPx: round(result.fit.maxProjectorPx, 4),
      rmsTableIn: round(result.rmsTableIn, 4),
      maxTableIn: round(result.maxTableIn, 4),
      anchorRmsIn: result.anchorRmsIn === null ? null : round(result.anchorRmsIn, 4),
    },
  };
}
