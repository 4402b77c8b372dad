/**
 * The Devil to Pay (2018), MOVE: road movement. March column and limbered artillery move 18" (+6" mounted)
 * along a road when no enemy is within 12" (Move: Movement table; Armies, Infantry: March Column), ignoring
 * terrain penalties and stopping 1" short of enemies.
 */
import type { Road } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';
import { closestPointOnSegment } from '../../../geometry/distance.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { boxGapIn, type DtpContext, type UnitInfo } from '../context.ts';
import { ENEMY_CLEARANCE_IN } from '../tables/movementTables.ts';
import { PIECE, writeRectPiece } from './obstacleBuffer.ts';

// The piece layout as this module's own constants (see PIECE).
const { P_CX, P_CY, P_HU, P_HV, P_UX, P_UY, P_NX, P_NY, PIECE_STRIDE } = PIECE;

/** Distance from a point to the nearest stand of any enemy unit, inches (centre-to-edge, cheap bound). */
export function nearestEnemyIn(ctx: DtpContext, info: UnitInfo): number {
  let best = Infinity;
  for (const e of ctx.enemiesOf(info.unit.id)) {
    const gap = boxGapIn(info.box, e.box);
    if (gap < best) best = gap;
  }
  return best;
}

/**
 * Walk `distIn` inches along a road polyline from `start` (on segment `seg`), forward or backward, stopping
 * early where `blocked` says so (sampled every quarter inch). Returns the polyline walked.
 */
function walkRoad(points: readonly PointIn[], seg: number, start: PointIn, forward: boolean, distIn: number, blocked: (p: PointIn) => boolean): PointIn[] {
  const out: PointIn[] = [start];
  let left = distIn;
  let at = start;
  let i = forward ? seg + 1 : seg;
  const stepIn = 0.25;
  while (left > 1e-9 && i >= 0 && i < points.length) {
    const next = points[i]!;
    const len = hypot2(next.xIn - at.xIn, next.yIn - at.yIn);
    const take = Math.min(len, left);
    for (let d = Math.min(stepIn, take); ; d = Math.min(d + stepIn, take)) {
      const p = len === 0 ? next : { xIn: at.xIn + ((next.xIn - at.xIn) * d) / len, yIn: at.yIn + ((next.yIn - at.yIn) * d) / len };
      if (blocked(p)) {
        const back = Math.max(0, d - stepIn);
        if (back > 0) out.push(len === 0 ? next : { xIn: at.xIn + ((next.xIn - at.xIn) * back) / len, yIn: at.yIn + ((next.yIn - at.yIn) * back) / len });
        return out;
      }
      if (d >= take) {
        out.push(p);
        at = p;
        break;
      }
    }
    left -= take;
    i += forward ? 1 : -1;
  }
  return out;
}

/** Whether p lies in the stand rectangle at `at` of `pieces` grown by `growIn`. */
function insideGrownPiece(p: PointIn, pieces: Float64Array, at: number, growIn: number): boolean {
  const ou = (p.xIn - pieces[at + P_CX]!) * pieces[at + P_UX]! + (p.yIn - pieces[at + P_CY]!) * pieces[at + P_UY]!;
  const ov = (p.xIn - pieces[at + P_CX]!) * pieces[at + P_NX]! + (p.yIn - pieces[at + P_CY]!) * pieces[at + P_NY]!;
  return Math.abs(ou) <= pieces[at + P_HU]! + growIn && Math.abs(ov) <= pieces[at + P_HV]! + growIn;
}

/**
 * Road reach from the reference point `ref` (Move: Movement table, roads): `distIn` inches each way along
 * every road the reference point stands on, stopping short of where the unit's lead (`leadIn` ahead of the
 * reference point) would come within 1" of an enemy stand.
 */
export function roadReach(ctx: DtpContext, info: UnitInfo, ref: PointIn, roads: readonly Road[], distIn: number, leadIn: number): PointIn[][] {
  const out: PointIn[][] = [];
  // Every enemy stand as a piece (obstacleBuffer.ts's layout, not grown: the 1" and the lead are added per test).
  const enemyStands = ctx.enemiesOf(info.unit.id).flatMap((e) => e.stands);
  const pieces = new Float64Array(enemyStands.length * PIECE_STRIDE);
  enemyStands.forEach((s, i) => writeRectPiece(pieces, i * PIECE_STRIDE, s.corners, 0));
  const blocked = (p: PointIn): boolean => {
    for (let at = 0; at < pieces.length; at += PIECE_STRIDE) if (insideGrownPiece(p, pieces, at, ENEMY_CLEARANCE_IN + leadIn)) return true;
    return false;
  };
  for (const road of roads) {
    const half = (road.widthIn ?? 1) / 2;
    for (let i = 0; i + 1 < road.points.length; i++) {
      const a = road.points[i]!;
      const b = road.points[i + 1]!;
      const c = closestPointOnSegment(ref, a, b);
      // On the road: the reference point within the road's width (plus half an inch of placement slack).
      if (hypot2(c.xIn - ref.xIn, c.yIn - ref.yIn) > half + 0.5) continue;
      out.push(walkRoad(road.points, i, c, true, distIn, blocked), walkRoad(road.points, i, c, false, distIn, blocked));
      break;
    }
  }
  return out.filter((l) => l.length > 1);
}
