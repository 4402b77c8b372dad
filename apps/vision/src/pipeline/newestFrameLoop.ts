/**
 * Newest-frame-wins between a frame source and the per-frame work (detect → track → publish). A source
 * `offer`s every frame it has; the work runs on a later turn of the event loop, on the newest frame
 * offered by then. A frame that a newer one replaced before its turn came is dropped (counted), never
 * processed late: when the work is slower than the source, the loop skips frames instead of building a
 * backlog, so what it publishes is never older than one frame's work.
 *
 * The work is deferred (default `setImmediate`) rather than run inside `offer`, so that whatever waits
 * on the event loop goes first: newer frames still in the source's pipe (they then replace this one)
 * and rules results from the worker (their annotation is published without waiting for this frame's
 * detection).
 */

/** What the loop needs of a frame. */
export interface LoopFrame {
  readonly seq: number;
  /** Capture time, ms since the epoch (the clock of `now`). */
  readonly captureTimeMs: number;
}

/** How one processed frame fared, for back-off decisions (see `scanBackoff.ts`). */
export interface FrameOutcome {
  readonly frameSeq: number;
  /** Capture → the work started (time spent waiting for the loop), ms. */
  readonly waitedMs: number;
  /** Capture → the work finished (poses published), ms. */
  readonly latencyMs: number;
  /** Frames replaced by a newer one since the previous processed frame. */
  readonly droppedBefore: number;
}

export interface NewestFrameLoopOptions<F extends LoopFrame> {
  /**
   * The per-frame work. Synchronous, or a promise (work on another thread): then no other frame is
   * processed until it settles, and frames offered meanwhile replace one another as usual. An exception
   * (or rejection) goes to `onError` and the loop goes on.
   */
  process(frame: F): void; // (a returned promise is awaited, see above; `void` so any callback fits)
  /** Called after each processed frame (also when `process` threw). */
  onOutcome?(outcome: FrameOutcome): void;
  onError?(err: unknown, frame: F): void;
  /** Runs `run` on a later turn of the event loop. Default `setImmediate`. */
  defer?: (run: () => void) => void;
  /** Clock of the frames' `captureTimeMs`. Default `Date.now`. */
  now?: () => number;
}

export interface NewestFrameLoopStats {
  readonly offered: number;
  readonly processed: number;
  /** Offered frames a newer frame replaced before they were processed. */
  readonly dropped: number;
}

export interface NewestFrameLoop<F extends LoopFrame> {
  /** Hands the loop a frame; replaces (drops) any frame still waiting. Ignored after `close`. */
  offer(frame: F): void;
  stats(): NewestFrameLoopStats;
  /** Drops the waiting frame, if any, and ignores later offers. */
  close(): void;
}

export function createNewestFrameLoop<F extends LoopFrame>(options: NewestFrameLoopOptions<F>): NewestFrameLoop<F> {
  const defer = options.defer ?? ((run: () => void) => void setImmediate(run));
  const now = options.now ?? Date.now;
  let waiting: F | null = null;
  let scheduled = false;
  /** An asynchronous `process` is under way. */
  let busy = false;
  let closed = false;
  let offered = 0;
  let processed = 0;
  let dropped = 0;
  let droppedSinceProcessed = 0;

  const runNewest = (): void => {
    scheduled = false;
    const frame = waiting;
    waiting = null;
    if (frame === null || closed) return;
    const startMs = now();
    // Frames dropped while this one is processed (on another thread) count for the next one.
    const droppedBefore = droppedSinceProcessed;
    droppedSinceProcessed = 0;
    const finish = (): void => {
      processed++;
      const outcome: FrameOutcome = {
        frameSeq: frame.seq,
        waitedMs: startMs - frame.captureTimeMs,
        latencyMs: now() - frame.captureTimeMs,
        droppedBefore,
      };
      options.onOutcome?.(outcome);
    };
    let work: unknown;
    try {
      work = options.process(frame) as unknown;
    } catch (err) {
      options.onError?.(err, frame);
    }
    if (!(work instanceof Promise)) {
      finish();
      return;
    }
    busy = true;
    work.then(
      () => {},
      (err: unknown) => options.onError?.(err, frame),
    ).finally(() => {
      busy = false;
      finish();
      // The newest frame offered while this one was on the other thread goes next.
      if (waiting !== null && !closed && !scheduled) {
        scheduled = true;
        defer(runNewest);
      }
    });
  };

  return {
    offer(frame: F): void {
      if (closed) return;
      offered++;
      if (waiting !== null) {
        dropped++;
        droppedSinceProcessed++;
      }
      waiting = frame;
      if (!scheduled && !busy) {
        scheduled = true;
        defer(runNewest);
      }
    },
    stats: () => ({ offered, processed, dropped }),
    close(): void {
      closed = true;
      waiting = null;
    },
  };
}
