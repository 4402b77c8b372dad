/**
 * Combat (p. 5): the Attack Dice table (dice per stand, normal and stationary) and the Hit Numbers table
 * (range bands and the roll needed on each die), with their notes; the Saves conditions.
 */
import { cite } from './source.ts';

export const ATTACK_DICE_SOURCE = cite('Combat: Attack Dice', 5);
export const HIT_NUMBERS_SOURCE = cite('Combat: Hit Numbers', 5);

export type AttackRow =
  | 'regular-infantry'
  | 'poorly-trained-infantry'
  | 'infantry-detachments'
  | 'artillery'
  | 'mounted-light-dragoon'
  | 'mounted-infantry';

/** Dice per stand; undefined where the table prints "-" or nothing (no fire / no stationary value). */
export interface AttackDiceRow {
  readonly label: string;
  readonly fire?: number;
  readonly melee?: number;
  readonly stationaryFire?: number;
  readonly stationaryMelee?: number;
}

/**
 * Attack Dice ("Normal / If Stationary; Fire / Melee"). Poorly trained infantry print no stationary figures
 * (see the `poorly-trained-stationary` parameter); detachments and mounted stands "-".
 */
export const ATTACK_DICE: Readonly<Record<AttackRow, AttackDiceRow>> = {
  'regular-infantry': { label: 'Regular Infantry', fire: 3, melee: 3, stationaryFire: 5, stationaryMelee: 5 },
  'poorly-trained-infantry': { label: 'Poorly Trained Infantry', fire: 2, melee: 2 },
  'infantry-detachments': { label: 'Infantry Detachments', fire: 1, melee: 1 },
  artillery: { label: 'Artillery Stands (to front)', fire: 1, melee: 1, stationaryFire: 2, stationaryMelee: 2 },
  'mounted-light-dragoon': { label: 'Mounted Light Dragoon', melee: 2 },
  'mounted-infantry': { label: 'Mounted Infantry Stands', melee: 2 },
};

/** Note 1: "Mounted light dragoons count as Shock when in melee with disordered units." */
export const LIGHT_DRAGOON_SHOCK_NOTE = `${ATTACK_DICE_SOURCE}, note 1`;
/** Note 2: "Mounted Infantry roll 2 dice in melee but are always considered Disordered." */
export const MOUNTED_INFANTRY_DISORDERED_NOTE = `${ATTACK_DICE_SOURCE}, note 2`;

export type WeaponRow = 'musket' | 'rifle' | 'native-americans' | 'light-artillery' | 'field-artillery' | 'field-howitzers' | 'heavy-artillery';

/**
 * Hit Numbers ("Weapon / Melee/Short Range, Hit / Long Range, Hit"). A hit number of 5 means 5-6 on a d6.
 * Small arms print a short range of 0: their short-range hit number is the melee one only.
 */
export interface HitRow {
  readonly label: string;
  readonly shortRangeIn: number;
  readonly shortHitOn: number;
  readonly longRangeIn: number;
  readonly longHitOn: number;
  readonly artillery: boolean;
}

export const HIT_NUMBERS: Readonly<Record<WeaponRow, HitRow>> = {
  musket: { label: 'Infantry (Musket)', shortRangeIn: 0, shortHitOn: 6, longRangeIn: 8, longHitOn: 6, artillery: false },
  rifle: { label: 'Infantry (Rifle)', shortRangeIn: 0, shortHitOn: 6, longRangeIn: 12, longHitOn: 6, artillery: false },
  'native-americans': { label: 'Native Americans', shortRangeIn: 0, shortHitOn: 6, longRangeIn: 6, longHitOn: 6, artillery: false },
  'light-artillery': { label: 'Light Artillery (3-4lb guns)', shortRangeIn: 12, shortHitOn: 5, longRangeIn: 48, longHitOn: 6, artillery: true },
  'field-artillery': { label: 'Field Artillery (6-9lb guns)', shortRangeIn: 16, shortHitOn: 4, longRangeIn: 64, longHitOn: 6, artillery: true },
  'field-howitzers': { label: 'Field Howitzers (5.5-6)', shortRangeIn: 12, shortHitOn: 5, longRangeIn: 64, longHitOn: 6, artillery: true },
  'heavy-artillery': { label: 'Heavy Artillery (12lb guns)', shortRangeIn: 20, shortHitOn: 4, longRangeIn: 80, longHitOn: 6, artillery: true },
};

/** Note 1: sharpshooters subtract one from the needed number in fire combat. */
export const SHARPSHOOTER_HIT_MOD = -1;
export const SHARPSHOOTER_SOURCE = `${HIT_NUMBERS_SOURCE}, note 1`;
/** Note 2: shock subtracts one from the needed number in offensive melee combat. */
export const SHOCK_HIT_MOD = -1;
export const SHOCK_SOURCE = `${HIT_NUMBERS_SOURCE}, note 2`;

export const FIRING_LANES_SOURCE = cite('Combat: Firing lanes', 5);
export const RETURN_FIRE_SOURCE = cite('Combat: Battalion Return Fire', 5);

/** Saves (p. 5): the conditions under which a stand rolls to save hits. The save numbers are in the base rules. */
export type SaveCondition =
  | 'skirmish-order'
  | 'infantry-in-woods'
  | 'infantry-in-buildings'
  | 'in-works'
  | 'artillery-long-range-light-field'
  | 'hit-by-disordered'
  | 'mounted-retire';

