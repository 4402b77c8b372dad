/**
 * The live pipeline after detection: detections → tracker → roster (TableState) → operator status →
 * rules → published `LiveState`, plus the game log. It implements the server's `ServiceBackend` port.
 * Synchronous per frame and camera-free: feed it `FrameDetection`s from any source.
 */
import type { Evaluation, Ruleset, RulesSession, TableState, Unit } from '@muster/rules';
import type {
  EvaluatedStateRef,
  GameLogEntry,
  Health,
  LiveState,
  OperatorMessage,
  RosterSummary,
  TableProfileSummary,
  Track,
} from '@muster/protocol';
import type { FrameDetection } from '../pipeline/types.ts';
import { buildTableState } from '../roster/buildTableState.ts';
import { tagAssignments, rosterTagIds, type Roster } from '../roster/roster.ts';
import { createTracker, type TagPrediction, type Tracker } from '../track/tracker.ts';
import type { TrackerConfigInput } from '../track/trackerConfig.ts';
import type { ActionResult, BackendEvent, ServiceBackend } from '../server/backend.ts';
import type { GameSession } from './gameSession.ts';
import { createRulesWorker, type RulesResult, type RulesWorker, type RulesWorkerData } from './rulesWorker.ts';

export interface LivePipelineOptions {
  readonly session: GameSession;
  readonly table: { readonly widthIn: number; readonly depthIn: number };
  /** Null: no rules (evaluation stays null, a health warning says why). */
  readonly ruleset: Ruleset | null;
  readonly rulesUnavailableReason?: string;
  /**
   * Evaluate the rules on a worker thread (loading this rule set there) instead of in `process`: each
   * frame's poses are published at once with the newest evaluation so far, and the evaluation of a
   * state is published when the worker has it (coalesced: only the newest state waits). `ruleset` must
   * still be given (non-null) for rules to run at all.
   */
  readonly rulesWorker?: RulesWorkerData;
  readonly profile: Omit<TableProfileSummary, 'widthIn' | 'depthIn' | 'homography' | 'residualIn'>;
  readonly tableProfileDoc?: unknown;
  readonly calibrationDoc?: unknown;
  readonly tracker?: Omit<TrackerConfigInput, 'knownIds'>;
  /** Who moves the stands, for the game log. */
  readonly poseLogBy: 'vision' | 'demo';
  /** Connected ws clients (from the server), for health. */
  clientCount?: () => number;
  readonly now?: () => number;
}

/** Where the last frame's time went, ms. */
export interface FrameTimings {
  /** As reported by the detector (0 for ground-truth detections). */
  readonly detectMs: number;
  readonly trackMs: number;
  readonly rosterMs: number;
  /** Evaluating the rules (in the worker, for a worker result: of an earlier state). */
  readonly rulesMs: number;
  /**
   * Worker only, for the last evaluation: how long its state waited for the worker (busy with the one
   * before) and how long the result took to be handled on the main thread after the worker finished
   * (the round trip minus `rulesMs`: structured clone both ways plus the main thread being busy). 0 inline.
   */
  readonly rulesWaitMs: number;
  readonly rulesReturnMs: number;
  /** Logging poses, diffing and sending to every ws client. */
  readonly publishMs: number;
}

export interface LivePipeline extends ServiceBackend {
  /** Stage timings of the last frame whose publication finished (inside a 'state' listener: the frame before). */
  lastTimings(): FrameTimings;
  /** Runs one frame's detection through the pipeline and publishes the result. */
  process(detection: FrameDetection): LiveState;
  /** Republishes after an operator change without a new frame. */
  republish(): LiveState;
  setClientCounter(count: () => number): void;
  /** Stops the watchdog timer. */
  close(): void;
  /** Where the tracker expects each tag at `atMs` (for the detector's tracked mode). */
  predictions(atMs?: number): TagPrediction[];
  /** Forwards a non-pose game log entry to subscribers (wire the session's onLog here). */
  notifyLog(entry: GameLogEntry): void;
  /** The state (and its frame) the current `state().evaluation` was computed from (null: none yet). */
  evaluationFrame(): EvaluatedStateRef | null;
}

/** How long a rules-worker crash stays among the health warnings. */
const WORKER_WARNING_MS = 60_000;

