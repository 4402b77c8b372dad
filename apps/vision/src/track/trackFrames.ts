/**
 * The live pipeline over a frame source: detect (with the tracker's predictions as ROI hints), then
 * track. Used by `muster track` on recordings with the same tracking engine as the service
 * (`pipeline/trackingEngine.ts`).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FrameDetection, GrayFrame } from '../pipeline/types.ts';
import type { TagPrediction, Tracker, TrackSnapshot } from './tracker.ts';

/**
 * What the loop needs from a detector: with `predictions` it may search only around them; without
 * (`undefined`) it searches the whole frame. The tracking engine (`createTrackingEngine`) fits, and
 * also takes each frame's outcome (`frameDone`) to pace its background scans.
 */
export interface FrameDetectorLike {
  detect(frame: GrayFrame, predictions?: readonly TagPrediction[]): FrameDetection | Promise<FrameDetection>;
  frameDone?(outcome: { readonly latencyMs: number; readonly droppedBefore: number }): void;
}

export interface TrackFramesOptions {
  /**
   * Comparison mode for benches (the policy before the tracking engine): search the whole frame every
   * this many frames, and whenever nothing is predicted or a track is held stale. Unset (default): every
   * frame is searched around the predictions and the detector finds new stands its own way (the
   * engine's background scans).
   */
  readonly fullScanEveryFrames?: number;
}

export interface TrackedFrame {
  readonly frame: GrayFrame;
  readonly detection: FrameDetection;
  readonly snapshot: TrackSnapshot;
  /** Wall time spent on this frame (detect + track), ms. */
  readonly processingMs: number;
  /** True when this frame was searched whole by the loop (comparison mode only). */
  readonly fullScan: boolean;
}

/**
 * The old ROI policy, kept for comparison in benches: returns the predictions to hand the detector for
 * frame number `frameIndex` (counted from 0), or `undefined` for a whole-frame search: on every
 * `fullScanEveryFrames`-th frame, when nothing is predicted, and while any prediction is stale.
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
 * Detect + track over a source, one frame after another (a recording: nothing is dropped). Between
 * frames the event loop gets a turn, so a background scan's result is taken as soon as it is done.
 */
export async function* trackFrames(
  source: AsyncIterable<GrayFrame>,
  detector: FrameDetectorLike,
  tracker: Tracker,
  options: TrackFramesOptions = {},
): AsyncGenerator<TrackedFrame> {
  const every = options.fullScanEveryFrames;
  if (every !== undefined) predictionsForFrame([], 0, every); // validates `every` before the first frame
  let n = 0;
  for await (const frame of source) {
    const start = performance.now();
    const predicted = tracker.predictions(frame.captureTimeMs);
    const predictions = every === undefined ? predicted : predictionsForFrame(predicted, n, every);
    n++;
    const detection = await detector.detect(frame, predictions);
    const snapshot = tracker.update(detection);
    const processingMs = performance.now() - start;
    detector.frameDone?.({ latencyMs: processingMs, droppedBefore: 0 });
    yield { frame, detection, snapshot, processingMs, fullScan: predictions === undefined };
    await nextTurn();
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
