/**
 * The Charge Table (QRS II, Figure 4): die roll modifiers for each side and the result bands by die result
 * difference (attacker's modified result minus defender's), as shifted by Charge Table Changes 21.
 */
import { qrs } from './source.ts';

const M = qrs('Figure 4, Charge Table, Die Roll Modifiers');

export const CHARGE_QUALITY_MODIFIER = { crack: 2, veteran: 1, trained: 0, green: -1, source: M } as const;
export const CHARGE_EFFECTIVENESS_MODIFIER = { fresh: 2, worn: 0, spent: -2, source: M } as const;

export const CHARGE_MODIFIERS = {
  extendedLine: { label: 'Extended line', value: -1, source: M },
  outflankedBrokenMarchColumnOrLimbered: { label: 'Outflanked, broken, march column, or limbered guns', value: -3, source: M },
  defendingFavorableGround: { label: 'Defending favorable ground', value: 1, source: M },
  strongPositionOrFortified: { label: 'Strong position or fortified', value: 2, source: M },
  coldSteelOrBreakthrough: { label: 'Cold steel or breakthrough', value: 1, source: M },
  cavalryChargeOpen: { label: 'Cavalry charge over open ground', value: 2, source: M },
  cavalryChargeBroken: { label: 'Cavalry charge over broken ground', value: 1, source: M },
  // "0 Rough ground, mounted infantry, or stationary": the cavalry charge bonus drops to nothing.
  cavalryChargeNone: { label: 'Cavalry charge: rough ground, mounted infantry, or stationary', value: 0, source: M },
  supportedGuns: { label: 'Supported guns', value: 1, source: M },
  unsupportedGuns: { label: 'Unsupported guns', value: -1, source: M },
  disorderedOrSilenced: { label: 'Disordered troops or silenced gun', value: -1, source: M },
  attachedLeaderOrBraveColonel: { label: 'Attached leader or brave colonel', value: 1, source: M },
} as const;

/** Outnumbered by stand count: -1 at 3:2, -2 at 2:1, -3 at 3:1 or more (highest ratio first). */
export const OUTNUMBERED_MODIFIERS: readonly { readonly ratio: number; readonly label: string; readonly value: number }[] = [
  { ratio: 3, label: 'Outnumbered 3:1 or more', value: -3 },
  { ratio: 2, label: 'Outnumbered 2:1', value: -2 },
  { ratio: 1.5, label: 'Outnumbered 3:2', value: -1 },
];

export interface ChargeBand {
  /** Lowest die result difference of the band; -Infinity for "or more" losses. */
  readonly min: number;
  readonly effect: string;
}

/** 8 or more Swept from the Field, 4-7 Driven Back, 1-3 Hard Pressed, 0 Desperate Struggle, -1..-3 Falter, -4..-7 Recoil, -8 or more Repulsed. */
export const CHARGE_BANDS: readonly ChargeBand[] = [
  { min: 8, effect: 'swept-from-the-field' },
  { min: 4, effect: 'driven-back' },
  { min: 1, effect: 'hard-pressed' },
  { min: 0, effect: 'desperate-struggle' },
  { min: -3, effect: 'falter' },
  { min: -7, effect: 'recoil' },
  { min: -Infinity, effect: 'repulsed' },
];

/** Each side rolls one ten-sided die (Figure 4, Die Result Difference). */
export const CHARGE_DIE_SIDES = 10;

export const CHARGE_BANDS_SOURCE = qrs('Figure 4, Charge Table; Charge Table Changes 21');
