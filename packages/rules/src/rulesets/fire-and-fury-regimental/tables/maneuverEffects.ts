/**
 * What each Maneuver Table effect permits or forces (QRS II, Figure 2 Troop Maneuvers and Gun Maneuvers;
 * Figure 5; Maneuver Effects; Tardy; Gun Maneuvers), in the sheet's words.
 */
import { qrs } from './source.ts';

const FIG2 = qrs('Figure 2, Troop Maneuvers');
const GUNS = qrs('Figure 2, Gun Maneuvers; Gun Maneuver Changes 9-12');

/** Troop maneuvers (Figure 2, TROOP MANEUVERS). */
export const TROOP_WELL_HANDLED = [
  'Full move',
  'Half move and change formation (green unit disordered by broken or rough ground)',
  'Passage of lines',
  'March by the flank a half move',
  'Deploy to the front (green unit disordered by broken or rough ground)',
  'Change front',
  'Face by the rear rank',
  'Scale major obstacle',
  'Replenish ammunition',
] as const;
export const TROOP_TARDY = [
  'Half move',
  'Full move disordered',
  'Change formation to line, open order, or garrison (green unit disordered by broken or rough ground)',
  'Face by the rear rank',
  'Scale major obstacle',
] as const;

/** Gun maneuvers (Figure 2, GUN MANEUVERS); the heavy guns' limits are Changes 9. */
export const GUN_WELL_HANDLED = [
  'Full move and unlimber, or limber and full move (double quick not allowed if HH or HR)',
  'Unlimber and fire',
  'Pivot and fire',
  'Hand haul 2" (4" if MH; not allowed if HH or HR)',
  'Prolong a half move to rear (not allowed if HH or HR)',
  'Rally',
  'Replenish ammunition',
] as const;
export const GUN_TARDY = ['Full move limbered', 'Fire', 'Limber or unlimber', 'Pivot', 'Limber and full retreat silenced'] as const;

export const TROOP_MANEUVERS_SOURCE = FIG2;
export const GUN_MANEUVERS_SOURCE = GUNS;
export const MANEUVER_EFFECTS_SOURCE = qrs('Maneuver Effects; Figure 5');
export const PANIC_SOURCE = qrs('Maneuver Effects, Panic');
