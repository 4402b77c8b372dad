/**
 * The reach and the fudge reach as polygons: one point per direction, written into the buffers below by the
 * walks, then `polygonOf` drops repeats.
 */
import type { PointIn } from '../../../model/units.ts';
import * as openReachModule from './openReach.ts';

// This module's own constant for its loops (see reachWalk.ts on module variables).
const { REACH_BINS } = openReachModule;

/** One point per direction, [x0, y0, ...]: the reach and the fudge reach, before they become polygons. */
export const REACH_XY = new Float64Array(2 * REACH_BINS);
export const FUDGE_XY = new Float64Array(2 * REACH_BINS);
/** Directions where the reach is the reference point itself (no open ground that way). */
export const REACH_IS_REF = new Uint8Array(REACH_BINS);
export const NONE_IS_REF = new Uint8Array(REACH_BINS);
/** polygonOf's scratch: which directions' points stay. */
const KEEP = new Uint8Array(REACH_BINS);

/**
 * The points as a polygon without repeats: a point within 1e-9 of the previous kept one is dropped, and so
 * is the last when it matches the first (what building every point then deduping gave, without building
 * the dropped ones). `isRef` marks directions whose point is the reference point object itself.
 */
export function polygonOf(xy: Float64Array, isRef: Uint8Array, ref: PointIn): PointIn[] {
  // Which points stay (marked in KEEP), then the array at its final length (growing it by push cost a
  // copy or two per polygon).
  let kept = 0;
  let lastX = 0;
  let lastY = 0;
  let firstX = 0;
  let firstY = 0;
  for (let b = 0; b < REACH_BINS; b++) {
    const x = xy[2 * b]!;
    const y = xy[2 * b + 1]!;
    const keep = kept === 0 || Math.abs(lastX - x) > 1e-9 || Math.abs(lastY - y) > 1e-9;
    KEEP[b] = keep ? 1 : 0;
    if (keep) {
      if (kept === 0) {
        firstX = x;
        firstY = y;
      }
      kept++;
      lastX = x;
      lastY = y;
    }
  }
  if (kept > 1 && Math.abs(firstX - lastX) < 1e-9 && Math.abs(firstY - lastY) < 1e-9) {
    // The last kept point closes onto the first: drop it.
    for (let b = REACH_BINS - 1; b >= 0; b--) {
      if (KEEP[b]) {
        KEEP[b] = 0;
        break;
      }
    }
    kept--;
  }
  const out = new Array<PointIn>(kept);
  for (let b = 0, i = 0; b < REACH_BINS; b++) {
    if (KEEP[b]) out[i++] = isRef[b] ? ref : { xIn: xy[2 * b]!, yIn: xy[2 * b + 1]! };
  }
  return out;
}
