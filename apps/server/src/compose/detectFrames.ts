/**
 * The frame loop between a frame source and the pipeline: each frame is detected (tracked, around the
 * pipeline's predictions for its capture time), published, and its outcome fed to the scan back-off.
 */
import { createNewestFrameLoop, type GrayFrame } from '@muster/vision';
import type { LivePipeline } from '../live/livePipeline.ts';
import type { TrackedDetector } from './openTrackedDetector.ts';

export interface FrameDetectionLoop {
  offer(frame: GrayFrame): void;
  /** Drops what waits, if anything. */
  close(): void;
}

/** Said for a frame whose detection or publication threw; the loop goes on. */
export function reportFrameError(err: unknown): void {
  console.error('muster: frame failed:', err);
}

function detectAndPublish(pipeline: LivePipeline, detector: TrackedDetector, frame: GrayFrame): void {
  // Tracked mode only (around predicted tags and the background scan's newest finds), even with no
  // predictions yet: then the anchors are searched and stands arrive from the first scan.
  pipeline.process(detector.detect(frame, pipeline.predictions(frame.captureTimeMs)));
}

/**
 * A live source: newest frame wins. A frame is detected on a later turn of the event loop (after pending
 * rules results), and one a newer frame replaced meanwhile is dropped, never detected late.
 */
export function newestFrameDetection(pipeline: LivePipeline, detector: TrackedDetector): FrameDetectionLoop {
  return createNewestFrameLoop<GrayFrame>({
    process: (frame) => detectAndPublish(pipeline, detector, frame),
    onOutcome: (outcome) => detector.frameDone(outcome),
    onError: reportFrameError,
  });
}

/** A recording: every frame, in order, detected as it is offered (its source waits for us). */
export function everyFrameDetection(pipeline: LivePipeline, detector: TrackedDetector): FrameDetectionLoop {
  return {
    offer(frame) {
      const startMs = Date.now();
      try {
        detectAndPublish(pipeline, detector, frame);
      } catch (err) {
        reportFrameError(err);
      }
      detector.frameDone({ latencyMs: Date.now() - startMs, droppedBefore: 0 });
    },
    // Nothing waits: each frame was done when `offer` returned.
    close() {},
  };
}

/** A live camera: newest frame wins; a recording: every frame, in order. */
export function detectFrameLoop(liveSource: boolean, pipeline: LivePipeline, detector: TrackedDetector): FrameDetectionLoop {
  return liveSource ? newestFrameDetection(pipeline, detector) : everyFrameDetection(pipeline, detector);
}
