/**
 * Shapes for the fire layer: each firing stand's arc cut at the weapon's longest range, and a line with a
 * "3 dice @ 12\"" label to every target it may fire at (no label when the option has 0 dice).
 */
import type { FireRefusal, FireTargetOption } from '../../../engine/evaluation.ts';
import type { Shape } from '../../../engine/shapes.ts';
import { closestPointOnSegment } from '../../../geometry/distance.ts';
import { wedgePolygon } from '../../../geometry/wedge.ts';
import type { PointIn } from '../../../model/units.ts';
import type { DtpContext } from '../context.ts';
import { firingStands } from './eligibleStands.ts';
import { arcOfStand } from './fireArc.ts';
import { maxRangeIn, weaponRow } from '../tables/fireTables.ts';
import { hypot2 } from '../../../geometry/hypot.ts';

function nearestPointOnStands(p: PointIn, polygons: readonly (readonly PointIn[])[]): PointIn {
  let best = p;
  let bestD = Infinity;
  for (const poly of polygons) {
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const q = closestPointOnSegment(p, poly[j]!, poly[i]!);
      const d = hypot2(q.xIn - p.xIn, q.yIn - p.yIn);
      if (d < bestD) {
        bestD = d;
        best = q;
      }
    }
  }
  return best;
}

/** Arc and target shapes for one unit, given its fire options (empty when it cannot fire). */
export function fireShapes(ctx: DtpContext, unitId: string, options: readonly (FireTargetOption | FireRefusal)[]): Shape[] {
  const info = ctx.units.get(unitId)!;
  const row = weaponRow(info.unit.weapon);
  if (!row || options.some((o) => !o.ok && o.targetUnitId === '*')) return [];
  const side = info.unit.side;
  const rangeIn = maxRangeIn(row);
  const out: Shape[] = [];
  for (const s of firingStands(ctx, unitId)) {
    out.push({
      kind: 'polygon',
      id: `fire/arc/${s.stand.id}`,
      layer: 'fire',
      style: info.unit.arm === 'artillery' ? 'arc-artillery' : 'arc',
      unitId,
      side,
      vertices: wedgePolygon(arcOfStand(s, info.unit.arm), rangeIn),
    });
  }
  for (const o of options) {
    if (!o.ok) continue;
    const eligible = o.eligibleStandIds.map((id) => ctx.stands.get(id)!);
    const from = {
      xIn: eligible.reduce((a, s) => a + s.center.xIn, 0) / eligible.length,
      yIn: eligible.reduce((a, s) => a + s.center.yIn, 0) / eligible.length,
    };
    const to = nearestPointOnStands(from, ctx.units.get(o.targetUnitId)!.stands.map((t) => t.corners));
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
