/**
 * After the roll: the interface a rule set fills in to say what a roll did. Pure like `evaluate`: the table
 * state, a pending action the evaluation offered and the dice faces in; the outcome in the rule set's own
 * words and tables out (result band, losses, status changes, forced moves, follow-up checks), with the
 * rulebook section for each step. No I/O, no clock, no randomness: the dice come in as faces.
 *
 * The flow for one action:
 *   1. `offered(state, evaluation, unitId)` lists the actions a unit may roll for now (fire at a target, a
 *      charge and its melee, a rally, a morale check ...).
 *   2. `diceFor(state, action)` says which dice to roll (one `DiceRequest` per group: the attacker's and the
 *      defender's in an opposed roll, one d10 on a table, n d6 counting hits ...).
 *   3. The faces come from the service's seeded roller (`rollRequestedDice`) or from the players' own dice.
 *   4. `resolve(state, action, rolls)` returns the `Outcome`; `applyOutcome` (engine/applyOutcome.ts) makes
 *      its status changes on the table state. Stands are removed and moved by hand: the outcome says which
 *      and where, and the camera sees them go.
 *
 * `resolveAction` (engine/resolveAction.ts) checks the action and the faces before a rule set sees them.
 */
import type { PointIn } from '../../model/units.ts';
import type { Formation, RulesetValue, TableState } from '../../model/tableState.ts';
import type { Evaluation, Refusal } from '../evaluation.ts';

/** Faces on one die of a rule set: the d6 of most rule sets, the d10 of Fire and Fury. */
export type DieSides = 6 | 10;

/**
 * How a rule set rolls, for the roller and the views: 'pool' counts dice at or above a hit number (The Devil
 * to Pay, Volley & Bayonet fire); 'table' reads one modified die on a results table (Fire and Fury);
 * 'opposed' compares two sides' rolls (While the Devil Rules); 'roll-under' passes a die at or under a
 * rating (Volley & Bayonet morale). A rule set may use several; `styles` lists them, the usual first.
 */
export type DiceStyle = 'pool' | 'table' | 'opposed' | 'roll-under';

export interface RulesetDice {
  readonly sides: DieSides;
  readonly styles: readonly DiceStyle[];
  /** Where the rule set says how dice are rolled. */
  readonly source: string;
}

/**
 * How one group of dice is read. 'hits': each die showing `hitOn` or more scores. 'total': the faces are
 * added, then `modifier`. 'under': each die showing `target` or less passes. 'each': each die is read on
 * its own by the rule set (opposed rolls compare dice pairwise, tables read a single die).
 */
export type DiceReading = 'hits' | 'total' | 'under' | 'each';

/** One group of dice a resolution needs, e.g. "Attacker: 5 d6, hits on 4+". */
export interface DiceRequest {
  /** Key of this group in the rolls given to `resolve`, e.g. 'attacker', 'defender', 'fire', 'morale'. */
  readonly id: string;
  /** For people: whose dice and what for. */
  readonly label: string;
  /** Number of dice, a non-negative integer (0: nothing to roll, the group still appears). */
  readonly count: number;
  readonly sides: DieSides;
  readonly reading: DiceReading;
  /** 'hits': lowest face that scores. */
  readonly hitOn?: number;
  /** 'under': highest face that passes. */
  readonly target?: number;
  /** 'total' (and 'each' on a table): the net modifier added to the roll, already part of the request. */
  readonly modifier?: number;
  /** Section the dice count and hit number come from. */
  readonly source: string;
}

/** Faces rolled per request id: `{ attacker: [6, 2, 4], defender: [1, 5] }`. */
export type DiceFaces = Readonly<Record<string, readonly number[]>>;

/** A request with its faces and what they read as (hits, total or passes), echoed in the outcome. */
export interface ReadRoll {
  readonly request: DiceRequest;
  readonly faces: readonly number[];
  /** Hits ('hits'), the modified total ('total', 'each' with one die), passes ('under'), else the face sum. */
  readonly value: number;
}

/**
 * An action the evaluation offered that dice decide. `kind` is one of the rule set's
 * `RulesetResolution.kinds`; the other fields name the units and choices it concerns.
 */
export interface PendingAction {
  readonly kind: string;
  /** The acting unit (the firer, the charger, the unit that checks). */
  readonly unitId?: string;
  /** The unit acted on (the target, the unit charged). */
  readonly targetUnitId?: string;
  /**
   * More units on the acting side, for actions that take several (a joint charge, combined fire,
   * supports), the acting unit first when it is one of them.
   */
  readonly unitIds?: readonly string[];
  /** Units on the other side that join in (a reinforced defence, supports in a melee). */
  readonly targetUnitIds?: readonly string[];
  readonly commanderId?: string;
  /** Choices the players make before rolling (fire at close range, evade, which stands ...). */
  readonly choices?: Readonly<Record<string, RulesetValue>>;
}

