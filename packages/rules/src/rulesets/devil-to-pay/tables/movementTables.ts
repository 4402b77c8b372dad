/**
 * The Devil to Pay (2018) movement numbers as data: the Movement table, the linear and area terrain
 * penalty tables, and which terrain stops artillery and mounted cavalry or disorders a charge.
 */
import type { AreaTerrainKind, Formation, LinearTerrainKind } from '../../../model/tableState.ts';

/** Source strings for notes and modifiers. */
export const MOVEMENT_TABLE_SOURCE = 'The Devil to Pay (2018), Move: Movement table';
export const LINEAR_TERRAIN_SOURCE = 'The Devil to Pay (2018), Move: Terrain Penalties, Linear Terrain';
export const AREA_TERRAIN_SOURCE = 'The Devil to Pay (2018), Move: Terrain Penalties, Area Terrain';

/**
 * Movement allowance by formation, inches, before the cavalry bonus and terrain. `undefined` means the
 * formation cannot move (prone, unknown).
 */
export const MOVEMENT_ALLOWANCE_IN: Readonly<Record<Formation, number | undefined>> = {
  line: 9, // The Devil to Pay (2018), Move: Movement table, Line 9"
  'double-line': 9, // a double line is a line (Armies, Infantry: Line)
  'loose-order': 12, // Move: Movement table, Loose Order 12"
  'attack-column': 12, // Move: Movement table, Attack Column 12"
  'march-column': 12, // Move: Movement table, March Column & Limbered Artillery 12"
  limbered: 12, // Move: Movement table, March Column & Limbered Artillery 12"
  unlimbered: 3, // Move: Movement table, Prolong 3" (Armies, Artillery: unlimbered guns may only move 3")
  disordered: 9, // Move: Movement table, Disordered 9"
  commander: 18, // Commanders: Moving & Attaching Commanders, 18"
  unknown: undefined,
  square: undefined, // not a The Devil to Pay formation
  block: undefined, // not a The Devil to Pay formation
};

/** March column and limbered artillery on a road, beyond 12" of an enemy (Move: Movement table). */
export const ROAD_MOVE_IN = 18;
/** Road movement is only allowed beyond this distance from any enemy (Armies, Infantry: March Column). */
export const ROAD_ENEMY_CLEARANCE_IN = 12;
/** Fudge Move / Fall Back 3" (Move: Movement table; Special Movements, Fudge Move). */
export const FUDGE_MOVE_IN = 3;
/** Prolong 3", facing change up to 45° (Move: Movement table; Special Movements, Prolong). */
export const PROLONG_MOVE_IN = 3;
export const PROLONG_TURN_DEG = 45;
/** Charge 6" (Move: Movement table; Charge: Charge Move). */
export const CHARGE_MOVE_IN = 6;
/** Cavalry (not for Fudge/Charge) +6" (Move: Movement table; Armies, Mounted Cavalry; Horse Artillery). */
export const MOUNTED_BONUS_IN = 6;
/** Oblique at 45° without penalty (Move: Movement, Oblique). */
export const OBLIQUE_DEG = 45;
/** Left/Right Face between March Column and Line costs 3" (Move: Formation Change, option 2). */
export const FACE_COST_IN = 3;
/** No unit may come within 1" of an enemy unit except in a charge (Move: Movement, Notes; Terrain). */
export const ENEMY_CLEARANCE_IN = 1;

/**
 * Linear terrain penalty, inches, paid when the obstacle is met (Move: Terrain Penalties, Linear Terrain).
 * `undefined`: not crossable by any movement (rivers have no penalty row; we treat them as impassable
 * except by road, i.e. at a bridge or ford).
 */
