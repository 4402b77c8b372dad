/**
 * The live pipeline's frame rate and processing time, over the last `WINDOW` frames (for health).
 */
const WINDOW = 30;

/** No frame for this long: the frame rate is 0 (health also says 'degraded', `STALE_AFTER_MS`). */
export const RATE_ZERO_AFTER_MS = 3000;

export interface FrameStats {
  /**
   * A frame published at `t` (ms) that took `processingMs` from detection on, and `rulesMs` when the rules
   * evaluated a state for it (their worker's figure, or inline).
   */
  record(t: number, processingMs: number, rulesMs?: number): void;
  count(): number;
  /** When the newest frame was published (undefined before the first). */
  lastMs(): number | undefined;
  /**
   * Frames per second over the window, to 0.1 (0 with fewer than two frames). Given the time now (`t`),
   * the rate also counts the wait since the newest frame once that is longer than two frame intervals
   * (at least 1 s), and is 0 after `RATE_ZERO_AFTER_MS` without a frame: when frames stop, it falls to 0
   * instead of showing the last rate for ever.
   */
  frameRateHz(t?: number): number;
  /** Median processing time over the window, ms to 0.1. */
  processingMs(): number;
  /** Median rules evaluation time over the window's frames that had one, ms to 0.01; undefined with none. */
  rulesMs(): number | undefined;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const tenths = (x: number): number => Math.round(x * 10) / 10;

export function createFrameStats(): FrameStats {
  const frameTimes: number[] = [];
  const processing: number[] = [];
  const rules: number[] = [];
  return {
    record(t, processingMs, rulesMs) {
      frameTimes.push(t);
      if (frameTimes.length > WINDOW) frameTimes.shift();
      processing.push(processingMs);
      if (processing.length > WINDOW) processing.shift();
      if (rulesMs !== undefined) {
        rules.push(rulesMs);
        if (rules.length > WINDOW) rules.shift();
      }
    },
    count: () => frameTimes.length,
    lastMs: () => frameTimes[frameTimes.length - 1],
    frameRateHz(t) {
      const n = frameTimes.length;
      if (n < 2) return 0;
      const first = frameTimes[0]!;
      const last = frameTimes[n - 1]!;
      const spanMs = last - first;
      if (!(spanMs > 0)) return 0;
      const waitMs = t === undefined ? 0 : t - last;
      if (waitMs > RATE_ZERO_AFTER_MS) return 0;
      // A wait within the normal rhythm leaves the rate alone (no jitter between frames).
      if (waitMs <= Math.max(2 * (spanMs / (n - 1)), 1000)) return tenths(((n - 1) * 1000) / spanMs);
      return tenths(((n - 1) * 1000) / (spanMs + waitMs));
    },
    processingMs: () => tenths(median(processing)),
    rulesMs: () => (rules.length === 0 ? undefined : Math.round(median(rules) * 100) / 100),
  };
}
