/**
 * Every message between the service and its views, as unions on `type`. Plain JSON, inches and degrees
 * (headings CCW from +x, [0, 360)), times in ms since the epoch.
 *
 * Flow: on connect the server sends `welcome` then `snapshot` (the whole `LiveState`). After that it sends
 * `delta`s; each names the `baseSeq` it applies to and the `seq` it brings the view to. A view whose `seq`
 * differs from a delta's `baseSeq` sends `resync` and receives a fresh `snapshot`. A slow view is not
 * queued every frame: it gets one delta from what it last received to the newest state (coalesced).
 */
import type {
  Commander,
  DiceFaces,
  DiceRequest,
  Evaluation,
  EvaluationWarning,
  Outcome,
  PendingAction,
  PointIn,
  PoseIn,
  Refusal,
  ResolutionKindSpec,
  RulesetDice,
  Shape,
  Stand,
  TableState,
  Terrain,
  Unit,
  UnitEvaluation,
  UnitStatus,
} from '@muster/rules';

// ---------------------------------------------------------------------------------------------------------
// Shared pieces

export type Role = 'viewer' | 'operator';

/** A tracked tag (TUIO style: the track id is separate from the marker id and is never reused). */
export interface Track {
  readonly trackId: number;
  /** ArUco marker id. */
  readonly markerId: number;
  /** Roster stand this marker belongs to; null for a status chip or an unknown tag. */
  readonly standId: string | null;
  /** Set when the marker is a status chip of the roster (so it is not an unknown tag). */
  readonly chip?: 'disordered' | 'hit' | 'prone' | 'commander';
  /** Smoothed pose, table inches and degrees. */
  readonly pose: PoseIn;
  /** Capture time of the frame the tag was last seen in, ms. */
  readonly lastSeenMs: number;
  /** True while the tag is not seen but the track is held (hand over the stand, smoke...). */
  readonly occluded: boolean;
}

/** Which marker is which stand. */
export interface RosterSummary {
  /** Roster name (file name or the demo's name). */
  readonly name: string;
  readonly bindings: readonly { readonly markerId: number; readonly standId: string }[];
  /** Marker ids seen on the table that no binding covers. */
  readonly unknownMarkerIds: readonly number[];
}

/** What the views need to know about the table profile and its calibration. */
export interface TableProfileSummary {
  readonly name: string;
  readonly widthIn: number;
  readonly depthIn: number;
  /** Where frames come from: 'demo-truth' (ground-truth poses), 'demo-frames' (rendered), 'camera'. */
  readonly source: 'demo-truth' | 'demo-frames' | 'camera';
  /** Frame size, pixels; null when there are no frames (demo-truth). */
  readonly frameWidthPx: number | null;
  readonly frameHeightPx: number | null;
  /** Image → table homography, row-major 3×3; null when not solved (or no frames). */
  readonly homography: readonly number[] | null;
  /** RMS anchor residual, inches; null when not solved. */
  readonly residualIn: number | null;
}

export type HealthStatus = 'ok' | 'degraded' | 'starting' | 'stopped';

export interface Health {
  readonly status: HealthStatus;
  /** Frames processed per second over the last few seconds. */
  readonly frameRateHz: number;
  /** Stands currently tracked (known tags, seen or held). */
  readonly trackedStands: number;
  /** Tags seen that the roster does not know. */
  readonly unknownTags: number;
  /** Median frame processing time (detect + track + rules), ms. */
  readonly processingMs: number;
  /**
   * Median time the rules took to evaluate a state, ms (on the rules worker when there is one, so not part
   * of `processingMs` then); absent before the first evaluation and from servers before it.
   */
  readonly rulesMs?: number;
  /** Connected ws clients. */
  readonly clients: number;
  readonly uptimeS: number;
  readonly warnings: readonly string[];
  /** Camera mode only: what the camera is doing (absent in the demo and from servers before it). */
  readonly camera?: CameraHealth;
}