export const LINEAR_TERRAIN_PENALTY_IN: Readonly<Record<LinearTerrainKind, number | undefined>> = {
  fence: 3, // Linear Terrain table: Fence / Wall / Brook / Passage of Lines -3"
  wall: 3, // Linear Terrain table: Fence / Wall / Brook / Passage of Lines -3"
  brook: 3, // Linear Terrain table: Fence / Wall / Brook / Passage of Lines -3"
  'hasty-works': 6, // Linear Terrain table: Hasty Works / Entrenchment / Stream / Abatis / Chevaux -6"
  entrenchment: 6, // Linear Terrain table: Hasty Works / Entrenchment / Stream / Abatis / Chevaux -6"
  stream: 6, // Linear Terrain table: Hasty Works / Entrenchment / Stream / Abatis / Chevaux -6"
  abatis: 6, // Linear Terrain table: Hasty Works / Entrenchment / Stream / Abatis / Chevaux -6"
  'chevaux-de-frise': 6, // Linear Terrain table: Hasty Works / Entrenchment / Stream / Abatis / Chevaux -6"
  river: undefined, // no row in the table: impassable off road (house reading)
  'sunken-road': 0, // no row in the movement table (a sunken road counts as a wall only for fire)
};

/** Passage of lines: moving through a friendly unit costs 3" (Linear Terrain table). */
export const PASSAGE_OF_LINES_PENALTY_IN = 3;

/** Area terrain penalty, inches, paid on entering (Move: Terrain Penalties, Area Terrain). */
export const AREA_TERRAIN_PENALTY_IN: Readonly<Record<AreaTerrainKind, number>> = {
  rough: 3, // Area Terrain table: Rough Ground / Swamp / Open Woods / Farm -3"
  swamp: 3, // Area Terrain table: Rough Ground / Swamp / Open Woods / Farm -3"
  'open-woods': 3, // Area Terrain table: Rough Ground / Swamp / Open Woods / Farm -3"
  farm: 3, // Area Terrain table: Rough Ground / Swamp / Open Woods / Farm -3"
  'thick-woods': 6, // Area Terrain table: Thick Woods / Thicket / Town / City -6"
  thicket: 6, // Area Terrain table: Thick Woods / Thicket / Town / City -6"
  town: 6, // Area Terrain table: Thick Woods / Thicket / Town / City -6"
  city: 6, // Area Terrain table: Thick Woods / Thicket / Town / City -6"
};

/**
 * Linear terrain artillery and mounted cavalry cannot cross (Move: Linear Terrain: fences and walls,
 * hasty works and entrenchments, abatis, palisades and chevaux-de-frise "prevent artillery and mounted
 * cavalry movement").
 */
export const BLOCKS_ARTILLERY_AND_MOUNTED: ReadonlySet<LinearTerrainKind> = new Set<LinearTerrainKind>([
  'fence',
  'wall',
  'hasty-works',
  'entrenchment',
  'abatis',
  'chevaux-de-frise',
]);

/** "* Disorders charging units" (Move: terrain tables; Charge: Charge Move). */
export const DISORDERS_CHARGE_LINEAR: ReadonlySet<LinearTerrainKind> = new Set<LinearTerrainKind>(['abatis', 'chevaux-de-frise']);
export const DISORDERS_CHARGE_AREA: ReadonlySet<AreaTerrainKind> = new Set<AreaTerrainKind>(['thicket', 'city']);

/**
 * Allowance for a formation, inches, with the +6" for mounted cavalry and horse artillery (not for
 * prolong, i.e. unlimbered guns). Undefined when the formation cannot move.
 *
 * @example movementAllowanceIn('line', { mounted: true }) // 15
 */
export function movementAllowanceIn(formation: Formation, opts: { mounted?: boolean; horseArtillery?: boolean } = {}): number | undefined {
  const base = MOVEMENT_ALLOWANCE_IN[formation];
  if (base === undefined) return undefined;
  // Horse Artillery (Armies, Artillery): "This movement bonus does not apply to movement by prolong."
  const bonus = opts.mounted || (opts.horseArtillery && formation !== 'unlimbered') ? MOUNTED_BONUS_IN : 0;
  return formation === 'commander' ? base : base + bonus;
}
