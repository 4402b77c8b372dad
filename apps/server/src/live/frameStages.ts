/**
 * One pass of the live pipeline's stages, for a frame's detection (or, with none, after an operator
 * change): tracker → roster (TableState with operator status) → rules → the next `LiveState`, with its
 * timings and health. Computed, not yet published (`publisher.ts` does that).
 */
import type { CameraHealth, Health, LiveState } from '@muster/protocol';
import type { FrameDetection } from '@muster/vision';
import type { GameSession } from '../game/gameSession.ts';
import { createFrameStats } from './frameStats.ts';
import { buildLiveTable, type TableSize } from './liveTable.ts';
import { frameLiveState, tracksOf, unknownMarkerIdsOf, type SharedParts } from './liveState.ts';
import { pipelineHealth } from './pipelineHealth.ts';
import type { Publisher } from './publisher.ts';
import type { RosterTracker } from './rosterTracker.ts';
import type { RulesStage } from './rulesStage.ts';
import type { StageTimings } from './stageTimings.ts';

export interface FrameStagesOptions {
  readonly session: GameSession;
  readonly table: TableSize;
  readonly now: () => number;
  readonly tracking: RosterTracker;
  readonly rules: RulesStage;
  readonly timings: StageTimings;
  readonly publisher: Pick<Publisher, 'state' | 'nextSeq'>;
  /** Connected ws clients, for health. */
  clients(): number;
  /** Camera mode: what the camera is doing now (null: no camera, e.g. the demo). */
  camera?(): CameraHealth | null;
  /** The rule-set choice and the operator's focus, published with every state. */
  shared(): SharedParts;
}

export interface FrameStages {
  /** The next state for `detection` (null: the same frame again), `startMs` being when the frame came in. */
  compute(detection: FrameDetection | null, startMs: number): LiveState;
  /** When the newest frame was published (undefined before the first). */
  lastFrameMs(): number | undefined;
  /**
   * The health a state computed at `t` would carry, from the last computed stages (for the watchdog:
   * frames stopped, the camera's status or the session's warnings changed, with no frame to say so).
   */
  health(t: number): Health;
}

/** The game session's warnings (a save that failed, …): in health, which is 'degraded' while there are any. */
export function sessionWarningsOf(session: GameSession): readonly string[] {
  return session.warnings();
}

export function createFrameStages(options: FrameStagesOptions): FrameStages {
  const { session, now, tracking, rules, timings, publisher } = options;
  const startedMs = now();
  const frames = createFrameStats();
  let lastDetection: FrameDetection | null = null;
  /** What the last pass left for health: the stages' warnings and counts. */
  let last = { stageWarnings: [] as readonly string[], trackedStands: 0, unknownTags: 0 };

  function health(t: number): Health {
    return pipelineHealth({
      t,
      startedMs,
      frames,
      warnings: [...rules.warnings(t), ...last.stageWarnings],
      sessionWarnings: sessionWarningsOf(session),
      rulesDegraded: Boolean(rules.error() || rules.failed()),
      trackedStands: last.trackedStands,
      unknownTags: last.unknownTags,
      clients: options.clients(),
      camera: options.camera?.() ?? null,
    });
  }

  function compute(detection: FrameDetection | null, startMs: number): LiveState {
    const prev = publisher.state();
    const t0 = performance.now();
    const snap = tracking.track(detection);
    const t1 = performance.now();
    const table = buildLiveTable(tracking.roster(), snap.tracks, session, options.table);
    const t2 = performance.now();
    const evaluation = rules.evaluate(table.tableState, prev.evaluation);
    const rulesMs = rules.onWorker ? timings.current().rulesMs : performance.now() - t2;
    timings.computed({ detectMs: detection?.processingMs ?? 0, trackMs: t1 - t0, rosterMs: t2 - t1, rulesMs });
    const tracks = tracksOf(snap.tracks, tracking.roster());
    const unknownMarkerIds = unknownMarkerIdsOf(table.unassignedTags, snap.unknownIds);
    const t = now();
    // The worker's figure stays until its next result: 0 before its first (no evaluation timed yet).
    if (detection) frames.record(t, t - startMs + (detection.processingMs ?? 0), rulesMs > 0 ? rulesMs : undefined);
    const detectionWarnings = detection?.warnings ?? lastDetection?.warnings ?? [];
    last = {
      stageWarnings: [...detectionWarnings, ...snap.warnings, ...table.warnings],
      trackedStands: table.tableState.stands.length,
      unknownTags: unknownMarkerIds.length,
    };
    const stateHealth = health(t);
    if (detection) lastDetection = detection;
    return frameLiveState(prev, {
      seq: publisher.nextSeq(),
      detection: lastDetection,
      session,
      roster: tracking.roster(),
      tableState: table.tableState,
      evaluation,
      evaluatedState: (self) => rules.evaluatedState(prev.evaluatedState, self),
      tracks,
      unknownMarkerIds,
      health: stateHealth,
      shared: options.shared(),
    });
  }

  return { compute, lastFrameMs: () => frames.lastMs(), health };
}
