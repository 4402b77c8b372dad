/**
 * Movement costs, in base inches deducted from the allowance (While the Devil Rules, Movement: the terrain
 * and facing table, and the paragraphs around it). `null` is impassable.
 */
import type { MovementClass } from './troopTypes.ts';

export const MOVEMENT_TABLE_SOURCE = 'Movement (terrain and facing table)';

/** "Facing Change 3 inches. Not needed for Forlorn Hopes or Dragoons." */
export function facingChangeCostIn(movement: MovementClass): number {
  return movement === 'forlorn-hope' || movement === 'dragoons' ? 0 : 3;
}

/** Base inches paid per inch moved in rough terrain: "2 inches/inch moved. Full speed for Forlorn Hopes, Dragoons, and Iregular Light Horse." */
export function roughCostPerIn(movement: MovementClass): number {
  return movement === 'forlorn-hope' || movement === 'dragoons' || movement === 'light-horse' ? 1 : 2;
}

/**
 * Very rough: "3 inches/inch moved. 2 inches/inch moved for Forlorn Hopes and 4 inches/inch moved for all
 * other Mounted. Impassable for Medium Field Artillery." Dragoons are "Considered mounted for movement".
 */
export function veryRoughCostPerIn(movement: MovementClass): number | null {
  switch (movement) {
    case 'forlorn-hope':
      return 2;
    case 'dragoons':
    case 'light-horse':
    case 'mounted':
      return 4;
    case 'medium-artillery':
      return null;
    default:
      return 3;
  }
}

/** "Linear Obstacles 2 inches to cross. Fences, hedges, walls, ditches, etc. Impassable for Medium Field Artillery." */
export function linearObstacleCostIn(movement: MovementClass): number | null {
  return movement === 'medium-artillery' ? null : 2;
}

/** "Choke Point 3 inches plus distance moved. Bridges, gates, etc." */
export const CHOKE_POINT_COST_IN = 3;

/** "Roads 1 inch for every 1.5 inches moved. Only in March formation." Cost per inch on a road. */
export const ROAD_COST_PER_IN = 1 / 1.5;

/** "Leaders always also have a 24-inch base move each turn" (Leaders and Command Control). */
export const LEADER_MOVE_IN = 24;
export const LEADER_MOVE_SOURCE = 'Leaders and Command Control';

/** "you may not move within 1 inch of the front of an enemy unit except to make a Charge ... or to Retire" (Movement). */
export const ENEMY_FRONT_ZONE_IN = 1;
export const ENEMY_FRONT_ZONE_SOURCE = 'Movement';

/** March column: "a half-inch gap separating bases" (Formations, March Columns). */
export const MARCH_COLUMN_GAP_IN = 0.5;
/** Swarms: "within 2 inches of another figure ... measuring between the center point of their bases" (Formations). */
export const SWARM_SPACING_IN = 2;