/**
 * `connecting`: opened, no frame yet; `streaming`: frames arrive; `reconnecting`: the camera was lost
 * (refused, no answer, stalled, ffmpeg died) and is being reopened with backoff; `ended`: no frame will
 * come (end of a recording, a failure, the service stopping). Views should show an unknown state as is.
 */
export type CameraState = 'connecting' | 'streaming' | 'reconnecting' | 'ended';

export interface CameraHealth {
  readonly state: CameraState;
  /** The camera (device, URL with any password hidden, file, or "phone"). */
  readonly source: string;
  /** One line: what it waits for, the attempt and last error while reconnecting, why it ended. */
  readonly detail: string;
  /** When the camera entered `state`, ms since the epoch (the server's clock). */
  readonly since: number;
}

/** The Devil to Pay action cards/chits (p. 4): 14 in the deck, the second Whiskey ends the turn. */
export type ActionCardKind = 'move' | 'fire' | 'charge' | 'rally' | 'carpe-diem' | 'whiskey';

export interface ActionCard {
  readonly kind: ActionCardKind;
  /** Which side acts first, for move/fire/charge/rally cards. */
  readonly first?: 'union' | 'confederate';
}

export interface CardDraw {
  readonly card: ActionCard;
  /** Cards left in the deck after this draw. */
  readonly remaining: number;
  /** True when this draw ended the turn (second Whiskey, or the deck ran out); the deck is reshuffled. */
  readonly turnEnded: boolean;
  /** The turn this card was drawn in. */
  readonly turn: number;
}

export interface DiceRoll {
  /** One entry per die, 1..6. */
  readonly faces: readonly number[];
  /** Lowest face that scores (The Devil to Pay: 4 unless the operator says otherwise). */
  readonly hitOn: number;
  /** Dice showing `hitOn` or more. */
  readonly hits: number;
  readonly reason?: string;
  readonly unitId?: string;
}

/**
 * Which published state an evaluation was computed from. The rules run beside the frame loop, so a
 * state carries the poses of its own frame and the evaluation of an earlier state (typically the one
 * before); `frameSeq - evaluatedState.frameSeq` is how many frames the rules overlay lags the poses.
 */
export interface EvaluatedStateRef {
  /** `LiveState.seq` of the evaluated state; never above the seq of the state carrying it. */
  readonly seq: number;
  /** Its source frame sequence number (-1: before the first frame); never above the carrying state's. */
  readonly frameSeq: number;
  /** Capture time of that frame, ms (0 before the first frame). */
  readonly captureTimeMs: number;
}

/** Everything a view shows, as of one published state. */
export interface LiveState {
  /** Publication sequence number: increases by one for every state the server publishes. */
  readonly seq: number;
  /** Source frame sequence number of the newest frame folded in (-1 before the first frame). */
  readonly frameSeq: number;
  /** Capture time of that frame, ms (0 before the first frame). */
  readonly captureTimeMs: number;
  /** Game turn, from 1. */
  readonly turn: number;
  readonly tableState: TableState;
  /**
   * The newest rules evaluation so far: of the state named by `evaluatedState`, which may be older than
   * this one's `tableState`. Null when the rules could not run (see health warnings) or have not yet.
   */
  readonly evaluation: Evaluation | null;
  /**
   * The state `evaluation` (or its failure: `evaluation` null with a health warning) was computed from;
   * null before the first evaluation, and when there are no rules. Protocol 2.
   */
  readonly evaluatedState: EvaluatedStateRef | null;
  readonly tracks: readonly Track[];
  /** Ids of the tracks alive this frame (seen or held). */
  readonly liveTrackIds: readonly number[];
  readonly roster: RosterSummary;
  readonly profile: TableProfileSummary;
  readonly health: Health;
  /**
   * The rule set the game runs with and the ones installed (protocol 4; absent from older servers). The
   * operator switches it with `set-ruleset`.
   */
  readonly ruleset?: RulesetChoiceState;
  /**
   * What the operator is looking at, shared with every view (protocol 4; absent from older servers): the
   * selected unit and the measurement, set with `set-focus`. Not logged.
   */
  readonly focus?: SharedFocus;
}

