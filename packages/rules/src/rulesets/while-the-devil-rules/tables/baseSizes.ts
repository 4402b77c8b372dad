/**
 * Base sizes as the guide prints them, in millimetres, and in inches (mm / 25.4, exactly). While the Devil
 * Rules, "Units, Troop Types, and Base Sizes" (base size table and "25/28mm Basing"). Smaller scales may
 * halve every base ("bases may be reduced by 50%"), which the `base-scale` parameter selects.
 */

export const MM_PER_IN = 25.4;

/** Millimetres to inches, exactly as the guide's sizes convert. */
export function mmToIn(mm: number): number {
  return mm / MM_PER_IN;
}

/** A base class the stand footprints are read as. */
export type BaseClass = 'shot' | 'pike' | 'cavalry' | 'artillery' | 'figure-foot' | 'figure-mounted' | 'leader';

export interface BaseSizeRow {
  readonly baseClass: BaseClass;
  /** Frontage range, mm (min = max where the guide gives one number). */
  readonly widthMm: readonly [number, number];
  /** Depth range, mm. */
  readonly depthMm: readonly [number, number];
  readonly source: string;
}

const TABLE = 'Units, Troop Types, and Base Sizes (base size table)';
const BASING = 'Units, Troop Types, and Base Sizes (25/28mm Basing)';

/** Every base size the guide gives. */
export const BASE_SIZES: readonly BaseSizeRow[] = [
  // "Commanded Shot/Streltsy 80mm wide x 40mm deep"; "Levy, Sword & Buckler 80mm wide x 40mm deep" (musketeer sleeves too: "Musketeers ... 8 figures in two ranks")
  { baseClass: 'shot', widthMm: [80, 80], depthMm: [40, 40], source: TABLE },
  // "Pikes 80mm wide x 60mm deep"
  { baseClass: 'pike', widthMm: [80, 80], depthMm: [60, 60], source: TABLE },
  // "Cavalry 60mm wide x 40mm deep"
  { baseClass: 'cavalry', widthMm: [60, 60], depthMm: [40, 40], source: TABLE },
  // "Artillery 60mm wide x 60-90mm deep"
  { baseClass: 'artillery', widthMm: [60, 60], depthMm: [60, 90], source: TABLE },
  // "Dragoons and Forlorn Hope are mounted on individual-size bases (25-30mm square or round for foot, ...)"
  { baseClass: 'figure-foot', widthMm: [25, 30], depthMm: [25, 30], source: BASING },
  // "... twice as deep for mounted)"
  { baseClass: 'figure-mounted', widthMm: [25, 30], depthMm: [50, 60], source: BASING },
  // "Leaders 40-60mm (square or round)"
  { baseClass: 'leader', widthMm: [40, 60], depthMm: [40, 60], source: TABLE },
];

/** "For smaller scales, bases may be reduced by 50% if desired" (25/28mm Basing). */
export const HALF_SCALE_FACTOR = 0.5;
export const HALF_SCALE_SOURCE = BASING;

/**
 * How far a measured base may differ from a printed size and still be read as it, inches. Not a rule: the
 * camera's pose noise and hand-cut bases (about 2 mm).
 */
export const BASE_SIZE_TOLERANCE_IN = 0.08;
