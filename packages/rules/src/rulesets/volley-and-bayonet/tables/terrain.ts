/**
 * Terrain Effects (p. 3) as data: the table state's terrain kinds mapped onto this supplement's terrain
 * classes, and what each class costs each kind of mover. Kinds the supplement does not name are mapped to
 * the nearest class it does name; those readings are marked "reading" and listed in README.md.
 */
import type { AreaTerrainKind, LinearTerrainKind } from '../../../model/tableState.ts';
import { cite } from './source.ts';

/** Who is moving, as the Terrain Effects paragraphs distinguish movers. */
export type Mover = 'infantry' | 'skirmisher' | 'commander' | 'mounted' | 'artillery' | 'pack' | 'wheeled';

export type AreaClass = 'forest-thicket-swamp' | 'woods' | 'broken-ground' | 'camp-farmyard' | 'town-block';
export type LinearClass = 'fence-hedge' | 'stream' | 'river' | 'works';

/** Cost of moving through an area: inches of movement per inch moved, or no entry. */
export type AreaCost = number | 'impassable';
/** Cost of crossing a line: inches of movement, half the stand's movement, or no crossing. */
export type LinearCost = { readonly inches: number } | 'half-move' | 'impassable';

export interface AreaClassRule {
  readonly label: string;
  readonly cost: Readonly<Record<Mover, AreaCost>>;
  /** Slow infantry pays this instead of `cost.infantry` (Broken ground: "slow infantry"). */
  readonly slowInfantryCost?: AreaCost;
  /** Non-skirmish stands are disordered in it (Forests...; Broken ground: non-skirmisher cavalry; Buildings: infantry entering). */
  readonly disorders?: readonly Mover[];
  /** Sight: 'blocks' (no line through it from outside; see `insideSightIn`), 'none' (does not affect visibility). */
  readonly sight: 'blocks' | 'none';
  /** Stands inside can see other stands inside up to this far, inches. */
  readonly insideSightIn?: number;
  readonly source: string;
}

const FOREST = cite('Terrain Effects: Forests, Thickets and Swamps', 3);
const WOODS = cite('Terrain Effects: Woods', 3);
const BROKEN = cite('Terrain Effects: Broken ground', 3);
const CAMP = cite('Terrain Effects: Camp or Farmyard', 3);
const BUILDINGS = cite('Terrain Effects: Buildings', 3);

export const AREA_CLASSES: Readonly<Record<AreaClass, AreaClassRule>> = {
  // "foot troops and commanders is 2 per 1 moved ... Mounted stands, artillery, pack transport and wheeled
  // vehicles may not enter"; "Stands inside a Forest or Thicket can see other stands inside up to 4 away".
  'forest-thicket-swamp': {
    label: 'Forest, thicket or swamp',
    cost: { infantry: 2, skirmisher: 2, commander: 2, mounted: 'impassable', artillery: 'impassable', pack: 'impassable', wheeled: 'impassable' },
    disorders: ['infantry'],
    sight: 'blocks',
    insideSightIn: 4,
    source: FOREST,
  },
  // "Command stands and infantry ... no additional cost. Mounted units, artillery units, and pack transport
  // ... 2 ... Wagons pay 4 per 1"; "can see other stands inside up to 12 away".
  woods: {
    label: 'Woods',
    cost: { infantry: 1, skirmisher: 1, commander: 1, mounted: 2, artillery: 2, pack: 2, wheeled: 4 },
    sight: 'blocks',
    insideSightIn: 12,
    source: WOODS,
  },
  // "2 per 1 moved for artillery, cavalry and slow infantry ... Fast infantry, infantry skirmishers and
  // command stands move through such ground normally." Transport is not named: no cost (reading).
  'broken-ground': {
    label: 'Broken ground',
    cost: { infantry: 1, skirmisher: 1, commander: 1, mounted: 2, artillery: 2, pack: 1, wheeled: 1 },
    slowInfantryCost: 2,
    disorders: ['mounted'],
    sight: 'none',
    source: BROKEN,
  },
  // "2 per 1 moved for all troop types".
  'camp-farmyard': {
    label: 'Camp or farmyard',
    cost: { infantry: 2, skirmisher: 2, commander: 2, mounted: 2, artillery: 2, pack: 2, wheeled: 2 },
    sight: 'none',
    source: CAMP,
  },
  // "Cavalry and artillery may not occupy or move into or through town or village blocks"; "Infantry
  // entering or leaving a block are disordered". Transport is not named: kept out like artillery (reading).
  // A block is an obstacle to sight ("Hills and other obstacles ... block line of sight"; reading).
  'town-block': {
    label: 'Town or village block',
    cost: { infantry: 1, skirmisher: 1, commander: 1, mounted: 'impassable', artillery: 'impassable', pack: 'impassable', wheeled: 'impassable' },
    disorders: ['infantry', 'skirmisher'],
    sight: 'blocks',
    source: BUILDINGS,
  },
};