/** What a resolution kind needs, for the operator page and the CLI to ask for. */
export interface ResolutionKindSpec {
  /** Stable id, e.g. 'fire', 'melee', 'morale-check', 'rally', 'fallen-leader'. */
  readonly kind: string;
  /** For people, e.g. 'Fire', 'Charge and melee'. */
  readonly label: string;
  /** The fields of `PendingAction` this kind reads. */
  readonly needs: readonly ('unitId' | 'targetUnitId' | 'unitIds' | 'targetUnitIds' | 'commanderId')[];
  /** Choices it accepts, with their allowed values (`choices` keys). */
  readonly choices?: Readonly<Record<string, readonly RulesetValue[]>>;
  readonly source: string;
}

/** One line of the trail from the dice to the result, in the book's words, with its section. */
export interface OutcomeStep {
  readonly text: string;
  readonly source: string;
}

/**
 * Status fields to set on a unit. Absent fields are left as they are; `null` clears an optional field.
 * `rulesetStatus` is merged key by key (a `null` value removes that key); `hitsByStand` likewise per stand.
 */
export interface StatusPatch {
  readonly disordered?: boolean | null;
  readonly prone?: boolean | null;
  readonly formation?: Formation | null;
  readonly limbered?: boolean | null;
  readonly dismounted?: boolean | null;
  readonly ordersLeft?: number | null;
  readonly attachedCommanderId?: string | null;
  readonly hitsByStand?: Readonly<Record<string, number | null>>;
  readonly rulesetStatus?: Readonly<Record<string, RulesetValue | null>>;
}

/** A move the result forces: where the unit must go, and how far, before play goes on. */
export interface ForcedMove {
  readonly kind: 'retreat' | 'rout' | 'fall-back' | 'evade' | 'breakthrough' | 'advance' | 'pursue';
  readonly distanceIn: number;
  /**
   * Where the unit's reference point (its centre, or the command stand as the rule set measures) goes, from
   * where it stands now; at least two points. Rule sets bend it where their text says how (around
   * impassable terrain, away from the enemy, toward the own table edge).
   */
  readonly path: readonly PointIn[];
  /** Heading the unit ends facing, when the rule set says (e.g. faced away from the enemy). */
  readonly endHeadingDeg?: number;
  /** True when the path leaves the table (the rule set says what that means, e.g. removed from play). */
  readonly leavesTable?: boolean;
  readonly text: string;
  readonly source: string;
}

/** What the result does to one unit or commander. */
export interface OutcomeEffect {
  /** Exactly one of `unitId` and `commanderId`. */
  readonly unitId?: string;
  readonly commanderId?: string;
  /** In players' words: "loses 2 stands and is disordered". */
  readonly text: string;
  readonly source: string;
  /** Stands the unit loses; the players remove them (the ones the rule set names in `standIds`, if any). */
  readonly standsLost?: number;
  /** Stands the rule set itself names for removal (e.g. the stands in the charge path); else players choose. */
  readonly standIds?: readonly string[];
  readonly status?: StatusPatch;
  /** The unit (or commander) leaves play: routed off, destroyed, captured, killed. */
  readonly removed?: boolean;
  readonly move?: ForcedMove;
}

export interface Outcome {
  readonly rulesetId: string;
  readonly action: PendingAction;
  readonly rolls: readonly ReadRoll[];
  /** The result band or line as the rule set prints it, e.g. 'Withering fire', 'Repulsed', 'Pass'. */
  readonly result: string;
  /** One sentence for the table: "Withering fire: 2 stands lost, disordered. 12th Virginia falls back 6"." */
  readonly summary: string;
  readonly steps: readonly OutcomeStep[];
  readonly effects: readonly OutcomeEffect[];
  /** Checks the result calls for next (a morale check, a fallen-leader roll), to roll in their turn. */
  readonly followUps: readonly PendingAction[];
}

/** A rule set's after-the-roll part (`Ruleset.resolution`). */
export interface RulesetResolution {
  readonly dice: RulesetDice;
  readonly kinds: readonly ResolutionKindSpec[];
  /** Actions this unit may roll for now, from the evaluation of the same state. */
  offered(state: TableState, evaluation: Evaluation, unitId: string): readonly PendingAction[];
  /** The dice the action needs, or why it cannot be rolled for on this table. */
  diceFor(state: TableState, action: PendingAction): readonly DiceRequest[] | Refusal;
  /** The outcome of the action with these faces (one entry per request id, `count` faces each). */
  resolve(state: TableState, action: PendingAction, faces: DiceFaces): Outcome | Refusal;
}
