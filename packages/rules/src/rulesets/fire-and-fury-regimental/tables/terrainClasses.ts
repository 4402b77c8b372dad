/**
 * Table-state terrain kinds onto the Movement Rate chart's ground classes (QRS II, Figure 2: Open, Broken,
 * Rough Ground). The QRS rates only woods ("woods rated broken ground", Road Movement, Figure 9); a scenario
 * rates the rest, so each area kind is a 'choice' parameter (`terrain-<kind>`) whose default is the reading
 * in README.md. Linear features: a river stops movement except along a road (bridges and fords are road,
 * "A road passing over a bridge or through a shallow ford is considered open ground").
 */
import type { AreaTerrainKind, LinearTerrainKind } from '../../../model/tableState.ts';
import type { GroundClass } from './movementRates.ts';

export type TerrainClass = GroundClass | 'impassable';

export const TERRAIN_CLASS_ORDER: readonly TerrainClass[] = ['open', 'broken', 'rough', 'impassable'];

export const DEFAULT_AREA_CLASS: Readonly<Record<AreaTerrainKind, TerrainClass>> = {
  'open-woods': 'broken',
  'thick-woods': 'rough',
  thicket: 'rough',
  rough: 'rough',
  swamp: 'rough',
  farm: 'broken',
  town: 'broken',
  city: 'rough',
};

/** Linear kinds that stop a unit's move (see above). */
export const IMPASSABLE_LINEAR: readonly LinearTerrainKind[] = ['river'];

/** "4" line of sight through dense woods": the area kinds read as dense woods (Command Radius). */
export const DENSE_WOODS: readonly AreaTerrainKind[] = ['thick-woods', 'thicket'];

export function classRank(c: TerrainClass): number {
  return TERRAIN_CLASS_ORDER.indexOf(c);
}
