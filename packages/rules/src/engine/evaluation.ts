/**
 * What `evaluate` returns: per unit what it may do, with reasons and dice breakdowns, plus shapes to draw.
 * A rule saying no is a value (`{ ok: false, reason }`); only impossible input throws.
 */
import type { PointIn } from '../model/units.ts';
import type { Formation } from '../model/tableState.ts';
import type { Shape } from './shapes.ts';

/** A rule's refusal: a stable machine code ('fire/target-out-of-arc') and a sentence for people. */
export interface Refusal {
  readonly ok: false;
  readonly reason: string;
  readonly detail?: string;
}

/** One line of a dice breakdown: "+2 Die, 6\" band, rifled musket (Fire, Infantry Fire table)". */
export interface DiceModifier {
  readonly label: string;
  /** Dice added (negative removes). */
  readonly dice: number;
  /** Rulebook section the number comes from. */
  readonly source: string;
}

export interface DiceBreakdown {
  /**
   * What the numbers count: 'dice' (default: a pool of dice), 'points' (fire or combat points looked up
   * on a table, Fire and Fury), 'modifier' (a net modifier to one die roll). `dice`, `baseDice` and each
   * modifier's `dice` are in this unit.
   */
  readonly kind?: 'dice' | 'points' | 'modifier';
  /** Roll needed on each die to score, when the rule set says (Volley & Bayonet hit numbers: 5 = 5-6). */
  readonly hitOn?: number;
  /** Dice before modifiers (e.g. one per eligible stand). */
  readonly baseDice: number;
  readonly modifiers: readonly DiceModifier[];
  /** Final dice after modifiers, floors and caps. */
  readonly dice: number;
  /** Floors and caps applied after modifiers, e.g. the battery's 1-die floor. */
  readonly limits: readonly DiceModifier[];
}

export interface FormationReading {
  /** The generic kind every view knows (line, column, block...). */
  readonly formation: Formation;
  /** The rule set's own name when it is more specific, e.g. 'Spanish tercio (Late)', 'Swedish brigade'. */
  readonly name?: string;
  /** Section of the rule set the formation comes from. */
  readonly section?: string;
  /** 0..1: how well the stands fit the formation's template; 1 when set explicitly. */
  readonly confidence: number;
  readonly source: 'status' | 'geometry';
  /**
   * Set when the stands stand in a way the rules forbid (e.g. an extended line of more than six stands with
   * intervals): the reason code, what to change, and the section. The rest of the reading says what the
   * stands are closest to; the rule set's warnings repeat it.
   */
  readonly illegal?: { readonly reason: string; readonly detail: string; readonly section: string };
}

export interface MovementOption {
  readonly ok: true;
  /** Allowance for this formation before terrain, inches. */
  readonly allowanceIn: number;
  /** Where the unit's reference point (command stand centre) may end, honouring terrain and enemies. */
  readonly reach: readonly PointIn[];
  readonly notes: readonly string[];
}

export interface FireTargetOption {
  readonly ok: true;
  readonly targetUnitId: string;
  readonly eligibleStandIds: readonly string[];
  readonly rangeIn: number;
  /** Range band label as printed in the rule set, e.g. '12"'. */
  readonly band: string;
  readonly breakdown: DiceBreakdown;
  /** True for the target the rules require it to fire at (closest enemy within 12" in arc). */
  readonly priority: boolean;
}

export interface FireRefusal extends Refusal {
  readonly targetUnitId: string;
}

export interface ChargeTargetOption {
  readonly ok: true;
  readonly targetUnitId: string;
  readonly distanceIn: number;
  /** Dice the attacker rolls in the melee, and what the defender would roll. */
  readonly attacker: DiceBreakdown;
  readonly defender: DiceBreakdown;
  /** Terrain or friends in the path that disorder the charge. */
  readonly disorderedBy: readonly string[];
  readonly enemyFlanked: boolean;
}

export interface ChargeRefusal extends Refusal {
  readonly targetUnitId: string;
}

/**
 * Several units charging one target together (The Devil to Pay, Charge: Melee Modifiers note and Melee
 * Example 3): one attacking side, every attacker's stands and own modifiers, the charge order once.
 */
export interface CombinedChargeReading {
  readonly targetUnitId: string;
  /** Units that may each charge the target, in table order; the pool is for all of them charging. */
  readonly attackerUnitIds: readonly string[];
  readonly attacker: DiceBreakdown;
  /** The target's own dice (not reinforced). */
  readonly defender: DiceBreakdown;
  /** Units that may reinforce the defence against at least one of the attackers. */
  readonly reinforcerIds: readonly string[];
  /** Defender dice with every one of `reinforcerIds`, when one attacker's option already reads that set. */
  readonly reinforcedDefender?: DiceBreakdown;
  readonly source: string;
}

