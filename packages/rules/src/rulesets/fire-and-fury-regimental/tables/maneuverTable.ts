/**
 * The Maneuver Table (QRS II, Figure 1 / Figure 5): die roll modifiers (list B) and the two die result
 * columns, C1/C2 for troops in good order and guns, D1/D2 for disordered or broken troops.
 */
import { qrs } from './source.ts';

const B = qrs('Maneuver Table, Die Roll Modifiers');

/** Leader rating of the leader conducting the check: +1 Gallant, 0 Able, -1 Poor. */
export const LEADER_RATING_MODIFIER = { gallant: 1, able: 0, poor: -1, source: B } as const;

/** Troop rating: +2 Crack unit, +1 Veteran, 0 Trained, -1 Green. */
export const QUALITY_MODIFIER = { crack: 2, veteran: 1, trained: 0, green: -1, source: B } as const;

/** Effectiveness: +2 Fresh troops, 0 Worn, -2 Spent. */
export const EFFECTIVENESS_MODIFIER = { fresh: 2, worn: 0, spent: -2, source: B } as const;

export const MANEUVER_MODIFIERS = {
  attachedLeaderOrBraveColonel: { label: 'Attached leader or brave colonel', value: 1, source: B },
  // "Provisional command" -1 also applies to militia (Maneuver Die Roll Modifiers, Provisional Command).
  provisionalCommand: { label: 'Provisional command', value: -1, source: B },
  // Non-cumulative; takes precedence over provisional command (Maneuver Table Changes).
  outOfCommand: { label: 'Out of command', value: -2, source: B },
  battery: { label: 'Battery', value: 2, source: B },
  columnGarrisonLimberedOrCover: { label: 'Field or march column, garrison, limbered gun, or linear cover', value: 1, source: B },
  outflankedOrBroken: { label: 'Outflanked within 8", or broken', value: -2, source: B },
  keyPositionLost: { label: 'Key position lost', value: -1, source: B },
  heavyCasualties: { label: 'Heavy casualties', value: -1, source: B },
  greaterLosses: { label: 'Greater losses', value: -2, source: B },
} as const;

export interface ManeuverBand {
  /** Lowest modified die result of the band; -Infinity for "or less". */
  readonly min: number;
  readonly effect: string;
  readonly text: string;
}

/** C1/C2, troops in good order and guns: 8 or more, 3-7, 1-2, 0/-1, -2 or less. */
export const GOOD_ORDER_BANDS: readonly ManeuverBand[] = [
  { min: 8, effect: 'double-quick', text: 'Double Quick. Well handled maneuver at the double quick rate.' },
  { min: 3, effect: 'well-handled', text: 'Well Handled maneuver.' },
  { min: 1, effect: 'tardy', text: 'Tardy maneuver.' },
  { min: -1, effect: 'fall-back', text: 'Fall Back. Troops retreat out of close range disordered.' },
  { min: -Infinity, effect: 'panic', text: 'Panic. Troops retreat broken. Guns limber and full retreat silenced.' },
];

/** D1/D2, disordered or broken troops: 11 or more, 5-10, 3-4, 1-2, 0 or less. */
export const DISORDERED_BANDS: readonly ManeuverBand[] = [
  { min: 11, effect: 'rally-with-elan', text: 'Rally with Elan. Return to good order and well handled maneuver.' },
  { min: 5, effect: 'rally', text: 'Rally. Return to good order and tardy maneuver.' },
  { min: 3, effect: 'shaken', text: 'Shaken. Retreat out of close range. Return to good order.' },
  { min: 1, effect: 'wavering', text: 'Wavering. Retreat out of close range. Remain disordered.' },
  { min: -Infinity, effect: 'panic', text: 'Panic. Retreat broken. Lose 1 stand per point of die result below 0.' },
];

export const MANEUVER_BANDS_SOURCE = qrs('Maneuver Table, Die Result columns C1/D1');

/** The maneuver check rolls one ten-sided die (Maneuver Table Procedure). */
export const MANEUVER_DIE_SIDES = 10;
