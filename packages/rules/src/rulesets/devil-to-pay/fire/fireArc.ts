/**
 * The Devil to Pay arcs of fire (FIRE, Eligible Stands: Arc of Fire, p. 20): the wedge from a stand's
 * front corners, and its prepared form with bounding half-planes (made once per firer by the firing-stands query), for the
 * many stand-in-arc tests of a table.
 */
import type { Arm } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';
import { headingToVector, normalizeDeg } from '../../../geometry/angles.ts';
import type { StandCorners, StandShape } from '../../../geometry/footprint.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { diagonalWedgeOfCorners, prepareWedge, type PreparedWedge, type Wedge } from '../../../geometry/wedge.ts';
import type { StandArc, StandInfo } from '../context.ts';

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

/** Length of the wedge's boundary rays in geometry/wedge.ts (polygonOverlapsWedge tests them as segments). */
const WEDGE_RAY_IN = 10_000;
/** A corner this far outside one of the arc's bounding half-planes is clear of it, whatever the rounding. */
const ARC_REJECT_MARGIN_IN = 1e-3;
/** Rounding allowed when checking that the arc's boundary lies in its own half-planes. */
const ARC_SELF_TOL_IN = 1e-4;

/**
 * The three half-planes (left ray, right ray, front edge) bounding a fire arc, as [a, b, c] rows with
 * a·x + b·y + c > 0 outside; undefined when the arc's boundary does not lie within all three (then the
 * cheap reject is not sound and only the exact test is used). Fire arcs diverge from the front corners, so
 * a stand wholly outside one half-plane cannot meet the arc: that skips most of polygonOverlapsWedge's
 * ray-by-edge work for stands beside or behind the arc.
 */
function arcHalfPlanes(w: PreparedWedge): readonly number[] | undefined {
  // The prepared wedge's unit vectors are the same cos/sin of the ray directions, computed once.
  const lx = w.lx, ly = w.ly, rx = w.rx, ry = w.ry;
  const lux = w.lux, luy = w.luy, rux = w.rux, ruy = w.ruy;
  const bx = lx - rx, by = ly - ry;
  if (!(hypot2(bx, by) > 1e-6)) return undefined;
  // A plain array of doubles, not a Float64Array: a typed array's allocation cost a percent of a full
  // evaluation (one per firing stand); the numbers are the same doubles either way.
  const planes = [-luy, lux, -lux * ly + luy * lx, ruy, -rux, rux * ry - ruy * rx, -by, bx, -bx * ry + by * rx];
  // The arc's boundary (both origins and both far ray ends) must lie within all three half-planes.
  const lfx = lx + lux * WEDGE_RAY_IN, lfy = ly + luy * WEDGE_RAY_IN, rfx = rx + rux * WEDGE_RAY_IN, rfy = ry + ruy * WEDGE_RAY_IN;
  for (let k = 0; k < 9; k += 3) {
    const a = planes[k]!, b = planes[k + 1]!, c = planes[k + 2]!;
    if (a * lx + b * ly + c > ARC_SELF_TOL_IN || a * rx + b * ry + c > ARC_SELF_TOL_IN) return undefined;
    if (a * lfx + b * lfy + c > ARC_SELF_TOL_IN || a * rfx + b * rfy + c > ARC_SELF_TOL_IN) return undefined;
  }
  return planes;
}

/** A stand's arc of fire (`fireArc`). */
export function arcOfStand(stand: StandInfo, arm: Arm): Wedge {
  return fireArc(stand.stand, stand.corners, arm);
}

/** The stand's arc with its half-planes and prepared form (firingStandsQuery makes them once per firer). */
export function standArc(stand: StandInfo, arm: Arm): StandArc {
  const wedge = fireArc(stand.stand, stand.corners, arm);
  const prepared = prepareWedge(wedge);
  const f = headingToVector(stand.stand.pose.headingDeg);
  const frontAt = stand.corners[0].xIn * f.x + stand.corners[0].yIn * f.y;
  return { arm, wedge, planes: arcHalfPlanes(prepared), prepared, facingX: f.x, facingY: f.y, frontAt };
}

/** Whether the polygon lies wholly outside one of the arc's half-planes (so it cannot meet the arc). */
export function outsideArc(planes: readonly number[], polygon: readonly PointIn[]): boolean {
  for (let k = 0; k < 9; k += 3) {
    const a = planes[k]!, b = planes[k + 1]!, c = planes[k + 2]!;
    let all = true;
    for (const v of polygon) {
      if (a * v.xIn + b * v.yIn + c <= ARC_REJECT_MARGIN_IN) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

/**
 * Whether the whole box lies outside one of the arc's half-planes (every point of it beyond the reject
 * margin): then so does every polygon inside it, and `outsideArc` would say so of each.
 */
export function boxOutsideArc(planes: readonly number[], minX: number, minY: number, maxX: number, maxY: number): boolean {
  for (let k = 0; k < 9; k += 3) {
    const a = planes[k]!, b = planes[k + 1]!, c = planes[k + 2]!;
    // The smallest value of a linear function over a box is at the corner its gradient points away from.
    const least = a * (a > 0 ? minX : maxX) + b * (b > 0 ? minY : maxY) + c;
    // 1e-9 more than outsideArc's margin: rounding can never make the box say out where a stand's corner is in.
    if (least > ARC_REJECT_MARGIN_IN + 1e-9) return true;
  }
  return false;
}
