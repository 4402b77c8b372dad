/**
 * The table state: everything the rules need to know about the table, in inches. Plain JSON, versioned.
 * The published JSON Schema (`packages/rules/schema/table-state.schema.json`) describes the same shape;
 * `validateTableState` checks both the shape and the references between parts.
 */
import type { PointIn, PoseIn } from './units.ts';

export const TABLE_STATE_VERSION = 1 as const;

/** Which army a unit belongs to. Free text, but both sides of a game must use the same two spellings. */
export type SideId = string;

export type Arm = 'infantry' | 'cavalry' | 'artillery';

/**
 * The Devil to Pay, Troop Quality (p. 7): Crack, Veteran, Green. Other rule sets map onto these. 'trained'
 * is the lower half of Veteran under the optional Trained and Veteran Troops rule (Optional Rules); without
 * that rule (`TableState.optionalRules`) a trained unit is a veteran one.
 */
export type Quality = 'crack' | 'veteran' | 'trained' | 'green';

/**
 * Optional rules a table opts into (The Devil to Pay, Optional Rules). Each changes or adds output only when
 * listed: 'trained-veteran' (Trained and Veteran Troops: trained -1 Die in melee, veteran +1 Die firing),
 * 'split-fire' (Split Fire: dice pools for firing at two targets), 'hasty-works' (Constructing Hasty Works:
 * MOVE actions needed where the unit stands). Going Prone needs no switch (a unit's `status.prone` is the
 * opt-in) and Sharpshooters neither (`Unit.sharpshooters`).
 */
export type OptionalRule = 'trained-veteran' | 'split-fire' | 'hasty-works';

/** The Devil to Pay, Commanders (p. 6): Superb 3 orders, Capable 2, Weak 1. */
export type CommanderQuality = 'superb' | 'capable' | 'weak';

/**
 * What a stand is. `command` is the regiment's colour stand; `gun` an artillery section; `limber` a limber
 * or horse team (a battery with limbers on the table is limbered); `mounted`/`dismounted` cavalry stands;
 * `commander` a brigade commander's round base; `base` an ordinary infantry stand.
 */
export type StandRole = 'base' | 'command' | 'gun' | 'limber' | 'mounted' | 'dismounted' | 'commander';

export interface Stand {
  readonly id: string;
  /** The unit this stand belongs to, or the commander id for a commander's stand. */
  readonly unitId: string;
  readonly pose: PoseIn;
  /** Frontage of the base, inches (along the facing edge). */
  readonly widthIn: number;
  /** Depth of the base, inches (front to back). */
  readonly depthIn: number;
  readonly role: StandRole;
}

/**
 * Formations a rule set may recognise. An explicit `status.formation` overrides the one recognised from
 * stand geometry.
 */
export type Formation =
  | 'line'
  | 'square'
  | 'block'
  | 'double-line'
  | 'attack-column'
  | 'march-column'
  | 'loose-order'
  | 'disordered'
  | 'unlimbered'
  | 'limbered'
  | 'commander'
  | 'unknown';

export interface UnitStatus {
  /** Hits per stand id (0, 1; a stand with 2 hits is removed from the table). Missing ids mean 0. */
  readonly hitsByStand?: Readonly<Record<string, number>>;
  readonly disordered?: boolean;
  readonly prone?: boolean;
  /** Orders left this turn; undefined means "not tracked". */
  readonly ordersLeft?: number;
  /** Id of the commander attached to this unit, if any. */
  readonly attachedCommanderId?: string;
  /** Overrides the formation recognised from geometry. */
  readonly formation?: Formation;
  /** Cavalry on foot (The Devil to Pay, Dismounted Cavalry, p. 11); else inferred from stand roles. */
  readonly dismounted?: boolean;
  /** Artillery limbered; else inferred from stand roles. */
  readonly limbered?: boolean;
  /**
   * Status a rule set defines for itself (While the Devil Rules "shaken", Fire and Fury "worn", Volley &
   * Bayonet strength points lost...), keyed by the ids in its `Ruleset.statusFields`.
   */
  readonly rulesetStatus?: RulesetValues;
}

/** One value of a rule set's own field or parameter (see `RulesetFieldSpec`). */
export type RulesetValue = number | string | boolean | readonly string[];

/** Rule-set-specific values keyed by field id; each rule set declares and validates its own ids. */
export type RulesetValues = Readonly<Record<string, RulesetValue>>;

