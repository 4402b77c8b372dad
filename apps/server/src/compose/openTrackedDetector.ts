/**
 * The detector a frame source feeds, demo frames or a camera: the vision package's tracking engine
 * (`createTrackingEngine`, the same one `muster track` uses) on its own thread
 * (`createThreadedTrackingEngine`): tracked detection in the frame loop
 * (around where the tracker expects each tag, growing searches around hidden ones), full-frame scans
 * for new stands on a background worker that is replaced when it dies, and a back-off that spaces those
 * scans out while frames come out late.
 */
import { createThreadedTrackingEngine, type FrameDetection, type GrayFrame, type LensModel, type TableProfile, type TagPrediction } from '@muster/vision';
import { log } from '../log/logger.ts';

/** Start a background full-frame scan at most this often while frames are on time (see scanBackoff.ts). */
const SCAN_EVERY_MS = 400;

export interface TrackedDetector {
  /** One frame's detection around these predictions, on the detection thread (see `createTrackingEngine`). */
  detect(frame: GrayFrame, predictions: TagPrediction[]): Promise<FrameDetection>;
  /** Feed every processed frame's outcome: late frames back the scans off. */
  frameDone(outcome: { readonly latencyMs: number; readonly droppedBefore: number }): void;
  /** Stops the detection thread (and its scanner's). */
  dispose(): Promise<void>;
}

export interface TrackedDetectorOptions {
  /** The source's frame rate, when known: a frame is late after half its interval (at least 60 ms). */
  readonly fps: number | undefined;
  /** Undistort corners with this lens before mapping them to the table. */
  readonly lens?: LensModel | null;
  /** Full-frame search in the frame loop until the first scan or homography (see `createTrackingEngine`). Default false. */
  readonly fullFirst?: boolean;
}

/** Nothing is left running when this throws. */
export async function openTrackedDetector(profile: TableProfile, options: TrackedDetectorOptions): Promise<TrackedDetector> {
  // Detection runs on a thread of its own, its background scans on another: the main thread routes.
  const engine = await createThreadedTrackingEngine(profile, {
    ...(options.fps !== undefined ? { fps: options.fps } : {}),
    ...(options.lens ? { lens: options.lens } : {}),
    scanEveryMs: SCAN_EVERY_MS,
    fullFirst: options.fullFirst ?? false,
    // All thresholds: the demo replays identical frames, so a tag one scan misses every scan would miss.
    allThresholds: true,
    onWarning: (m) => log.warn(m),
  });
  return {
    detect: (frame, predictions) => engine.detect(frame, predictions),
    frameDone: (outcome) => engine.frameDone(outcome),
    dispose: () => engine.dispose(),
  };
}
