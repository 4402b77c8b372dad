/**
 * The Devil to Pay fire tables (FIRE, Range Modifiers, p. 21; Quick Reference "Fire"). Each weapon row gives
 * the dice modifier per range band; `0` is a printed "--" (fire allowed, no modifier) and `null` a blank
 * cell (out of range). Bands are upper limits: a target at 6" is in the 6" band, at 6.1" in the 12" band.
 * Also the General Modifiers' obstacle and area terrain rows (p. 22).
 */
import type { AreaTerrainKind, LinearTerrainKind } from '../../../model/tableState.ts';

export type WeaponClass = 'infantry' | 'artillery';

export interface WeaponRow {
  readonly id: string;
  /** Name as printed in the table. */
  readonly name: string;
  readonly class: WeaponClass;
  /** Dice modifier per band of `bandsIn` for this class; null = out of range. */
  readonly diceByBand: readonly (number | null)[];
}

/** Infantry Fire bands, inches: 6", 12", 24" (FIRE, Range Modifiers). */
export const INFANTRY_BANDS_IN = [6, 12, 24] as const;
/** Artillery Fire bands, inches: 6", 12", 24", 48", 72", 108" (FIRE, Range Modifiers). */
export const ARTILLERY_BANDS_IN = [6, 12, 24, 48, 72, 108] as const;

export const FIRE_TABLE_SOURCE_INFANTRY = 'Fire, Range Modifiers: Infantry Fire table (p. 21)';
export const FIRE_TABLE_SOURCE_ARTILLERY = 'Fire, Range Modifiers: Artillery Fire table (p. 21)';

const n = null;

/** Every row of both fire tables, as printed (Quick Reference, "Fire"). */
export const WEAPONS: readonly WeaponRow[] = [
  // Infantry Fire: 6" / 12" / 24"
  { id: 'rifled-musket', name: 'Rifled Musket', class: 'infantry', diceByBand: [1, 0, -2] },
  { id: 'smoothbore-musket', name: 'Smoothbore Musket', class: 'infantry', diceByBand: [2, -2, n] },
  { id: 'poor-rifled-musket', name: 'Poor Rifled Musket', class: 'infantry', diceByBand: [1, -1, -3] },
  { id: 'shotgun', name: 'Shotgun', class: 'infantry', diceByBand: [1, n, n] },
  { id: 'carbine', name: 'Carbine', class: 'infantry', diceByBand: [1, -2, n] },
  { id: 'breech-loading-carbine', name: 'Carbine (Breech Loaded)', class: 'infantry', diceByBand: [1, -1, n] },
  { id: 'repeating-carbine', name: 'Carbine (Repeater)', class: 'infantry', diceByBand: [2, 0, n] },
  // Artillery Fire: 6" / 12" / 24" / 48" / 72" / 108"
  { id: '12-pound-napoleon', name: '12 Pound Napoleon', class: 'artillery', diceByBand: [2, 2, 1, 0, -2, n] },
  { id: '3-inch-rifle', name: '10 Pound, 3 Inch Rifle', class: 'artillery', diceByBand: [2, 1, 0, 0, -1, -2] },
  { id: 'mixed-napoleon-3-inch-rifle', name: 'Mixed: Napoleon / 3 Inch R', class: 'artillery', diceByBand: [2, 1, 0, 0, -2, -3] },
  { id: '6-pound-gun', name: '6 Pound Gun', class: 'artillery', diceByBand: [1, 0, 0, -1, -3, n] },
  { id: '12-pound-howitzer', name: '12 Pound Howitzer', class: 'artillery', diceByBand: [2, 1, 0, -1, n, n] },
  { id: 'light-mixed-6-pound-howitzer', name: 'Light Mixed: 6 Pound & Howitzer', class: 'artillery', diceByBand: [1, 1, 0, -1, -3, n] },
  { id: '20-pound-rifle', name: '20 Pound Rifle', class: 'artillery', diceByBand: [2, 2, 1, 1, 0, -1] },
];

