/**
 * The live pipeline after detection: detections → tracker → roster (TableState) → operator status →
 * rules → published `LiveState`, plus the game log. It implements the server's `ServiceBackend` port.
 * Synchronous per frame and camera-free: feed it `FrameDetection`s from any source. Each stage is a
 * module of this folder: `frameStages` runs one frame through `rosterTracker` → `liveTable` → `rulesStage`
 * → `liveState` (with `frameStats`, `pipelineHealth`, `stageTimings`); `publisher` sends the result;
 * the `watchdog` notices when frames stop.
 */
import type { CameraHealth, EvaluatedStateRef, GameLogEntry, LiveState, OperatorMessage, RulesetChoiceState, SharedFocus } from '@muster/protocol';
import type { FrameDetection, TagPrediction, TrackerConfigInput } from '@muster/vision';
import { getRuleset, listRulesets, type Ruleset } from '@muster/rules';
import { rosterRulesetProblems } from '../roster/rosterRulesetProblems.ts';
import type { Roster } from '../roster/roster.ts';
import type { ActionResult, ServiceBackend } from '../http/backend.ts';
import type { GameSession } from '../game/gameSession.ts';
import { isResolutionMessage, performResolution } from '../game/resolutionDesk.ts';
import type { RulesWorkerData } from '../rules/rulesWorkerProtocol.ts';
import { createFrameStages } from './frameStages.ts';
import type { TableSize } from './liveTable.ts';
import { NO_FOCUS, initialLiveState, type ProfileInfo, type SharedParts } from './liveState.ts';
import { createPublisher } from './publisher.ts';
import { createRosterTracker } from './rosterTracker.ts';
import { createRulesStage } from './rulesStage.ts';
import { createStageTimings, type FrameTimings } from './stageTimings.ts';
import { startWatchdog } from './watchdog.ts';

export interface LivePipelineOptions {
  readonly session: GameSession;
  readonly table: TableSize;
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
  readonly profile: ProfileInfo;
  readonly tableProfileDoc?: unknown;
  readonly calibrationDoc?: unknown;
  readonly tracker?: Omit<TrackerConfigInput, 'knownIds'>;
  /** Who moves the stands, for the game log. */
  readonly poseLogBy: 'vision' | 'demo';
  /** Connected ws clients (from the server), for health. */
  clientCount?: () => number;
  readonly now?: () => number;
}

export interface LivePipeline extends ServiceBackend {
  /** Stage timings of the last frame whose publication finished (inside a 'state' listener: the frame before). */
  lastTimings(): FrameTimings;
  /** Runs one frame's detection through the pipeline and publishes the result. */
  process(detection: FrameDetection): LiveState;
  /** Republishes after an operator change without a new frame. */
  republish(): LiveState;
  setClientCounter(count: () => number): void;
  /** Camera mode: what the camera is doing, for health (the watchdog republishes when it changes). */
  setCameraStatus(status: () => CameraHealth | null): void;
  /** Stops the watchdog timer. */
  close(): void;
  /** Where the tracker expects each tag at `atMs` (for the detector's tracked mode). */
  predictions(atMs?: number): TagPrediction[];
  /** Forwards a non-pose game log entry to subscribers (wire the session's onLog here). */
  notifyLog(entry: GameLogEntry): void;
  /** The state (and its frame) the current `state().evaluation` was computed from (null: none yet). */
  evaluationFrame(): EvaluatedStateRef | null;
}

