/**
 * The Devil to Pay (2018), MOVE: how far a unit's reference point gets in each of REACH_BINS directions on
 * open ground, from forward and oblique moves, wheels then moves, and moves then wheels (Move: Movement;
 * Wheel: measure the outside of the arc), sampled per formation shape (movementOptions.ts shares one
 * sampling between the units of one shape); and which corners of the unit's outline lead in each direction
 * (`originMasks`).
 */
import { hypot2 } from '../../../geometry/hypot.ts';
import { OBLIQUE_DEG } from '../tables/movementTables.ts';

/** Directions sampled around the reference point (11.25° apart: the 45° oblique limit falls on a bin). */
export const REACH_BINS = 32;
/** Degrees between neighbouring directions. */
export const BIN_DEG = 360 / REACH_BINS;

/** Open-ground reach radius per bin (bin 0 = straight ahead, counter-clockwise), and the formation shape it came from. */
export interface OpenReach {
  readonly radiusIn: Float64Array;
  /** The largest radius, inches. */
  readonly maxIn: number;
}

/** Unit vectors of the directions (bin 0 straight ahead, counter-clockwise), in the unit's frame. */
export const BIN_COS = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.cos((b * 2 * Math.PI) / REACH_BINS));
export const BIN_SIN = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.sin((b * 2 * Math.PI) / REACH_BINS));

/**
 * For each direction, which of the outline's 8 points (corners and edge midpoints of the unit's bounding
 * rectangle, half-size hx forward and hy sideways) rays leave from: the corners that lead that way.
 */
export function originMasks(hx: number, hy: number): Int32Array {
  // Module scratch, written over by the next call (movementOptions reads it within its own call).
  const masks = ORIGIN_MASKS;
  for (let b = 0; b < REACH_BINS; b++) {
    // The leading corners suffice: contact between two convex outlines under translation happens at a
    // corner of one of them, and the obstacles' corners are cast back separately. Corners 0, 2, 4, 6 of
    // the outline: (hx, hy), (hx, -hy), (-hx, -hy), (-hx, hy).
    const c = BIN_COS[b]!;
    const sn = BIN_SIN[b]!;
    let m = 0;
    if (hx * c + hy * sn > 1e-9) m |= 1 << 0;
    if (hx * c + -hy * sn > 1e-9) m |= 1 << 2;
    if (-hx * c + -hy * sn > 1e-9) m |= 1 << 4;
    if (-hx * c + hy * sn > 1e-9) m |= 1 << 6;
    masks[b] = m;
  }
  return masks;
}
const ORIGIN_MASKS = new Int32Array(REACH_BINS);

/**
 * Open-ground reach for a unit whose reference point is at the origin facing +x, with front corners at
 * (frontXIn, leftYIn) and (frontXIn, rightYIn) (left positive). Forward and oblique moves, wheels about
 * either front corner costing frontage × angle (Move: Movement, Wheel: measure the outside of the arc).
 */
export function openReach(allowanceIn: number, frontXIn: number, leftYIn: number, rightYIn: number, oblique: boolean, anyDirection: boolean): OpenReach {
  const radiusIn = new Float64Array(REACH_BINS);
  if (anyDirection) {
    radiusIn.fill(allowanceIn);
  } else {
    const put = (x: number, y: number): void => {
      const r = hypot2(x, y);
      if (r < 1e-9) return;
      let deg = (Math.atan2(y, x) * 180) / Math.PI;
      if (deg < 0) deg += 360;
      const b = Math.round(deg / BIN_DEG) % REACH_BINS;
      if (r > radiusIn[b]!) radiusIn[b] = r;
    };
    const frontageIn = Math.max(0.1, leftYIn - rightYIn);
    const obliques: number[] = [];
    if (oblique) for (let a = -OBLIQUE_DEG; a <= OBLIQUE_DEG + 1e-9; a += BIN_DEG / 2) obliques.push((a * Math.PI) / 180);
    else obliques.push(0);
    const maxWheel = Math.min(Math.PI, allowanceIn / frontageIn);
    const steps = 24;
    for (let i = 0; i <= steps; i++) {
      const theta = (maxWheel * i) / steps;
      const rest = allowanceIn - theta * frontageIn;
      if (rest < -1e-9) break;
      for (const dir of [1, -1]) {
        // Wheel left pivots on the left front corner; wheel right on the right one.
        const py = dir > 0 ? leftYIn : rightYIn;
        const t = dir * theta;
        const c = Math.cos(t);
        const s = Math.sin(t);
        // Reference point (origin) rotated about the pivot (frontX, py).
        const wx = frontXIn + (0 - frontXIn) * c - (0 - py) * s;
        const wy = py + (0 - frontXIn) * s + (0 - py) * c;
        put(wx, wy);
        for (const a of obliques) {
          // Then straight on (or obliquely) in the new facing with what is left.
          put(wx + Math.cos(t + a) * rest, wy + Math.sin(t + a) * rest);
          for (let f = 0.25; f < 1; f += 0.25) put(wx + Math.cos(t + a) * rest * f, wy + Math.sin(t + a) * rest * f);
        }
        // Or straight on first, then wheel at the end.
        const mx = rest + frontXIn;
        const ex = mx + (0 - frontXIn) * c - (0 - py) * s;
        const ey = py + (0 - frontXIn) * s + (0 - py) * c;
        put(ex, ey);
      }
    }
  }
  let maxIn = 0;
  for (let b = 0; b < REACH_BINS; b++) maxIn = Math.max(maxIn, radiusIn[b]!);
  const out = { radiusIn, maxIn };
  return out;
}
