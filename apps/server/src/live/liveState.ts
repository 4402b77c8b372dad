/**
 * Publishing stage of the live pipeline: the `LiveState` the server sends, first empty, then built from
 * each frame's stages, then again with each evaluation the rules worker returns. Unchanged parts of the
 * previous state are reused so the delta diff can skip them by reference.
 */
import type { Evaluation, TableState } from '@muster/rules';
import type { EvaluatedStateRef, Health, LiveState, RosterSummary, RulesetChoiceState, SharedFocus, TableProfileSummary, Track } from '@muster/protocol';
import type { FrameDetection, TagTrack } from '@muster/vision';
import type { GameSession } from '../game/gameSession.ts';
import { tagAssignments, type Roster } from '../roster/roster.ts';
import type { TableSize } from './liveTable.ts';

/** What the pipeline is told about the table profile (the homography comes from the detections). */
export type ProfileInfo = Omit<TableProfileSummary, 'widthIn' | 'depthIn' | 'homography' | 'residualIn'>;

function bindingsOf(r: Roster): RosterSummary['bindings'] {
  const out: { markerId: number; standId: string }[] = [];
  for (const [markerId, a] of tagAssignments(r)) if (a.kind !== 'status' && markerId >= 0) out.push({ markerId, standId: a.stand.id });
  return out.sort((a, b) => a.markerId - b.markerId);
}

/** What the pipeline holds beside the frames and publishes with every state: the rule-set choice and the operator's focus. */
export interface SharedParts {
  readonly ruleset: RulesetChoiceState;
  readonly focus: SharedFocus;
}

/** No unit selected, no tape laid. */
export const NO_FOCUS: SharedFocus = { unitId: null, measure: null };

export function initialLiveState(table: TableSize, profile: ProfileInfo, session: GameSession, roster: Roster, shared: SharedParts): LiveState {
  const emptyTable: TableState = {
    version: 1,
    table,
    stands: [],
    units: [],
    commanders: [],
    terrain: session.terrain,
  };
  return {
    seq: 0,
    frameSeq: -1,
    captureTimeMs: 0,
    turn: session.turn,
    tableState: emptyTable,
    evaluation: null,
    evaluatedState: null,
    tracks: [],
    liveTrackIds: [],
    roster: { name: roster.name, bindings: bindingsOf(roster), unknownMarkerIds: [] },
    profile: { ...profile, ...table, homography: null, residualIn: null },
    health: { status: 'starting', frameRateHz: 0, trackedStands: 0, unknownTags: 0, processingMs: 0, clients: 0, uptimeS: 0, warnings: [] },
    ruleset: shared.ruleset,
    focus: shared.focus,
  };
}

/** The tracks as published: each with the stand (or status chip) its tag stands for. */
export function tracksOf(tracks: readonly TagTrack[], roster: Roster): Track[] {
  const assignments = tagAssignments(roster);
  return tracks.map((t) => {
    const a = assignments.get(t.markerId);
    return {
      trackId: t.trackId,
      markerId: t.markerId,
      standId: a && a.kind !== 'status' ? a.stand.id : null,
      ...(a?.kind === 'status' ? { chip: a.token.kind } : {}),
      pose: t.pose,
      lastSeenMs: t.lastSeenMs,
      occluded: t.stale,
    };
  });
}

/** Tags seen that the roster does not bind (to a stand or token), ascending. */
export function unknownMarkerIdsOf(unassignedTags: readonly number[], unknownIds: readonly { readonly id: number }[]): number[] {
  return [...new Set([...unassignedTags, ...unknownIds.map((u) => u.id)])].sort((a, b) => a - b);
}

export interface FrameParts {
  readonly seq: number;
  /** The newest detection so far (null before the first). */
  readonly detection: FrameDetection | null;
  readonly session: GameSession;
  readonly roster: Roster;
  readonly tableState: TableState;
  readonly evaluation: Evaluation | null;
  /** Which state `evaluation` is of, given this state's own reference (see `RulesStage.evaluatedState`). */
  evaluatedState(self: EvaluatedStateRef): EvaluatedStateRef | null;
  readonly tracks: Track[];
  readonly unknownMarkerIds: number[];
  readonly health: Health;
  readonly shared: SharedParts;
}

/** The state after `prev` for a frame (or an operator change: then `detection` is the last one). */
export function frameLiveState(prev: LiveState, parts: FrameParts): LiveState {
  const { seq, detection: d, session, tracks } = parts;
  const frameSeq = d?.seq ?? -1;
  const captureTimeMs = d?.captureTimeMs ?? 0;
  return {
    seq,
    frameSeq,
    captureTimeMs,
    turn: session.turn,
    // Reuse unchanged parts so the delta diff can skip them by reference.
    tableState: {
      ...parts.tableState,
      terrain: prev.tableState.terrain === session.terrain ? prev.tableState.terrain : session.terrain,
    },
    evaluation: parts.evaluation,
    evaluatedState: parts.evaluatedState({ seq, frameSeq, captureTimeMs }),
    tracks,
    liveTrackIds: tracks.map((x) => x.trackId),
    roster: { name: parts.roster.name, bindings: bindingsOf(parts.roster), unknownMarkerIds: parts.unknownMarkerIds },
    profile: {
      ...prev.profile,
      homography: d?.homography ?? prev.profile.homography,
      residualIn: d?.homographyResidualIn ?? prev.profile.residualIn,
    },
    health: parts.health,
    ruleset: parts.shared.ruleset,
    focus: parts.shared.focus,
  };
}

/** `state` with a rules worker's evaluation of an earlier state: same poses, new evaluation (and health). */
export function withWorkerEvaluation(
  state: LiveState,
  seq: number,
  evaluation: Evaluation | null,
  evaluatedState: EvaluatedStateRef,
  rulesError: string | null,
): LiveState {
  const health: Health = rulesError
    ? { ...state.health, status: 'degraded', warnings: [rulesError, ...state.health.warnings.filter((w) => !w.startsWith('rules failed:'))].slice(0, 20) }
    : state.health;
  return { ...state, seq, evaluation, evaluatedState, health };
}
