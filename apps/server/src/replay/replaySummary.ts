/**
 * The timeline a replay's views show: its turns (where each begins) and its actions (every entry that is
 * not a stand moving: cards, dice, status, terrain, tags, turns, notes), each with its position, so a view
 * can mark where the replay is (the published `frameSeq` is the log index) and ask to seek there.
 */
import type { GameLogEntry } from '@muster/protocol';

export interface ReplayTurn {
  readonly turn: number;
  /** The position that shows the turn's first entry (the game after it). */
  readonly position: number;
  readonly index: number;
  readonly timeMs: number;
  /** Entries in the turn (moves included). */
  readonly entries: number;
}

export interface ReplayAction {
  readonly position: number;
  readonly entry: GameLogEntry;
}

export interface ReplaySummary {
  readonly length: number;
  readonly firstTimeMs: number | null;
  readonly lastTimeMs: number | null;
  readonly turns: readonly ReplayTurn[];
  readonly actions: readonly ReplayAction[];
}

/** @example replaySummary([pose t1, dice t1, turn→2]).turns // [{ turn: 1, position: 1, … }, { turn: 2, position: 3, … }] */
export function replaySummary(entries: readonly GameLogEntry[]): ReplaySummary {
  const turns: { turn: number; position: number; index: number; timeMs: number; entries: number }[] = [];
  const actions: ReplayAction[] = [];
  entries.forEach((e, i) => {
    const last = turns[turns.length - 1];
    if (!last || last.turn !== e.turn) turns.push({ turn: e.turn, position: i + 1, index: e.index, timeMs: e.timeMs, entries: 1 });
    else last.entries++;
    if (e.kind !== 'pose' && e.kind !== 'stand-removed') actions.push({ position: i + 1, entry: e });
  });
  return {
    length: entries.length,
    firstTimeMs: entries[0]?.timeMs ?? null,
    lastTimeMs: entries[entries.length - 1]?.timeMs ?? null,
    turns,
    actions,
  };
}
