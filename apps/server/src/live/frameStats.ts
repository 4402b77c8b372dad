/**
 * The live pipeline's frame rate and processing time, over the last `WINDOW` frames (for health).
 */
const WINDOW = 30;

export interface FrameStats {
  /** A frame published at `t` (ms) that took `processingMs` from detection on. */
  record(t: number, processingMs: number): void;
  count(): number;
  /** When the newest frame was published (undefined before the first). */
  lastMs(): number | undefined;
  /** Frames per second over the window, to 0.1 (0 with fewer than two frames). */
  frameRateHz(): number;
  /** Median processing time over the window, ms to 0.1. */
  processingMs(): number;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function createFrameStats(): FrameStats {
  const frameTimes: number[] = [];
  const processing: number[] = [];
  return {
    record(t, processingMs) {
      frameTimes.push(t);
      if (frameTimes.length > WINDOW) frameTimes.shift();
      processing.push(processingMs);
      if (processing.length > WINDOW) processing.shift();
    },
    count: () => frameTimes.length,
    lastMs: () => frameTimes[frameTimes.length - 1],
    frameRateHz() {
      const spanMs = frameTimes.length > 1 ? frameTimes[frameTimes.length - 1]! - frameTimes[0]! : 0;
      return spanMs > 0 ? Math.round(((frameTimes.length - 1) * 1000 * 10) / spanMs) / 10 : 0;
    },
    processingMs: () => Math.round(median(processing) * 10) / 10,
  };
}