const WINDOW = 30;
/** No frame for this long: health says 'degraded'. */
const STALE_AFTER_MS = 3000;

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function createLivePipeline(options: LivePipelineOptions): LivePipeline {
  const { session, ruleset } = options;
  const now = options.now ?? Date.now;
  const startedMs = now();
  let clientCount = options.clientCount ?? (() => 0);
  const listeners = new Set<(e: BackendEvent) => void>();
  const emit = (e: BackendEvent): void => {
    for (const l of listeners) l(e);
  };

  let roster: Roster = session.roster();
  let tracker: Tracker = createTracker({ ...options.tracker, knownIds: rosterTagIds(roster) });
  const useWorker = ruleset !== null && options.rulesWorker !== undefined;
  let rules: RulesSession | null = ruleset && !useWorker ? (ruleset.createSession?.() ?? { update: (s) => ruleset.evaluate(s) }) : null;
  let workerWarning: { message: string; atMs: number } | null = null;
  let worker: RulesWorker<EvaluatedStateRef> | null = null;
  let lastDetection: FrameDetection | null = null;
  const frameTimes: number[] = [];
  const processing: number[] = [];
  let rulesError: string | null = null;
  let seq = 0;

  const emptyTable: TableState = {
    version: 1,
    table: options.table,
    stands: [],
    units: [],
    commanders: [],
    terrain: session.terrain,
  };
  let state: LiveState = {
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
    profile: { ...options.profile, ...options.table, homography: null, residualIn: null },
    health: { status: 'starting', frameRateHz: 0, trackedStands: 0, unknownTags: 0, processingMs: 0, clients: 0, uptimeS: 0, warnings: [] },
  };

  function bindingsOf(r: Roster): RosterSummary['bindings'] {
    const out: { markerId: number; standId: string }[] = [];
    for (const [markerId, a] of tagAssignments(r)) if (a.kind !== 'status' && markerId >= 0) out.push({ markerId, standId: a.stand.id });
    return out.sort((a, b) => a.markerId - b.markerId);
  }

  function withOperatorStatus(units: readonly Unit[]): Unit[] {
    return units.map((u) => {
      const override = session.statusOverride(u.id);
      return override ? { ...u, status: { ...(u.status ?? {}), ...override } } : u;
    });
  }

  let timings: FrameTimings = { detectMs: 0, trackMs: 0, rosterMs: 0, rulesMs: 0, rulesWaitMs: 0, rulesReturnMs: 0, publishMs: 0 };
  /** The last frame whose publication finished (what `lastTimings` reports). */
  let completed: FrameTimings = timings;

  function compute(detection: FrameDetection | null, startMs: number): LiveState {
    const t0 = performance.now();
    const snap = detection ? tracker.update(detection) : tracker.snapshot();
    const t1 = performance.now();
    const built = buildTableState(roster, snap.tracks, { table: options.table, terrain: session.terrain });
    const tableState: TableState = { ...built.state, units: withOperatorStatus(built.state.units) };
    const t2 = performance.now();
    // With the worker, this state keeps the newest evaluation so far; its own follows when ready.
    let evaluation: Evaluation | null = useWorker ? state.evaluation : null;
    if (rules) {
      try {
        evaluation = rules.update(tableState);
        rulesError = null;
      } catch (err) {
        rulesError = `rules failed: ${(err as Error).message}`;
        // A session that threw may hold half-updated caches: start a fresh one next frame.
        rules = ruleset ? (ruleset.createSession?.() ?? { update: (s) => ruleset.evaluate(s) }) : null;
      }
    }
    timings = {
      ...timings,
      detectMs: detection?.processingMs ?? 0,
      trackMs: t1 - t0,
      rosterMs: t2 - t1,
      rulesMs: useWorker ? timings.rulesMs : performance.now() - t2,
      publishMs: 0,
    };
    const assignments = tagAssignments(roster);
    const tracks: Track[] = snap.tracks.map((t) => {
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
    const unknownMarkerIds = [...new Set([...built.unassignedTags, ...snap.unknownIds.map((u) => u.id)])].sort((a, b) => a - b);
    const t = now();
    if (detection) {
      frameTimes.push(t);
      if (frameTimes.length > WINDOW) frameTimes.shift();
      processing.push(t - startMs + (detection.processingMs ?? 0));
      if (processing.length > WINDOW) processing.shift();
    }
    const spanMs = frameTimes.length > 1 ? frameTimes[frameTimes.length - 1]! - frameTimes[0]! : 0;
    const warnings = [
      ...(ruleset ? [] : [options.rulesUnavailableReason ?? 'no rule set loaded']),
      ...(rulesError ? [rulesError] : []),
      ...(workerWarning && (worker?.failed() || t - workerWarning.atMs < WORKER_WARNING_MS) ? [workerWarning.message] : []),
      ...(detection?.warnings ?? lastDetection?.warnings ?? []),
      ...snap.warnings,
      ...built.warnings,
    ];
    const lastFrameAgeMs = frameTimes.length > 0 ? t - frameTimes[frameTimes.length - 1]! : Infinity;
    if (frameTimes.length > 0 && lastFrameAgeMs > STALE_AFTER_MS) warnings.unshift(`no frames for ${Math.round(lastFrameAgeMs / 1000)} s`);
    const health: Health = {
      status: frameTimes.length === 0 ? 'starting' : lastFrameAgeMs > STALE_AFTER_MS || rulesError || worker?.failed() ? 'degraded' : 'ok',
      frameRateHz: spanMs > 0 ? Math.round(((frameTimes.length - 1) * 1000 * 10) / spanMs) / 10 : 0,
      trackedStands: tableState.stands.length,
      unknownTags: unknownMarkerIds.length,
      processingMs: Math.round(median(processing) * 10) / 10,
      clients: clientCount(),
      uptimeS: Math.round((t - startedMs) / 1000),
      warnings: warnings.slice(0, 20),
    };
    if (detection) lastDetection = detection;
    const d = lastDetection;
    const prev = state;
    const rosterSummary: RosterSummary = { name: roster.name, bindings: bindingsOf(roster), unknownMarkerIds };
    seq++;
    const frameSeq = d?.seq ?? -1;
    const captureTimeMs = d?.captureTimeMs ?? 0;
    return {
      seq,
      frameSeq,
      captureTimeMs,
      turn: session.turn,
      // Reuse unchanged parts so the delta diff can skip them by reference.
      tableState: {
        ...tableState,
        terrain: prev.tableState.terrain === session.terrain ? prev.tableState.terrain : session.terrain,
      },
      evaluation,
      // Inline rules evaluate this very state; the worker's result for it comes as a later state.
      evaluatedState: useWorker ? prev.evaluatedState : rules ? { seq, frameSeq, captureTimeMs } : null,
      tracks,
      liveTrackIds: tracks.map((x) => x.trackId),
      roster: rosterSummary,
      profile: {
        ...prev.profile,
        homography: d?.homography ?? prev.profile.homography,
        residualIn: d?.homographyResidualIn ?? prev.profile.residualIn,
      },
      health,
    };
  }

  // Watchdog: when frames stop (camera unplugged, source ended) say so, instead of looking healthy forever.
  const watchdog = setInterval(() => {
    const last = frameTimes[frameTimes.length - 1];
    if (last === undefined || now() - last <= STALE_AFTER_MS) return;
    if (state.health.status !== 'degraded' || now() - last < STALE_AFTER_MS + 1500) publish(compute(null, now()));
  }, 1000);
  watchdog.unref();

  function publish(next: LiveState): LiveState {
    const t0 = performance.now();
    state = next;
    session.logPoses(next.tableState.stands, options.poseLogBy);
    emit({ kind: 'state' });
    timings = { ...timings, publishMs: performance.now() - t0 };
    completed = timings;
    // Poses are out; now hand this state to the rules worker (coalesced while it is busy).
    worker?.submit(next.tableState, { seq: next.seq, frameSeq: next.frameSeq, captureTimeMs: next.captureTimeMs });
    return next;
  }

  function onEvaluation(r: RulesResult<EvaluatedStateRef>): void {
    rulesError = r.error === null ? null : `rules failed: ${r.error}`;
    // Same poses as the state out there, new evaluation: no pose logging, nothing resubmitted.
    const t0 = performance.now();
    seq++;
    const health: Health = rulesError
      ? { ...state.health, status: 'degraded', warnings: [rulesError, ...state.health.warnings.filter((w) => !w.startsWith('rules failed:'))].slice(0, 20) }
      : state.health;
    state = { ...state, seq, evaluation: r.evaluation, evaluatedState: r.tag, health };
    emit({ kind: 'state' });
    timings = { ...timings, rulesMs: r.rulesMs, rulesWaitMs: r.waitedMs, rulesReturnMs: r.returnMs, publishMs: performance.now() - t0 };
    completed = timings;
  }

  if (useWorker) {
    worker = createRulesWorker<EvaluatedStateRef>({
      ...options.rulesWorker,
      onResult: onEvaluation,
      onWarning: (message) => {
        workerWarning = { message, atMs: now() };
        console.error(`muster: ${message}`);
      },
    });
  }

  return {
    process(detection: FrameDetection): LiveState {
      return publish(compute(detection, now()));
    },
    republish(): LiveState {
      return publish(compute(null, now()));
    },
    evaluationFrame: () => state.evaluatedState,
    lastTimings: () => completed,
    close(): void {
      clearInterval(watchdog);
      void worker?.close();
    },
    setClientCounter(count: () => number): void {
      clientCount = count;
    },
    predictions(atMs?: number): TagPrediction[] {
      return tracker.predictions(atMs);
    },
    notifyLog(entry: GameLogEntry): void {
      emit({ kind: 'log', entry });
    },
    state: () => state,
    recentLog: () => session.recentLog(),
    log: (from: number, limit: number): readonly GameLogEntry[] => session.log.read(from, limit),
    roster: () => session.roster(),
    tableProfile: () => options.tableProfileDoc ?? { name: options.profile.name, ...options.table },
    calibration: () => options.calibrationDoc ?? null,
    perform(action: OperatorMessage): ActionResult {
      const result = session.perform(action);
      if (action.type === 'assign-tag') {
        roster = session.roster();
        tracker = createTracker({ ...options.tracker, knownIds: rosterTagIds(roster) });
      }
      if (action.type !== 'draw-card' && action.type !== 'roll-dice') publish(compute(null, now()));
      else if (session.turn !== state.turn) publish(compute(null, now()));
      return result;
    },
    subscribe(listener: (e: BackendEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
