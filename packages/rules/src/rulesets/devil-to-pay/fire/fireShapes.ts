/**
 * Shapes for the fire layer: each firing stand's arc cut at the weapon's longest range, and a line with a
 * "3 dice @ 12\"" label to every target it may fire at (no label when the option has 0 dice).
 */
import type { FireRefusal, FireTargetOption } from '../../../engine/evaluation.ts';
import type { Shape } from '../../../engine/shapes.ts';
import { wedgePolygon } from '../../../geometry/wedge.ts';
import type { PointIn } from '../../../model/units.ts';
import type { DtpContext, StandInfo } from '../context.ts';
import { query } from '../../../engine/incremental/query.ts';
import { fireListQuery } from './fire.ts';
import { firingStandsQuery, nearerOnEdges, type NearestSoFar } from './eligibleStands.ts';
import { maxRangeIn, weaponRow } from '../tables/fireTables.ts';

/**
 * The nearest point to p on the stands' edges (`closestPointOnSegment` per edge, the first of equals),
 * allocating only the answer: a point per edge was a fair share of a full evaluation's garbage.
 */
function nearestPointOnStands(p: PointIn, stands: readonly StandInfo[]): PointIn {
  const best = STANDS_BEST;
  best.d = Infinity;
  for (const st of stands) nearerOnEdges(p, st.corners, best);
  return best.d < Infinity ? { xIn: best.x, yIn: best.y } : p;
}

/** Scratch of `nearestPointOnStands` (never re-entered). */
const STANDS_BEST: NearestSoFar = { d: Infinity, x: 0, y: 0 };

/** Arc and target shapes for one unit, given its fire options (empty when it cannot fire). */
export function fireShapes(ctx: DtpContext, unitId: string, options: readonly (FireTargetOption | FireRefusal)[]): Shape[] {
  const info = ctx.units.get(unitId)!;
  const row = weaponRow(info.unit.weapon);
  if (!row) return [];
  for (const o of options) if (!o.ok && o.targetUnitId === '*') return [];
  const side = info.unit.side;
  const rangeIn = maxRangeIn(row);
  const out: Shape[] = [];
  const firing = ctx.t.get(firingStandsQuery, unitId);
  firing.stands.forEach((s, i) => {
    out.push({
      kind: 'polygon',
      id: `fire/arc/${s.stand.id}`,
      layer: 'fire',
      style: info.unit.arm === 'artillery' ? 'arc-artillery' : 'arc',
      unitId,
      side,
      vertices: wedgePolygon(firing.arcs[i]!.wedge, rangeIn),
    });
  });
  for (const o of options) {
    if (!o.ok) continue;
    // The centre of the eligible stands: summed in order from 0, as a reduce would.
    const ids = o.eligibleStandIds;
    let sumX = 0;
    let sumY = 0;
    for (const id of ids) sumX += ctx.stands.get(id)!.center.xIn;
    for (const id of ids) sumY += ctx.stands.get(id)!.center.yIn;
    const from = { xIn: sumX / ids.length, yIn: sumY / ids.length };
    const to = nearestPointOnStands(from, ctx.units.get(o.targetUnitId)!.stands);
    const style = o.priority ? 'target-priority' : 'target';
    out.push({ kind: 'polyline', id: `fire/target/${unitId}/${o.targetUnitId}`, layer: 'fire', style, unitId, side, points: [from, to], arrow: true });
    // No "0 dice" label on the map: the arrow stays (the target is legal), the breakdown says why no dice.
    if (o.breakdown.dice === 0) continue;
    out.push({
      kind: 'label',
      id: `fire/label/${unitId}/${o.targetUnitId}`,
      layer: 'fire',
      style: 'label',
      unitId,
      side,
      at: { xIn: (from.xIn + to.xIn) / 2, yIn: (from.yIn + to.yIn) / 2 },
      text: `${o.breakdown.dice} ${o.breakdown.dice === 1 ? 'die' : 'dice'} @ ${Math.round(o.rangeIn)}"`,
    });
  }
  return out;
}

/** A unit's fire shapes (`fireShapes` of its fire list). */
export const fireShapesQuery = query('dtp/fire-shapes', (ctx: DtpContext, unitId): Shape[] => fireShapes(ctx, unitId, ctx.t.get(fireListQuery, unitId)), { equal: 'plain' });
