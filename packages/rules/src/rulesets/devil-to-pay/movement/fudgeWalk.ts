/**
 * The Devil to Pay (2018), MOVE: Special Movements, Fudge Move: 3" in any direction, terrain does not
 * matter, still 1" from the enemy. The reach per direction, from the unit's leading corners to the enemies'
 * grown stands and back from their corners at the unit's bounding rectangle (as in `reachWalk.ts`, whose
 * notes on module variables apply here too).
 */
import type { PointIn } from '../../../model/units.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { FUDGE_MOVE_IN } from '../tables/movementTables.ts';
import { PIECE } from './obstacleBuffer.ts';
import * as keys from './obstacleKeys.ts';
import * as openReachModule from './openReach.ts';
import { FUDGE_XY, NONE_IS_REF, polygonOf } from './reachPolygon.ts';
import * as unitOutline from './unitOutline.ts';

// The piece layout as this module's own constants (see PIECE).
const { P_CX, P_CY, P_R, P_HU, P_HV, P_UX, P_UY, P_NX, P_NY, P_CORNERS, PIECE_STRIDE } = PIECE;
const KEY_ENEMY = keys.KEY_ENEMY;
const { BIN_COS, BIN_SIN, REACH_BINS } = openReachModule;
const { OUR_FRAME, OUTLINE } = unitOutline;

/** Enemy stands close enough to matter for the fudge move: their group's pieces and the piece's offset. */
const fudgePieces: Float64Array[] = [];
const fudgeAt: number[] = [];

/**
 * Distance along a ray to where it enters the rectangle centred on (cx, cy) with unit axes u and n and
 * half-extents hu and hv (already grown), or -1.
 * A ray that starts inside counts as meeting it at 0 only when it heads toward the rectangle's centre, so
 * a unit already too close may still move away; a ray that only grazes its start point does not count.
 */
function rayIntoRectIn(ox: number, oy: number, dx: number, dy: number, cx: number, cy: number, ux: number, uy: number, nx: number, ny: number, hu: number, hv: number): number {
  const ou = (ox - cx) * ux + (oy - cy) * uy;
  const ov = (ox - cx) * nx + (oy - cy) * ny;
  const du = dx * ux + dy * uy;
  const dv = dx * nx + dy * ny;
  let t0 = 0;
  let t1 = Infinity;
  // Grazing along an edge (touching neighbours, exactly 1" from an enemy) is not meeting it.
  if (Math.abs(du) < 1e-12) {
    if (ou <= -hu + 1e-6 || ou >= hu - 1e-6) return -1;
  } else {
    const a = (-hu - ou) / du;
    const b = (hu - ou) / du;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  }
  if (Math.abs(dv) < 1e-12) {
    if (ov <= -hv + 1e-6 || ov >= hv - 1e-6) return -1;
  } else {
    const a = (-hv - ov) / dv;
    const b = (hv - ov) / dv;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  }
  if (t0 > t1 || t1 <= 1e-9) return -1;
  if (t0 === 0 && (cx - ox) * dx + (cy - oy) * dy <= 0) return -1;
  return t0;
}

/** rayIntoRectIn against the piece at `at` of a rectangle group. */
function rayIntoPieceIn(ox: number, oy: number, dx: number, dy: number, p: Float64Array, at: number): number {
  return rayIntoRectIn(ox, oy, dx, dy, p[at + P_CX]!, p[at + P_CY]!, p[at + P_UX]!, p[at + P_UY]!, p[at + P_NX]!, p[at + P_NY]!, p[at + P_HU]!, p[at + P_HV]!);
}

/** rayIntoRectIn against the unit's own bounding rectangle (OUR_FRAME). */
function rayIntoOursIn(ox: number, oy: number, dx: number, dy: number): number {
  const f = OUR_FRAME;
  return rayIntoRectIn(ox, oy, dx, dy, f[0]!, f[1]!, f[2]!, f[3]!, f[4]!, f[5]!, f[6]! + 0, f[7]! + 0);
}

/** The fudge move's reach per direction (3", still 1" from the enemy); see movementOptions. */
export function fudgeWalk(nKeys: number, ref: PointIn, fx: number, fy: number, masks: Int32Array, unitRadiusIn: number): PointIn[] {
  const { keyKind, keyN, keyOff, pieceBuf } = keys;
  // Enemy stands whose grown disc comes within the fudge move plus the unit's size.
  let nPieces = 0;
  const limitIn = FUDGE_MOVE_IN + unitRadiusIn + 0.01;
  for (let key = 0; key < nKeys; key++) {
    if (keyKind[key] !== KEY_ENEMY) continue;
    const p = pieceBuf;
    for (let j = 0, at = keyOff[key]!; j < keyN[key]!; j++, at += PIECE_STRIDE) {
      const ex = p[at + P_CX]! - ref.xIn;
      const ey = p[at + P_CY]! - ref.yIn;
      const r = p[at + P_R]!;
      if (hypot2(ex, ey) - r <= limitIn) {
        fudgePieces[nPieces] = p;
        fudgeAt[nPieces++] = at;
      }
    }
  }
  const outline = OUTLINE;
  for (let b = 0; b < REACH_BINS; b++) {
    const lx = BIN_COS[b]!;
    const ly = BIN_SIN[b]!;
    const dx = lx * fx - ly * fy;
    const dy = lx * fy + ly * fx;
    let limit = FUDGE_MOVE_IN;
    if (nPieces > 0) {
      const mask = masks[b]!;
      for (let i = 0; i < 8; i++) {
        if (!(mask & (1 << i))) continue;
        const ox = outline[2 * i]!;
        const oy = outline[2 * i + 1]!;
        for (let j = 0; j < nPieces; j++) {
          const t = rayIntoPieceIn(ox, oy, dx, dy, fudgePieces[j]!, fudgeAt[j]!);
          if (t >= 0 && t < limit) limit = t;
        }
      }
      // The enemies' grown corners cast back at the unit's outline.
      for (let j = 0; j < nPieces; j++) {
        const p = fudgePieces[j]!;
        const at = fudgeAt[j]!;
        for (let c = at + P_CORNERS; c < at + P_CORNERS + 8; c += 2) {
          const t = rayIntoOursIn(p[c]!, p[c + 1]!, -dx, -dy);
          if (t >= 0 && t < limit) limit = t;
        }
      }
    }
    FUDGE_XY[2 * b] = ref.xIn + dx * limit;
    FUDGE_XY[2 * b + 1] = ref.yIn + dy * limit;
  }
  return polygonOf(FUDGE_XY, NONE_IS_REF, ref);
}
