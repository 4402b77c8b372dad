/**
 * The game as the log says it was after some entry: where each stand stood (and since which entry), the
 * status the operator set on each unit, the terrain, the tag bindings made at the table and the turn.
 * Built by folding the entries in order (`applyEntry`); `copyGame` keeps a checkpoint to seek from.
 *
 * What the log does not hold is not here: status chips on the table (only the status the operator set is
 * logged), and the terrain before the first terrain edit (see `replayTableState.ts`).
 */
import type { GameLogEntry } from '@muster/protocol';
import type { PoseIn, Terrain, UnitStatus } from '@muster/rules';

export interface PlacedStand {
  readonly pose: PoseIn;
  /** The log entry that put it there, and its time. */
  readonly index: number;
  readonly timeMs: number;
}

export interface RecordedGame {
  /** Index of the last entry folded in (-1: none). */
  index: number;
  /** Its time, ms (0: none). */
  timeMs: number;
  turn: number;
  readonly stands: Map<string, PlacedStand>;
  readonly statusByUnit: Map<string, UnitStatus>;
  /** The terrain of the last terrain edit; null before the first. */
  terrain: Terrain | null;
  readonly bindings: { readonly markerId: number; readonly standId: string | null }[];
  /** The rule set of the last `ruleset` entry; null before the first. */
  rulesetId: string | null;
}

export function emptyGame(): RecordedGame {
  return { index: -1, timeMs: 0, turn: 1, stands: new Map(), statusByUnit: new Map(), terrain: null, bindings: [], rulesetId: null };
}

export function copyGame(g: RecordedGame): RecordedGame {
  return { ...g, stands: new Map(g.stands), statusByUnit: new Map(g.statusByUnit), bindings: [...g.bindings] };
}

/** Folds one entry into `g` (in place). Entries must come in log order. */
export function applyEntry(g: RecordedGame, e: GameLogEntry): void {
  g.index = e.index;
  g.timeMs = e.timeMs;
  g.turn = e.turn;
  switch (e.kind) {
    case 'pose':
      g.stands.set(e.standId, { pose: e.pose, index: e.index, timeMs: e.timeMs });
      break;
    case 'stand-removed':
      g.stands.delete(e.standId);
      break;
    case 'unit-status':
      // The entry holds the unit's whole operator status after the change.
      if (Object.keys(e.status).length === 0) g.statusByUnit.delete(e.unitId);
      else g.statusByUnit.set(e.unitId, e.status);
      break;
    case 'terrain':
      g.terrain = e.terrain;
      break;
    case 'assign-tag':
      g.bindings.push({ markerId: e.markerId, standId: e.standId });
      break;
    case 'ruleset':
      g.rulesetId = e.ruleset.id;
      break;
    case 'outcome-applied':
    case 'outcome-undone':
      // Each unit's whole operator status after the step, as `unit-status` entries hold it.
      for (const [unitId, status] of Object.entries(e.statusByUnit)) {
        if (Object.keys(status).length === 0) g.statusByUnit.delete(unitId);
        else g.statusByUnit.set(unitId, status);
      }
      break;
    default:
      break; // cards, dice, outcomes rolled or cleared, turns and notes change nothing on the table (the turn is on every entry)
  }
}