/** A rule set as the views name it (`@muster/rules` RulesetInfo). */
export interface RulesetSummary {
  /** Stable id, e.g. 'devil-to-pay'. */
  readonly id: string;
  readonly name: string;
  /** Edition or source. */
  readonly source: string;
}

/** Which rule set the game runs with, and which it could (protocol 4). */
export interface RulesetChoiceState {
  /** Null when the game runs without rules (the one asked for is not installed: health says why). */
  readonly current: RulesetSummary | null;
  readonly installed: readonly RulesetSummary[];
  /**
   * What the roster lacks or has wrong for the current rule set (e.g. a required unit field), one line
   * each, at most 20; the rules still run and say in their warnings what they could not work out.
   */
  readonly rosterProblems: readonly string[];
}

/** One end of a shared measurement: a table point and what it is attached to. */
export interface MeasureEnd {
  readonly xIn: number;
  readonly yIn: number;
  /** The stand whose edge the end is on; null for a free point on the table. */
  readonly standId: string | null;
  /** True when `standId` is the stand as it stood before its last move (its ghost). */
  readonly ghost?: boolean;
}

/** A tape laid by the operator: two table points, inches. */
export interface SharedMeasure {
  readonly from: MeasureEnd;
  readonly to: MeasureEnd;
}

/** The operator's selection and measurement, as every view receives it (protocol 4). */
export interface SharedFocus {
  /** The selected unit; null when none. */
  readonly unitId: string | null;
  readonly measure: SharedMeasure | null;
}

/** Upserts by id plus removals; apply removals first. */
export interface ListDelta<T, K> {
  readonly upsert: readonly T[];
  readonly remove: readonly K[];
}

export interface EvaluationDelta {
  readonly rulesetId: string;
  readonly units: ListDelta<UnitEvaluation, string>;
  readonly shapes: ListDelta<Shape, string>;
  /** Sent whole. */
  readonly warnings: readonly EvaluationWarning[];
  /** The evaluation's commander readings and combined charges, sent whole; absent when it has none. */
  readonly commanders?: Evaluation['commanders'];
  readonly combinedCharges?: Evaluation['combinedCharges'];
}

/** One entry of the game log (append-only, persisted as JSON lines). */
export type GameLogEntry =
  | GameLogCommon & { readonly kind: 'pose'; readonly standId: string; readonly pose: PoseIn }
  | GameLogCommon & { readonly kind: 'stand-removed'; readonly standId: string }
  | GameLogCommon & { readonly kind: 'unit-status'; readonly unitId: string; readonly status: UnitStatus }
  | GameLogCommon & { readonly kind: 'terrain'; readonly terrain: Terrain }
  | GameLogCommon & { readonly kind: 'assign-tag'; readonly markerId: number; readonly standId: string | null }
  | GameLogCommon & { readonly kind: 'card'; readonly draw: CardDraw }
  | GameLogCommon & { readonly kind: 'dice'; readonly roll: DiceRoll }
  | GameLogCommon & { readonly kind: 'turn'; readonly turn: number }
  | GameLogCommon & { readonly kind: 'note'; readonly text: string }
  /** Protocol 4: the game's rule set changed (`previousId` null when the game ran without rules). */
  | GameLogCommon & { readonly kind: 'ruleset'; readonly ruleset: RulesetSummary; readonly previousId: string | null }
  /**
   * Protocol 5: what a roll did (`resolve-roll`): the rule set's outcome; `dice` says who rolled;
   * `unitCentres` where each unit with a forced move stood (the mean of its stands) when it was rolled, so
   * views draw the move until the stands have been moved from there.
   */
  | GameLogCommon & { readonly kind: 'outcome'; readonly outcome: Outcome; readonly dice: OutcomeDice; readonly unitCentres?: Readonly<Record<string, PointIn>> }
  /**
   * Protocol 5: every status change of the outcome logged at `outcomeIndex`, made in one step
   * (`apply-outcome`): each unit's whole operator status after, and before (`{}`: none was set).
   */
  | GameLogCommon & { readonly kind: 'outcome-applied'; readonly outcomeIndex: number; readonly statusByUnit: Readonly<Record<string, UnitStatus>>; readonly previousByUnit: Readonly<Record<string, UnitStatus>> }
  /** Protocol 5: an applied outcome taken back (`undo-outcome`): each unit's operator status restored. */
  | GameLogCommon & { readonly kind: 'outcome-undone'; readonly outcomeIndex: number; readonly statusByUnit: Readonly<Record<string, UnitStatus>> }
  /** Protocol 5: the outcome is no longer shown (its forced moves leave the projector). */
  | GameLogCommon & { readonly kind: 'outcome-cleared'; readonly outcomeIndex: number };

