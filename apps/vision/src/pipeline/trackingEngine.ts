/**
 * The one tracking engine behind `muster track`, `muster start --camera` and the demo: how each frame
 * is searched, given where the tracker expects each tag.
 *
 * - **Live tracks**: their predicted corners (moved by the track's velocity) are re-measured from the
 *   tag's edges; only where that fails is a small window searched with ArUco (`frameDetector.ts`).
 * - **Stale tracks** (a hand over the stand, or the stand lifted): first re-measured where last seen
 *   (cheap, and a stand a hand uncovers is back at once), then searched in a window around the last
 *   sighting that grows with the time since (`growInPerS`, up to `maxRadiusIn`), so a stand put down a
 *   few inches away is found where it lands. The windows of all stale tags together get at most
 *   `maxAreaFraction` of the frame per frame (taken in turns when they do not fit), and overlapping
 *   windows are searched once: a hand over ten stands costs window work, never a full frame.
 * - **New stands** come from full-frame scans on a worker thread (`backgroundScanner.ts`), paced by
 *   `scanBackoff.ts` (one every `scanEveryMs` while frames are on time, fewer while they are late), so
 *   the frame loop itself never searches the whole frame, except for the first frame(s) until there is
 *   a homography or a scan (so a single picture is still detected).
 *
 * @example
 * const engine = await createTrackingEngine(profile, { fps: 30 });
 * const tracker = createTracker();
 * for await (const frame of source) {
 *   const detection = engine.detect(frame, tracker.predictions(frame.captureTimeMs));
 *   tracker.update(detection);
 *   engine.frameDone({ latencyMs: detection.processingMs, droppedBefore: 0 });
 * }
 * await engine.dispose();
 */
import { createBackgroundScanner, type BackgroundScanner } from '../detect/backgroundScanner.ts';
import { createFrameDetector, type FrameDetector, type TagPrediction as DetectorPrediction } from '../detect/frameDetector.ts';
import type { LensModel } from '../calibrate/lensModel.ts';
import type { TableProfile } from '../profile/tableProfile.ts';
import type { TagPrediction } from '../track/tracker.ts';
import { createResilientScanner, type ResilientScanner } from './resilientScanner.ts';
import { createScanBackoff, type ScanBackoff } from './scanBackoff.ts';
import type { FrameDetection, GrayFrame } from './types.ts';

export interface StaleSearchOptions {
  /** How fast a hidden tag's search radius grows with the time since it was last seen, inches per second. Default 10 (a stand carried by hand). */
  readonly growInPerS: number;
  /** Largest search radius around the last sighting, inches. Default 8. */
  readonly maxRadiusIn: number;
  /** Most frame area searched around stale tags in one frame, as a fraction of the frame. Default 0.06. */
  readonly maxAreaFraction: number;
}

export const DEFAULT_STALE_SEARCH: StaleSearchOptions = { growInPerS: 10, maxRadiusIn: 8, maxAreaFraction: 0.06 };

export interface TrackingEngineOptions {
  /** Undistort corners with this lens before mapping them to the table. */
  readonly lens?: LensModel | null;
  /** Frame rate of the source when known: a frame is late after half its interval (at least 60 ms). */
  readonly fps?: number;
  /** Background full-frame scans on a worker thread (default), or none (tests: no new stands then). */
  readonly scanner?: 'worker' | 'none';
  /** Makes the scanner's worker (default `createBackgroundScanner(profile)`); replaced when it dies. */
  readonly createScanner?: (profile: TableProfile) => BackgroundScanner;
  /** Shortest interval between background scans while frames are on time, ms. Default 400. */
  readonly scanEveryMs?: number;
  /** Full-frame search in the frame loop while there is neither a homography nor a scan. Default true. */
  readonly fullFirst?: boolean;
  readonly staleSearch?: Partial<StaleSearchOptions>;
  /** Said when the scanner's worker failed and was restarted. */
  readonly onWarning?: (message: string) => void;
}

/** How the last frame was searched. */
export interface EnginePlan {
  readonly mode: 'full' | 'tracked';
  /** Stale tags given a search window / re-measured only (their window did not fit the budget). */
  readonly staleWindows: number;
  readonly staleRefineOnly: number;
  /** Tags re-measured from their edges, ArUco windows after merging, and their total area (px). */
  readonly edgeRefined: number;
  readonly arucoWindows: number;
  readonly windowAreaPx: number;
}

export interface TrackingEngine {
  /** One frame: searched around `predictions` (the tracker's, for the frame's capture time). */
  detect(frame: GrayFrame, predictions: readonly TagPrediction[]): FrameDetection;
  /** Feed every processed frame's outcome: late frames space the background scans out. */
  frameDone(outcome: { readonly latencyMs: number; readonly droppedBefore: number }): void;
  readonly lastPlan: EnginePlan | null;
  /** The background scanner, when there is one. */
  readonly scanner: ResilientScanner | null;
  readonly detector: FrameDetector;
  /** Disposes the detector, then (awaited) the scanner's worker. */
  dispose(): Promise<void>;
}

function resolveStaleSearch(given: Partial<StaleSearchOptions> | undefined): StaleSearchOptions {
  const s = { ...DEFAULT_STALE_SEARCH, ...given };
  const check = (ok: boolean, field: string, want: string, got: unknown): void => {
    if (!ok) throw new Error(`tracking engine: staleSearch.${field} must be ${want} (got ${JSON.stringify(got)})`);
  };
  check(Number.isFinite(s.growInPerS) && s.growInPerS >= 0, 'growInPerS', 'a number of inches per second ≥ 0', s.growInPerS);
  check(Number.isFinite(s.maxRadiusIn) && s.maxRadiusIn >= 0, 'maxRadiusIn', 'a number of inches ≥ 0', s.maxRadiusIn);
  check(Number.isFinite(s.maxAreaFraction) && s.maxAreaFraction > 0 && s.maxAreaFraction <= 1, 'maxAreaFraction', 'a fraction in (0, 1]', s.maxAreaFraction);
  return s;
}

