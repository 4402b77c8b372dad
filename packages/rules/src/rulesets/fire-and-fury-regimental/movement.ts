/**
 * Movement reach (QRS II, Figure 2 Movement Rate; Road Movement; Gun Maneuvers, Hand Haul).
 *
 * The rate comes from the chart row for the unit's arm and formation. "Whenever a unit combines on- and
 * off-road movement through terrain of different levels of difficulty, it must move at the slowest rate for
 * its entire movement": so along each straight line out from the unit's reference stand, the unit reaches
 * the farthest of open rate (until it would enter broken or rough ground), broken rate (until rough ground)
 * and rough rate, never past an enemy stand, a river or the table edge. The reach is the star polygon of
 * those straight moves (wheels and obliques are not traced). A march column, broken unit or limbered gun
 * touching a road also gets the road reach along it (the chart's Road column on a good road, the open rate on
 * a poor one).
 */
import type { MovementOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import { standCenter } from '../../geometry/footprint.ts';
import { segmentInsideIntervals, segmentIntersectionT } from '../../geometry/intersect.ts';
import { closestPointOnSegment, segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import type { FfrContext, FfrUnitInfo, WarningSink } from './context.ts';
import { HAND_HAUL_IN, HEAVY_GUN_WEAPONS, MOVEMENT_RATES, ROAD_BONUS, type MovementRow, type MovementRowId } from './tables/movementRates.ts';
import { IMPASSABLE_LINEAR, classRank, type TerrainClass } from './tables/terrainClasses.ts';
import { qrs } from './tables/source.ts';

export interface MovementResult {
  readonly movement: MovementOption | Refusal;
  readonly shapes: readonly Shape[];
  /** The chart row used, when the unit moves by the chart. */
  readonly row?: MovementRow;
  /** Ground class at the unit's reference stand. */
  readonly startClass: TerrainClass;
}

const RAYS = 48;
const GROUNDS = ['open', 'broken', 'rough'] as const;

type RowChoice = { readonly kind: 'row'; readonly id: MovementRowId } | { readonly kind: 'haul'; readonly inches: number } | Refusal;

/** Which chart row (or hand haul) moves this unit now. */
export function movementRowFor(info: FfrUnitInfo): RowChoice {
  const { unit, formation } = info;
  if (unit.arm === 'artillery') {
    if (formation.limbered) return { kind: 'row', id: unit.horseArtillery ? 'artillery-horse-gun' : 'artillery-field-gun' };
    if (HEAVY_GUN_WEAPONS.includes(unit.weapon)) {
      return { ok: false, reason: 'movement/no-hand-haul', detail: `${unit.weapon} guns cannot hand haul or prolong unlimbered (${qrs('Gun Maneuver Changes 9')}); limber to move.` };
    }
    return { kind: 'haul', inches: unit.weapon === 'MH' ? HAND_HAUL_IN.mountainHowitzer : HAND_HAUL_IN.standard };
  }
  if (formation.id === 'garrison') return { ok: false, reason: 'movement/garrison', detail: 'A garrison leaves its position by a change of formation before it moves.' };
  const arm = unit.arm === 'cavalry' ? 'cavalry' : 'infantry';
  if (formation.id === 'broken') return { kind: 'row', id: `${arm}-broken` };
  if (arm === 'cavalry' && formation.dismounted) return { kind: 'row', id: 'cavalry-dismounted-extended-line' };
  if (formation.id === 'march-column') return { kind: 'row', id: `${arm}-march-column` };
  if (formation.id === 'line') return { kind: 'row', id: `${arm}-line` };
  return { kind: 'row', id: `${arm}-field-column-or-extended-line` };
}

interface Boxed {
  readonly polygon: readonly PointIn[];
  readonly minXIn: number;
  readonly minYIn: number;
  readonly maxXIn: number;
  readonly maxYIn: number;
}

function boxed(polygon: readonly PointIn[]): Boxed {
  let minXIn = Infinity, minYIn = Infinity, maxXIn = -Infinity, maxYIn = -Infinity;
  for (const p of polygon) {
    if (p.xIn < minXIn) minXIn = p.xIn;
    if (p.yIn < minYIn) minYIn = p.yIn;
    if (p.xIn > maxXIn) maxXIn = p.xIn;
    if (p.yIn > maxYIn) maxYIn = p.yIn;
  }
  return { polygon, minXIn, minYIn, maxXIn, maxYIn };
}

/** Distance along a→b (inches, lengthIn long) to the first point inside the polygon, or Infinity. */
function firstEntryIn(a: PointIn, b: PointIn, lengthIn: number, box: Boxed): number {
  // Most polygons are nowhere near a given ray: a box test spares the exact (allocating) one.
  if (Math.max(a.xIn, b.xIn) < box.minXIn || Math.min(a.xIn, b.xIn) > box.maxXIn || Math.max(a.yIn, b.yIn) < box.minYIn || Math.min(a.yIn, b.yIn) > box.maxYIn) return Infinity;
  const iv = segmentInsideIntervals(a, b, box.polygon);
  return iv.length > 0 ? iv[0]![0] * lengthIn : Infinity;
}

function rayEnd(o: PointIn, deg: number, lengthIn: number): PointIn {
  const r = (deg * Math.PI) / 180;
  return { xIn: o.xIn + Math.cos(r) * lengthIn, yIn: o.yIn + Math.sin(r) * lengthIn };
}

/** Distance from o along the ray to the table edge. */
function edgeDistanceIn(ctx: FfrContext, o: PointIn, deg: number): number {
  const r = (deg * Math.PI) / 180;
  const dx = Math.cos(r);
  const dy = Math.sin(r);
  let t = Infinity;
  if (dx > 1e-12) t = Math.min(t, (ctx.state.table.widthIn - o.xIn) / dx);
  if (dx < -1e-12) t = Math.min(t, -o.xIn / dx);
  if (dy > 1e-12) t = Math.min(t, (ctx.state.table.depthIn - o.yIn) / dy);
  if (dy < -1e-12) t = Math.min(t, -o.yIn / dy);
  return Math.max(0, t);
}

/**
 * The star polygon a unit at `origin` reaches with these rates per ground class. Exported for the
 * charge reach.
 */
export function reachPolygon(ctx: FfrContext, info: FfrUnitInfo, origin: PointIn, rates: Readonly<Record<(typeof GROUNDS)[number], number>>): PointIn[] {
  const maxIn = Math.max(rates.open, rates.broken, rates.rough);
  const startRank = classRank(ctx.classAt(origin));
  const near = (box: { minXIn: number; minYIn: number; maxXIn: number; maxYIn: number }) =>
    box.maxXIn >= origin.xIn - maxIn && box.minXIn <= origin.xIn + maxIn && box.maxYIn >= origin.yIn - maxIn && box.minYIn <= origin.yIn + maxIn;
  const areas = ctx.areas.filter((a) => a.cls !== 'open' && near(a.box)).map((a) => ({ cls: a.cls, box: boxed(a.vertices) }));
  const enemies: Boxed[] = [];
  for (const other of ctx.units.values()) if (other.unit.side !== info.unit.side && near(other.box)) for (const p of other.polygons) enemies.push(boxed(p));
  const rivers = ctx.state.terrain.linear.filter((l) => IMPASSABLE_LINEAR.includes(l.kind));
  const out: PointIn[] = [];
  for (let i = 0; i < RAYS; i++) {
    const deg = (360 * i) / RAYS;
    const end = rayEnd(origin, deg, maxIn);
    let stop = Math.min(maxIn, edgeDistanceIn(ctx, origin, deg));
    for (const poly of enemies) stop = Math.min(stop, firstEntryIn(origin, end, maxIn, poly));
    for (const r of rivers) {
      for (let k = 0; k + 1 < r.points.length; k++) {
        const t = segmentIntersectionT(origin, end, r.points[k]!, r.points[k + 1]!);
        if (!Number.isNaN(t)) stop = Math.min(stop, t * maxIn);
      }
    }
    // Entry distance into ground worse than each class.
    const worseThan = [Infinity, Infinity, Infinity];
    for (const a of areas) {
      const d = firstEntryIn(origin, end, maxIn, a.box);
      if (d === Infinity) continue;
      const rank = classRank(a.cls);
      for (let c = 0; c < rank && c < 3; c++) worseThan[c] = Math.min(worseThan[c]!, d);
    }
    let reach = 0;
    GROUNDS.forEach((g, c) => {
      if (c < startRank) return;
      reach = Math.max(reach, Math.min(rates[g], worseThan[c]!));
    });
    out.push(rayEnd(origin, deg, Math.max(0, Math.min(reach, stop))));
  }
  return out;
}

function roadReach(ctx: FfrContext, info: FfrUnitInfo, allowanceIn: number): PointIn[][] {
  const out: PointIn[][] = [];
  const centre = standCenter(info.formation.reference);
  for (const road of ctx.state.terrain.roads) {
    const half = (road.widthIn ?? 1) / 2;
    let touching = false;
    for (let k = 0; k + 1 < road.points.length && !touching; k++) {
      for (const poly of info.polygons) {
        for (let e = 0; e < poly.length && !touching; e++) {
          const d = segmentToSegmentDistanceIn(poly[e]!, poly[(e + 1) % poly.length]!, road.points[k]!, road.points[k + 1]!);
          if (d <= half + 1e-9) touching = true;
        }
      }
    }
    if (!touching) continue;
    // Nearest point of the road to the reference stand, then walk both ways.
    let best = { seg: 0, p: road.points[0]!, d: Infinity };
    for (let k = 0; k + 1 < road.points.length; k++) {
      const p = closestPointOnSegment(centre, road.points[k]!, road.points[k + 1]!);
      const d = Math.hypot(p.xIn - centre.xIn, p.yIn - centre.yIn);
      if (d < best.d) best = { seg: k, p, d };
    }
    const walk = (dir: 1 | -1): PointIn[] => {
      const pts = [best.p];
      let left = allowanceIn;
      let at = best.p;
      let k = dir === 1 ? best.seg + 1 : best.seg;
      while (left > 1e-9 && k >= 0 && k < road.points.length) {
        const next = road.points[k]!;
        const d = Math.hypot(next.xIn - at.xIn, next.yIn - at.yIn);
        if (d >= left) {
          pts.push({ xIn: at.xIn + ((next.xIn - at.xIn) * left) / d, yIn: at.yIn + ((next.yIn - at.yIn) * left) / d });
          left = 0;
        } else {
          pts.push(next);
          left -= d;
          at = next;
        }
        k += dir;
      }
      return pts;
    };
    const back = walk(-1).reverse();
    const ahead = walk(1);
    out.push([...back, ...ahead.slice(1)]);
  }
  return out;
}

export function evaluateMovement(ctx: FfrContext, info: FfrUnitInfo, sink: WarningSink): MovementResult {
  const unit = info.unit;
  const origin = standCenter(info.formation.reference);
  const startClass = ctx.classAt(origin);
  const choice = movementRowFor(info);
  if ('ok' in choice) return { movement: choice, shapes: [], startClass };
  const base = { layer: 'movement' as const, unitId: unit.id, side: unit.side };
  if (choice.kind === 'haul') {
    const reach = reachPolygon(ctx, info, origin, { open: choice.inches, broken: choice.inches, rough: choice.inches });
    return {
      movement: { ok: true, allowanceIn: choice.inches, reach, notes: [`Hand haul ${choice.inches}" unlimbered, over open, broken or rough ground (${HAND_HAUL_IN.source}); no offensive fire after.`] },
      shapes: [{ ...base, kind: 'polygon', id: `movement/${unit.id}/reach`, style: 'reach', vertices: reach }],
      startClass,
    };
  }
  const row = MOVEMENT_RATES[choice.id];
  const rates = { open: row.open.full, broken: row.broken.full, rough: row.rough.full };
  const reach = reachPolygon(ctx, info, origin, rates);
  const allowanceIn = row[startClass === 'impassable' ? 'rough' : startClass].full;
  const notes = [`${row.label}: full move ${row.open.full}" open, ${row.broken.full}" broken, ${row.rough.full}" rough ground; the slowest ground crossed sets the rate for the whole move (${row.source}; ${qrs('Road Movement')}).`];
  const heavy = unit.arm === 'artillery' && HEAVY_GUN_WEAPONS.includes(unit.weapon);
  if (row.open.doubleQuick !== undefined) {
    notes.push(
      heavy
        ? `No double quick for ${unit.weapon} guns (${qrs('Gun Maneuver Changes 9')}).`
        : `Double quick (Double Quick effect): ${row.open.doubleQuick}" open, ${row.broken.doubleQuick}" broken, ${row.rough.doubleQuick}" rough ground (${row.source}).`,
    );
  }
  const shapes: Shape[] = [{ ...base, kind: 'polygon', id: `movement/${unit.id}/reach`, style: 'reach', vertices: reach }];
  if (row.road) {
    const good = ctx.param('road-condition') !== 'poor';
    const roadIn = good ? row.road.full : row.open.full;
    roadReach(ctx, info, roadIn).forEach((points, i) => {
      shapes.push({ ...base, kind: 'polyline', id: `movement/${unit.id}/road/${i}`, style: 'reach-road', points });
    });
    const bonus = unit.arm === 'artillery' ? ROAD_BONUS.limberedGuns : ROAD_BONUS.troops;
    if (shapes.length > 1) {
      notes.push(
        good
          ? `On the road: ${roadIn}" (the chart's Road column; a good road's bonus is x${bonus} for the distance on it, ${ROAD_BONUS.source}).`
          : `On the road: ${roadIn}" (a poor road is open ground, no bonus; ${ROAD_BONUS.source}).`,
      );
    }
  }
  void sink;
  return { movement: { ok: true, allowanceIn, reach, notes }, shapes, row, startClass };
}
