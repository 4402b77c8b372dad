/**
 * Plays a recorded game in time: the record's clock runs `speed` times the wall clock from the start
 * position, and every `tickMs` the replay moves to the entries whose time has come (one published state
 * per tick at most, however many entries passed). A pause in the record longer than `maxGapMs` (lunch,
 * a break between turns) is shortened to it, so a replay does not sit idle for an hour. At the end the
 * replay stays on the last entry and says so in health.
 */
import type { ReplayBackend } from './replayBackend.ts';
import type { ReplayTimeline } from './replayTimeline.ts';

export interface ReplayPlayerOptions {
  readonly backend: ReplayBackend;
  readonly timeline: ReplayTimeline;
  /** Record time per wall time. Default 1. */
  readonly speed?: number;
  /** Longest pause in the record played as it was, record ms. Default 10 000. */
  readonly maxGapMs?: number;
  /** Default 100 ms. */
  readonly tickMs?: number;
  /** Called once when the last entry has been played. */
  readonly onEnd?: () => void;
  readonly now?: () => number;
}

export interface ReplayPlayer {
  /** Whether it has played the last entry. */
  ended(): boolean;
  stop(): void;
}

/** Starts playing from the backend's current position. */
export function startReplayPlayer(options: ReplayPlayerOptions): ReplayPlayer {
  const { backend, timeline } = options;
  const speed = options.speed ?? 1;
  const maxGapMs = options.maxGapMs ?? 10_000;
  const now = options.now ?? Date.now;
  const { entries } = timeline;
  let lastWallMs = now();
  // Record time reached so far: just before the next entry (or the last played one's time).
  const startPos = backend.position();
  let recordMs = startPos < entries.length ? entries[startPos]!.timeMs : (entries[entries.length - 1]?.timeMs ?? 0);
  if (startPos > 0) recordMs = Math.min(recordMs, entries[startPos - 1]!.timeMs);
  let done = false;
  const speedText = `playing at ${speed}× (pauses over ${maxGapMs / 1000} s shortened)`;
  backend.setStatus(speedText);

  const finish = (): void => {
    done = true;
    clearInterval(timer);
    backend.setStatus(`ended: the last entry has been played (${speed}×)`);
    options.onEnd?.();
  };

  const tick = (): void => {
    const t = now();
    let p = backend.position();
    if (p >= entries.length) {
      finish();
      return;
    }
    // A long pause before the next entry is played as `maxGapMs`.
    const next = entries[p]!.timeMs;
    if (next - recordMs > maxGapMs) recordMs = next - maxGapMs;
    recordMs += (t - lastWallMs) * speed;
    lastWallMs = t;
    while (p < entries.length && entries[p]!.timeMs <= recordMs) p++;
    if (p !== backend.position()) backend.moveTo(p);
    if (p >= entries.length) finish();
  };
  const timer = setInterval(tick, options.tickMs ?? 100);
  timer.unref?.();

  return {
    ended: () => done,
    stop(): void {
      clearInterval(timer);
    },
  };
}
