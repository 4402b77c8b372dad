/**
 * Morale (p. 4): the morale modifiers table; Exhaustion (p. 7): the strength-point modifier by morale;
 * Morale Collapse (p. 5).
 */
import { cite } from './source.ts';

export const MORALE_SOURCE = cite('Morale', 4);

export type MoraleCondition =
  | 'stationary-higher-ground'
  | 'defending-works'
  | 'superior-commander-attached'
  | 'meleeing-skirmishers'
  | 'meleeing-flank-or-rear'
  | 'attacking-road-march'
  | 'disordered'
  | 'cavalry-vs-heavier-cavalry'
  | 'meleeing-artillery-from-front'
  | 'unsupported-artillery-meleed'
  | 'infantry-meleed-by-mounted'
  | 'meleed-from-flank'
  | 'meleed-in-road-march'
  | 'meleed-while-routed';

/** Condition / Mod, as printed (Morale, p. 4). */
export const MORALE_MODIFIERS: Readonly<Record<MoraleCondition, { readonly label: string; readonly mod: number }>> = {
  'stationary-higher-ground': { label: 'Stationary Infantry or Artillery defending higher ground', mod: 1 },
  'defending-works': { label: 'Infantry or Artillery defending Works', mod: 1 },
  'superior-commander-attached': { label: 'Superior commander (not UC) attached to the unit', mod: 1 },
  'meleeing-skirmishers': { label: 'Meleeing skirmishers', mod: 1 },
  'meleeing-flank-or-rear': { label: 'Meleeing enemy unit in flank or rear', mod: 1 },
  'attacking-road-march': { label: 'Attacking units in road march', mod: 1 },
  disordered: { label: 'Stand is disordered', mod: -1 },
  'cavalry-vs-heavier-cavalry': { label: 'Cavalry meleeing heavier cavalry', mod: -1 },
  'meleeing-artillery-from-front': { label: 'Meleeing artillery from front', mod: -1 },
  'unsupported-artillery-meleed': { label: 'Unsupported artillery being meleed', mod: -1 },
  'infantry-meleed-by-mounted': { label: 'Infantry meleed by mounted units', mod: -1 },
  'meleed-from-flank': { label: 'Meleed from the flank', mod: -2 },
  'meleed-in-road-march': { label: 'Meleed while in road march', mod: -2 },
  'meleed-while-routed': { label: 'Meleed while already routed', mod: -3 },
};

export const EXHAUSTION_SOURCE = cite('Exhaustion', 7);

/** Unit Morale / Strength Point Modifier: 4 → 40%, 5 → 50%, 6 → 60% (Exhaustion, p. 7). */
export const EXHAUSTION_FRACTION_BY_MORALE: Readonly<Record<number, number>> = { 4: 0.4, 5: 0.5, 6: 0.6 };

export const COLLAPSE_SOURCE = cite('Morale Collapse', 5);
export const RALLY_SOURCE = cite('Rally', 4);
/** Militia (MIL): "Counts as poorly trained and permanently disordered (red marker)" (Special Abilities, p. 1). */
export const SPECIAL_ABILITIES_SOURCE = cite('Special Abilities', 1);
export const COMMAND_SOURCE = cite('Command and Control', 1);
/** "within 6 of a superior commander or 3 of a Unit Commanders at the start of a turn" (Command and Control, p. 1). */
export const SUPERIOR_COMMAND_RADIUS_IN = 6;
export const UNIT_COMMANDER_RADIUS_IN = 3;
