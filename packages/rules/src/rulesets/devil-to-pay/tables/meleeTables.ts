/**
 * The Devil to Pay (2018) melee numbers as data: Charge, Melee Modifiers (1. Formation, 2. General).
 * Universal modifiers live in `universalModifiers.ts`.
 */
import type { Formation } from '../../../model/tableState.ts';

export const MELEE_FORMATION_SOURCE = 'The Devil to Pay (2018), Charge: Melee Modifiers, 1. Formation Modifiers';
export const MELEE_GENERAL_SOURCE = 'The Devil to Pay (2018), Charge: Melee Modifiers, 2. General Modifiers';

/** Dice added per unit for its formation in a melee. */
export const MELEE_FORMATION_DICE: Readonly<Record<Formation, number>> = {
  line: 0, // Formation Modifiers: Line --
  'double-line': 0, // a double line is a line (Armies, Infantry: Line)
  'loose-order': -2, // Formation Modifiers: Loose Order -2 Die
  'attack-column': 1, // Formation Modifiers: Attack Column +1 Die
  'march-column': -3, // Formation Modifiers: March Column -3 Die
  unlimbered: 0, // Formation Modifiers: Unlimbered Artillery --
  limbered: -3, // Formation Modifiers: Limbered Artillery -3 Die
  disordered: -2, // Formation Modifiers: Disordered -2 Die
  commander: 0, // commanders do not melee on their own
  unknown: 0, // nothing recognised: no modifier rather than a guess
  square: 0, // not a The Devil to Pay formation (never recognised here); no modifier
  block: 0, // not a The Devil to Pay formation (never recognised here); no modifier
};

/** Disordered artillery melees at -3 Die (Armies, Artillery: Disordered Artillery table, Melee -3 Die). */
export const DISORDERED_ARTILLERY_MELEE_DICE = -3;

/** General modifiers (Charge: Melee Modifiers, 2. General Modifiers). */
export const CHARGE_ORDER_DICE = 1; // Charge Order +1 Die, applied once per melee
export const MOUNTED_MELEE_DICE = 1; // Mounted +1 Die
export const ENEMY_FLANKED_DICE = 2; // Enemy Flanked +2 Die
export const PRONE_MELEE_DICE = -2; // Prone -2 Die (also Optional Rules: Going Prone)
export const ATTACKING_OBSTACLE_DICE = -1; // Attacking Fence, Wall, Hasty Works, Entrenchments -1 Die
export const ATTACKING_HIGHER_GROUND_DICE = -1; // Attacking Higher Ground -1 Die

/** Obstacles that give the attacker -1 Die (General Modifiers; sunken roads count as walls only for fire). */
export const DEFENSIVE_OBSTACLES: ReadonlySet<string> = new Set(['fence', 'wall', 'hasty-works', 'entrenchment']);

/** Charge: Charge Move: the target must be within 6" of the charger's front centre and within 45° of it. */
export const CHARGE_REACH_IN = 6;
export const CHARGE_ARC_HALF_DEG = 45;
/** Reinforce a Defense: the reinforcing unit needs the target within 6" and 45° of its front centre. */
export const REINFORCE_REACH_IN = 6;

/** Melee formation modifier for a unit; disordered artillery has its own row. */
export function meleeFormationDice(formation: Formation, isArtillery: boolean): number {
  if (formation === 'disordered' && isArtillery) return DISORDERED_ARTILLERY_MELEE_DICE;
  return MELEE_FORMATION_DICE[formation];
}
