/**
 * The Devil to Pay "Universal Modifiers": dice added to every Fire, Charge (melee) and Rally roll of a unit.
 */
import type { DiceModifier } from '../../engine/evaluation.ts';
import type { Quality } from '../../model/tableState.ts';

/** Where these numbers come from, for `DiceModifier.source`. */
export const UNIVERSAL_MODIFIERS_SOURCE = 'Universal Modifiers (Commanders p. 6, Troop Quality p. 7)';

/** Where the optional Trained/Veteran numbers come from. */
export const TRAINED_VETERAN_SOURCE = 'Optional Rules, Trained and Veteran Troops';

/** The roll the modifiers are for, and whether the optional Trained and Veteran Troops rule is in play. */
export interface UniversalModifierOptions {
  readonly roll: 'fire' | 'melee' | 'rally';
  /** `TableState.optionalRules` lists 'trained-veteran'. */
  readonly trainedVeteran: boolean;
}

/**
 * Universal modifiers for one unit: Brigade Commander attached +1 Die, Crack +1 Die, Green -1 Die.
 * Veteran troops get nothing, and a 'trained' unit is a veteran one, unless the optional Trained and
 * Veteran Troops rule is in play: then trained troops -1 Die in melee and veterans +1 Die when firing.
 *
 * @param unit the unit's troop quality
 * @param commanderAttached true when a brigade commander is attached to the unit
 * @param options the roll and the optional rule; without it the core rule only
 * @returns modifiers to append to a breakdown; empty for an unattached veteran unit
 * @example universalModifiers({ quality: 'crack' }, true) // two +1 modifiers
 */
export function universalModifiers(
  unit: { readonly quality: Quality },
  commanderAttached: boolean,
  options?: UniversalModifierOptions,
): DiceModifier[] {
  const modifiers: DiceModifier[] = [];
  if (commanderAttached) {
    // Attached Commander Benefits (p. 6): +1 Die when Firing, Rallying or Charging.
    modifiers.push({ label: 'Brigade commander attached', dice: 1, source: `Attached Commander Benefits (p. 6); ${UNIVERSAL_MODIFIERS_SOURCE}` });
  }
  if (unit.quality === 'crack') {
    // Troop Quality (p. 7): Crack +1 Die when Firing, Rallying or Charging.
    modifiers.push({ label: 'Crack', dice: 1, source: `Troop Quality (p. 7); ${UNIVERSAL_MODIFIERS_SOURCE}` });
  } else if (unit.quality === 'green') {
    // Troop Quality (p. 7): Green -1 Die when Firing, Rallying or Charging.
    modifiers.push({ label: 'Green', dice: -1, source: `Troop Quality (p. 7); ${UNIVERSAL_MODIFIERS_SOURCE}` });
  } else if (options?.trainedVeteran) {
    // Optional Rules, Trained and Veteran Troops: "Trained troops suffer -1 Die in Melee. Veteran Troops
    // receive +1 Die when firing."
    if (unit.quality === 'trained' && options.roll === 'melee') modifiers.push({ label: 'Trained', dice: -1, source: TRAINED_VETERAN_SOURCE });
    if (unit.quality === 'veteran' && options.roll === 'fire') modifiers.push({ label: 'Veteran', dice: 1, source: TRAINED_VETERAN_SOURCE });
  }
  return modifiers;
}
