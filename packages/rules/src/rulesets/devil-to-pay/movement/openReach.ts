/**
 * The Devil to Pay (2018), MOVE: how far a unit's reference point gets in each of REACH_BINS directions on
 * open ground, from forward and oblique moves, wheels then moves, and moves then wheels (Move: Movement;
 * Wheel: measure the outside of the arc). Sampled once per formation shape and cached; which corners of the
 * unit's outline lead in each direction (`originMasks`) likewise.
 */
import { hypot2 } from '../../../geometry/hypot.ts';
import { OBLIQUE_DEG } from '../tables/movementTables.ts';
import { NumberKeyCache, fixed2Class } from './numberKeyCache.ts';

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

const openReachCache = new NumberKeyCache<OpenReach>();

/** Unit vectors of the directions (bin 0 straight ahead, counter-clockwise), in the unit's frame. */
export const BIN_COS = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.cos((b * 2 * Math.PI) / REACH_BINS));
export const BIN_SIN = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.sin((b * 2 * Math.PI) / REACH_BINS));

const originMaskCache = new NumberKeyCache<Int32Array>();

/**
 * For each direction, which of the outline's 8 points (corners and edge midpoints of the unit's bounding
 * rectangle, half-size hx forward and hy sideways) rays leave from: the corners that lead that way.
 */
export function originMasks(hx: number, hy: number): Int32Array {
  const kx = fixed2Class(hx);
  const ky = fixed2Class(hy);
  const hit = originMaskCache.get(kx, ky, 0, 0, 0);
  if (hit) return hit;
  const offsets = [[hx, hy], [hx, 0], [hx, -hy], [0, -hy], [-hx, -hy], [-hx, 0], [-hx, hy], [0, hy]] as const;
  const masks = new Int32Array(REACH_BINS);
  for (let b = 0; b < REACH_BINS; b++) {
    // The leading corners suffice: contact between two convex outlines under translation happens at a
    // corner of one of them, and the obstacles' corners are cast back separately.
    for (const i of [0, 2, 4, 6]) {
      const [x, y] = offsets[i]!;
      if (x * BIN_COS[b]! + y * BIN_SIN[b]! > 1e-9) masks[b] = masks[b]! | (1 << i);
    }
  }
  originMaskCache.add(kx, ky, 0, 0, 0, masks);
  return masks;
}


/**
 * Open-ground reach for a unit whose reference point is at the origin facing +x, with front corners at
 * (frontXIn, leftYIn) and (frontXIn, rightYIn) (left positive). Forward and oblique moves, wheels about
 * either front corner costing frontage × angle (Move: Movement, Wheel: measure the outside of the arc).
 */
export function openReach(allowanceIn: number, frontXIn: number, leftYIn: number, rightYIn: number, oblique: boolean, anyDirection: boolean): OpenReach {
  // Keyed as toFixed(2) of each number (see fixed2Class) and the two flags.
  const flags = (oblique ? 1 : 0) + (anyDirection ? 2 : 0);
  const ka = fixed2Class(allowanceIn);
  const kf = fixed2Class(frontXIn);
  const kl = fixed2Class(leftYIn);
  const kr = fixed2Class(rightYIn);
  const hit = openReachCache.get(flags, ka, kf, kl, kr);
  if (hit) return hit;
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
  openReachCache.add(flags, ka, kf, kl, kr, out);
  return out;
}