export interface LinearClassRule {
  readonly label: string;
  readonly cost: Readonly<Record<Mover, LinearCost>>;
  readonly source: string;
}

const FENCE = cite('Terrain Effects: Fences and Hedges', 3);
const STREAM = cite('Terrain Effects: Streams', 3);
const RIVER = cite('Terrain Effects: Rivers', 3);
const WORKS = cite('Terrain Effects: Works', 3);

const two = { inches: 2 } as const;
const four = { inches: 4 } as const;

export const LINEAR_CLASSES: Readonly<Record<LinearClass, LinearClassRule>> = {
  // "2 for infantry stands and commanders and 4 for artillery and mounted units" (transport as artillery: reading).
  'fence-hedge': {
    label: 'Fence or hedge',
    cost: { infantry: two, skirmisher: two, commander: two, mounted: four, artillery: four, pack: four, wheeled: four },
    source: FENCE,
  },
  // "The cost of crossing a stream is half a stand s movement."
  stream: {
    label: 'Stream',
    cost: { infantry: 'half-move', skirmisher: 'half-move', commander: 'half-move', mounted: 'half-move', artillery: 'half-move', pack: 'half-move', wheeled: 'half-move' },
    source: STREAM,
  },
  // "Stands may only ever cross rivers by bridges or fords."
  river: {
    label: 'River',
    cost: { infantry: 'impassable', skirmisher: 'impassable', commander: 'impassable', mounted: 'impassable', artillery: 'impassable', pack: 'impassable', wheeled: 'impassable' },
    source: RIVER,
  },
  // "half the unit s movement for infantry and commanders ... Artillery or mounted troops cannot enter works".
  works: {
    label: 'Works',
    cost: { infantry: 'half-move', skirmisher: 'half-move', commander: 'half-move', mounted: 'impassable', artillery: 'impassable', pack: 'impassable', wheeled: 'impassable' },
    source: WORKS,
  },
};

/** A bridge (a road across a river or stream): road march free; otherwise half the move or disorder (Bridges, p. 3). */
export const BRIDGE_SOURCE = cite('Terrain Effects: Bridges', 3);
export const ROADS_SOURCE = cite('Terrain Effects: Roads', 3);

/** The one mapping from the table state's area kinds onto this supplement's terrain classes. */
export const AREA_KIND_CLASS: Readonly<Record<AreaTerrainKind, AreaClass>> = {
  rough: 'broken-ground',
  swamp: 'forest-thicket-swamp',
  'open-woods': 'woods',
  'thick-woods': 'forest-thicket-swamp',
  thicket: 'forest-thicket-swamp',
  farm: 'camp-farmyard',
  town: 'town-block',
  city: 'town-block',
};

/** Swamps share the forest movement rule but "Swamps do not affect visibility" (p. 3). */
export const SIGHT_NEUTRAL_AREA_KINDS: readonly AreaTerrainKind[] = ['swamp'];

/** The one mapping from the table state's linear kinds onto this supplement's classes. */
export const LINEAR_KIND_CLASS: Readonly<Record<LinearTerrainKind, LinearClass>> = {
  fence: 'fence-hedge',
  wall: 'fence-hedge', // reading: the supplement names fences and hedges only
  brook: 'stream',
  stream: 'stream',
  river: 'river',
  'hasty-works': 'works',
  entrenchment: 'works',
  abatis: 'works', // reading: a field obstacle of the works kind
  'chevaux-de-frise': 'works', // reading
  'sunken-road': 'works', // "Sunken roads are treated as Works" (Roads, p. 3)
};

export const HILLS_SOURCE = cite('Terrain Effects: Hills', 3);
/** Line-of-sight exception: a stand two or more contours above the obstacle sees past it when it is at least 8" from the lower stand (Hills, p. 3). */
export const HILL_SIGHT_FAR_IN = 8;
