/**
 * The one mapping from table-state terrain kinds onto While the Devil Rules terrain classes (Movement:
 * rough, very rough, linear obstacles, choke points; Fire: concealing terrain; the app's Cover/Ground list).
 * The guide leaves classes to the scenario ("All types of terrain should be fully described by the scenario,
 * or agreed by players"): this is the reading README.md documents.
 */
import type { AreaTerrainKind, LinearTerrainKind } from '../../../model/tableState.ts';

export type AreaClass = 'rough' | 'very-rough';
export type CoverClass = 'none' | 'soft' | 'hard';

export interface AreaTerrainClass {
  readonly movement: AreaClass;
  /** Blocks sight beyond 2" inside ("woods or similar concealing terrain", Fire). */
  readonly concealing: boolean;
  readonly cover: CoverClass;
  /** Towns "function as roads for the movement of units in column" (Movement). */
  readonly roadForColumn: boolean;
}

export const AREA_CLASSES: Readonly<Record<AreaTerrainKind, AreaTerrainClass>> = {
  rough: { movement: 'rough', concealing: false, cover: 'none', roadForColumn: false },
  // "water-logged fields will be rough or very rough ... but will not provide cover" — a swamp is the very rough case
  swamp: { movement: 'very-rough', concealing: false, cover: 'none', roadForColumn: false },
  // "Most rough terrain (open woods) would also provide cover"
  'open-woods': { movement: 'rough', concealing: true, cover: 'soft', roadForColumn: false },
  'thick-woods': { movement: 'very-rough', concealing: true, cover: 'soft', roadForColumn: false },
  thicket: { movement: 'very-rough', concealing: true, cover: 'soft', roadForColumn: false },
  // fields: rough for movement, no cover (the guide's water-logged fields)
  farm: { movement: 'rough', concealing: false, cover: 'none', roadForColumn: false },
  // "Towns and villages may be counted as rough terrain for movement, but function as roads ... soft or hard cover as specified by scenario"
  town: { movement: 'rough', concealing: true, cover: 'soft', roadForColumn: true },
  city: { movement: 'rough', concealing: true, cover: 'hard', roadForColumn: true },
};

/** 'obstacle' costs 2" to cross; 'impassable' only at a choke point (a road over it: a bridge). */
export type LinearClass = 'obstacle' | 'impassable';

/** "Fences, hedges, walls, ditches, etc." are linear obstacles; a river is crossed only at bridges. */
export const LINEAR_CLASSES: Readonly<Record<LinearTerrainKind, LinearClass>> = {
  fence: 'obstacle',
  wall: 'obstacle',
  brook: 'obstacle',
  stream: 'obstacle',
  river: 'impassable',
  'hasty-works': 'obstacle',
  entrenchment: 'obstacle',
  abatis: 'obstacle',
  'chevaux-de-frise': 'obstacle',
  'sunken-road': 'obstacle',
};