export interface Unit {
  readonly id: string;
  readonly name: string;
  readonly side: SideId;
  readonly arm: Arm;
  readonly quality: Quality;
  /** Weapon id from the rule set's fire tables, e.g. 'rifled-musket', '3-inch-rifle'. */
  readonly weapon: string;
  /** Brigade id (the commander's `brigadeId`); undefined for units that belong to no brigade. */
  readonly brigadeId?: string;
  /** Independent regiment or battery (3 orders, cannot use brigade orders). */
  readonly independent?: boolean;
  /** Horse artillery gets the cavalry movement bonus (The Devil to Pay, Horse Artillery, p. 13). */
  readonly horseArtillery?: boolean;
  /**
   * Sharpshooters (The Devil to Pay, Optional Rules: Sharpshooters): no range penalties when firing, three
   * orders instead of two, must fight in loose order, removed when reduced to one stand.
   */
  readonly sharpshooters?: boolean;
  /**
   * Stand ids of this unit on the table, command stand first where there is one. Empty for a unit of the
   * army with no stand on the table (not yet deployed, or removed from play): rule sets answer it with
   * no-stand refusals and still count it where their morale counts the whole army or brigade.
   */
  readonly standIds: readonly string[];
  /**
   * Stands the unit starts the game with (the army file lists them all, on the table or not). Rule sets that
   * count losses or strength in stands take it where their own fields leave the number open.
   */
  readonly startingStands?: number;
  /**
   * What a rule set needs to know about the unit beyond the fields above (troop type, morale, special
   * abilities, strength points), keyed by the ids in its `Ruleset.unitFields`.
   */
  readonly rulesetFields?: RulesetValues;
  readonly status?: UnitStatus;
}

/**
 * A commander's rank above a brigade is said by his `brigadeId`: `army` is his side's Army Commander, and
 * `wing-<name>` commands a wing (the rule sets that have wings say which units are in it). Neither needs a
 * unit of that brigade; every other `brigadeId` names the brigade the commander leads.
 */
export const ARMY_COMMANDER_BRIGADE = 'army';
export const WING_COMMANDER_PREFIX = 'wing-';

/** Whether a commander's `brigadeId` is a rank above a brigade (see `ARMY_COMMANDER_BRIGADE`). */
export function isRankAboveBrigade(brigadeId: string): boolean {
  return brigadeId === ARMY_COMMANDER_BRIGADE || (brigadeId.startsWith(WING_COMMANDER_PREFIX) && brigadeId.length > WING_COMMANDER_PREFIX.length);
}

export interface Commander {
  readonly id: string;
  readonly name: string;
  readonly side: SideId;
  /** The brigade he leads, or his rank above brigades: `army`, `wing-<name>` (`ARMY_COMMANDER_BRIGADE`). */
  readonly brigadeId: string;
  readonly quality: CommanderQuality;
  /** The commander's own stand on the table, if placed. */
  readonly standId?: string;
  /** Unit the commander is attached to. */
  readonly attachedToUnitId?: string;
  readonly cavalry?: boolean;
}

export type AreaTerrainKind =
  | 'rough'
  | 'swamp'
  | 'open-woods'
  | 'thick-woods'
  | 'thicket'
  | 'farm'
  | 'town'
  | 'city';

export type LinearTerrainKind =
  | 'fence'
  | 'wall'
  | 'brook'
  | 'stream'
  | 'river'
  | 'hasty-works'
  | 'entrenchment'
  | 'abatis'
  | 'chevaux-de-frise'
  | 'sunken-road';

export interface AreaTerrain {
  readonly id: string;
  readonly kind: AreaTerrainKind;
  /** Simple polygon, inches, either winding. */
  readonly vertices: readonly PointIn[];
}

export interface LinearTerrain {
  readonly id: string;
  readonly kind: LinearTerrainKind;
  /** Open polyline, inches. */
  readonly points: readonly PointIn[];
}

export interface Road {
  readonly id: string;
  readonly points: readonly PointIn[];
  /** Road width, inches; default 1. */
  readonly widthIn?: number;
}

export interface Elevation {
  readonly id: string;
  readonly vertices: readonly PointIn[];
  /** Height level: 1 for a hill, 2 for a hill on a hill... Ground outside every elevation is level 0. */
  readonly level: number;
}

export interface Terrain {
  readonly areas: readonly AreaTerrain[];
  readonly linear: readonly LinearTerrain[];
  readonly roads: readonly Road[];
  readonly elevations: readonly Elevation[];
}

export interface TableState {
  readonly version: typeof TABLE_STATE_VERSION;
  /** Table size: x runs 0..widthIn along the near edge, y runs 0..depthIn away from it. */
  readonly table: { readonly widthIn: number; readonly depthIn: number };
  readonly stands: readonly Stand[];
  readonly units: readonly Unit[];
  readonly commanders: readonly Commander[];
  readonly terrain: Terrain;
  /** Optional rules in play; none when absent (see `OptionalRule`). */
  readonly optionalRules?: readonly OptionalRule[];
  /**
   * Values the operator enters once per game for numbers a rule set's document does not give (base moves
   * from a companion app, ranges from a basic rulebook) and for readings players may argue about, keyed by
   * the ids in `Ruleset.parameters`. A missing value is a warning naming it, never a guess.
   */
  readonly rulesetParameters?: RulesetValues;
}
