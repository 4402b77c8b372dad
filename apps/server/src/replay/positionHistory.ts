/**
 * Where each stand stood, over the whole record: "where was it before it moved?" answered from the game
 * log. Fed the log's entries in order (`add`, incrementally: the live service's log grows), it keeps per
 * stand its pose entries and removals (a few numbers each), and answers for any moment:
 *
 * - `pose`: where the stand stood then (null: off the table), and since which entry;
 * - `lastMove`: its most recent move up to then, `from` where it stood before (null: it came onto the
 *   table) `to` where it ended, with the poses in between (`path`). A move is a run of pose entries of
 *   that stand with less than `gapMs` between them (the log records a stand each time it moved ≥ 0.25" or
 *   turned ≥ 5°, so a stand carried across the table is one run); a longer pause starts a new move;
 * - `atTurnStart`: where it stood when the turn of that moment began.
 */
import type { GameLogEntry } from '@muster/protocol';
import type { PoseIn } from '@muster/rules';

/** One recorded pose (or removal: `pose` null) of a stand. */
export interface StandEvent {
  readonly index: number;
  readonly timeMs: number;
  readonly turn: number;
  readonly pose: PoseIn | null;
}

export interface StandMove {
  /** Where it stood before the move; null when the move brought it onto the table. */
  readonly from: StandEvent | null;
  /** Where the move ended (as of the moment asked about). */
  readonly to: StandEvent;
  /** The first pose entry of the move. */
  readonly started: StandEvent;
  /** The move's pose entries, oldest first (the newest `maxPath` when longer). */
  readonly path: readonly StandEvent[];
  /** Pose entries in the move (the path may hold fewer). */
  readonly steps: number;
}

export interface StandHistory {
  readonly standId: string;
  /** The stand's last event up to the moment: its pose (or null, off the table), with when it got there. */
  readonly current: StandEvent | null;
  readonly lastMove: StandMove | null;
  /** Its pose when the turn of the moment began (null: not on the table then). */
  readonly atTurnStart: PoseIn | null;
}

export interface PositionHistory {
  /** Folds an entry in; entries must come in log order (older or repeated ones are ignored). */
  add(entry: GameLogEntry): void;
  /** The index of the newest entry added (-1: none). */
  lastIndex(): number;
  /** The largest entry index whose time is ≤ `timeMs` (-1: before the first entry). */
  indexAtTime(timeMs: number): number;
  /** The entry at or before `index`: its index, time and turn (null: none). */
  momentAt(index: number): { readonly index: number; readonly timeMs: number; readonly turn: number } | null;
  /** The stand as of entry `atIndex`. */
  stand(standId: string, atIndex: number, options?: { gapMs?: number; maxPath?: number }): StandHistory;
}

/** The number of items of a sorted list with key ≤ `value` (binary search). */
function countAtMost(n: number, key: (i: number) => number, value: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(mid) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createPositionHistory(): PositionHistory {
  const byStand = new Map<string, StandEvent[]>();
  // Every entry's index, time (running maximum: the wall clock may step back) and turn, for moments.
  const indexes: number[] = [];
  const times: number[] = [];
  const turns: number[] = [];
  /** For each entry, the index of the entry that began its turn (where the turn last changed). */
  const turnBegan: number[] = [];
  let last = -1;

  function momentPos(index: number): number {
    return countAtMost(indexes.length, (i) => indexes[i]!, index) - 1;
  }

  return {
    add(e: GameLogEntry): void {
      if (e.index <= last) return;
      last = e.index;
      indexes.push(e.index);
      times.push(Math.max(e.timeMs, times[times.length - 1] ?? -Infinity));
      const prevTurn = turns[turns.length - 1];
      turnBegan.push(prevTurn === e.turn ? turnBegan[turnBegan.length - 1]! : e.index);
      turns.push(e.turn);
      if (e.kind !== 'pose' && e.kind !== 'stand-removed') return;
      const list = byStand.get(e.standId) ?? [];
      list.push({ index: e.index, timeMs: e.timeMs, turn: e.turn, pose: e.kind === 'pose' ? e.pose : null });
      byStand.set(e.standId, list);
    },
    lastIndex: () => last,
    indexAtTime(timeMs: number): number {
      const n = countAtMost(times.length, (i) => times[i]!, timeMs);
      return n === 0 ? -1 : indexes[n - 1]!;
    },
    momentAt(index: number) {
      const p = momentPos(index);
      return p < 0 ? null : { index: indexes[p]!, timeMs: times[p]!, turn: turns[p]! };
    },
    stand(standId: string, atIndex: number, options = {}): StandHistory {
      const gapMs = options.gapMs ?? 3000;
      const maxPath = options.maxPath ?? 200;
      const events = byStand.get(standId) ?? [];
      const n = countAtMost(events.length, (i) => events[i]!.index, atIndex);
      const current = n > 0 ? events[n - 1]! : null;

      let lastMove: StandMove | null = null;
      // The newest pose entry up to the moment (the stand may be off the table since).
      let end = n - 1;
      while (end >= 0 && events[end]!.pose === null) end--;
      if (end >= 0) {
        let first = end;
        while (first > 0 && events[first - 1]!.pose !== null && events[first]!.timeMs - events[first - 1]!.timeMs < gapMs) first--;
        const before = first > 0 ? events[first - 1]! : null;
        const path = events.slice(Math.max(first, end + 1 - maxPath), end + 1);
        lastMove = { from: before && before.pose !== null ? before : null, to: events[end]!, started: events[first]!, path, steps: end + 1 - first };
      }

      // The turn of the moment began at its first entry: the stand's last event before that entry.
      const p = momentPos(atIndex);
      let atTurnStart: PoseIn | null = null;
      if (p >= 0) {
        const began = turnBegan[p]!;
        const k = countAtMost(events.length, (i) => events[i]!.index, began - 1);
        atTurnStart = k > 0 ? events[k - 1]!.pose : null;
      }
      return { standId, current, lastMove, atTurnStart };
    },
  };
}