/** Who rolled an outcome's dice: the service's seeded roller, or the players (faces entered). */
export type OutcomeDice = 'rolled' | 'entered';

/** An action a unit may roll for now (protocol 5), with the dice it needs or why it cannot be rolled. */
export interface OfferedAction {
  readonly action: PendingAction;
  /** For people: the kind's label and whom it concerns, e.g. "Fire at 12th Virginia". */
  readonly label: string;
  /** The dice to roll; null when the rules refuse it on this table (`refusal` says why). */
  readonly dice: readonly DiceRequest[] | null;
  readonly refusal?: Refusal;
}

/** What a unit may roll for (`resolve-offer`'s answer, protocol 5). */
export interface ResolutionOffer {
  readonly rulesetId: string;
  readonly unitId: string;
  /** How the rule set rolls (d6 or d10; pool, table, opposed, roll-under). */
  readonly dice: RulesetDice;
  /** Every kind the rule set resolves, for a request built by hand. */
  readonly kinds: readonly ResolutionKindSpec[];
  readonly actions: readonly OfferedAction[];
}

/** A resolved roll as logged (protocol 5): the log index is the outcome's id for apply, undo and clear. */
export interface LoggedOutcome {
  readonly index: number;
  readonly outcome: Outcome;
  readonly dice: OutcomeDice;
}

export interface GameLogCommon {
  /** Position in the log, from 0. */
  readonly index: number;
  /** Wall-clock time of the entry, ms. */
  readonly timeMs: number;
  /** Game turn when it happened. */
  readonly turn: number;
  /** Who caused it: the vision pipeline or the operator. */
  readonly by: 'vision' | 'operator' | 'demo';
}

export type GameLogKind = GameLogEntry['kind'];

// ---------------------------------------------------------------------------------------------------------
// Server → client

export interface WelcomeMessage {
  readonly type: 'welcome';
  /** The server's version (`PROTOCOL_VERSION` of its build; a client may talk to an older server). */
  readonly protocolVersion: number;
  readonly role: Role;
  readonly serverTimeMs: number;
  /** Echoed from the hello that caused it. */
  readonly requestId?: string;
}

export interface SnapshotMessage {
  readonly type: 'snapshot';
  readonly protocolVersion: number;
  readonly state: LiveState;
  /** The last few non-pose log entries (cards, dice, operator edits), oldest first. */
  readonly recentLog: readonly GameLogEntry[];
  readonly sentTimeMs: number;
}

export interface DeltaMessage {
  readonly type: 'delta';
  /** The state this delta applies to. */
  readonly baseSeq: number;
  /** The state it brings the view to. */
  readonly seq: number;
  readonly frameSeq: number;
  readonly captureTimeMs: number;
  readonly sentTimeMs: number;
  /** Sent in every delta (protocol 2): the state the evaluation after this delta was computed from. */
  readonly evaluatedState: EvaluatedStateRef | null;
  /** Sent whole every delta (TUIO alive set). */
  readonly liveTrackIds: readonly number[];
  readonly tracks?: ListDelta<Track, number>;
  readonly stands?: ListDelta<Stand, string>;
  readonly units?: ListDelta<Unit, string>;
  /** Present (whole) when changed. */
  readonly commanders?: readonly Commander[];
  readonly terrain?: Terrain;
  readonly table?: TableState['table'];
  /** Present when changed; null means the evaluation went away. */
  readonly evaluation?: EvaluationDelta | null;
  readonly roster?: RosterSummary;
  readonly profile?: TableProfileSummary;
  readonly health?: Health;
  readonly turn?: number;
  /** Protocol 4: present (whole) when changed. */
  readonly ruleset?: RulesetChoiceState;
  /** Protocol 4: present (whole) when changed. */
  readonly focus?: SharedFocus;
}

