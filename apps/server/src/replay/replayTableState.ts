/**
 * The recorded game at a position as the views see it: the rules' `TableState` (through the roster's
 * own `buildTableState`, so units, commanders and ruleset fields come out exactly as live), with the
 * operator status laid over, and one track per stand on the table.
 *
 * The log records stand poses, not tags: each stand is given a stand-in tag, placed where its real tag
 * would sit (`tagPoseFromStand`), for `buildTableState` to turn back into the stand's pose. Status chips
 * are not logged, so a replay shows only the status the operator set. Before the first terrain edit in
 * the log, the terrain is `terrain.json` when the log never edits it (it was set before the record
 * began, or never), else none: what it was then is not recorded.
 */
import type { RosterSummary, Track } from '@muster/protocol';
import type { TableState, Terrain, Unit } from '@muster/rules';
import type { TagTrack } from '@muster/vision';
import { EMPTY_TERRAIN, rosterWithBindings } from '../game/gameSession.ts';
import { buildTableState } from '../roster/buildTableState.ts';
import { tagAssignments, type Roster, type RosterStand } from '../roster/roster.ts';
import { tagPoseFromStand } from '../roster/standPoseFromTag.ts';
import type { RecordedGame } from './recordedGame.ts';

export interface ReplayTable {
  readonly tableState: TableState;
  readonly tracks: Track[];
  readonly roster: RosterSummary;
}

export interface ReplayTableBuilder {
  build(game: RecordedGame): ReplayTable;
}

export function createReplayTableBuilder(options: {
  readonly roster: Roster;
  readonly table: { readonly widthIn: number; readonly depthIn: number };
  /** The terrain before the log's first terrain edit (see above). */
  readonly initialTerrain: Terrain | null;
}): ReplayTableBuilder {
  const { roster, table } = options;
  // Stand-in tags 0…n-1 in roster order; status chips dropped (not in the log).
  const standIn = new Map<string, { tag: number; stand: RosterStand }>();
  const retag = (s: RosterStand): RosterStand => {
    const tag = standIn.size;
    const out = { ...s, tag };
    standIn.set(s.id, { tag, stand: s });
    return out;
  };
  const replayRoster: Roster = {
    ...roster,
    units: roster.units.map((u) => ({ ...u, stands: u.stands.map(retag) })),
    commanders: roster.commanders.map((c) => (c.stand ? { ...c, stand: retag(c.stand) } : c)),
    statusTokens: [],
  };
  const trackIdOf = new Map([...standIn.keys()].map((id, i) => [id, i + 1]));
  let cachedBindings: { n: number; roster: Roster } = { n: 0, roster };

  return {
    build(game: RecordedGame): ReplayTable {
      const tracks: TagTrack[] = [];
      for (const [standId, placed] of game.stands) {
        const s = standIn.get(standId);
        if (!s) continue; // a stand the roster no longer has
        const pose = tagPoseFromStand(placed.pose, s.stand.tagOffset);
        tracks.push({ trackId: trackIdOf.get(standId)!, markerId: s.tag, pose, rawPose: pose, stale: false, known: true, firstSeenMs: placed.timeMs, lastSeenMs: placed.timeMs, cornersPx: [] as unknown as TagTrack['cornersPx'] });
      }
      const terrain = game.terrain ?? options.initialTerrain ?? EMPTY_TERRAIN;
      const built = buildTableState(replayRoster, tracks, { table, terrain });
      const units: Unit[] = built.state.units.map((u) => {
        const st = game.statusByUnit.get(u.id);
        return st ? { ...u, status: { ...(u.status ?? {}), ...st } } : u;
      });
      // The marker bindings as they were at this point (each assign-tag entry applied in order).
      if (cachedBindings.n !== game.bindings.length) cachedBindings = { n: game.bindings.length, roster: rosterWithBindings(roster, game.bindings) };
      const bound = cachedBindings.roster;
      const markerOf = new Map<string, number | null>();
      for (const u of bound.units) for (const s of u.stands) markerOf.set(s.id, s.tag);
      for (const c of bound.commanders) if (c.stand) markerOf.set(c.stand.id, c.stand.tag);
      const liveTracks: Track[] = built.state.stands.map((s) => ({
        trackId: trackIdOf.get(s.id)!,
        markerId: markerOf.get(s.id) ?? -1,
        standId: s.id,
        pose: tagPoseFromStand(s.pose, standIn.get(s.id)!.stand.tagOffset),
        lastSeenMs: game.stands.get(s.id)!.timeMs,
        occluded: false,
      }));
      const bindings: { markerId: number; standId: string }[] = [];
      for (const [markerId, a] of tagAssignments(bound)) if (a.kind !== 'status' && markerId >= 0) bindings.push({ markerId, standId: a.stand.id });
      bindings.sort((a, b) => a.markerId - b.markerId);
      return { tableState: { ...built.state, units }, tracks: liveTracks, roster: { name: roster.name, bindings, unknownMarkerIds: [] } };
    },
  };
}
