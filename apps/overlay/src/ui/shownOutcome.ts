/**
 * The outcome the views show (the game strip, the projector's forced-move paths): the newest `outcome`
 * entry of the log, until it is cleared (`outcome-cleared`), with whether it stands applied. Forced moves are
 * drawn until their unit has left the path's start (the stands were moved).
 */
import type { GameLogEntry } from '@muster/protocol';
import type { ForcedMove, TableState } from '@muster/rules';
import { unitCentreIn as centreOf } from '@muster/rules/unitCentre';

export type OutcomeEntry = Extract<GameLogEntry, { kind: 'outcome' }>;

export interface ShownOutcome {
  readonly entry: OutcomeEntry;
  /** True when its status changes are made (an `outcome-applied` not undone since). */
  readonly applied: boolean;
}

/** The newest outcome in `log` unless it was cleared; null when there is none to show. */
export function shownOutcome(log: readonly GameLogEntry[]): ShownOutcome | null {
  let applied: boolean | undefined;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!;
    if (e.kind === 'outcome') return { entry: e, applied: applied ?? false };
    if (e.kind === 'outcome-cleared') {
      // Only the newest outcome is shown; clearing it (or an older one) before a newer is rolled hides it.
      const newest = newestOutcomeBefore(log, i);
      if (newest === undefined || newest.index === e.outcomeIndex) return null;
    }
    if ((e.kind === 'outcome-applied' || e.kind === 'outcome-undone') && applied === undefined) {
      const newest = newestOutcomeBefore(log, i);
      if (newest?.index === e.outcomeIndex) applied = e.kind === 'outcome-applied';
    }
  }
  return null;
}

function newestOutcomeBefore(log: readonly GameLogEntry[], at: number): OutcomeEntry | undefined {
  for (let i = at - 1; i >= 0; i--) {
    const e = log[i]!;
    if (e.kind === 'outcome') return e;
  }
  return undefined;
}

/** A unit that moved this far from a forced move's start has been moved: its path is no longer drawn. */
export const FORCED_MOVE_DONE_IN = 1;

export interface PendingMove {
  readonly unitId: string;
  readonly move: ForcedMove;
}

/**
 * The forced moves of the shown outcome still to make: each unit's move whose unit is on the table within
 * `FORCED_MOVE_DONE_IN` of where it stood when the outcome was rolled (the entry's `unitCentres`; the path's
 * start for an entry without them): its stands have not been moved yet.
 */
export function pendingForcedMoves(shown: ShownOutcome | null, state: TableState | null | undefined): PendingMove[] {
  if (!shown || !state) return [];
  const out: PendingMove[] = [];
  for (const effect of shown.entry.outcome.effects) {
    const move = effect.move;
    if (!effect.unitId || !move || move.path.length < 2) continue;
    const centre = centreOf(state, effect.unitId);
    const start = shown.entry.unitCentres?.[effect.unitId] ?? move.path[0]!;
    if (!centre || Math.hypot(centre.xIn - start.xIn, centre.yIn - start.yIn) > FORCED_MOVE_DONE_IN) continue;
    out.push({ unitId: effect.unitId, move });
  }
  return out;
}
