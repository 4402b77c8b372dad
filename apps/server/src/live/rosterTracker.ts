/**
 * Tracking stage of the live pipeline: the tracker, knowing the tag ids of the roster in play. When the
 * operator binds a tag at the table (`rebind`), the roster is re-read and a fresh tracker knows its ids.
 */
import { createTracker, type FrameDetection, type TagPrediction, type Tracker, type TrackerConfigInput } from '@muster/vision';
import type { GameSession } from '../game/gameSession.ts';
import { rosterTagIds, type Roster } from '../roster/roster.ts';

export type TrackSnapshot = ReturnType<Tracker['snapshot']>;

export interface RosterTracker {
  roster(): Roster;
  /** Tracks a frame's detection; null: the tracks as they stand (no new frame). */
  track(detection: FrameDetection | null): TrackSnapshot;
  /** Where the tracker expects each tag at `atMs`. */
  predictions(atMs?: number): TagPrediction[];
  /** After a tag binding changed: the session's roster, a fresh tracker. */
  rebind(): void;
}

export function createRosterTracker(session: GameSession, config: Omit<TrackerConfigInput, 'knownIds'> | undefined): RosterTracker {
  let roster: Roster = session.roster();
  let tracker: Tracker = createTracker({ ...config, knownIds: rosterTagIds(roster) });
  return {
    roster: () => roster,
    track: (detection) => (detection ? tracker.update(detection) : tracker.snapshot()),
    predictions: (atMs) => tracker.predictions(atMs),
    rebind() {
      roster = session.roster();
      tracker = createTracker({ ...config, knownIds: rosterTagIds(roster) });
    },
  };
}