/** A new non-pose game log entry (cards, dice, operator edits), sent to every client. */
export interface LogMessage {
  readonly type: 'log';
  readonly entry: GameLogEntry;
}

/** The answer to an operator action that succeeded. */
export interface AckMessage {
  readonly type: 'ack';
  readonly requestId?: string;
  readonly action: ClientMessage['type'];
  readonly result?:
    | { readonly draw: CardDraw }
    | { readonly roll: DiceRoll }
    | { readonly turn: number }
    | { readonly ruleset: RulesetSummary }
    /** Protocol 5: `resolve-offer`. */
    | { readonly offer: ResolutionOffer }
    /** Protocol 5: `resolve-roll`. */
    | { readonly outcome: LoggedOutcome }
    /** Protocol 5: `apply-outcome`, `undo-outcome`, `clear-outcome`: the log entry made and the units it changed. */
    | { readonly outcomeChange: { readonly outcomeIndex: number; readonly entryIndex: number; readonly unitIds: readonly string[] } };
}

export interface PongMessage {
  readonly type: 'pong';
  readonly requestId?: string;
  readonly clientTimeMs?: number;
  readonly serverTimeMs: number;
}

export type ErrorCode =
  | 'bad-json'
  | 'too-large'
  | 'invalid-message'
  | 'unsupported-version'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'internal'
  /** Protocol 3: the client sent more than the server's message rate; the server closes the socket (1008) right after. */
  | 'rate-limited';

export interface ErrorMessage {
  readonly type: 'error';
  readonly code: ErrorCode;
  readonly message: string;
  readonly requestId?: string;
}

export type ServerMessage =
  | WelcomeMessage
  | SnapshotMessage
  | DeltaMessage
  | LogMessage
  | AckMessage
  | PongMessage
  | ErrorMessage;

// ---------------------------------------------------------------------------------------------------------
// Client → server

interface ClientCommon {
  /** Echoed in the reply (ack, error, pong, welcome). At most LIMITS.maxIdChars. */
  readonly requestId?: string;
}

/** Optional: every client is a viewer from connect; a hello with the operator token upgrades it. */
export interface HelloMessage extends ClientCommon {
  readonly type: 'hello';
  readonly protocolVersion: number;
  readonly token?: string;
}

export interface PingMessage extends ClientCommon {
  readonly type: 'ping';
  readonly clientTimeMs?: number;
}

/** Ask for a fresh snapshot (after a delta whose baseSeq did not match). */
export interface ResyncMessage extends ClientCommon {
  readonly type: 'resync';
}

/** Operator: change a unit's status. Fields present replace the old ones; `null` clears a field. */
export interface SetUnitStatusMessage extends ClientCommon {
  readonly type: 'set-unit-status';
  readonly unitId: string;
  readonly status: UnitStatusPatch;
}

export type UnitStatusPatch = { readonly [K in keyof UnitStatus]?: UnitStatus[K] | null };

/** Operator: replace the terrain (saved with the table). */
export interface SetTerrainMessage extends ClientCommon {
  readonly type: 'set-terrain';
  readonly terrain: Terrain;
}

/** Operator: bind a marker to a roster stand (standId null removes the binding). */
export interface AssignTagMessage extends ClientCommon {
  readonly type: 'assign-tag';
  readonly markerId: number;
  readonly standId: string | null;
}

/** Operator: draw the next action card/chit. */
export interface DrawCardMessage extends ClientCommon {
  readonly type: 'draw-card';
}