export const SAVES_SOURCE = cite('Saves', 5);

export const SAVE_LABELS: Readonly<Record<SaveCondition, string>> = {
  'skirmish-order': 'Stands in skirmish order, from any hits from fire',
  'infantry-in-woods': 'Infantry in forests, thickets or woods, from hits by small arms fire',
  'infantry-in-buildings': 'Infantry occupying buildings, from hits from fire (except heavy artillery) or melee',
  'in-works': 'Artillery and infantry in works, from hits by fire or melee',
  'artillery-long-range-light-field': 'Artillery hit by long range fire from light or field guns',
  'hit-by-disordered': 'All stands, from hits by disordered stands',
  'mounted-retire': 'Mounted stands which elect to retire six inches per hit from fire',
};

/** "Mounted stands which elect to retire six (6) inches per hit from fire" (Saves, p. 5). */
export const MOUNTED_RETIRE_IN_PER_HIT = 6;

/** The artillery danger zone: short range, straight down the barrel, 2" either side (Morale, condition 2, p. 4). */
export const DANGER_ZONE_HALF_WIDTH_IN = 2;
export const DANGER_ZONE_SOURCE = cite('Morale: condition 2 (artillery danger zone)', 4);

/**
 * Melee Results (p. 5): more hits wins; losing every SP engaged loses outright; equal hits go to a roll-off
 * of a d6 plus each side's best modified morale, no elites (NE) 1 less. The loser: not yet disordered,
 * becomes disordered and retreats a half move; already disordered, routs a full move to the rear, gains the
 * marker it lacks and loses 1 SP per stand; already routed, routs and is removed from play.
 */
export const MELEE_RESULTS_SOURCE = cite('Melee Results', 5);
/** "Stands identified as having no elites (NE) subtract 1 from their total" in the tie roll-off. */
export const NO_ELITES_TIE_MOD = -1;
/** A loser in good order retreats "one half turn"; a disordered loser routs "one full turn" (fractions of its move). */
export const MELEE_RETREAT_MOVE_FRACTION = 0.5;
export const MELEE_ROUT_MOVE_FRACTION = 1;
/** SP a routing stand loses ("the loss of 1 SP per stand as part of this rout"). */
export const ROUT_SP_LOSS_PER_STAND = 1;

/**
 * "They will disorder any friendly stands they pass through in the first 4 of their movement" (a loser's
 * half-turn retreat; the inch mark is lost in the text), "in the first half of their movement" (a rout).
 */
export const RETREAT_DISORDERS_FRIENDS_IN = 4;
export const ROUT_DISORDERS_FRIENDS_FRACTION = 0.5;
/** "A victorious stand may not advance to contact an enemy stand, and must stop a quarter of an inch away from it." */
export const VICTOR_STOP_SHORT_IN = 0.25;
/** "artillery stands which rout abandon their weapons and move as infantry" (Melee Results, p. 5; Morale, p. 4). */
export const ROUTED_GUNS_MOVE_AS_INFANTRY = true;

/** "While in road march, stands have no combat value" (Movement: Road March, p. 2; Stand Types: artillery "if limbered (in road march) the stand has no combat value", p. 1). */
export const NO_COMBAT_VALUE_SOURCE = `${cite('Movement: Road March', 2)}; ${cite('Stand Types', 1)}`;

/** Streams: "stands attacking across a stream are considered disordered if the far bank is defended by an enemy unit" (p. 3). */
export const STREAM_ATTACK_SOURCE = cite('Terrain Effects: Streams', 3);

/**
 * Fences and Hedges (p. 3): "Non-disordered mounted stands attempting to cross a fence in order to enter into
 * melee must check for disorder. To avoid disorder a stand must roll less than its current morale on a D6.
 * Stands rated as poorly trained add one to this die roll. This test is before the morale test to enter melee.
 * Stands which are already disordered do not check for crossing a fence."
 */
export const FENCE_CHECK_SOURCE = cite('Terrain Effects: Fences and Hedges', 3);
export const FENCE_CHECK_POORLY_TRAINED_MOD = 1;

/** Native American Morale (p. 4): a disordered band attacked by mounted troops is eliminated; the mounted troops "may change facing and move up to 12, but are considered as disordered at the end of their movement". */
export const NATIVE_AMERICAN_SOURCE = cite('Native American Morale', 4);
export const NATIVE_RIDDEN_DOWN_MOVE_IN = 12;

/**
 * Marsh (Terrain Effects, p. 3): a D6 per stand on entering, "1-2 ... no effect, 3-4 the cost of moving is 2 per
 * 1 moved, 5 or more the cost of moving is 4 per 1 moved and the stand is disordered. Add 1 to the roll if
 * testing for an artillery stand. Also add 1 if the stand is crossing where another stand has already crossed."
 */
export const MARSH_SOURCE = cite('Terrain Effects: Marsh', 3);
export const MARSH_BANDS: readonly { readonly from: number; readonly costPerIn: number; readonly disorders: boolean; readonly label: string }[] = [
  { from: -Infinity, costPerIn: 1, disorders: false, label: 'no effect' },
  { from: 3, costPerIn: 2, disorders: false, label: 'the cost of moving is 2 per 1 moved' },
  { from: 5, costPerIn: 4, disorders: true, label: 'the cost of moving is 4 per 1 moved and the stand is disordered' },
];
export const MARSH_ARTILLERY_MOD = 1;
export const MARSH_CROSSED_BEFORE_MOD = 1;
