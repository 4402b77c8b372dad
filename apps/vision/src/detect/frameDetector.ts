/**
 * The per-frame detector: ArUco tags → anchors → image→table homography (re-solved every frame) →
 * stand tags as `MarkerObservation`s in table inches.
 *
 * Two ways to look at a frame:
 * - full frame: the whole image through the ArUco detector (~0.4 s at 4K in opencv.js);
 * - tracked: given predicted corners for the tags expected (from the tracker), only a small window
 *   around each prediction is searched. The windows are packed into one mosaic image and detected in
 *   one call; corners are mapped back to frame pixels. Anchors are predicted from where they were
 *   last seen. New stands are found by full-frame scans on another thread (`backgroundScanner.ts`).
 */
import type { FrameDetection, GrayFrame, MarkerObservation, PointPx, TagSizeSeen } from '../pipeline/types.ts';
import { tagSizeAdvice, tagSizeWarning, type TagSizeAdvice } from './tagSizeAdvice.ts';
import { loadCv, type Cv } from '../cv/loadCv.ts';
import { grayFrameToMat } from '../cv/convert.ts';
import { withMats, type Track } from '../cv/withMats.ts';
import type { TableProfile } from '../profile/tableProfile.ts';
import { detectorParamsFor, expectedTagSidePx, validateDetectorParams, type DetectorParams } from '../profile/detectorParams.ts';
import { createArucoDetector, type ArucoDetector, type RawMarker } from './arucoDetector.ts';
import type { Homography } from '@muster/table-mapping';
import { markerPose } from './markerPose.ts';
import { chooseAnchors, quadSideIn } from './chooseAnchors.ts';
import { isChessboardMarker } from './chessboardSurround.ts';
import { smallTagWindow } from './localTagScale.ts';
import { buildMosaic, type WindowPx } from './mosaic.ts';
import { markerCells } from './markerCells.ts';
import { cellMismatches, readCells, refineEdges, refineFromPrediction } from './refineFromPrediction.ts';
import type { BackgroundScanner } from './scanProtocol.ts';
import { undistortFlatPx, type LensModel } from '../calibrate/lensModel.ts';
import { approximateLensModel, correctParallaxIn, solveCameraPose, type CameraPose } from '../calibrate/cameraPose.ts';

/** Where the tracker expects a tag in this frame (image pixels, OpenCV corner order). */
export interface TagPrediction {
  readonly id: number;
  readonly cornersPx: readonly [PointPx, PointPx, PointPx, PointPx];
  /**
   * Where the edge re-measurement fails, how far around the corners' box to search with ArUco, px.
   * Default: `searchMarginTagSides` × the tag's side. `null`: re-measure only, no window (a hidden tag
   * whose window did not fit this frame's search budget).
   */
  readonly windowMarginPx?: number | null;
}

export interface FrameDetectorOptions {
  /** Override derived detector parameters (see `detectorParamsFor`). */
  readonly params?: Partial<DetectorParams>;
  /** Fewest anchors seen to re-solve the homography; with fewer the last one is kept. Default 3. */
  readonly minAnchors?: number;
  /** Extra window around each predicted tag, as a multiple of the predicted tag side; default 0.8. */
  readonly searchMarginTagSides?: number;
  /** Reject a stand tag whose measured side differs from the profile's by more than this fraction; default 0.25. */
  readonly maxSizeError?: number;
  /**
   * Re-measure tags from their edges and verify their cells (`refineFromPrediction`). Tracked mode:
   * ArUco runs only on windows where that fails. Full frame: applied to ArUco's corners. Default true;
   * false uses ArUco alone (slower in tracked mode, less accurate; for comparison).
   */
  readonly edgeRefine?: boolean;
  /**
   * Full-frame scans running on another thread (`createBackgroundScanner`; the caller owns and disposes
   * it). In tracked mode every frame is offered to it (taken whenever it is idle), and tags from its
   * newest scan that were not predicted are searched for too, so a stand put down appears within about
   * one scan time even before the tracker knows it.
   */
  readonly backgroundScanner?: BackgroundScanner;
  /**
   * Threshold the image once (the middle of the derived window range) instead of at each window size:
   * ~40 % less CPU per full-frame pass at 4K, at the cost of the odd tag (149 of 150 found, measured).
   * For the background scanner, whose misses the next scan catches. Default false.
   */
  readonly singleThresholdWindow?: boolean;
  /**
   * Lens calibration (`loadLensModel`). Every tag's corners are undistorted before the homography, the
   * size check and the pose, so the homography then maps *ideal pinhole* pixels (distortion removed) to
   * table inches; `cornersPx` stay the raw detected corners. Frames of another size are refused (a
   * calibration is per resolution). Without it, pixels are used as they are.
   */
  readonly lens?: LensModel;
  /**
   * Full frame: where stand tags are smaller than `smallTagSidePx` (a tilted camera's far side, from the
   * homography), that part of the frame is searched again magnified by this factor (2 is the measured
   * choice). Default 1 (off): on the frames measured it found few more tags for about twice the cost
   * (README, "Harder frames").
   */
  readonly magnifySmallTags?: number;
  /** Tag side in px below which a full frame's region gets the magnified pass; default 16. */
  readonly smallTagSidePx?: number;
  /**
   * Horizontal field of view (degrees) assumed for the camera pose behind the parallax correction when no
   * `lens` is given (`approximateLensModel`); default 65. Only used when the profile's `baseThicknessIn` > 0.
   */
  readonly hfovDeg?: number;
}

