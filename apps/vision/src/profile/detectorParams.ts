/**
 * ArUco detector parameters derived from the table profile and the frame size. OpenCV's defaults are
 * tuned for one big tag filling a webcam frame: its minimum perimeter (3 % of the longer image side)
 * rejects every half-inch tag in a 4K view of a 72×48 in table, so the sizes here are computed from
 * the expected size of a tag in pixels.
 */
import type { TableProfile } from './tableProfile.ts';

/** Plain-data mirror of the `cv.aruco_DetectorParameters` fields this project sets. */
export interface DetectorParams {
  /** Smallest adaptive-threshold window, px, odd, ≥ 3 (OpenCV default 3). */
  readonly adaptiveThreshWinSizeMin: number;
  /** Largest adaptive-threshold window, px, odd (OpenCV default 23). */
  readonly adaptiveThreshWinSizeMax: number;
  /** Step between windows, px (OpenCV default 10). Fewer windows = faster. */
  readonly adaptiveThreshWinSizeStep: number;
  /** Subtracted from the local mean before thresholding, grey levels (OpenCV default 7). */
  readonly adaptiveThreshConstant: number;
  /** Minimum tag perimeter as a fraction of the longer image side (OpenCV default 0.03). */
  readonly minMarkerPerimeterRate: number;
  /** Maximum tag perimeter as a fraction of the longer image side (OpenCV default 4). */
  readonly maxMarkerPerimeterRate: number;
  /** Polygon approximation tolerance as a fraction of the perimeter (OpenCV default 0.03). */
  readonly polygonalApproxAccuracyRate: number;
  /** Closest allowed tag corner to the image border, px (OpenCV default 3). */
  readonly minDistanceToBorder: number;
  /** 0 none, 1 subpix, 2 contour, 3 apriltag (OpenCV default 0). See README for the measurement. */
  readonly cornerRefinementMethod: 0 | 1 | 2 | 3;
  /** Half-size of the subpixel search window, px (OpenCV default 5). */
  readonly cornerRefinementWinSize: number;
  /** Maximum refinement iterations (OpenCV default 30). */
  readonly cornerRefinementMaxIterations: number;
  /** Refinement stops below this corner shift, px (OpenCV default 0.1). */
  readonly cornerRefinementMinAccuracy: number;
  /** Pixels sampled per bit cell when reading the code (OpenCV default 4). */
  readonly perspectiveRemovePixelPerCell: number;
  /** Fraction of each cell's margin ignored when reading (OpenCV default 0.13). */
  readonly perspectiveRemoveIgnoredMarginPerCell: number;
  /** Bits the decoder may correct, as a fraction of the dictionary's maximum (OpenCV default 0.6). */
  readonly errorCorrectionRate: number;
}

export const CORNER_REFINE = { none: 0, subpix: 1, contour: 2, apriltag: 3 } as const;

function odd(n: number): number {
  const r = Math.max(3, Math.round(n));
  return r % 2 === 1 ? r : r + 1;
}

/**
 * The expected side of a stand tag in pixels when the table roughly fills the frame: the table's
 * inches are fitted into the frame (whichever side binds), so this is an upper estimate for a camera
 * that also sees some floor.
 */
export function expectedTagSidePx(profile: TableProfile, widthPx: number, heightPx: number, sizeIn = profile.markerSizeIn): number {
  const pxPerIn = Math.min(widthPx / profile.widthIn, heightPx / profile.heightIn);
  return sizeIn * pxPerIn;
}

/**
 * Parameters for a `widthPx`×`heightPx` frame of `profile`'s table.
 *
 * - Perimeter limits: from 0.35× the expected stand-tag side (camera further away, perspective) up to
 *   3× the largest anchor side.
 * - Threshold windows: the window must span at least one bit cell to see black against white, and
 *   should stay below a few cells so neighbouring dark bases do not swamp it.
 * - Corner refinement: CONTOUR (line fit along each edge), which measured the most accurate on our
 *   rendered frames for tags of 15–50 px (see README).
 *
 * @example detectorParamsFor(profile, 3840, 2160).minMarkerPerimeterRate // ≈ 0.008 for 0.5 in tags
 */
export function detectorParamsFor(profile: TableProfile, widthPx: number, heightPx: number): DetectorParams {
  if (!(widthPx > 0 && heightPx > 0)) throw new Error(`frame size must be positive (got ${widthPx}×${heightPx})`);
  const longSidePx = Math.max(widthPx, heightPx);
  const tagPx = expectedTagSidePx(profile, widthPx, heightPx);
  const largestIn = Math.max(profile.markerSizeIn, ...profile.anchors.map((a) => a.sizeIn));
  const largestPx = expectedTagSidePx(profile, widthPx, heightPx, largestIn);
  const cellPx = tagPx / (profile.markerBits + 2);
  const winMin = odd(Math.max(3, cellPx * 1.5));
  const winMax = odd(Math.max(winMin, cellPx * 4));
  return {
    adaptiveThreshWinSizeMin: winMin,
    adaptiveThreshWinSizeMax: winMax,
    adaptiveThreshWinSizeStep: Math.max(2, winMax - winMin),
    adaptiveThreshConstant: 7,
    minMarkerPerimeterRate: Math.max(0.001, (4 * tagPx * 0.35) / longSidePx),
    maxMarkerPerimeterRate: Math.min(4, (4 * largestPx * 3) / longSidePx),
    polygonalApproxAccuracyRate: 0.03,
    minDistanceToBorder: 3,
    cornerRefinementMethod: CORNER_REFINE.contour,
    cornerRefinementWinSize: Math.max(2, Math.round(cellPx / 2)),
    cornerRefinementMaxIterations: 30,
    cornerRefinementMinAccuracy: 0.05,
    perspectiveRemovePixelPerCell: 4,
    perspectiveRemoveIgnoredMarginPerCell: 0.13,
    errorCorrectionRate: 0.6,
  };
}

/** Throws a clear error for parameters opencv.js would reject with a bare number. */
export function validateDetectorParams(p: DetectorParams): void {
  const fail = (msg: string): never => {
    throw new Error(`detector parameters: ${msg}`);
  };
  if (!Number.isInteger(p.adaptiveThreshWinSizeMin) || p.adaptiveThreshWinSizeMin < 3) fail(`adaptiveThreshWinSizeMin must be an integer ≥ 3 (got ${p.adaptiveThreshWinSizeMin})`);
  if (!(p.adaptiveThreshWinSizeMax >= p.adaptiveThreshWinSizeMin)) fail(`adaptiveThreshWinSizeMax (${p.adaptiveThreshWinSizeMax}) must be ≥ adaptiveThreshWinSizeMin (${p.adaptiveThreshWinSizeMin})`);
  if (!(p.adaptiveThreshWinSizeStep > 0)) fail(`adaptiveThreshWinSizeStep must be > 0 (got ${p.adaptiveThreshWinSizeStep})`);
  if (!(p.minMarkerPerimeterRate > 0 && p.minMarkerPerimeterRate < p.maxMarkerPerimeterRate)) fail(`need 0 < minMarkerPerimeterRate (${p.minMarkerPerimeterRate}) < maxMarkerPerimeterRate (${p.maxMarkerPerimeterRate})`);
  if (![0, 1, 2, 3].includes(p.cornerRefinementMethod)) fail(`cornerRefinementMethod must be 0, 1, 2 or 3 (got ${p.cornerRefinementMethod})`);
  if (!(p.cornerRefinementWinSize >= 1)) fail(`cornerRefinementWinSize must be ≥ 1 (got ${p.cornerRefinementWinSize})`);
}
