/**
 * Musketry & Cannonade numbers the QRS gives (Musketry and Cannonade Table Changes; Weapons; Fire Combat
 * Modifier). Per-weapon range bands and fire points are mostly in the basic rulebook: they are parameters
 * (`../fields.ts`); the few the QRS states are their defaults here.
 */
import { qrs } from './source.ts';

export type WeaponClass = 'small-arms' | 'gun';

export interface WeaponDef {
  readonly code: string;
  readonly label: string;
  readonly weaponClass: WeaponClass;
  /** Band names in order, nearest first. Small arms: close, effective; guns: canister, then shell bands. */
  readonly bands: readonly string[];
  /** Weapon whose range bands this one uses, when the QRS says so. */
  readonly rangesFrom?: string;
  /** Weapon whose range bands and fire points this one uses, when the QRS says so. */
  readonly sameAs?: string;
  /** Values the QRS gives, keyed `<band>-in` / `<band>-points`. */
  readonly given?: Readonly<Record<string, { readonly value: number; readonly source: string }>>;
  /** Where the code comes from. */
  readonly source: string;
}

const SMALL = ['close', 'effective'] as const;
// Guns: canister and up to three shell bands; a band entered as 0" does not exist for that weapon.
const GUN = ['canister', 'shell-1', 'shell-2', 'shell-3'] as const;
const BASIC = 'Regimental Fire and Fury rulebook, Weapons (pp. 10-12; not in the QRS)';

const HH_ROW = qrs('Weapons, Heavy Howitzer (HH), the row "Canister 4" | Shell 12" 48"": 6 | 4 3');

/**
 * The heavy howitzer's bands as the sheet prints them (Weapons, Heavy Howitzer (HH)): canister to 4" at 6
 * fire points, shell to 12" at 4, shell to 48" at 3. Reading: the printed columns are the gun's bands, so it
 * has no fourth (shell-3 is 0", "no such band"). The text's "more hitting power than the 12-pound Napoleon
 * ... when firing shell between 36" and 48"" compares it with the Napoleon's bands; it adds no HH band.
 */
export const HEAVY_HOWITZER_BANDS: Readonly<Record<string, { readonly value: number; readonly source: string }>> = {
  'canister-in': { value: 4, source: HH_ROW },
  'canister-points': { value: 6, source: HH_ROW },
  'shell-1-in': { value: 12, source: HH_ROW },
  'shell-1-points': { value: 4, source: HH_ROW },
  'shell-2-in': { value: 48, source: HH_ROW },
  'shell-2-points': { value: 3, source: HH_ROW },
  'shell-3-in': { value: 0, source: `${HH_ROW} (reading: no fourth band printed)` },
  'shell-3-points': { value: 0, source: `${HH_ROW} (reading: no fourth band printed)` },
};

