/**
 * The detector a frame source feeds, demo frames or a camera: tracked detection in the frame loop (around
 * where the tracker expects each tag), full-frame scans for new stands on a background worker that is
 * replaced when it dies, and a back-off that spaces those scans out while frames come out late.
 */
import {
  createBackgroundScanner,
  createFrameDetector,
  createResilientScanner,
  createScanBackoff,
  createTrackedDetect,
  type FrameDetection,
  type GrayFrame,
  type LensModel,
  type ResilientScanner,
  type TableProfile,
  type TagPrediction,
} from '@muster/vision';

/** Start a background full-frame scan at most this often while frames are on time (see scanBackoff.ts). */
const SCAN_EVERY_MS = 400;

type ScanBackoff = ReturnType<typeof createScanBackoff>;

export interface TrackedDetector {
  /** One frame's detection around these predictions (see `createTrackedDetect`). */
  detect(frame: GrayFrame, predictions: TagPrediction[]): FrameDetection;
  /** Feed every processed frame's outcome: late frames back the scans off. */
  frameDone: ScanBackoff['frameDone'];
  /** Disposes the detector, then (awaited) the scanner. */
  dispose(): Promise<void>;
}

export interface TrackedDetectorOptions {
  /** The source's frame rate, when known: a frame is late after half its interval (at least 60 ms). */
  readonly fps: number | undefined;
  /** Undistort corners with this lens before mapping them to the table. */
  readonly lens?: LensModel | null;
  /** Full-frame search in the frame loop until the first scan or homography (see `createTrackedDetect`). */
  readonly fullFirst?: boolean;
}

/** Nothing is left running when this throws. */
export async function openTrackedDetector(profile: TableProfile, options: TrackedDetectorOptions): Promise<TrackedDetector> {
  // Scans back off while frames come out late (they would only make the next frames later still).
  // Late: over half the frame interval when the rate is known, else over 60 ms.
  const scanBackoff = createScanBackoff({ baseIntervalMs: SCAN_EVERY_MS, lateAfterMs: Math.max(60, options.fps !== undefined ? 500 / options.fps : 0) });
  let scanner: ResilientScanner | null = null;
  let detector;
  try {
    // Full-frame scans (new stands) run on the scanner's worker thread, never in the frame loop.
    // All thresholds: the demo replays identical frames, so a tag one scan misses every scan would miss.
    scanner = await createResilientScanner(profile, (m) => console.error(`muster: ${m}`), (p) => createBackgroundScanner(p, { allThresholds: true }), scanBackoff);
    detector = await createFrameDetector(profile, { backgroundScanner: scanner, ...(options.lens ? { lens: options.lens } : {}) });
  } catch (err) {
    await scanner?.dispose();
    throw err;
  }
  const scan = scanner;
  const det = detector;
  return {
    detect: createTrackedDetect(det, scan, new Set(profile.anchors.map((a) => a.id)), options.fullFirst),
    frameDone: (outcome) => scanBackoff.frameDone(outcome),
    async dispose() {
      det.dispose();
      await scan.dispose();
    },
  };
}
