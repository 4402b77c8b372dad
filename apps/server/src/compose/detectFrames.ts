/**
 * The frame loop between a frame source and the pipeline: each frame is detected (on the detection
 * thread, around the pipeline's predictions for its capture time), published, and its outcome fed to the
 * scan back-off. The main thread only routes: a frame and its predictions out, a detection back in.
 */
import { createNewestFrameLoop, type GrayFrame } from '@muster/vision';
import type { LivePipeline } from '../live/livePipeline.ts';
import type { TrackedDetector } from './openTrackedDetector.ts';
import { log } from '../log/logger.ts';

export interface FrameDetectionLoop {
  /** A recording's frame: resolves when it is published (its source waits for that). */
  offer(frame: GrayFrame): void | Promise<void>;
  /** Drops what waits, if anything; a frame still on the detection thread is not published. */
  close(): void;
}

/** Said for a frame whose detection or publication failed; the loop goes on. */
export function reportFrameError(err: unknown): void {
  log.error('frame failed:', err);
}

async function detectAndPublish(pipeline: LivePipeline, detector: TrackedDetector, frame: GrayFrame, isClosed: () => boolean): Promise<void> {
  // Tracked mode only (around predicted tags and the background scan's newest finds), even with no
  // predictions yet: then the anchors are searched and stands arrive from the first scan.
  try {
    const detection = await detector.detect(frame, pipeline.predictions(frame.captureTimeMs));
    if (!isClosed()) pipeline.process(detection);
  } catch (err) {
    // Stopping disposes the detector under a frame in flight: that is not a failure worth saying.
    if (!isClosed()) throw err;
  }
}

/**
 * A live source: newest frame wins. While a frame is on the detection thread, newer frames replace one
 * another; the newest goes next. One a newer frame replaced is dropped, never detected late.
 */
export function newestFrameDetection(pipeline: LivePipeline, detector: TrackedDetector): FrameDetectionLoop {
  let closed = false;
  const loop = createNewestFrameLoop<GrayFrame>({
    process: (frame) => detectAndPublish(pipeline, detector, frame, () => closed),
    onOutcome: (outcome) => detector.frameDone(outcome),
    onError: reportFrameError,
  });
  return {
    offer: (frame) => loop.offer(frame),
    close() {
      closed = true;
      loop.close();
    },
  };
}

/** A recording: every frame, in order; `offer` resolves when the frame is published (the source waits). */
export function everyFrameDetection(pipeline: LivePipeline, detector: TrackedDetector): FrameDetectionLoop {
  let closed = false;
  return {
    async offer(frame) {
      if (closed) return;
      const startMs = Date.now();
      try {
        await detectAndPublish(pipeline, detector, frame, () => closed);
      } catch (err) {
        reportFrameError(err);
      }
      detector.frameDone({ latencyMs: Date.now() - startMs, droppedBefore: 0 });
    },
    close() {
      closed = true;
    },
  };
}

/** A live camera: newest frame wins; a recording: every frame, in order. */
export function detectFrameLoop(liveSource: boolean, pipeline: LivePipeline, detector: TrackedDetector): FrameDetectionLoop {
  return liveSource ? newestFrameDetection(pipeline, detector) : everyFrameDetection(pipeline, detector);
}