export function createLivePipeline(options: LivePipelineOptions): LivePipeline {
  const { session } = options;
  const now = options.now ?? Date.now;
  let clientCount = options.clientCount ?? (() => 0);
  let cameraStatus: () => CameraHealth | null = () => null;
  const tracking = createRosterTracker(session, options.tracker);
  const timings = createStageTimings();
  const { ruleset, rulesUnavailableReason, rulesWorker } = options;
  const rules = createRulesStage({ ruleset, rulesUnavailableReason, rulesWorker, now, onResult: (r) => publisher.publishEvaluation(r) });
  let shared: SharedParts = { ruleset: rulesetChoiceState(ruleset, tracking.roster()), focus: NO_FOCUS };
  const initial = initialLiveState(options.table, options.profile, session, tracking.roster(), shared);
  const publisher = createPublisher(initial, { session, poseLogBy: options.poseLogBy, rules, timings });
  const stages = createFrameStages({ session, table: options.table, now, tracking, rules, timings, publisher, clients: () => clientCount(), camera: () => cameraStatus(), shared: () => shared });
  const refresh = (): LiveState => publisher.publish(stages.compute(null, now()));
  const stopWatchdog = startWatchdog({
    health: () => stages.health(now()),
    published: () => publisher.state().health,
    republish: refresh,
  });

  return {
    process: (detection: FrameDetection): LiveState => publisher.publish(stages.compute(detection, now())),
    republish: refresh,
    state: publisher.state,
    subscribe: publisher.subscribe,
    notifyLog: (entry: GameLogEntry) => publisher.emit({ kind: 'log', entry }),
    evaluationFrame: () => publisher.state().evaluatedState,
    lastTimings: timings.completed,
    predictions: (atMs?: number): TagPrediction[] => tracking.predictions(atMs),
    setClientCounter: (count: () => number) => void (clientCount = count),
    setCameraStatus: (status: () => CameraHealth | null) => void (cameraStatus = status),
    recentLog: () => session.recentLog(),
    log: (from: number, limit: number): Promise<readonly GameLogEntry[]> => session.log.read(from, limit),
    roster: () => session.roster(),
    tableProfile: () => options.tableProfileDoc ?? { name: options.profile.name, ...options.table },
    calibration: () => options.calibrationDoc ?? null,
    perform(action: OperatorMessage): ActionResult {
      if (action.type === 'set-focus') {
        // Held in memory and published at once; never saved or logged (it changes at drag speed).
        const focus: SharedFocus = { unitId: action.unitId, measure: action.measure };
        shared = { ...shared, focus };
        publisher.publishPatch({ focus });
        return undefined;
      }
      if (isResolutionMessage(action)) {
        // After the roll: read against the newest published table and the rule set in use.
        const published = publisher.state();
        const result = performResolution(session, action, { ruleset: rules.ruleset(), tableState: published.tableState, evaluation: published.evaluation });
        // Only an apply or undo changes the table (statuses); an offer, a roll or a clear changes no state.
        if (action.type === 'apply-outcome' || action.type === 'undo-outcome') refresh();
        return result;
      }
      const result = session.perform(action);
      if (action.type === 'set-ruleset' && session.rulesetId !== rules.ruleset()?.id && session.rulesetId !== null) {
        const next = getRuleset(session.rulesetId);
        rules.switchTo(next);
        shared = { ...shared, ruleset: rulesetChoiceState(next, tracking.roster()) };
      }
      if (action.type === 'assign-tag') tracking.rebind();
      // A card drawn or dice rolled republishes only when it changed the turn.
      if ((action.type !== 'draw-card' && action.type !== 'roll-dice') || session.turn !== publisher.state().turn) refresh();
      return result;
    },
    close(): void {
      stopWatchdog();
      rules.close();
    },
  };
}

/** Most roster problems published with the rule-set choice (the first ones say what is wrong). */
const MAX_ROSTER_PROBLEMS = 20;

/** The rule set in use, the installed ones, and what the roster lacks for the one in use. */
export function rulesetChoiceState(ruleset: Ruleset | null, roster: Roster): RulesetChoiceState {
  const problems = ruleset ? rosterRulesetProblems(roster, ruleset) : [];
  return {
    current: ruleset ? { id: ruleset.id, name: ruleset.name, source: ruleset.source } : null,
    installed: listRulesets(),
    rosterProblems: problems.length > MAX_ROSTER_PROBLEMS ? [...problems.slice(0, MAX_ROSTER_PROBLEMS - 1), `and ${problems.length - MAX_ROSTER_PROBLEMS + 1} more`] : problems,
  };
}
