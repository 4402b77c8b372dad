/**
 * A recorded game held in memory for seeking: its entries, and a copy of the game every
 * `CHECKPOINT_EVERY` entries, so the game at any position is a checkpoint plus at most that many
 * entries folded in. A position is how many entries have been played (0: none, `length`: all).
 */
import type { GameLogEntry } from '@muster/protocol';
import { applyEntry, copyGame, emptyGame, type RecordedGame } from './recordedGame.ts';

const CHECKPOINT_EVERY = 256;

export interface ReplayTimeline {
  readonly entries: readonly GameLogEntry[];
  readonly length: number;
  /** The game after the first `position` entries (a fresh object the caller may fold on). */
  gameAt(position: number): RecordedGame;
  /** The position just after the entry with the largest log index ≤ `index` (0 when there is none). */
  positionAfterIndex(index: number): number;
  /** The position just after the last entry whose time is ≤ `timeMs`. */
  positionAtTime(timeMs: number): number;
}

/** The first i in [0, n) with pred(i) true, assuming pred is false then true; n when never. */
function firstTrue(n: number, pred: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function createReplayTimeline(entries: readonly GameLogEntry[]): ReplayTimeline {
  const checkpoints: RecordedGame[] = [emptyGame()];
  const g = emptyGame();
  for (let i = 0; i < entries.length; i++) {
    applyEntry(g, entries[i]!);
    if ((i + 1) % CHECKPOINT_EVERY === 0) checkpoints.push(copyGame(g));
  }
  // Entry times come from the wall clock, which may step back (NTP): seeking by time uses the running maximum.
  const timeUpTo: number[] = [];
  let maxMs = -Infinity;
  for (const e of entries) timeUpTo.push((maxMs = Math.max(maxMs, e.timeMs)));
  return {
    entries,
    length: entries.length,
    gameAt(position: number): RecordedGame {
      const p = Math.max(0, Math.min(entries.length, Math.floor(position)));
      const k = Math.floor(p / CHECKPOINT_EVERY);
      const game = copyGame(checkpoints[k]!);
      for (let i = k * CHECKPOINT_EVERY; i < p; i++) applyEntry(game, entries[i]!);
      return game;
    },
    positionAfterIndex: (index: number) => firstTrue(entries.length, (i) => entries[i]!.index > index),
    positionAtTime: (timeMs: number) => firstTrue(entries.length, (i) => timeUpTo[i]! > timeMs),
  };
}