export interface CommandReading {
  /** Units of the same brigade linked in brigade formation with this one (1.5" chains). */
  readonly brigadeFormationUnitIds: readonly string[];
  /** Commander within order radius, if any. */
  readonly commanderInRangeId?: string;
  readonly attachedCommanderId?: string;
  readonly ordersLeft?: number;
  /**
   * Orders the unit receives at each Reload, present only when an optional rule changes the core number
   * (The Devil to Pay: sharpshooters 3 instead of 2).
   */
  readonly ordersPerTurn?: number;
  /** Rule sets with a command radius: whether the unit is in command, and of whom / how far. */
  readonly inCommand?: boolean;
  readonly commandRadiusIn?: number;
  /** Distance to the commander that counts, edge to edge or as the rule set measures it. */
  readonly commanderDistanceIn?: number;
}

/** A morale or status threshold (Fire and Fury worn/spent, While the Devil Rules destroyed at half bases). */
export interface MoraleThreshold {
  readonly label: string;
  /** The count at which it is reached (stands lost, bases left...). */
  readonly at: number;
  readonly reached: boolean;
  readonly source: string;
}

export interface MoraleReading {
  /** The rule set's status word for the unit now: 'fresh', 'worn', 'spent', 'shaken', 'destroyed'... */
  readonly state: string;
  /** What is counted against the thresholds, e.g. 'stands lost' with its value. */
  readonly counted: { readonly label: string; readonly value: number };
  readonly thresholds: readonly MoraleThreshold[];
}

/**
 * Firing at two targets at once (The Devil to Pay, Optional Rules: Split Fire): the dice are those of the
 * more difficult target (fewer dice), to be allocated between the two.
 */
export interface SplitFireOption {
  /** The two targets, in the order of the unit's fire options. */
  readonly targetUnitIds: readonly [string, string];
  /** The target whose dice set the pool (fewer dice; the first of the two on a tie). */
  readonly harderTargetUnitId: string;
  /** Dice to allocate between the two targets. */
  readonly dice: number;
  /** The harder target's breakdown, from which `dice` comes. */
  readonly breakdown: DiceBreakdown;
  readonly source: string;
}

/** What building hasty works would cost where the unit stands (The Devil to Pay: Constructing Hasty Works). */
export interface HastyWorksReading {
  /** MOVE actions the unit must spend, stationary. */
  readonly moveActions: number;
  /** True when the unit stands in woods (the cheaper count). */
  readonly inWoods: boolean;
  readonly source: string;
}

/** One range band of a weapon: targets up to `upToIn` (and beyond the previous band) are in it. */
export interface WeaponRangeBand {
  /** Upper limit, inches, measured as `WeaponRangeReading.measuredFrom` says. */
  readonly upToIn: number;
  /** The band as the rule set prints it; the same text as `FireTargetOption.band` for a target in it. */
  readonly label: string;
  /** The band's effect on the fire breakdown, in the breakdown's unit (dice, points...), when it has one. */
  readonly modifier?: number;
}

/**
 * The unit's weapon ranges, for drawing along a tape measure: every band it can fire in, nearest first
 * (beyond the last one it cannot fire). Optional: a rule set that does not fill it shows no bands.
 */
export interface WeaponRangeReading {
  /** The weapon as the rule set names it, e.g. 'Rifled Musket'. */
  readonly weapon: string;
  readonly bands: readonly WeaponRangeBand[];
  /** Where fire range is measured from and to, in words. */
  readonly measuredFrom: string;
  readonly source: string;
}

export interface UnitEvaluation {
  readonly unitId: string;
  readonly formation: FormationReading;
  readonly movement: MovementOption | Refusal;
  readonly fire: readonly (FireTargetOption | FireRefusal)[];
  readonly charge: readonly (ChargeTargetOption | ChargeRefusal)[];
  readonly rally: DiceBreakdown | Refusal;
  readonly command: CommandReading;
  /** Pairs of fire targets the unit may split its fire between; only when the table's optional rules ask. */
  readonly splitFire?: readonly SplitFireOption[];
  /** Only when the table's optional rules include hasty works construction. */
  readonly hastyWorks?: HastyWorksReading;
  /** Morale or status thresholds, for rule sets that count losses against them. */
  readonly morale?: MoraleReading;
  /** The unit's weapon range bands, for rule sets that publish them (see `WeaponRangeReading`). */
  readonly weaponRange?: WeaponRangeReading;
}

/**
 * A commander's own reading, for rule sets whose commanders hold orders (The Devil to Pay, Commanders:
 * Superb 3, Capable 2, Weak 1 Orders per turn).
 */
export interface CommanderReading {
  readonly commanderId: string;
  /** Orders the commander receives at each Reload. */
  readonly ordersPerTurn: number;
  /** The rule set's quality word the number comes from, e.g. 'superb'. */
  readonly quality?: string;
  readonly source: string;
}

export interface EvaluationWarning {
  readonly code: string;
  readonly message: string;
  readonly unitId?: string;
  /** For 'parameter/missing': the rule-set parameter to enter. */
  readonly parameterId?: string;
}

export interface Evaluation {
  readonly rulesetId: string;
  readonly units: Readonly<Record<string, UnitEvaluation>>;
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
  /** Per commander id, for rule sets that read commanders apart from units; absent otherwise. */
  readonly commanders?: Readonly<Record<string, CommanderReading>>;
  /** Targets that two or more units may charge, with the pool if they all do; only when there are any. */
  readonly combinedCharges?: readonly CombinedChargeReading[];
}