/** Operator: roll dice with the service's seeded roller (logged). */
export interface RollDiceMessage extends ClientCommon {
  readonly type: 'roll-dice';
  readonly dice: number;
  /** Lowest face that scores, 2..6; default 4 (The Devil to Pay, Fire p. 23). */
  readonly hitOn?: number;
  readonly reason?: string;
  readonly unitId?: string;
}

/** Operator: set the game turn (from 1). */
export interface SetTurnMessage extends ClientCommon {
  readonly type: 'set-turn';
  readonly turn: number;
}

/**
 * Operator (protocol 4): run the game with another installed rule set (`LiveState.ruleset.installed`).
 * Saved with the game, logged (`ruleset` entry), evaluated at once; an id not installed is `not-found`.
 */
export interface SetRulesetMessage extends ClientCommon {
  readonly type: 'set-ruleset';
  readonly rulesetId: string;
}

/**
 * Operator (protocol 4): share what is selected and measured with every view (`LiveState.focus`). Whole,
 * not a patch; held in memory only (not logged). Send it at most a few times a second while dragging.
 */
export interface SetFocusMessage extends ClientCommon {
  readonly type: 'set-focus';
  readonly unitId: string | null;
  readonly measure: SharedMeasure | null;
}

/**
 * Operator (protocol 5): what `unitId` may roll for now, with the dice each action needs. With `actions`
 * (e.g. an outcome's follow-ups), those actions with their dice instead of the ones offered. Not logged.
 */
export interface ResolveOfferMessage extends ClientCommon {
  readonly type: 'resolve-offer';
  readonly unitId: string;
  readonly actions?: readonly PendingAction[];
}

/**
 * Operator (protocol 5): the outcome of `action` (one the rule set resolves, see `resolve-offer`). Without
 * `faces` the service's seeded roller rolls the dice the action needs; with them, those are the faces the
 * players rolled (checked against the dice asked for). Logged as an `outcome` entry; nothing else changes.
 */
export interface ResolveRollMessage extends ClientCommon {
  readonly type: 'resolve-roll';
  readonly action: PendingAction;
  readonly faces?: DiceFaces;
}

/** Operator (protocol 5): make every status change of the outcome logged at `outcomeIndex`, in one logged step. */
export interface ApplyOutcomeMessage extends ClientCommon {
  readonly type: 'apply-outcome';
  readonly outcomeIndex: number;
}

/** Operator (protocol 5): take back an applied outcome: the units' statuses as they were before it. */
export interface UndoOutcomeMessage extends ClientCommon {
  readonly type: 'undo-outcome';
  readonly outcomeIndex: number;
}

/** Operator (protocol 5): stop showing the outcome (its forced moves leave the projector). Logged. */
export interface ClearOutcomeMessage extends ClientCommon {
  readonly type: 'clear-outcome';
  readonly outcomeIndex: number;
}

export type OperatorMessage =
  | ResolveOfferMessage
  | ResolveRollMessage
  | ApplyOutcomeMessage
  | UndoOutcomeMessage
  | ClearOutcomeMessage
  | SetUnitStatusMessage
  | SetTerrainMessage
  | AssignTagMessage
  | DrawCardMessage
  | RollDiceMessage
  | SetTurnMessage
  | SetRulesetMessage
  | SetFocusMessage;

export type ClientMessage = HelloMessage | PingMessage | ResyncMessage | OperatorMessage;

export const OPERATOR_MESSAGE_TYPES: readonly OperatorMessage['type'][] = [
  'set-unit-status',
  'set-terrain',
  'assign-tag',
  'draw-card',
  'roll-dice',
  'set-turn',
  'set-ruleset',
  'set-focus',
  'resolve-offer',
  'resolve-roll',
  'apply-outcome',
  'undo-outcome',
  'clear-outcome',
];

export function isOperatorMessage(msg: ClientMessage): msg is OperatorMessage {
  return (OPERATOR_MESSAGE_TYPES as readonly string[]).includes(msg.type);
}