/** Mean side of a predicted tag's corners, px. */
function sidePx(c: TagPrediction['cornersPx']): number {
  let sum = 0;
  for (let k = 0; k < 4; k++) sum += Math.hypot(c[(k + 1) % 4]!.uPx - c[k]!.uPx, c[(k + 1) % 4]!.vPx - c[k]!.vPx);
  return sum / 4;
}

/** Nothing is left running when this throws. */
export async function createTrackingEngine(profile: TableProfile, options: TrackingEngineOptions = {}): Promise<TrackingEngine> {
  const stale = resolveStaleSearch(options.staleSearch);
  const fullFirst = options.fullFirst ?? true;
  const anchorIds = new Set(profile.anchors.map((a) => a.id));
  // Late: over half the frame interval when the rate is known, else over 60 ms.
  const backoff: ScanBackoff = createScanBackoff({
    baseIntervalMs: options.scanEveryMs ?? 400,
    lateAfterMs: Math.max(60, options.fps !== undefined ? 500 / options.fps : 0),
  });
  let scanner: ResilientScanner | null = null;
  let detector: FrameDetector;
  try {
    if ((options.scanner ?? 'worker') === 'worker') {
      scanner = await createResilientScanner(profile, options.onWarning ?? (() => {}), options.createScanner ?? ((p) => createBackgroundScanner(p)), backoff);
    }
    detector = await createFrameDetector(profile, { ...(scanner ? { backgroundScanner: scanner } : {}), ...(options.lens ? { lens: options.lens } : {}) });
  } catch (err) {
    await scanner?.dispose();
    throw err;
  }
  let last: FrameDetection | null = null;
  let lastPlan: EnginePlan | null = null;
  let turn = 0;

  const detect = (frame: GrayFrame, predictions: readonly TagPrediction[]): FrameDetection => {
    const scanned = scanner?.lastScan() ?? [];
    if (fullFirst && !last?.homography && scanned.length === 0) {
      last = detector.detect(frame);
      lastPlan = { mode: 'full', staleWindows: 0, staleRefineOnly: 0, edgeRefined: 0, arucoWindows: 0, windowAreaPx: 0 };
      return last;
    }
    const plan: DetectorPrediction[] = [];
    const staleOnes: { p: TagPrediction; radiusPx: number; areaPx: number }[] = [];
    for (const p of predictions) {
      if (!p.stale) {
        plan.push({ id: p.id, cornersPx: p.cornersPx });
        continue;
      }
      const side = sidePx(p.cornersPx);
      const pxPerIn = side / profile.markerSizeIn;
      const goneS = p.lastSeenMs === undefined ? 0 : Math.max(0, frame.captureTimeMs - p.lastSeenMs) / 1000;
      const radiusPx = 0.8 * side + Math.min(stale.maxRadiusIn, stale.growInPerS * goneS) * pxPerIn;
      staleOnes.push({ p, radiusPx, areaPx: (2 * radiusPx + side) ** 2 });
    }
    // Stale windows in turns under the area budget; the others are only re-measured where last seen.
    const budgetPx = stale.maxAreaFraction * frame.widthPx * frame.heightPx;
    let usedPx = 0;
    let staleWindows = 0;
    const start = staleOnes.length > 0 ? turn++ % staleOnes.length : 0;
    for (let k = 0; k < staleOnes.length; k++) {
      const s = staleOnes[(start + k) % staleOnes.length]!;
      const fits = usedPx + s.areaPx <= budgetPx || staleWindows === 0;
      if (fits) {
        usedPx += s.areaPx;
        staleWindows++;
      }
      plan.push({ id: s.p.id, cornersPx: s.p.cornersPx, windowMarginPx: fits ? s.radiusPx : null });
    }
    // Tracked mode finds anchors only where they were last seen: an anchor the last frame lacked is
    // taken from the newest scan (how the anchors are found at start).
    const have = new Set(last?.anchorIds ?? []);
    const predicted = new Set(plan.map((p) => p.id));
    for (const m of scanned) {
      if (anchorIds.has(m.id) && !have.has(m.id) && !predicted.has(m.id)) {
        const c = m.corners;
        plan.push({ id: m.id, cornersPx: [0, 2, 4, 6].map((i) => ({ uPx: c[i]!, vPx: c[i + 1]! })) as unknown as DetectorPrediction['cornersPx'] });
      }
    }
    last = detector.detect(frame, plan);
    const st = detector.lastTrackedStats;
    lastPlan = {
      mode: 'tracked',
      staleWindows,
      staleRefineOnly: staleOnes.length - staleWindows,
      edgeRefined: st?.edgeRefined ?? 0,
      arucoWindows: st?.arucoWindows ?? 0,
      windowAreaPx: st?.windowAreaPx ?? 0,
    };
    return last;
  };

  const scan = scanner;
  return {
    detect,
    frameDone: (outcome) => backoff.frameDone(outcome),
    get lastPlan() {
      return lastPlan;
    },
    scanner: scan,
    detector,
    async dispose() {
      detector.dispose();
      await scan?.dispose();
    },
  };
}
