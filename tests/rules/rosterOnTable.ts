/**
 * An army file's units laid out on the table as the camera would report them, through the real roster loader
 * and `buildTableState`: each unit in a row of its own, optionally with some units lifted off the table.
 */
import { readFileSync } from 'node:fs';
import type { TableState } from '@muster/rules';
import type { TagTrack } from '@muster/vision';
import { parseRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { buildTableState } from '../../apps/server/src/roster/buildTableState.ts';
import type { Roster } from '../../apps/server/src/roster/roster.ts';

export function loadArmy(file: string): Roster {
  return parseRoster(readFileSync(file, 'utf8'), file);
}

/** A tag seen on the table, where the camera put it. */
export interface PlacedTag {
  readonly markerId: number;
  readonly pose: { readonly xIn: number; readonly yIn: number; readonly headingDeg: number };
}

/** The table state `buildTableState` gives for these tags seen fresh on a bare 72 x 48" table. */
export function tableFromTags(roster: Roster, placed: readonly PlacedTag[]): TableState {
  const px = { uPx: 0, vPx: 0 };
  const tracks: TagTrack[] = placed.map((t, i) => ({ trackId: i + 1, markerId: t.markerId, pose: t.pose, rawPose: t.pose, stale: false, known: true, firstSeenMs: 0, lastSeenMs: 0, cornersPx: [px, px, px, px] }));
  return buildTableState(roster, tracks, { table: { widthIn: 72, depthIn: 48 }, terrain: { areas: [], linear: [], roads: [], elevations: [] } }).state;
}

/** The table state with every unit's stands placed (3.5" apart, a row per unit, three units a band) except `liftedUnitIds`'. */
export function armyOnTable(roster: Roster, liftedUnitIds: readonly string[] = []): TableState {
  const placed: PlacedTag[] = [];
  roster.units.forEach((u, k) => {
    if (liftedUnitIds.includes(u.id)) return;
    u.stands.forEach((st, j) => {
      if (st.tag !== null) placed.push({ markerId: st.tag, pose: { xIn: 6 + 3.5 * j + (k % 3) * 22, yIn: 8 + 10 * Math.floor(k / 3), headingDeg: 90 } });
    });
  });
  return tableFromTags(roster, placed);
}

/** The same state with `unitId`'s rule-set status set to `rulesetStatus`. */
export function withRulesetStatus(state: TableState, unitId: string, rulesetStatus: Record<string, string | number | boolean>): TableState {
  return { ...state, units: state.units.map((u) => (u.id === unitId ? { ...u, status: { ...u.status, rulesetStatus } } : u)) };
}