export const WEAPONS: readonly WeaponDef[] = [
  { code: 'SM', label: 'Smoothbore musket (SM)', weaponClass: 'small-arms', bands: SMALL, source: qrs('Fire Combat Modifier, Buck and Ball') },
  { code: 'IR', label: 'Inferior rifle (IR)', weaponClass: 'small-arms', bands: SMALL, source: qrs('Weapons, Rifle & Carbine') },
  { code: 'R', label: 'Rifled musket (R)', weaponClass: 'small-arms', bands: SMALL, source: BASIC },
  // "The rifle and carbine class has the same weapon range as infantry armed with inferior rifles (IR)."
  { code: 'RC', label: 'Rifle & carbine (RC)', weaponClass: 'small-arms', bands: SMALL, rangesFrom: 'IR', source: qrs('Weapons, Rifle & Carbine (RC)') },
  ...(['BLC', 'BLR'] as const).map((code): WeaponDef => ({
    code,
    label: code === 'BLC' ? 'Breech-loading carbine (BLC)' : 'Breech-loading rifle (BLR)',
    weaponClass: 'small-arms',
    bands: SMALL,
    // "two fire points per stand at 4" close range"
    given: {
      'close-in': { value: 4, source: qrs('Weapons, Breech-loading Carbine (BLC) or Rifle (BLR)') },
      'close-points': { value: 2, source: qrs('Weapons, Breech-loading Carbine (BLC) or Rifle (BLR)') },
    },
    source: qrs('Musketry and Cannonade Table Changes 14'),
  })),
  ...(['RPC', 'RPR'] as const).map((code): WeaponDef => ({
    code,
    label: code === 'RPC' ? 'Repeater carbine (RPC)' : 'Repeater rifle (RPR)',
    weaponClass: 'small-arms',
    bands: SMALL,
    // "two fire points per stand at close range out to 8"" and "an effective range out to 12""
    given: {
      'close-in': { value: 8, source: qrs('Weapons, Repeater Carbine (RPC) or Rifle (RPR)') },
      'close-points': { value: 2, source: qrs('Weapons, Repeater Carbine (RPC) or Rifle (RPR)') },
      'effective-in': { value: 12, source: qrs('Weapons, Repeater Carbine (RPC) or Rifle (RPR)') },
    },
    source: qrs('Musketry and Cannonade Table Changes 14'),
  })),
  { code: 'LS', label: 'Light smoothbore gun (LS)', weaponClass: 'gun', bands: GUN, source: BASIC },
  { code: 'HS', label: '12-pound Napoleon, heavy smoothbore (HS)', weaponClass: 'gun', bands: GUN, source: qrs('Weapons, Heavy Howitzer (HH)') },
  { code: 'LH', label: 'Light howitzer (LH)', weaponClass: 'gun', bands: GUN, source: qrs('Weapons, Mountain Howitzer (MH)') },
  // The sheet prints the heavy howitzer's row: "Canister 4" | Shell 12" 48"" over "6 | 4 3". Read as three
  // bands, canister out to 4" at 6 points, shell out to 12" at 4 and out to 48" at 3, and no fourth band
  // (HEAVY_HOWITZER_BANDS; the README says why; every value stays a parameter the players may change).
  { code: 'HH', label: '24-pound heavy howitzer (HH)', weaponClass: 'gun', bands: GUN, given: HEAVY_HOWITZER_BANDS, source: qrs('Musketry and Cannonade Table Changes 15') },
  // "The mountain howitzer has the same weapon range and fire points as a light howitzer (LH)."
  { code: 'MH', label: '12-pound mountain howitzer (MH)', weaponClass: 'gun', bands: GUN, sameAs: 'LH', source: qrs('Weapons, Mountain Howitzer (MH)') },
  { code: 'LR', label: 'Light rifled gun (LR)', weaponClass: 'gun', bands: GUN, source: BASIC },
  { code: 'HR', label: '20-pound Parrott heavy rifle (HR)', weaponClass: 'gun', bands: GUN, source: qrs('Limbered and Unlimbered Guns, Maneuver Restrictions for Heavier Guns') },
];

export const WEAPON_BY_CODE: ReadonlyMap<string, WeaponDef> = new Map(WEAPONS.map((w) => [w.code, w]));

export const FIRE_POINTS_SOURCE = qrs('Musketry and Cannonade Table Changes 16');

/**
 * Fire points to die roll modifier, 8 points and up (Changes 16): "+1 now begins at 9 points, a +2 is at 12
 * ... up to a maximum of a +5 modifier with 25 or more fire points. Round fractions down." The +3 and +4
 * break points and everything at 7 or less are the basic rulebook's (parameters); 8 points is a reading.
 */
export const FIRE_POINTS_GIVEN: readonly { readonly atLeast: number; readonly modifier: number }[] = [
  { atLeast: 25, modifier: 5 },
  { atLeast: 12, modifier: 2 },
  { atLeast: 9, modifier: 1 },
];

export const FIRE_MODIFIERS = {
  // "Subtract one if half or more of the total fire points are from troop or gun stands rated green."
  green: { label: 'Green troops or guns firing (half or more of the fire points)', value: -1, source: qrs('Fire Combat Modifier, Green Troops and Guns Firing') },
  // "Add one if half or more of the total fire points are from troop stands rated as sharpshooters."
  sharpshooters: { label: 'Sharpshooters (half or more of the fire points)', value: 1, source: qrs('Fire Combat Modifier, Buck and Ball, Repeater and Sharpshooters') },
  // "A non-cumulative +1 modifier now applies when firing at a target crossing an abatis."
  abatis: { label: 'Target crossing an abatis', value: 1, source: qrs('Musketry and Cannonade Table Changes 19') },
} as const;

/** Fire combat rolls one ten-sided die (Figure 3, Die Result). */
export const FIRE_DIE_SIDES = 10;

/** Effects on the Musketry & Cannonade Table, strongest first (Figure 3). */
export const FIRE_EFFECTS = ['withering', 'telling', 'galling', 'lively'] as const;
export type FireEffect = (typeof FIRE_EFFECTS)[number];

/** Target rating columns of Figure 3. */
export const FIRE_TARGET_COLUMNS = ['crack', 'veteran', 'trained', 'green'] as const;

/** "Massed Target. Units within 2" behind target suffer the next lower effect." (Figure 3, Additional Effects) */
export const MASSED_TARGET_BEHIND_IN = 2;

/** "Fallen Leader check on a base die result of 10. Effect applies to the closest leader within 4" of the target." (Figure 3) */
export const FALLEN_LEADER_WITHIN_IN = 4;
