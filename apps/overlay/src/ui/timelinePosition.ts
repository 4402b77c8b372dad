/**
 * Where a replay is on its timeline: the published state's `frameSeq` is the log index of the entry it is
 * after, and the timeline (`GET /api/replay`) lists turns and actions by position (entries played).
 */
export interface TimelineTurn {
  readonly turn: number;
  readonly position: number;
  readonly index: number;
  readonly timeMs: number;
  readonly entries: number;
}

/**
 * The position shown for log index `logIndex`: within the turn it falls in, entries are one index apart
 * (the log numbers its lines), so the offset from the turn's first entry carries over. -1 → 0.
 * @example positionOfIndex([{ turn: 1, position: 1, index: 0, … }, { turn: 2, position: 4, index: 3, … }], 4) // 5
 */
export function positionOfIndex(turns: readonly TimelineTurn[], logIndex: number): number {
  let turn: TimelineTurn | undefined;
  for (const t of turns) if (t.index <= logIndex) turn = t;
  if (!turn) return 0;
  return Math.min(turn.position + turn.entries - 1, turn.position + (logIndex - turn.index));
}

/** The turn whose span holds `position` (null before the first entry). */
export function turnAtPosition(turns: readonly TimelineTurn[], position: number): TimelineTurn | null {
  let found: TimelineTurn | null = null;
  for (const t of turns) if (t.position <= position) found = t;
  return found;
}
