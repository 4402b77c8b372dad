/**
 * The Movement Rate chart (QRS II, Figure 2, "MOVEMENT RATE: Full Move / Double Quick"), inches per
 * maneuver. `null` is the chart's "-": that formation may not move on a road. Rows with a single number
 * (Broken, Leader) have no double quick.
 */
import { qrs } from './source.ts';

export type GroundClass = 'open' | 'broken' | 'rough';

export interface RateCell {
  readonly full: number;
  /** Double quick rate; undefined where the chart gives one number. */
  readonly doubleQuick?: number;
}

export interface MovementRow {
  readonly label: string;
  readonly open: RateCell;
  readonly broken: RateCell;
  readonly rough: RateCell;
  /** Rate moving entirely on a road; null where the chart has "-". */
  readonly road: RateCell | null;
  readonly source: string;
}

export type MovementRowId =
  | 'infantry-line'
  | 'infantry-field-column-or-extended-line'
  | 'infantry-march-column'
  | 'infantry-broken'
  | 'cavalry-line'
  | 'cavalry-field-column-or-extended-line'
  | 'cavalry-march-column'
  | 'cavalry-dismounted-extended-line'
  | 'cavalry-broken'
  | 'artillery-field-gun'
  | 'artillery-horse-gun'
  | 'leader-mounted'
  | 'leader-dismounted';

const CHART = qrs('Figure 2, Movement Rate');
const r = (full: number, doubleQuick?: number): RateCell => (doubleQuick === undefined ? { full } : { full, doubleQuick });

export const MOVEMENT_RATES: Readonly<Record<MovementRowId, MovementRow>> = {
  // Infantry rows: Line 12/16, 8/12, 6/10, -; Field Column or Extended Line 12/16, 10/14, 8/12, -.
  'infantry-line': { label: 'Infantry, line', open: r(12, 16), broken: r(8, 12), rough: r(6, 10), road: null, source: CHART },
  'infantry-field-column-or-extended-line': { label: 'Infantry, field column or extended line', open: r(12, 16), broken: r(10, 14), rough: r(8, 12), road: null, source: CHART },
  // March Column 12/16, 10/14, 8/12, road 18/24.
  'infantry-march-column': { label: 'Infantry, march column', open: r(12, 16), broken: r(10, 14), rough: r(8, 12), road: r(18, 24), source: CHART },
  // Broken 16, 14, 12, road 24.
  'infantry-broken': { label: 'Infantry, broken', open: r(16), broken: r(14), rough: r(12), road: r(24), source: CHART },
  // Cavalry rows: Line 18/24, 12/16, 4/6, -; Field Column or Extended Line 18/24, 14/20, 6/8, -.
  'cavalry-line': { label: 'Cavalry, line', open: r(18, 24), broken: r(12, 16), rough: r(4, 6), road: null, source: CHART },
  'cavalry-field-column-or-extended-line': { label: 'Cavalry, field column or extended line', open: r(18, 24), broken: r(14, 20), rough: r(6, 8), road: null, source: CHART },
  // March Column 18/24, 14/20, 6/8, road 24/36.
  'cavalry-march-column': { label: 'Cavalry, march column', open: r(18, 24), broken: r(14, 20), rough: r(6, 8), road: r(24, 36), source: CHART },
  // Dismounted Extended Line 12/16, 10/14, 8/12, -.
  'cavalry-dismounted-extended-line': { label: 'Cavalry, dismounted extended line', open: r(12, 16), broken: r(10, 14), rough: r(8, 12), road: null, source: CHART },
  // Broken 24, 20, 8, road 36 (the row printed after the cavalry rows).
  'cavalry-broken': { label: 'Cavalry, broken', open: r(24), broken: r(20), rough: r(8), road: r(36), source: CHART },
  // Artillery: Field Gun 12/16, 8/12, 4/6, 18/24; Horse Gun 18/24, 12/16, 4/6, 24/36.
  'artillery-field-gun': { label: 'Artillery, field gun', open: r(12, 16), broken: r(8, 12), rough: r(4, 6), road: r(18, 24), source: CHART },
  'artillery-horse-gun': { label: 'Artillery, horse gun', open: r(18, 24), broken: r(12, 16), rough: r(4, 6), road: r(24, 36), source: CHART },
  // Leader: Mounted 24, 20, 12, 36; Dismounted 16, 14, 12, 24.
  'leader-mounted': { label: 'Leader, mounted', open: r(24), broken: r(20), rough: r(12), road: r(36), source: CHART },
  'leader-dismounted': { label: 'Leader, dismounted', open: r(16), broken: r(14), rough: r(12), road: r(24), source: CHART },
};

/**
 * Unlimbered guns hand haul 2" over open, broken or rough ground; mountain howitzers 4"; heavy howitzers
 * and heavy rifles not at all (QRS II, Gun Maneuver Changes 11, Gun Maneuvers: Hand Haul).
 */
export const HAND_HAUL_IN = { standard: 2, mountainHowitzer: 4, source: qrs('Gun Maneuvers, Hand Haul') } as const;

/** Weapons that may not move at the double quick, hand haul or prolong (QRS II, Gun Maneuver Changes 9). */
export const HEAVY_GUN_WEAPONS: readonly string[] = ['HH', 'HR'];

/**
 * Road bonus on a good road: "x1.5 for infantry and cavalry in march column, x1.5 for leaders, and x2 for
 * limbered artillery" (QRS II, Road Movement; Movement Rates Chart Changes: "x1.5 for troops and x2 for guns").
 */
export const ROAD_BONUS = { troops: 1.5, leaders: 1.5, limberedGuns: 2, source: qrs('Road Movement') } as const;
