/**
 * When the background scanner may start its next full-frame scan. A scan costs a core for 60–160 ms
 * (1080p–4K); when frames come out late the machine has no core to spare, and a scan then only makes
 * the next frames later still. So:
 *
 * - the interval between scans starts at `baseIntervalMs` and doubles (up to `maxIntervalMs`) on every
 *   late frame; it halves again after `recoverAfterFrames` on-time frames in a row;
 * - right after a late frame no scan starts at all (skipped), however long ago the last one was;
 * - but one starts at least every `maxIntervalMs`, late or not, so a stand put down under heavy load is
 *   still found within a couple of seconds.
 *
 * A frame is late when its capture → published latency exceeds `lateAfterMs`, or when frames were
 * dropped before it (the loop could not keep up with the source).
 *
 * Not too eager: scans also keep the detector's idea of where unpredicted tags are fresh (it retries a
 * scan's tags in every frame until the next scan), so with scans far apart a moving scene costs the
 * frame loop more. Measured on the 4K demo at light load, a 60 ms threshold with a 3.2 s cap made
 * detection slower; the service uses half the frame interval (at least 60 ms) and a 1.6 s cap.
 */
import type { FrameOutcome } from './newestFrameLoop.ts';

export interface ScanBackoffOptions {
  /** Interval between scans while frames are on time, ms. Default 400. */
  readonly baseIntervalMs?: number;
  /** Longest interval, and the longest any scan waits even while every frame is late, ms. Default 1600. */
  readonly maxIntervalMs?: number;
  /** A frame whose capture → published latency exceeds this is late, ms. Default 60. */
  readonly lateAfterMs?: number;
  /** On-time frames in a row that halve the interval. Default 5. */
  readonly recoverAfterFrames?: number;
}

export interface ScanBackoff {
  /** Feed every processed frame's outcome. */
  frameDone(outcome: Pick<FrameOutcome, 'latencyMs' | 'droppedBefore'>): void;
  /** Whether a scan may start at `nowMs` (same clock as `scanStarted`). */
  mayScan(nowMs: number): boolean;
  /** Call when a scan did start. */
  scanStarted(nowMs: number): void;
  /** The current interval between scans, ms. */
  intervalMs(): number;
}

export function createScanBackoff(options: ScanBackoffOptions = {}): ScanBackoff {
  const baseMs = options.baseIntervalMs ?? 400;
  const maxMs = Math.max(baseMs, options.maxIntervalMs ?? 1600);
  const lateAfterMs = options.lateAfterMs ?? 60;
  const recoverAfter = Math.max(1, options.recoverAfterFrames ?? 5);
  let interval = baseMs;
  let lastLate = false;
  let onTimeInARow = 0;
  let lastStartMs = -Infinity;
  return {
    frameDone(outcome): void {
      const late = outcome.latencyMs > lateAfterMs || outcome.droppedBefore > 0;
      lastLate = late;
      if (late) {
        onTimeInARow = 0;
        interval = Math.min(maxMs, interval * 2);
      } else if (++onTimeInARow >= recoverAfter) {
        onTimeInARow = 0;
        interval = Math.max(baseMs, interval / 2);
      }
    },
    mayScan(nowMs: number): boolean {
      const sinceMs = nowMs - lastStartMs;
      if (sinceMs >= maxMs) return true;
      return !lastLate && sinceMs >= interval;
    },
    scanStarted(nowMs: number): void {
      lastStartMs = nowMs;
    },
    intervalMs: () => interval,
  };
}
