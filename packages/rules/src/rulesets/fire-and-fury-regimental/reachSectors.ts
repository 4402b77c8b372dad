/**
 * Which way a formed unit may move, measured from its front (QRS II, Troop Movement, Oblique; Troop
 * Maneuvers, Well Handled):
 * - an advance or a withdrawal keeps the unit's facing and may oblique "at an angle up to 45-degrees",
 *   with the distance "measured along the angle": the chart rate holds within 45° of straight ahead and of
 *   straight back;
 * - any other direction is a march by the flank, "a half move" (Well Handled: the reach drawn is the Well
 *   Handled full move; a Tardy "full move disordered" may not move by the flank, which the note says);
 * - "A charging unit may oblique only at the beginning of its charge": a charge goes ahead, within 45°.
 * March columns, broken units, guns and leaders are not bound by a front here (`undefined`: every direction
 * at the chart rate), as before.
 */
import type { FfrUnitInfo } from './context.ts';
import { qrs } from './tables/source.ts';

export interface ReachSectors {
  /** The unit's front, degrees counter-clockwise from +x. */
  readonly headingDeg: number;
  /** Fraction of the chart rate more than 45° off the front and the rear: a flank march's half, or 0 (none). */
  readonly flankFactor: number;
  /** Whether the unit may also withdraw (within 45° of straight back) at the chart rate. */
  readonly rear: boolean;
}

/** "move at an angle up to 45-degrees in one direction" (Oblique). */
export const OBLIQUE_MAX_DEG = 45;
/** "March by the flank a half move" (Troop Maneuvers, Well Handled). */
export const FLANK_MARCH_FACTOR = 0.5;
export const OBLIQUE_SOURCE = qrs('Troop Movement, Oblique');
export const FLANK_MARCH_SOURCE = qrs('Troop Maneuvers, Well Handled');

/** Formations that advance and withdraw on their front: the line formations and the field column. */
const FRONTED: ReadonlySet<string> = new Set(['line', 'extended-line', 'field-column']);

/** The sectors of a unit's movement reach, or undefined when it moves the same way in every direction. */
export function movementSectorsFor(info: FfrUnitInfo): ReachSectors | undefined {
  if (info.unit.arm === 'artillery' || !FRONTED.has(info.formation.id)) return undefined;
  return { headingDeg: info.formation.headingDeg, flankFactor: FLANK_MARCH_FACTOR, rear: true };
}

/**
 * Hand haul: "The gun can move either forward or backward, and change direction up to 45-degrees" (Gun
 * Maneuvers, Hand Haul): within 45° of the guns' front or rear, nothing to the flanks.
 */
export function handHaulSectorsFor(info: FfrUnitInfo): ReachSectors {
  return { headingDeg: info.formation.headingDeg, flankFactor: 0, rear: true };
}

/** A charge's sectors: ahead only, obliquing up to 45° at its start. */
export function chargeSectorsFor(info: FfrUnitInfo): ReachSectors {
  return { headingDeg: info.formation.headingDeg, flankFactor: 0, rear: false };
}

/** The movement note that says how a fronted unit's reach is cut (the same for every such unit). */
export const SECTORS_NOTE =
  `Advance or withdraw straight or obliquing up to ${OBLIQUE_MAX_DEG}°, the distance measured along the angle, once and to one side only: not left then right in the same phase, not with a wheel or a march by the flank (${OBLIQUE_SOURCE}); ` +
  `more than ${OBLIQUE_MAX_DEG}° off the front or rear only by marching by the flank, a half move (${FLANK_MARCH_SOURCE}), ` +
  `which a Tardy full move disordered may not do (${qrs('Tardy, Full Move Disordered')}). ` +
  'The oblique template\'s cost per angle (Figure 8) is not in the text: the reach charges none.';
