/**
 * Fire: ranges, arc, line of sight and how many bases may fire (While the Devil Rules, Fire; Formations for
 * the per-face caps of pike & shot formations).
 */
import type { WeaponId } from './troopTypes.ts';

export const FIRE_SOURCE = 'Fire';

export interface RangeRow {
  readonly weapon: WeaponId;
  readonly name: string;
  /** Short range, inches; null where the table gives no range (pistols fire only in charges). */
  readonly shortIn: number | null;
  readonly maxIn: number | null;
}

/** The range table of "Fire", row by row as printed. */
export const RANGES: readonly RangeRow[] = [
  // "Musketeers 6 inches 12 inches"
  { weapon: 'musket', name: 'Musketeers', shortIn: 6, maxIn: 12 },
  // "Harqebusier (Carbines), Bows 3 inches 6 inches"
  { weapon: 'carbine-bow', name: 'Carbines, bows', shortIn: 3, maxIn: 6 },
  // "Cuirassiers, Reiters (Pistols) Charging/Receiving Charge"
  { weapon: 'pistol', name: 'Pistols', shortIn: null, maxIn: null },
  // "Light Artillery 6 inches 18 inches"
  { weapon: 'light-artillery', name: 'Light artillery', shortIn: 6, maxIn: 18 },
  // "Medium Artillery 9 inches 24 inches"
  { weapon: 'medium-artillery', name: 'Medium artillery', shortIn: 9, maxIn: 24 },
  // "Heavy Artillery 12 inches 36 inches"
  { weapon: 'heavy-artillery', name: 'Heavy artillery', shortIn: 12, maxIn: 36 },
];

export function rangeRow(weapon: WeaponId): RangeRow {
  return RANGES.find((r) => r.weapon === weapon)!;
}

/** "up to 45 degrees to either side of facing outward, measured from the edge of the base" (Fire). */
export const FIRE_ARC_HALF_DEG = 45;
/** "passing through a gap at least 2 inches in width" (Fire). */
export const SIGHT_GAP_IN = 2;
/** "Line of sight extends 2 inches into, out of, or through woods or similar concealing terrain" (Fire). */
export const SIGHT_INTO_WOODS_IN = 2;
/** Shooting over units from one level higher needs "no other unit closer than 2 inches to the target" (Fire). */
export const OVERHEAD_CLEAR_OF_TARGET_IN = 2;

/** Faces of a pike & shot block, as the unit sees them. */
export type Face = 'front' | 'rear' | 'left' | 'right';

export interface FaceCaps {
  readonly front: number;
  readonly rear: number;
  readonly flank: number;
  readonly source: string;
}

/** Bases that may fire out of each face of a pike & shot formation, by troop family (Formations). */
export const PIKE_AND_SHOT_FACE_CAPS: Readonly<Record<'dutch' | 'tercio' | 'swedish', FaceCaps>> = {
  // "Dutch Battalions may fire two bases to front or rear, but only one base to either flank."
  dutch: { front: 2, rear: 2, flank: 1, source: 'Formations (Dutch Battalions)' },
  // "may fire in any direction, from any of its flat sides. No more than two bases may ever be used as part of a single firing in any direction"
  tercio: { front: 2, rear: 2, flank: 2, source: 'Formations (Tercios)' },
  // "Swedish brigades may fire 3 bases at targets within their front arc, and two bases to the rear and side arcs"
  swedish: { front: 3, rear: 2, flank: 2, source: 'Formations (Swedish Brigade)' },
};

/**
 * Force ratio bands (Fire: "Outnumbered is any difference in size which is more than exactly equal in bases,
 * but which is less than fully twice ('Badly Outnumbered')"), named as the app's list names them.
 */
export type ForceRatio = 'actor-badly-outnumbered' | 'actor-outnumbered' | 'force-even' | 'target-outnumbered' | 'target-badly-outnumbered';

export const FORCE_RATIO_LABELS: Readonly<Record<ForceRatio, string>> = {
  'actor-badly-outnumbered': 'Actor Badly Outnumbered',
  'actor-outnumbered': 'Actor Outnumbered',
  'force-even': 'Force Even',
  'target-outnumbered': 'Target Outnumbered',
  'target-badly-outnumbered': 'Target Badly Outnumbered',
};

/** The band for `actorBases` against `targetBases`: twice or more is "badly". */
export function forceRatio(actorBases: number, targetBases: number): ForceRatio {
  if (actorBases === targetBases) return 'force-even';
  if (actorBases < targetBases) return targetBases >= 2 * actorBases ? 'actor-badly-outnumbered' : 'actor-outnumbered';
  return actorBases >= 2 * targetBases ? 'target-badly-outnumbered' : 'target-outnumbered';
}