export interface FrameDetector {
  readonly profile: TableProfile;
  /**
   * Detect tags in `frame`. Without `predictions` (or with `undefined`) the full frame is searched;
   * with a list, only windows around those tags and around the anchors' last positions.
   */
  detect(frame: GrayFrame, predictions?: readonly TagPrediction[]): FrameDetection;
  /** Detections only (no homography/pose): used by the background scanner. */
  detectRaw(frame: GrayFrame): RawMarker[];
  /** Tracked mode of the last frame: tags re-measured from their edges, and windows sent to ArUco. */
  readonly lastTrackedStats: { readonly edgeRefined: number; readonly arucoWindows: number; readonly windowAreaPx: number } | null;
  /** The window of the last full frame searched again magnified (small tags), or null. */
  readonly lastMagnifiedWindow: WindowPx | null;
  /** The last good homography (image px → table in; undistorted px with a `lens`), or null. */
  readonly homography: Homography | null;
  /**
   * Camera pose from the anchors (solved with the homography), used for the parallax correction of tags
   * on bases `baseThicknessIn` thick; null while the profile has no base thickness or no anchors were seen.
   */
  readonly cameraPose: CameraPose | null;
  dispose(): void;
}

/** Cells (of 36 for 4×4 tags) a quad may read wrong through ArUco's own corners and still be its id. */
export const MAX_CELL_MISMATCHES = 3;

/** Table-space corners of an anchor in OpenCV order. */
function anchorTableCorners(a: TableProfile['anchors'][number]): [number, number][] {
  const t = (a.headingDeg * Math.PI) / 180;
  const hx = Math.cos(t);
  const hy = Math.sin(t);
  const rx = hy;
  const ry = -hx;
  const s = a.sizeIn / 2;
  return [
    [-s, s],
    [s, s],
    [s, -s],
    [-s, -s],
  ].map(([u, v]) => [a.xIn + u! * rx + v! * hx, a.yIn + u! * ry + v! * hy]);
}

function toPointsPx(c: Float64Array): [PointPx, PointPx, PointPx, PointPx] {
  return [
    { uPx: c[0]!, vPx: c[1]! },
    { uPx: c[2]!, vPx: c[3]! },
    { uPx: c[4]!, vPx: c[5]! },
    { uPx: c[6]!, vPx: c[7]! },
  ];
}

/**
 * Windows that overlap become their bounding box when that costs less area than the two apart (each
 * overlapping pixel would otherwise be searched twice); repeated until nothing merges.
 */
export function mergeOverlappingWindows(windows: readonly WindowPx[]): WindowPx[] {
  const out = windows.map((w) => ({ ...w }));
  const area = (w: WindowPx): number => Math.max(0, w.u1 - w.u0) * Math.max(0, w.v1 - w.v0);
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i]!;
        const b = out[j]!;
        if (a.u0 >= b.u1 || b.u0 >= a.u1 || a.v0 >= b.v1 || b.v0 >= a.v1) continue;
        const u = { u0: Math.min(a.u0, b.u0), v0: Math.min(a.v0, b.v0), u1: Math.max(a.u1, b.u1), v1: Math.max(a.v1, b.v1) };
        if (area(u) > area(a) + area(b)) continue;
        out[i] = u;
        out.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return out;
}

/** Merge detections of the same id at the same place (overlapping mosaic windows). */
function dedupeSamePlace(markers: RawMarker[], tolPx: number): RawMarker[] {
  const out: RawMarker[] = [];
  for (const m of markers) {
    const same = out.some(
      (o) => o.id === m.id && Math.abs(o.corners[0]! - m.corners[0]!) < tolPx && Math.abs(o.corners[1]! - m.corners[1]!) < tolPx,
    );
    if (!same) out.push(m);
  }
  return out;
}

