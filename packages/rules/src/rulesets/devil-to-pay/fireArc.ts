/**
 * The Devil to Pay arcs of fire (FIRE, Eligible Stands: Arc of Fire, p. 20).
 */
import type { Arm } from '../../model/tableState.ts';
import { normalizeDeg } from '../../geometry/angles.ts';
import type { StandCorners } from '../../geometry/footprint.ts';
import { diagonalWedgeOfCorners, type Wedge } from '../../geometry/wedge.ts';
import type { StandShape } from '../../geometry/footprint.ts';

/**
 * Half-opening of the artillery arc, degrees. "Artillery measures from the rear corner of the crew stand to
 * the opposite, front corner of the gun stand (roughly a 60-degree arc of fire)": on the 1.5" x 3" artillery
 * base (Armies, Basing, p. 9) that diagonal is atan(1.5 / 3) = 26.57° either side of the facing. Fixed rather
 * than read from the base so a battery modelled on a differently shaped base keeps its narrow arc.
 */
export const ARTILLERY_HALF_ARC_DEG = (Math.atan2(1.5, 3) * 180) / Math.PI;

/**
 * A stand's arc of fire as a wedge from its front corners. Infantry and cavalry: "from corner-to-corner of
 * the firing stands (a 90-degree arc of fire)", i.e. the base diagonals continued past the front corners.
 * Artillery: the narrower gun arc, `ARTILLERY_HALF_ARC_DEG` either side of the facing.
 */
export function fireArc(stand: StandShape, corners: StandCorners, arm: Arm): Wedge {
  if (arm !== 'artillery') return diagonalWedgeOfCorners(corners);
  const h = stand.pose.headingDeg;
  return {
    leftOrigin: corners[0],
    leftDirDeg: normalizeDeg(h + ARTILLERY_HALF_ARC_DEG),
    rightOrigin: corners[1],
    rightDirDeg: normalizeDeg(h - ARTILLERY_HALF_ARC_DEG),
  };
}
