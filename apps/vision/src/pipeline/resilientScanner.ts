/**
 * The background scanner for the live service, replaced when its worker dies: `BackgroundScanner.offer`
 * throws once the worker has failed, which in the frame loop would fail every frame from then on. Here
 * the failure is reported once, a new worker is started, and frames go on being tracked meanwhile (only
 * new stands wait for the new worker).
 */
import { createBackgroundScanner, type BackgroundScanner, type CompletedScan } from '../detect/backgroundScanner.ts';
import type { TableProfile } from '../profile/tableProfile.ts';
import type { FrameDetection, GrayFrame } from './types.ts';
import type { FrameDetector } from '../detect/frameDetector.ts';
import type { TagPrediction } from '../track/tracker.ts';
import type { RawMarker } from '../detect/arucoDetector.ts';
import { createScanBackoff, type ScanBackoff } from './scanBackoff.ts';

export interface ResilientScanner extends BackgroundScanner {
  /** Markers of the newest scan the detector took (empty before the first). */
  lastScan(): readonly RawMarker[];
}

export async function createResilientScanner(
  profile: TableProfile,
  onWarning: (message: string) => void,
  create: (p: TableProfile) => BackgroundScanner = createBackgroundScanner,
  /**
   * When a scan may start: a fixed minimum interval in ms, or a `ScanBackoff` fed with the frame loop's
   * outcomes (longer intervals, and no scan right after a late frame, while frames come out late).
   * Unthrottled, the scanner keeps one of the machine's two cores busy all the time, and the frame loop
   * and the rules worker then share the other; a scan every 0.4 s still shows a new stand within about
   * half a second. Default 0 (whenever idle).
   */
  pacing: number | ScanBackoff = 0,
  now: () => number = () => performance.now(),
): Promise<ResilientScanner> {
  let current = create(profile);
  // An early load failure would otherwise be an unhandled rejection; offer() reports it instead.
  current.ready.catch(() => {});
  let disposed = false;
  let lastMarkers: readonly RawMarker[] = [];
  const pacer = typeof pacing === 'number' ? createScanBackoff({ baseIntervalMs: pacing, maxIntervalMs: pacing }) : pacing;
  const replace = (err: unknown): void => {
    onWarning(`background scanner failed (${(err as Error).message}); restarted`);
    const old = current;
    void old.dispose().catch(() => {});
    current = create(profile);
    current.ready.catch(() => {});
  };
  return {
    get ready() {
      return current.ready;
    },
    offer(frame: GrayFrame): boolean {
      if (disposed || !pacer.mayScan(now())) return false;
      try {
        const taken = current.offer(frame);
        if (taken) pacer.scanStarted(now());
        return taken;
      } catch (err) {
        replace(err);
        return false;
      }
    },
    take(): CompletedScan | null {
      const scan = current.take();
      if (scan) lastMarkers = scan.markers;
      return scan;
    },
    lastScan: () => lastMarkers,
    next: (): Promise<CompletedScan> => current.next(),
    async dispose() {
      disposed = true;
      await current.dispose();
    },
  };
}

/**
 * One frame's detection for the live loop: tracked mode only, never a full-frame search (that is the
 * scanner's job). Tracked mode finds anchors only where they were seen before, so an anchor the last
 * frame lacked is taken from the newest scan (it sees the whole frame) as a prediction: that is how the
 * anchors are found at start. Exception, `fullFirst`: while there is neither a homography nor a finished
 * scan (the first frame(s), while the scanner's worker loads opencv.js), a full-frame search runs here,
 * so a source that delivers a single frame (a folder with one picture) is still detected.
 */
export function createTrackedDetect(
  detector: FrameDetector,
  scanner: ResilientScanner,
  anchorIds: ReadonlySet<number>,
  fullFirst = false,
): (frame: GrayFrame, predictions: TagPrediction[]) => FrameDetection {
  let last: FrameDetection | null = null;
  return (frame, predictions) => {
    if (fullFirst && !last?.homography && scanner.lastScan().length === 0) {
      last = detector.detect(frame);
      return last;
    }
    const have = new Set(last?.anchorIds ?? []);
    for (const m of scanner.lastScan()) {
      if (anchorIds.has(m.id) && !have.has(m.id)) predictions.push({ id: m.id, cornersPx: cornersOf(m.corners), stale: false });
    }
    last = detector.detect(frame, predictions);
    return last;
  };
}

/** A scan's 8 corner numbers as a prediction's corner points. */
function cornersOf(c: Float64Array): TagPrediction['cornersPx'] {
  const p = (i: number) => ({ uPx: c[i]!, vPx: c[i + 1]! });
  return [p(0), p(2), p(4), p(6)];
}
