/**
 * The live pipeline over a frame source: detect (with the tracker's predictions as ROI hints), then
 * track. Used by `muster track` on recordings; the service composes the same three parts.
 */
import type { FrameDetection, GrayFrame } from '../pipeline/types.ts';
import type { TagPrediction, Tracker, TrackSnapshot } from './tracker.ts';

/**
 * What the tracker needs from a detector (V1's `createFrameDetector` fits): with `predictions` the detector
 * may search only around them; without (`undefined`) it searches the whole frame.
 */
export interface FrameDetectorLike {
  detect(frame: GrayFrame, predictions?: readonly TagPrediction[]): FrameDetection | Promise<FrameDetection>;
}

export interface TrackFramesOptions {
  /**
   * Search the whole frame every this many frames (new stands only appear in a full search); the frames
   * between search only around the tracker's predictions. 1 = always full frame. Default 10.
   */
  readonly fullScanEveryFrames?: number;
}

export interface TrackedFrame {
  readonly frame: GrayFrame;
  readonly detection: FrameDetection;
  readonly snapshot: TrackSnapshot;
  /** Wall time spent on this frame (detect + track), ms. */
  readonly processingMs: number;
  /** True when this frame was searched whole, false when only around predictions. */
  readonly fullScan: boolean;
}

/**
 * The ROI policy in one place, for push-style loops too (the service): returns the predictions to hand
 * the detector for frame number `frameIndex` (counted from 0), or `undefined` for a whole-frame search:
 * on every `fullScanEveryFrames`-th frame, when nothing is predicted (a detector that only looks around
 * predictions would never find the first tag), and while any prediction is stale.
 *
 * @example
 * detector.detect(frame, predictionsForFrame(tracker.predictions(frame.captureTimeMs), n++, 10));
 */
export function predictionsForFrame(
  predictions: readonly TagPrediction[],
  frameIndex: number,
  fullScanEveryFrames = 10,
): readonly TagPrediction[] | undefined {
  if (!(Number.isInteger(fullScanEveryFrames) && fullScanEveryFrames >= 1)) {
    throw new Error(`fullScanEveryFrames must be an integer ≥ 1 (got ${fullScanEveryFrames})`);
  }
  const full = frameIndex % fullScanEveryFrames === 0 || predictions.length === 0 || predictions.some((p) => p.stale);
  return full ? undefined : predictions;
}

/**
 * Detect + track over a source. A frame is searched whole when it is a scan frame, when nothing is
 * tracked yet, or when a track is held stale (its stand may have been put down somewhere else: find it
 * there at once rather than at the next scan).
 */
export async function* trackFrames(
  source: AsyncIterable<GrayFrame>,
  detector: FrameDetectorLike,
  tracker: Tracker,
  options: TrackFramesOptions = {},
): AsyncGenerator<TrackedFrame> {
  const every = options.fullScanEveryFrames ?? 10;
  predictionsForFrame([], 0, every); // validates `every` before the first frame
  let n = 0;
  for await (const frame of source) {
    const start = performance.now();
    const predictions = predictionsForFrame(tracker.predictions(frame.captureTimeMs), n++, every);
    const fullScan = predictions === undefined;
    const detection = await detector.detect(frame, predictions);
    const snapshot = tracker.update(detection);
    yield { frame, detection, snapshot, processingMs: performance.now() - start, fullScan };
  }
}

/** One `muster track --json` line. Field names are a published contract: add, never rename. */
export interface TrackJsonLine {
  readonly frame: number;
  readonly ms: number;
  readonly markers: ReadonlyArray<{
    readonly id: number;
    readonly x: number;
    readonly y: number;
    readonly heading: number;
    readonly corners: ReadonlyArray<readonly [number, number]>;
    /** Track id (TUIO session id). */
    readonly track: number;
    /** Held pose of a tag not seen in this frame. */
    readonly stale: boolean;
  }>;
}

const round = (v: number, digits: number): number => Number(v.toFixed(digits));

export function trackJsonLine(t: TrackedFrame): TrackJsonLine {
  return {
    frame: t.frame.seq,
    ms: round(t.processingMs, 2),
    markers: t.snapshot.tracks.map((k) => ({
      id: k.markerId,
      x: round(k.pose.xIn, 3),
      y: round(k.pose.yIn, 3),
      heading: round(k.pose.headingDeg, 2),
      corners: k.cornersPx.map((c) => [round(c.uPx, 2), round(c.vPx, 2)] as const),
      track: k.trackId,
      stale: k.stale,
    })),
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