/** Other spellings players use for the same rows. */
const ALIASES: Readonly<Record<string, string>> = {
  '10-pound-parrott': '3-inch-rifle',
  '10-pound-rifle': '3-inch-rifle',
  '3-inch-ordnance-rifle': '3-inch-rifle',
  napoleon: '12-pound-napoleon',
  smoothbore: 'smoothbore-musket',
  'carbine-breech-loaded': 'breech-loading-carbine',
  'carbine-repeater': 'repeating-carbine',
};

const BY_ID = new Map(WEAPONS.map((w) => [w.id, w]));

/** The fire-table row for a weapon id (or alias); undefined for an id no table lists. */
export function weaponRow(weaponId: string): WeaponRow | undefined {
  return BY_ID.get(weaponId) ?? BY_ID.get(ALIASES[weaponId] ?? '');
}

/** Band upper limits, inches, for a weapon class. */
export function bandsFor(cls: WeaponClass): readonly number[] {
  return cls === 'infantry' ? INFANTRY_BANDS_IN : ARTILLERY_BANDS_IN;
}

/** Longest range at which the weapon may fire at all, inches (the last non-blank band). */
export function maxRangeIn(row: WeaponRow): number {
  const bands = bandsFor(row.class);
  let max = 0;
  row.diceByBand.forEach((d, i) => {
    if (d !== null) max = bands[i]!;
  });
  return max;
}

export interface BandReading {
  /** Band label as printed, e.g. '12"'. */
  readonly band: string;
  readonly bandIn: number;
  /** Dice modifier for that band. */
  readonly dice: number;
}

/**
 * The band a range falls in and its dice modifier, or undefined when the weapon cannot reach (a blank cell
 * or beyond the last band).
 * @param rangeIn range from the centre of the eligible stands to the nearest target stand, inches, >= 0
 * @example bandAt(weaponRow('rifled-musket')!, 14) // { band: '24"', bandIn: 24, dice: -2 }
 */
export function bandAt(row: WeaponRow, rangeIn: number): BandReading | undefined {
  if (!(rangeIn >= 0)) throw new Error(`bandAt: range must be a non-negative number of inches, got ${rangeIn}`);
  const bands = bandsFor(row.class);
  for (let i = 0; i < bands.length; i++) {
    const limit = bands[i]!;
    if (rangeIn <= limit) {
      const dice = row.diceByBand[i];
      return dice === null || dice === undefined ? undefined : { band: `${limit}"`, bandIn: limit, dice };
    }
  }
  return undefined;
}

/** Cover from linear terrain, as target (Fire Modifiers, 3. General Modifiers, p. 22); sunken roads count as walls (notes). */
export const FIRE_OBSTACLE_DICE: Readonly<Partial<Record<LinearTerrainKind, { readonly dice: number; readonly label: string }>>> = {
  fence: { dice: -1, label: 'Target behind fence' },
  wall: { dice: -2, label: 'Target behind wall' },
  'hasty-works': { dice: -2, label: 'Target behind hasty works' },
  'sunken-road': { dice: -2, label: 'Target in sunken road (as wall)' },
  entrenchment: { dice: -3, label: 'Target behind entrenchment' },
};

/** Area terrain fire modifiers, as firer and as target, counted once (Fire Modifiers, 3. General Modifiers, p. 22). Swamp has none. */
export const FIRE_AREA_DICE: Readonly<Partial<Record<AreaTerrainKind, { readonly dice: number; readonly label: string }>>> = {
  'open-woods': { dice: -1, label: 'Open woods' },
  farm: { dice: -1, label: 'Farm' },
  rough: { dice: -1, label: 'Rough ground' },
  'thick-woods': { dice: -2, label: 'Thick woods' },
  town: { dice: -2, label: 'Town' },
  city: { dice: -2, label: 'City' },
  thicket: { dice: -2, label: 'Thicket' },
};
