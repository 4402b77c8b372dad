/**
 * Where the live pipeline's time goes, stage by stage: filled in while a frame (or a worker evaluation)
 * goes through, and kept as `completed` once its publication finished.
 */

/** Where the last frame's time went, ms. */
export interface FrameTimings {
  /** As reported by the detector (0 for ground-truth detections). */
  readonly detectMs: number;
  readonly trackMs: number;
  readonly rosterMs: number;
  /** Evaluating the rules (in the worker, for a worker result: of an earlier state). */
  readonly rulesMs: number;
  /**
   * Worker only, for the last evaluation: how long its state waited for the worker (busy with the one
   * before) and how long the result took to be handled on the main thread after the worker finished
   * (the round trip minus `rulesMs`: structured clone both ways plus the main thread being busy). 0 inline.
   */
  readonly rulesWaitMs: number;
  readonly rulesReturnMs: number;
  /** Logging poses, diffing and sending to every ws client. */
  readonly publishMs: number;
}

export interface StageTimings {
  /** The timings being filled in (the worker's figures stay until its next result). */
  current(): FrameTimings;
  /** A frame went through the stages up to the rules (not yet published). */
  computed(stages: Pick<FrameTimings, 'detectMs' | 'trackMs' | 'rosterMs' | 'rulesMs'>): void;
  /** That frame is published. */
  published(publishMs: number): void;
  /** A worker's evaluation is published. */
  evaluated(worker: { readonly rulesMs: number; readonly waitedMs: number; readonly returnMs: number }, publishMs: number): void;
  /** The last frame (or evaluation) whose publication finished. */
  completed(): FrameTimings;
}

export function createStageTimings(): StageTimings {
  let timings: FrameTimings = { detectMs: 0, trackMs: 0, rosterMs: 0, rulesMs: 0, rulesWaitMs: 0, rulesReturnMs: 0, publishMs: 0 };
  let completed: FrameTimings = timings;
  return {
    current: () => timings,
    computed(stages) {
      timings = { ...timings, ...stages, publishMs: 0 };
    },
    published(publishMs) {
      timings = { ...timings, publishMs };
      completed = timings;
    },
    evaluated(r, publishMs) {
      timings = { ...timings, rulesMs: r.rulesMs, rulesWaitMs: r.waitedMs, rulesReturnMs: r.returnMs, publishMs };
      completed = timings;
    },
    completed: () => completed,
  };
}
