/**
 * Roster stage of the live pipeline: tracked tags → the `TableState` the rules read (stands, units,
 * commanders, terrain), with the unit status the operator set by hand laid over what the tags say.
 */
import type { TableState, Unit } from '@muster/rules';
import type { TagTrack } from '@muster/vision';
import type { GameSession } from '../game/gameSession.ts';
import { buildTableState, type BuiltTableState } from '../roster/buildTableState.ts';
import type { Roster } from '../roster/roster.ts';

export interface TableSize {
  readonly widthIn: number;
  readonly depthIn: number;
}

export interface LiveTable extends Pick<BuiltTableState, 'unassignedTags' | 'warnings'> {
  readonly tableState: TableState;
}

export function buildLiveTable(roster: Roster, tracks: readonly TagTrack[], session: GameSession, table: TableSize): LiveTable {
  const built = buildTableState(roster, tracks, { table, terrain: session.terrain });
  const tableState: TableState = { ...built.state, units: withOperatorStatus(session, built.state.units) };
  return { tableState, unassignedTags: built.unassignedTags, warnings: built.warnings };
}

function withOperatorStatus(session: GameSession, units: readonly Unit[]): Unit[] {
  return units.map((u) => {
    const override = session.statusOverride(u.id);
    return override ? { ...u, status: { ...(u.status ?? {}), ...override } } : u;
  });
}