export async function createFrameDetector(profile: TableProfile, options: FrameDetectorOptions = {}): Promise<FrameDetector> {
  const cv: Cv = await loadCv();
  const aruco: ArucoDetector = createArucoDetector(cv, profile.dictionary);
  const minAnchors = options.minAnchors ?? 3;
  if (!Number.isInteger(minAnchors) || minAnchors < 1 || minAnchors > profile.anchors.length) {
    throw new Error(`minAnchors must be an integer from 1 to ${profile.anchors.length} (got ${minAnchors})`);
  }
  const marginSides = options.searchMarginTagSides ?? 0.8;
  const maxSizeError = options.maxSizeError ?? 0.25;
  const edgeRefine = options.edgeRefine ?? true;
  const cellsPerSide = profile.markerBits + 2;
  const magnify = options.magnifySmallTags ?? 1;
  const smallTagSidePx = options.smallTagSidePx ?? 16;
  let lastMagnifiedWindow: WindowPx | null = null;
  /** Tag-size advice for the homography it was computed from. */
  let advice: TagSizeAdvice | null = null;
  let adviceFor: Homography | null = null;
  const anchorById = new Map(profile.anchors.map((a) => [a.id, a]));
  const standIds = new Set(profile.standIds);
  let homography: Homography | null = null;
  const lens = options.lens;
  const baseThicknessIn = profile.baseThicknessIn;
  let cameraPose: CameraPose | null = null;
  /** Raw anchor corners (with ids) the camera pose was solved from. */
  let poseFrom: { ids: string; px: Float64Array } | null = null;
  let frameSize = '';
  let params: DetectorParams | null = null;
  let paramsLongSide = 0;
  let currentImageLongSide = 0;
  /** Last seen image corners of each anchor, for tracked mode. */
  const lastAnchorCorners = new Map<number, Float64Array>();
  let disposed = false;
  let lastTrackedStats: FrameDetector['lastTrackedStats'] = null;
  /** Tags of the newest background scan (image px of the scanned frame). */
  let scanMarkers: RawMarker[] = [];
  /** Ids of quads rejected as the wrong size since the newest scan arrived. */
  const wrongSizeSinceScan = new Set<number>();

  const ensureParams = (frame: GrayFrame): void => {
    const key = `${frame.widthPx}x${frame.heightPx}`;
    if (key === frameSize) return;
    frameSize = key;
    const derived = detectorParamsFor(profile, frame.widthPx, frame.heightPx);
    if (options.singleThresholdWindow) {
      const mid = Math.floor((derived.adaptiveThreshWinSizeMin + derived.adaptiveThreshWinSizeMax) / 4) * 2 + 1; // odd
      Object.assign(derived, { adaptiveThreshWinSizeMin: mid, adaptiveThreshWinSizeMax: mid });
    }
    params = { ...derived, ...options.params };
    validateDetectorParams(params);
    paramsLongSide = Math.max(frame.widthPx, frame.heightPx);
    currentImageLongSide = 0;
  };
  const useParamsFor = (imageLongSide: number): void => {
    if (imageLongSide === currentImageLongSide) return;
    aruco.setParams(params!, paramsLongSide, imageLongSide);
    currentImageLongSide = imageLongSide;
  };

  const detectFull = (frame: GrayFrame): (RawMarker & { readonly unread?: true })[] => {
    ensureParams(frame);
    useParamsFor(paramsLongSide);
    lastMagnifiedWindow = null;
    const found: (RawMarker | (RawMarker & { readonly confirmed: true }))[] = withMats((track) => {
      const mat = track(grayFrameToMat(cv, frame));
      const first = aruco.detect(mat);
      return [...first, ...magnifiedPass(frame, mat, first, track)];
    });
    // Re-measure every tag from its edges, starting from ArUco's corners: more accurate than ArUco's
    // own refinement, and it repairs the odd corner the contour fit misplaces (an anchor corner off by
    // a pixel shifts every stand). Where it fails the ArUco corners stand if the tag's cells read as its id.
    return found.map((m) => ('confirmed' in m ? { id: m.id, corners: m.corners } : confirmCells(frame, m)!));
  };

  /**
   * Second pass over the part of the frame where stand tags are small (a tilted camera's far side):
   * the window of the table where the local tag side (`localTagScale.ts`, from this frame's anchors, or
   * the last homography without them) is below `smallTagSidePx`, magnified `magnify`× and
   * searched with the same detector sizes in pixels, so those tags are searched as if twice their size.
   * Tags found again there are left to the first pass.
   */
  const magnifiedPass = (frame: GrayFrame, mat: Cv, first: readonly RawMarker[], track: Track): (RawMarker & { readonly confirmed: true })[] => {
    if (magnify <= 1) return [];
    // This frame's anchors (the camera may have moved since the last homography), else the last one.
    const provisional = chooseAnchors(
      first.filter((m) => anchorById.has(m.id)).map((m) => ({ ...m, ideal: lens ? undistortFlatPx(m.corners, lens) : m.corners })),
      (id) => ({ cornersIn: anchorTableCorners(anchorById.get(id)!), sizeIn: anchorById.get(id)!.sizeIn }),
      { minAnchors, maxSizeError },
    );
    const imageToTable = provisional.homography ?? homography;
    if (!imageToTable) return [];
    const margin = Math.ceil(expectedTagSidePx(profile, frame.widthPx, frame.heightPx));
    let win: WindowPx | null;
    try {
      win = smallTagWindow(imageToTable, frame, profile, profile.markerSizeIn, smallTagSidePx, 128, margin);
    } catch {
      return []; // a degenerate homography: no scale to follow
    }
    if (!win) return [];
    const u0 = Math.floor(win.u0);
    const v0 = Math.floor(win.v0);
    const w = Math.ceil(win.u1) - u0;
    const h = Math.ceil(win.v1) - v0;
    if (w < 8 || h < 8) return [];
    lastMagnifiedWindow = { u0, v0, u1: u0 + w, v1: v0 + h };
    const roi = track(mat.roi(new cv.Rect(u0, v0, w, h)));
    const big = track(new cv.Mat());
    cv.resize(roi, big, new cv.Size(Math.round(w * magnify), Math.round(h * magnify)), 0, 0, cv.INTER_LINEAR);
    useParamsFor(Math.max(big.cols, big.rows));
    const found = aruco.detect(big);
    useParamsFor(paramsLongSide);
    const tolPx = expectedTagSidePx(profile, frame.widthPx, frame.heightPx) * 0.5;
    const centre = (c: Float64Array): [number, number] => [(c[0]! + c[2]! + c[4]! + c[6]!) / 4, (c[1]! + c[3]! + c[5]! + c[7]!) / 4];
    // Cells are read (and edges re-measured) on the magnified image, where a 10 px tag has 3 px cells.
    const bigFrame: GrayFrame = { widthPx: big.cols, heightPx: big.rows, data: Uint8Array.from(big.data as Uint8Array), seq: frame.seq, captureTimeMs: frame.captureTimeMs };
    const out: (RawMarker & { readonly confirmed: true })[] = [];
    for (const m of found) {
      const [bu, bv] = centre(m.corners);
      const again = first.some((f) => {
        const [fu, fv] = centre(f.corners);
        return f.id === m.id && Math.hypot(fu - (bu / magnify + u0), fv - (bv / magnify + v0)) < tolPx;
      });
      if (again) continue;
      const confirmed = confirmCells(bigFrame, m);
      if (!confirmed || 'unread' in confirmed) continue;
      // PointPx convention: a corner-origin coordinate scales exactly by the magnification.
      out.push({ id: m.id, corners: Float64Array.from(confirmed.corners, (x, i) => x / magnify + (i % 2 === 0 ? u0 : v0)), confirmed: true });
    }
    return out;
  };

  /**
   * ArUco's decoder corrects bit errors (up to 60 % of the dictionary's correctable bits), so a marker
   * of another dictionary, or a 4×4 code outside the profile's dictionary, can come out as one of our
   * ids (seen with DICT_4X4_250 on real photos of 6×6 markers). A quad with an anchor or stand id is
   * kept unless its cells read as another pattern: re-measured from its edges (`refineFromPrediction`,
   * which verifies every cell), else read through ArUco's corners with at most `MAX_CELL_MISMATCHES`
   * cells wrong (ArUco's corners sit up to a pixel inside the tag, so a small or foreshortened tag's
   * cells are read a little off); a small tag that fails is read again on a magnified copy of its
   * neighbourhood (`readMagnified`). A quad that fails is marked `unread`: a stand-sized one is dropped (counted in
   * `rejectedByCells`), a base-sized one still leads to the tag inside it. Ids outside the profile pass
   * through (reported as ignored, never used).
   */
  let rejectedByCells = 0;
  const confirmCells = (frame: GrayFrame, m: RawMarker): (RawMarker & { readonly unread?: true }) | null => {
    if (!anchorById.has(m.id) && !standIds.has(m.id)) return m;
    const expectedCells = markerCells(cv, profile.dictionary, profile.markerBits, m.id);
    if (edgeRefine) {
      const r = refineFromPrediction(frame, m.corners, { cellsPerSide, expectedCells });
      if (r) return { id: m.id, corners: r };
    }
    const wrong = cellMismatches(frame, m.corners, { cellsPerSide, expectedCells });
    if (wrong <= MAX_CELL_MISMATCHES) return m;
    // A small tag (cells of 1–2 px: its quiet zone under the blur of its border) is read again on a
    // magnified copy of its neighbourhood, edges re-measured there.
    const magnified = readMagnified(frame, m.corners, expectedCells);
    if (magnified) return { id: m.id, corners: magnified };
    return { id: m.id, corners: m.corners, unread: true };
  };

  /** Tags below this side (px) are read again magnified when their cells do not read as their id. */
  const READ_MAGNIFIED_BELOW_PX = 20;
  const READ_MAGNIFICATION = 3;
  /**
   * Re-measure and verify a small tag on a `READ_MAGNIFICATION`× bicubic copy of the window around it
   * (twice its side): corners in frame px, or null when it does not read as `expectedCells` there either.
   */
  const readMagnified = (frame: GrayFrame, corners: Float64Array, expectedCells: Uint8Array): Float64Array | null => {
    const us = [corners[0]!, corners[2]!, corners[4]!, corners[6]!];
    const vs = [corners[1]!, corners[3]!, corners[5]!, corners[7]!];
    const side = Math.max(Math.max(...us) - Math.min(...us), Math.max(...vs) - Math.min(...vs));
    if (!(side < READ_MAGNIFIED_BELOW_PX)) return null;
    const u0 = Math.max(0, Math.floor(Math.min(...us) - side));
    const v0 = Math.max(0, Math.floor(Math.min(...vs) - side));
    const u1 = Math.min(frame.widthPx, Math.ceil(Math.max(...us) + side));
    const v1 = Math.min(frame.heightPx, Math.ceil(Math.max(...vs) + side));
    const w = u1 - u0;
    const h = v1 - v0;
    if (w < 4 || h < 4) return null;
    const k = READ_MAGNIFICATION;
    const patch = withMats((track) => {
      const src = track(new cv.Mat(h, w, cv.CV_8UC1));
      const data = src.data as Uint8Array;
      for (let r = 0; r < h; r++) data.set(frame.data.subarray((v0 + r) * frame.widthPx + u0, (v0 + r) * frame.widthPx + u1), r * w);
      const big = track(new cv.Mat());
      cv.resize(src, big, new cv.Size(w * k, h * k), 0, 0, cv.INTER_CUBIC);
      return { widthPx: w * k, heightPx: h * k, data: Uint8Array.from(big.data as Uint8Array), seq: frame.seq, captureTimeMs: frame.captureTimeMs };
    });
    const local = Float64Array.from(corners, (x, i) => (x - (i % 2 === 0 ? u0 : v0)) * k);
    const r = refineFromPrediction(patch, local, { cellsPerSide, expectedCells });
    if (!r) return null;
    return Float64Array.from(r, (x, i) => x / k + (i % 2 === 0 ? u0 : v0));
  };

  const detectTracked = (frame: GrayFrame, predictions: readonly TagPrediction[]): (RawMarker & { readonly unread?: true })[] => {
    ensureParams(frame);
    const tagSidePx = expectedTagSidePx(profile, frame.widthPx, frame.heightPx);
    let windows: WindowPx[] = [];
    const addWindow = (us: number[], vs: number[], marginPx: number | undefined): void => {
      const side = Math.max(Math.max(...us) - Math.min(...us), Math.max(...vs) - Math.min(...vs), tagSidePx * 0.5);
      const m = (marginPx ?? side * marginSides) + 4;
      windows.push({ u0: Math.min(...us) - m, v0: Math.min(...vs) - m, u1: Math.max(...us) + m, v1: Math.max(...vs) + m });
    };
    const refined: RawMarker[] = [];
    const tryTag = (id: number, corners: Float64Array, marginPx?: number | null): void => {
      if (edgeRefine) {
        const r = refineFromPrediction(frame, corners, { cellsPerSide, expectedCells: markerCells(cv, profile.dictionary, profile.markerBits, id) });
        if (r) {
          refined.push({ id, corners: r });
          return;
        }
      }
      if (marginPx === null) return;
      addWindow([corners[0]!, corners[2]!, corners[4]!, corners[6]!], [corners[1]!, corners[3]!, corners[5]!, corners[7]!], marginPx);
    };
    for (const p of predictions) {
      if (!Number.isInteger(p.id) || p.id < 0 || p.id >= profile.dictionaryIds) {
        throw new Error(`prediction for id ${p.id}: not an id of ${profile.dictionary} (0..${profile.dictionaryIds - 1})`);
      }
      tryTag(p.id, Float64Array.from(p.cornersPx.flatMap((c) => [c.uPx, c.vPx])), p.windowMarginPx);
    }
    for (const [id, c] of lastAnchorCorners) tryTag(id, c);
    const scanner = options.backgroundScanner;
    if (scanner) {
      scanner.offer(frame);
      const scan = scanner.take();
      if (scan) {
        scanMarkers = scan.markers;
        wrongSizeSinceScan.clear();
      }
      const predicted = new Set(predictions.map((p) => p.id));
      for (const m of scanMarkers) {
        // A scan's quad already found to be of the wrong size (a base) is not searched again until the next scan.
        if (standIds.has(m.id) && !predicted.has(m.id) && !wrongSizeSinceScan.has(m.id)) tryTag(m.id, m.corners);
      }
    }
    // Overlapping windows (neighbours under one hand, a stale tag's growing search) are searched once.
    windows = mergeOverlappingWindows(windows);
    lastTrackedStats = { edgeRefined: refined.length, arucoWindows: windows.length, windowAreaPx: windows.reduce((a, w) => a + (w.u1 - w.u0) * (w.v1 - w.v0), 0) };
    if (windows.length === 0) return refined;
    const mosaic = buildMosaic(frame, windows);
    useParamsFor(Math.max(mosaic.widthPx, mosaic.heightPx));
    const found = withMats((track) => {
      const mat = track(new cv.Mat(mosaic.heightPx, mosaic.widthPx, cv.CV_8UC1));
      (mat.data as Uint8Array).set(mosaic.data);
      return aruco.detect(mat);
    });
    const mapped: (RawMarker & { readonly unread?: true })[] = [];
    for (const m of found) {
      const back = mosaic.toFrame(m.corners);
      const confirmed = back ? confirmCells(frame, { id: m.id, corners: back }) : null;
      if (confirmed) mapped.push(confirmed);
    }
    return dedupeSamePlace([...refined, ...mapped], Math.max(2, tagSidePx * 0.2));
  };

  /** Stand tags by their cell pattern (row-major from the top-left corner, with the border). */
  let standByCells: Map<string, number> | null = null;
  /**
   * For each wrong-size quad about the size of a base (1.4–3× the tag), the tag it surrounds: the quad
   * shrunk to the tag's size about its centre, re-measured from the tag's own edges, its cells read and
   * looked up among the stand ids in all four turns (an exact match of every cell, border included). A
   * tag found this way whose id is already among the frame's tags is left out.
   */
  const recoverTagsInsideBases = <M extends { id: number; corners: Float64Array; ideal: Float64Array }>(
    frame: GrayFrame,
    all: readonly M[],
    stands: readonly M[],
    wrongSize: readonly (M & { readonly sizeRatio: number })[],
  ): (M & { readonly from: M })[] => {
    standByCells ??= new Map([...standIds].map((id) => [markerCells(cv, profile.dictionary, profile.markerBits, id).join(''), id]));
    const seen = new Set([...stands.map((m) => m.id), ...all.filter((m) => anchorById.has(m.id)).map((m) => m.id)]);
    const out: (M & { readonly from: M })[] = [];
    for (const q of wrongSize) {
      if (q.sizeRatio < 1.4 || q.sizeRatio > 3) continue;
      const c = q.corners;
      const cu = (c[0]! + c[2]! + c[4]! + c[6]!) / 4;
      const cvv = (c[1]! + c[3]! + c[5]! + c[7]!) / 4;
      const k = 1 / q.sizeRatio;
      const inner = Float64Array.from(c, (x, i) => (i % 2 === 0 ? cu + (x - cu) * k : cvv + (x - cvv) * k));
      const edges = refineEdges(frame, inner, { cellsPerSide });
      if (!edges) continue;
      for (let turn = 0; turn < 4; turn++) {
        const corners = Float64Array.from({ length: 8 }, (_, i) => edges[(i + 2 * turn) % 8]!);
        const cells = readCells(frame, corners, cellsPerSide);
        const id = cells ? standByCells.get(cells.join('')) : undefined;
        if (id === undefined) continue;
        const ideal = lens ? undistortFlatPx(corners, lens) : corners;
        const sizeOk = homography !== null && Math.abs(quadSideIn(homography, ideal) / profile.markerSizeIn - 1) <= maxSizeError;
        if (sizeOk && !seen.has(id) && !out.some((o) => o.id === id)) out.push({ ...q, id, corners, ideal, from: q });
        break;
      }
    }
    return out;
  };

  const detect = (frame: GrayFrame, predictions?: readonly TagPrediction[]): FrameDetection => {
    if (disposed) throw new Error('frame detector used after dispose()');
    const t0 = performance.now();
    const warnings: string[] = [];
    if (lens && (frame.widthPx !== lens.imageWidthPx || frame.heightPx !== lens.imageHeightPx)) {
      throw new Error(
        `frame is ${frame.widthPx}×${frame.heightPx} px but the lens calibration is for ${lens.imageWidthPx}×${lens.imageHeightPx} ` +
          '(a calibration holds for one resolution: calibrate at this one, or set the camera to that one)',
      );
    }
    if (predictions === undefined) lastTrackedStats = null;
    rejectedByCells = 0;
    const detected: (RawMarker & { readonly unread?: true })[] = predictions === undefined ? detectFull(frame) : detectTracked(frame, predictions);
    // Geometry runs on undistorted corners (`ideal`); `corners` stay as detected (reported, tracked).
    const raw: (RawMarker & { readonly ideal: Float64Array; readonly unread?: true })[] = detected.map((m) => ({
      id: m.id,
      corners: m.corners,
      ideal: lens ? undistortFlatPx(m.corners, lens) : m.corners,
      ...(m.unread ? { unread: true as const } : {}),
    }));

    // Anchors first: the homography decides which stand quads are tag-sized. A quad with an anchor's id
    // that does not fit the anchors' surveyed layout (a ChArUco board in the same dictionary lying on
    // the table) is left out (`chooseAnchors.ts`).
    const anchorChoice = chooseAnchors(
      raw.filter((m) => anchorById.has(m.id)),
      (id) => ({ cornersIn: anchorTableCorners(anchorById.get(id)!), sizeIn: anchorById.get(id)!.sizeIn }),
      { minAnchors, maxSizeError },
    );
    const anchors = [...anchorChoice.anchors].sort((a, b) => a.id - b.id);
    const anchorIds = anchors.map((m) => m.id);
    if (anchorChoice.foreign.length > 0) {
      const ids = [...new Set(anchorChoice.foreign.map((m) => m.id))].sort((a, b) => a - b);
      warnings.push(`ignored ${anchorChoice.foreign.length} quad(s) with anchor id(s) ${ids.join(', ')} that do not fit the anchors' surveyed layout (something else printed with those ids, e.g. a ChArUco board on the table)`);
    }
    let residualIn: number | null = null;
    if (anchors.length >= minAnchors) {
      const table: [number, number][] = [];
      for (const m of anchors) {
        table.push(...anchorTableCorners(anchorById.get(m.id)!));
        lastAnchorCorners.set(m.id, m.corners);
      }
      try {
        if (!anchorChoice.homography) throw new Error(anchorChoice.error ?? 'no fit');
        homography = anchorChoice.homography;
        residualIn = anchorChoice.residualIn;
        if (baseThicknessIn > 0) {
          // Raw corners: solvePnP applies the lens distortion itself. It costs ~1.3 ms, so the pose is
          // re-solved only when an anchor corner moved by more than half a pixel (the correction is
          // h/C_z of the distance to the camera foot; such a pose change moves it far less than the
          // detection noise).
          const ids = anchorIds.join(',');
          const px = Float64Array.from(anchors.flatMap((m) => Array.from(m.corners)));
          const moved = !poseFrom || poseFrom.ids !== ids || px.some((v, i) => Math.abs(v - poseFrom!.px[i]!) > 0.5);
          try {
            if (moved) {
              const rawPx: PointPx[] = anchors.flatMap((m) => toPointsPx(m.corners));
              const tableIn = table.map(([xIn, yIn]) => ({ xIn, yIn }));
              cameraPose = solveCameraPose(cv, rawPx, tableIn, lens ?? approximateLensModel(frame.widthPx, frame.heightPx, options.hfovDeg ?? 65));
              poseFrom = { ids, px };
            }
          } catch (err) {
            warnings.push(`no camera pose from the anchors (${(err as Error).message}); ${cameraPose ? 'kept the last one' : 'base thickness not corrected'}`);
          }
        }
        if (anchors.length < profile.anchors.length) {
          // Each anchor's corners lie close together, so with one missing the perspective terms are
          // weakly constrained: measured up to 0.15 in error far from the remaining anchors at 1080p.
          const missing = profile.anchors.map((a) => a.id).filter((id) => !anchorIds.includes(id));
          warnings.push(`anchor(s) ${missing.join(', ')} not seen: homography from ${anchors.length} anchors, positions less accurate`);
        }
      } catch (err) {
        warnings.push(`anchors ${anchorIds.join(', ')} gave no homography (${(err as Error).message}); kept the last one`);
      }
    } else {
      for (const m of anchors) lastAnchorCorners.set(m.id, m.corners);
      warnings.push(
        `${anchors.length} of ${profile.anchors.length} anchors seen (need ${minAnchors}); ` +
          (homography ? 'kept the last homography' : 'no homography yet, stand positions unknown'),
      );
    }

    if (rejectedByCells > 0) {
      warnings.push(`ignored ${rejectedByCells} quad(s) whose cells do not read exactly as the id decoded (another dictionary's marker, or a tag too small or blurred to read)`);
    }
    const unexpected = [...new Set(raw.filter((m) => !anchorById.has(m.id) && !standIds.has(m.id)).map((m) => m.id))].sort((a, b) => a - b);
    if (unexpected.length > 0) warnings.push(`ignored ids not in the table profile: ${unexpected.join(', ')}`);

    // Stand tags of the right size; an id seen twice is reported and left out (which one is real?).
    const stands: (typeof raw)[number][] = [];
    const wrongSize: ((typeof raw)[number] & { readonly sizeRatio: number })[] = [];
    const predictedIds = new Set(predictions?.map((p) => p.id) ?? []);
    /** Ids of stand-sized quads inside a chessboard (a ChArUco board on the table, `chessboardSurround.ts`). */
    const onChessboard: number[] = [];
    if (homography) {
      for (const m of raw) {
        if (!standIds.has(m.id)) continue;
        // A dark stand base around a white sticker can decode as a (wrong) tag twice the real size:
        // the printed size is known, so a quad of the wrong size is not a tag.
        const sideIn = quadSideIn(homography, m.ideal);
        if (Math.abs(sideIn / profile.markerSizeIn - 1) > maxSizeError) wrongSize.push({ ...m, sizeRatio: sideIn / profile.markerSizeIn });
        else if (m.unread) rejectedByCells++;
        // A predicted tag was accepted when first seen: the chessboard probe runs once per new tag, not every frame.
        else if (!predictedIds.has(m.id) && isChessboardMarker(frame, m.corners, cellsPerSide)) onChessboard.push(m.id);
        else stands.push(m);
      }
    }
    if (onChessboard.length > 0) {
      warnings.push(`ignored ${onChessboard.length} tag(s) on a chessboard (a ChArUco board on the table: ids ${[...new Set(onChessboard)].sort((a, b) => a - b).join(', ')})`);
    }
    for (const q of wrongSize) wrongSizeSinceScan.add(q.id);
    if (wrongSize.length > 0) {
      // A dark base around a white sticker: ArUco keeps the base's quad (twice the tag, decoded as some
      // other id) and drops the real tag inside it as too close. Read the tag inside such a quad.
      const recovered = recoverTagsInsideBases(frame, raw, stands, wrongSize);
      if (recovered.length > 0) {
        const rescued = new Set(recovered.map((m) => m.id));
        warnings.push(`read tag(s) ${[...rescued].join(', ')} inside a quad of the wrong size (a dark base around the tag)`);
        stands.push(...recovered);
      }
      const ignored = wrongSize.filter((q) => !recovered.some((r) => r.from === q)).map((q) => q.id);
      if (ignored.length > 0) warnings.push(`ignored quads of the wrong size for a stand tag (ids ${ignored.join(', ')})`);
    }
    const counts = new Map<number, number>();
    for (const m of stands) counts.set(m.id, (counts.get(m.id) ?? 0) + 1);
    const duplicateIds = [...counts].filter(([, n]) => n > 1).map(([id]) => id).sort((a, b) => a - b);
    if (duplicateIds.length > 0) warnings.push(`ids seen more than once (left out): ${duplicateIds.join(', ')}`);

    const markers: MarkerObservation[] = [];
    if (homography) {
      for (const m of stands) {
        if (counts.get(m.id) !== 1) continue;
        const pose = markerPose(homography, m.ideal);
        // A tag on a base is above the cloth: move it along its camera ray down to the base top (heading
        // unchanged: the shift is a uniform scaling about the point under the camera).
        const at = cameraPose && baseThicknessIn > 0 ? correctParallaxIn({ xIn: pose.xIn, yIn: pose.yIn }, cameraPose, baseThicknessIn) : pose;
        markers.push({ id: m.id, xIn: at.xIn, yIn: at.yIn, headingDeg: pose.headingDeg, cornersPx: toPointsPx(m.corners) });
      }
      markers.sort((a, b) => a.id - b.id);
    }
    let tagSize: TagSizeSeen | undefined;
    if (homography) {
      if (adviceFor !== homography) {
        advice = tagSizeAdvice(profile, profile.markerSizeIn, { imageToTable: homography });
        adviceFor = homography;
      }
      const sides = markers.map((m) => {
        const c = m.cornersPx;
        return [0, 1, 2, 3].reduce((a, k) => a + Math.hypot(c[(k + 1) % 4]!.uPx - c[k]!.uPx, c[(k + 1) % 4]!.vPx - c[k]!.vPx), 0) / 4;
      });
      sides.sort((a, b) => a - b);
      tagSize = {
        minSidePx: advice!.minSidePx,
        maxSidePx: advice!.maxSidePx,
        seenMedianSidePx: sides.length > 0 ? sides[Math.floor(sides.length / 2)]! : null,
        reliable: advice!.reliable,
        advisedSizeIn: advice!.reliable ? null : advice!.advisedSizeIn,
      };
      const tooSmall = tagSizeWarning(advice!, profile.markerSizeIn);
      if (tooSmall) warnings.push(tooSmall);
    }
    return {
      seq: frame.seq,
      captureTimeMs: frame.captureTimeMs,
      anchorIds,
      homography: homography ? [...homography] : null,
      homographyResidualIn: residualIn,
      markers,
      duplicateIds,
      warnings,
      processingMs: performance.now() - t0,
      ...(tagSize ? { tagSize } : {}),
    };
  };

  return {
    profile,
    detect,
    detectRaw(frame) {
      if (disposed) throw new Error('frame detector used after dispose()');
      return detectFull(frame);
    },
    get lastTrackedStats() {
      return lastTrackedStats;
    },
    get lastMagnifiedWindow() {
      return lastMagnifiedWindow;
    },
    get homography() {
      return homography;
    },
    get cameraPose() {
      return cameraPose;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      aruco.dispose();
    },
  };
}
