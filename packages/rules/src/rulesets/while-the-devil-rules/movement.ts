/**
 * Movement reach (While the Devil Rules, Movement): the base allowance (entered from the app) less the
 * cost of turning (a wheel paid by the moving front corner, or a 3" facing change) and of the ground
 * crossed, checked at the unit's centre as "measured from the center of the base". Rough and very rough
 * ground by movement class, 2" per linear obstacle, choke points (a road over a river: 3" plus distance),
 * roads in march formation; never within 1" of an enemy's front, never through another unit.
 */
import type { MovementOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import type { Terrain } from '../../model/tableState.ts';
import { pointInPolygon, segmentInsideIntervals, segmentIntersection, segmentPolygonCrossings } from '../../geometry/intersect.ts';
import { boundingBox, convexHull, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { advanceSpec, FORMATION_CHANGE_COST, marchSpec } from './declarations.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import { CONTACT_IN, FRONT_CORNER_SLACK_IN, engagedWith, type UnitInfo, type WtdrContext } from './context.ts';
import { convexMinkowskiSum, fromFrame, segmentToPolygonDistanceIn } from './geom.ts';
import {
  CHOKE_POINT_COST_IN, ENEMY_FRONT_ZONE_IN, ENEMY_FRONT_ZONE_SOURCE, MOVEMENT_TABLE_SOURCE, ROAD_COST_PER_IN,
  facingChangeCostIn, linearObstacleCostIn, roughCostPerIn, veryRoughCostPerIn,
} from './tables/movementTables.ts';
import { AREA_CLASSES, LINEAR_CLASSES } from './tables/terrainClasses.ts';
import type { MovementClass, TroopType } from './tables/troopTypes.ts';
import { query } from '../../engine/incremental/query.ts';

/** Directions sampled for the reach outline, degrees apart. */
const RAY_STEP_DEG = 10;

export interface MovementResult {
  readonly movement: MovementOption | Refusal;
  readonly shapes: readonly Shape[];
}

/** Friends that may be passed through: "friendly Forlorn Hope, Dragoons, and Irregular Light Horse". */
function interpenetrable(info: UnitInfo): boolean {
  return info.type?.family === 'swarm' || info.type?.family === 'light-horse';
}

/** Regions the unit's centre may not enter: other units and enemies' 1" front zones, grown by the unit's outline. */
interface Region {
  readonly poly: readonly PointIn[];
  readonly box: BoundingBoxIn;
}

function forbiddenRegions(ctx: WtdrContext, info: UnitInfo, reachIn: number, enemyZones = true): Region[] {
  const rel = info.reflectedHull;
  const radius = info.radiusIn;
  const out: Region[] = [];
  const side = info.unit.side;
  const passesFriends = interpenetrable(info);
  const cx = info.centre.xIn;
  const cy = info.centre.yIn;
  // A region can stop a ray only where it comes within the reach of the centre: units further off than the
  // reach, the unit's own radius and a 1" front zone are not read.
  const lookIn = reachIn + radius + 1 + 0.01;
  for (const otherId of ctx.t.unitsIn({ minXIn: cx - lookIn, minYIn: cy - lookIn, maxXIn: cx + lookIn, maxYIn: cy + lookIn })) {
    const other = ctx.units.get(otherId)!;
    if (other === info || other.stands.length === 0 || other.status === 'destroyed') continue;
    // Enemies as `enemiesOf` reads them: another side, on the table, not destroyed.
    const enemy = other.unit.side !== side;
    if (!enemy && (passesFriends || interpenetrable(other))) continue;
    // Outline plus a 1" front zone lies within radius + 1" of the other unit's centre.
    if (Math.hypot(other.centre.xIn - cx, other.centre.yIn - cy) - other.radiusIn - 1 > reachIn + radius) continue;
    const grown = convexMinkowskiSum(enemy && enemyZones ? other.zoneHull : other.hull, rel, convexHull);
    // Already overlapping (in contact): leaving is the Retire action's business, not blocked here.
    if (!pointInPolygon(info.centre, grown)) out.push({ poly: grown, box: boundingBox(grown) });
  }
  return out;
}

/**
 * Friends the unit may pass through but not stop on: "Units may freely interpenetrate and be interpenetrated
 * by friendly Forlorn Hope, Dragoons, and Irregular Light Horse in any direction, but may not end their move in
 * the same space" (Movement). Each as the region its centre may not end in (the friend grown by its outline).
 */
function noStopRegions(ctx: WtdrContext, info: UnitInfo, reachIn: number): (Region & { readonly unitId: string; readonly name: string })[] {
  const out: (Region & { readonly unitId: string; readonly name: string })[] = [];
  const cx = info.centre.xIn;
  const cy = info.centre.yIn;
  const lookIn = reachIn + info.radiusIn + 0.01;
  for (const otherId of ctx.t.unitsIn({ minXIn: cx - lookIn, minYIn: cy - lookIn, maxXIn: cx + lookIn, maxYIn: cy + lookIn })) {
    const other = ctx.units.get(otherId)!;
    if (other === info || other.stands.length === 0 || other.status === 'destroyed' || other.unit.side !== info.unit.side) continue;
    if (!interpenetrable(info) && !interpenetrable(other)) continue;
    if (Math.hypot(other.centre.xIn - cx, other.centre.yIn - cy) - other.radiusIn > reachIn + info.radiusIn) continue;
    const grown = convexMinkowskiSum(other.hull, info.reflectedHull, convexHull);
    if (pointInPolygon(info.centre, grown)) continue; // already overlapping: nothing to draw from here
    out.push({ poly: grown, box: boundingBox(grown), unitId: other.unit.id, name: other.unit.name });
  }
  return out;
}

/** `d` along the ray, pulled back to where it enters a no-stop region when it would end inside one. */
function endOutside(from: PointIn, dirDeg: number, d: number, regions: readonly Region[]): number {
  const r = (dirDeg * Math.PI) / 180;
  const at = (t: number): PointIn => ({ xIn: from.xIn + Math.cos(r) * t, yIn: from.yIn + Math.sin(r) * t });
  const inside = regions.find((g) => pointInPolygon(at(d), g.poly));
  if (!inside) return d;
  // Bisect for the entry into that region (the start is outside it).
  let lo = 0;
  let hi = d;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (pointInPolygon(at(mid), inside.poly)) hi = mid;
    else lo = mid;
  }
  return endOutside(from, dirDeg, lo, regions.filter((g) => g !== inside));
}

interface Segment {
  readonly t0: number;
  readonly t1: number;
  /** Base inches per inch moved; null = impassable. */
  readonly costPerIn: number | null;
}

/** Whether a box lies wholly outside [minX, maxX] × [minY, maxY]. */
function boxMisses(b: BoundingBoxIn, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return b.maxXIn < minX || b.minXIn > maxX || b.maxYIn < minY || b.minYIn > maxY;
}

/** Whether `t` lies strictly inside one of the intervals. */
function insideAny(intervals: readonly [number, number][], t: number): boolean {
  for (const [a, b] of intervals) if (t > a && t < b) return true;
  return false;
}

/** Distance along the ray the budget buys, honouring every cost on the way. */
function walkRay(near: NearTerrain, movement: MovementClass, march: boolean, from: PointIn, dirDeg: number, budgetIn: number, blockedAtIn: number): number {
  const { terrain, roadPolys, areaBoxes, roadBoxes } = near;
  // Open ground all round: one inch per inch.
  if (terrain.areas.length === 0 && terrain.linear.length === 0 && (roadPolys.length === 0 || !march)) return Math.max(0, Math.min(blockedAtIn, budgetIn));
  const r = (dirDeg * Math.PI) / 180;
  const lengthIn = Math.min(blockedAtIn, march ? budgetIn / ROAD_COST_PER_IN : budgetIn);
  if (lengthIn <= 0 || budgetIn <= 0) return 0;
  const to = { xIn: from.xIn + Math.cos(r) * lengthIn, yIn: from.yIn + Math.sin(r) * lengthIn };
  // Pieces whose box the ray's box misses cannot meet the ray: skipped before any exact test.
  const minX = Math.min(from.xIn, to.xIn), maxX = Math.max(from.xIn, to.xIn);
  const minY = Math.min(from.yIn, to.yIn), maxY = Math.max(from.yIn, to.yIn);
  const cuts: number[] = [0, 1];
  const areas: { iv: [number, number][]; cost: number | null; road: boolean }[] = [];
  for (let k = 0; k < terrain.areas.length; k++) {
    if (boxMisses(areaBoxes[k]!, minX, minY, maxX, maxY)) continue;
    const a = terrain.areas[k]!;
    const iv = segmentInsideIntervals(from, to, a.vertices);
    if (iv.length === 0) continue;
    const cls = AREA_CLASSES[a.kind];
    const cost = cls.movement === 'rough' ? roughCostPerIn(movement) : veryRoughCostPerIn(movement);
    areas.push({ iv, cost, road: cls.roadForColumn });
    for (const [t0, t1] of iv) cuts.push(t0, t1);
  }
  const roadIv: [number, number][] = [];
  if (march) {
    for (let k = 0; k < roadPolys.length; k++) {
      if (boxMisses(roadBoxes[k]!, minX, minY, maxX, maxY)) continue;
      for (const iv of segmentInsideIntervals(from, to, roadPolys[k]!)) {
        roadIv.push(iv);
        cuts.push(iv[0], iv[1]);
      }
    }
  }
  // Linear terrain crossings: a cost at a point.
  const crossings: { t: number; cost: number | null }[] = [];
  for (const line of terrain.linear) {
    for (let k = 0; k + 1 < line.points.length; k++) {
      const p = line.points[k]!;
      const q = line.points[k + 1]!;
      if (Math.max(p.xIn, q.xIn) < minX || Math.min(p.xIn, q.xIn) > maxX || Math.max(p.yIn, q.yIn) < minY || Math.min(p.yIn, q.yIn) > maxY) continue;
      const hit = segmentIntersection(from, to, p, q);
      if (!hit) continue;
      const cls = LINEAR_CLASSES[line.kind];
      let onRoad = false;
      for (let i = 0; !onRoad && i < roadPolys.length; i++) onRoad = !boxMisses(roadBoxes[i]!, minX, minY, maxX, maxY) && pointInPolygon(hit.point, roadPolys[i]!);
      const cost = cls === 'impassable' ? (onRoad ? CHOKE_POINT_COST_IN : null) : linearObstacleCostIn(movement);
      crossings.push({ t: hit.tA, cost });
      cuts.push(hit.tA);
    }
  }
  // Nothing on this ray: one inch per inch up to the budget (what the walk below gives, without building it).
  if (areas.length === 0 && roadIv.length === 0 && crossings.length === 0) return lengthIn >= budgetIn ? budgetIn : lengthIn;
  const ts = cuts.filter((t) => t >= 0 && t <= 1).sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let k = 0; k + 1 < ts.length; k++) {
    const t0 = ts[k]!;
    const t1 = ts[k + 1]!;
    if (t1 - t0 <= 1e-12) continue;
    const tm = (t0 + t1) / 2;
    const onRoad = march && (insideAny(roadIv, tm) || areas.some((a) => a.road && insideAny(a.iv, tm)));
    let cost: number | null = 1;
    if (onRoad) cost = ROAD_COST_PER_IN;
    else {
      for (const a of areas) {
        if (!insideAny(a.iv, tm)) continue;
        if (a.cost === null) cost = null;
        else if (cost !== null && a.cost > cost) cost = a.cost;
      }
    }
    segments.push({ t0, t1, costPerIn: cost });
  }
  crossings.sort((a, b) => a.t - b.t);
  let budget = budgetIn;
  let ci = 0;
  for (const s of segments) {
    while (ci < crossings.length && crossings[ci]!.t <= s.t0 + 1e-12) {
      const c = crossings[ci++]!;
      if (c.cost === null || c.cost > budget) return c.t * lengthIn;
      budget -= c.cost;
    }
    if (s.costPerIn === null) return s.t0 * lengthIn;
    const len = (s.t1 - s.t0) * lengthIn;
    const need = len * s.costPerIn;
    if (need >= budget) return s.t0 * lengthIn + budget / s.costPerIn;
    budget -= need;
  }
  return lengthIn;
}

/** Terrain near a unit, with each road segment as a polygon of the road's width. */
interface NearTerrain {
  readonly terrain: Terrain;
  readonly roadPolys: readonly (readonly PointIn[])[];
  /** Boxes of `terrain.areas` and of `roadPolys`, index for index. */
  readonly areaBoxes: readonly BoundingBoxIn[];
  readonly roadBoxes: readonly BoundingBoxIn[];
}

function roadPolygons(roads: Terrain['roads']): PointIn[][] {
  const out: PointIn[][] = [];
  for (const road of roads) {
    const half = (road.widthIn ?? 1) / 2;
    for (let k = 0; k + 1 < road.points.length; k++) {
      const p = road.points[k]!;
      const q = road.points[k + 1]!;
      const len = Math.hypot(q.xIn - p.xIn, q.yIn - p.yIn) || 1;
      const nx = (-(q.yIn - p.yIn) / len) * half;
      const ny = ((q.xIn - p.xIn) / len) * half;
      out.push([
        { xIn: p.xIn + nx, yIn: p.yIn + ny }, { xIn: q.xIn + nx, yIn: q.yIn + ny },
        { xIn: q.xIn - nx, yIn: q.yIn - ny }, { xIn: p.xIn - nx, yIn: p.yIn - ny },
      ]);
    }
  }
  return out;
}

/** Terrain pieces whose bounding box comes within `radiusIn` of `centre` (the rest cannot touch a ray). */
function terrainNear(terrain: Terrain, centre: PointIn, radiusIn: number): NearTerrain {
  const near = (pts: readonly PointIn[], marginIn = 0): boolean => {
    const r = radiusIn + marginIn;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const p of pts) {
      minX = Math.min(minX, p.xIn);
      minY = Math.min(minY, p.yIn);
      maxX = Math.max(maxX, p.xIn);
      maxY = Math.max(maxY, p.yIn);
    }
    return minX <= centre.xIn + r && maxX >= centre.xIn - r && minY <= centre.yIn + r && maxY >= centre.yIn - r;
  };
  const linear = terrain.linear.filter((l) => near(l.points));
  // Roads are widened by half their width on each side; a road matters for choke points too.
  const roads = terrain.roads.filter((r) => near(r.points, (r.widthIn ?? 1) / 2));
  const areas = terrain.areas.filter((a) => near(a.vertices));
  const roadPolys = roadPolygons(roads);
  return { terrain: { areas, linear, roads, elevations: [] }, roadPolys, areaBoxes: areas.map((a) => boundingBox(a.vertices)), roadBoxes: roadPolys.map(boundingBox) };
}

/** Distance along a ray to the first forbidden region or the table edge. */
function blockedAt(ctx: WtdrContext, from: PointIn, dirDeg: number, maxIn: number, regions: readonly Region[]): number {
  const r = (dirDeg * Math.PI) / 180;
  const dx = Math.cos(r);
  const dy = Math.sin(r);
  let t = maxIn;
  const { widthIn, depthIn } = ctx.table;
  if (dx > 1e-12) t = Math.min(t, (widthIn - from.xIn) / dx);
  if (dx < -1e-12) t = Math.min(t, -from.xIn / dx);
  if (dy > 1e-12) t = Math.min(t, (depthIn - from.yIn) / dy);
  if (dy < -1e-12) t = Math.min(t, -from.yIn / dy);
  t = Math.max(0, t);
  const to = { xIn: from.xIn + dx * t, yIn: from.yIn + dy * t };
  const minX = Math.min(from.xIn, to.xIn), maxX = Math.max(from.xIn, to.xIn);
  const minY = Math.min(from.yIn, to.yIn), maxY = Math.max(from.yIn, to.yIn);
  // Crossings are fractions of this whole segment: each is scaled by its full length, not by a t already cut short.
  const lengthIn = t;
  for (const { poly, box } of regions) {
    if (box.maxXIn < minX || box.minXIn > maxX || box.maxYIn < minY || box.minYIn > maxY) continue;
    const hits = segmentPolygonCrossings(from, to, poly);
    if (hits.length > 0) t = Math.min(t, hits[0]! * lengthIn);
  }
  return t;
}

/** Retire rays: straight back, then every 5° out to 45° either side ("up to 45 degrees to either side"). */
const RETIRE_STEP_DEG = 5;
const RETIRE_HALF_DEG = 45;
const ACTIONS = 'Actions; Movement (Retire)';

/** Which faces of the unit's box an enemy outline touches, front corners counted as front (Combat: Melee). */
function facesTouched(info: UnitInfo, enemy: UnitInfo): Set<string> {
  const { front, rear, left, right } = info.box;
  const f = info.frame;
  const p = (a: number, c: number): PointIn => fromFrame(f, a, c);
  // Side and rear faces stop short of the front corners, which belong to the front.
  // Contacts this close to a front corner are front contacts (placement slack beyond the contact distance).
  const e = FRONT_CORNER_SLACK_IN;
  const faces: [string, PointIn, PointIn][] = [
    ['front', p(front, left), p(front, right)],
    ['rear', p(rear, left), p(rear, right)],
    ['left', p(rear, left), p(front - e, left)],
    ['right', p(rear, right), p(front - e, right)],
  ];
  const out = new Set<string>();
  for (const [name, a, b] of faces) if (segmentToPolygonDistanceIn(a, b, enemy.hull) <= CONTACT_IN) out.add(name);
  return out;
}

/**
 * A unit in an ongoing combat may not Advance, March or Charge, only Melee, Retire or Regroup (Actions).
 * Its Retire reach: "the unit will move directly backward, up to 45 degrees to either side, paying normal
 * terrain costs. Wheels are not allowed" (Movement), not through other units, and free of the 1" rule
 * ("except ... to Retire out of contact"); none when "contacted on more than one face at once" (Ongoing
 * Combats). The distance is the unit's base move (`advance-<type>`, or `march-<type>` in march column).
 */
function retireReach(ctx: WtdrContext, info: UnitInfo, type: TroopType, engaged: readonly string[]): MovementResult {
  const id = info.unit.id;
  const head = `in contact with ${engaged.join(', ')}: only Melee, Retire or Regroup (Actions)`;
  if (type.movement === 'heavy-artillery') return refuseMove('movement/in-combat', `${head}; Heavy Cannon cannot Retire (Movement)`);
  if (type.family !== 'swarm') {
    const faces = new Set<string>();
    for (const e of engaged) for (const face of facesTouched(info, ctx.units.get(e)!)) faces.add(face);
    if (faces.size > 1) return refuseMove('movement/in-combat', `${head}; contacted on more than one face (${[...faces].join(', ')}): no Retire (Ongoing Combats)`);
  }
  const march = info.formation.march;
  const spec = march ? marchSpec(type.id) : advanceSpec(type.id);
  const allowance = ctx.param(spec, `Retire reach of ${type.label}`, id);
  if (allowance === undefined) return refuseMove('movement/in-combat', `${head}; enter "${spec.id}" from the app to draw the Retire reach`);
  const inchesPerBase = march ? 1 / ROAD_COST_PER_IN : 1;
  const lookIn = allowance * inchesPerBase;
  const regions = forbiddenRegions(ctx, info, lookIn, false);
  const near = terrainNear(ctx.terrain, info.centre, lookIn);
  const fan: PointIn[] = [info.centre];
  for (let rel = 180 - RETIRE_HALF_DEG; rel <= 180 + RETIRE_HALF_DEG; rel += RETIRE_STEP_DEG) {
    const dirDeg = info.frame.headingDeg + rel;
    const limit = blockedAt(ctx, info.centre, dirDeg, allowance * inchesPerBase, regions);
    const d = allowance > 0 ? walkRay(near, type.movement, march, info.centre, dirDeg, allowance, limit) : 0;
    const r = (dirDeg * Math.PI) / 180;
    fan.push({ xIn: info.centre.xIn + Math.cos(r) * d, yIn: info.centre.yIn + Math.sin(r) * d });
  }
  return {
    movement: { ok: false, reason: 'movement/in-combat', detail: `${head}; Retire: straight back up to 45° either side, no wheel, ${allowance} base inches ("${spec.id}") less terrain, drawn (Movement)` },
    shapes: [{ id: `wtdr/${id}/movement/retire`, kind: 'polygon', layer: 'movement', style: 'reach', unitId: id, side: info.unit.side, vertices: fan }],
  };
}

function refuseMove(reason: string, detail: string): MovementResult {
  return { movement: { ok: false, reason, detail }, shapes: [] };
}

/**
 * What a change of formation costs and when (Movement, Formation Changes): into column as part of a March
 * order, out of it for any other move, paid from that order's move. The reach drawn is the order the unit's
 * formation makes (Advance in battle formation, March in column); the other order's is not drawn.
 */
function formationChangeNote(ctx: WtdrContext, march: boolean): string {
  const v = rulesetValue(FORMATION_CHANGE_COST, ctx.parameters);
  const cost = typeof v === 'number' ? `${v}"` : `the app's penalty ("${FORMATION_CHANGE_COST.id}", not entered)`;
  return march
    ? `any move other than March first leaves the column: it costs ${cost} of that move, and the unit faces front, rear or a flank (Movement, Formation Changes; not drawn)`
    : `a March order forms column first: it costs ${cost} of the March, the column facing front, rear or a flank (Movement, Formation Changes; not drawn)`;
}

/** A unit's movement as a query (read by its evaluation, and by a charge at it for the evade it may make). */
export const movementOf = query('wtdr/movement', (ctx: WtdrContext, unitId: string) => evaluateMovement(ctx, ctx.units.get(unitId)!), { equal: 'plain' });

export function evaluateMovement(ctx: WtdrContext, info: UnitInfo): MovementResult {
  const id = info.unit.id;
  const type = info.type;
  if (info.stands.length === 0) return refuseMove('movement/no-stands', 'the unit has no bases on the table');
  if (!type) return refuseMove('movement/no-troop-type', 'set rulesetFields["troop-type"] to read movement');
  if (info.status === 'destroyed') return refuseMove('movement/destroyed', 'lost half or more of its starting bases (Combat Effects and Rallying)');
  const engaged = engagedWith(ctx, info);
  if (engaged.length > 0) return retireReach(ctx, info, type, engaged);
  if (type.family === 'camp') return refuseMove('movement/camp', 'the guide gives a baggage or camp no move (Army Morale)');
  if (type.movement === 'heavy-artillery') return refuseMove('movement/pivot-only', 'Heavy Cannon cannot move except to change facing (Movement)');
  const march = info.formation.march;
  const spec = march ? marchSpec(type.id) : advanceSpec(type.id);
  const allowance = ctx.param(spec, `${march ? 'March' : 'Advance'} reach of ${type.label}`, id);
  if (allowance === undefined) return refuseMove('movement/allowance-not-entered', `base move "${spec.id}" is not in the guide; enter it from the app`);

  const facingCost = facingChangeCostIn(type.movement);
  // Roads speed only a march column ("1 inch per 1.5 inches of road"); otherwise no inch costs less than one.
  const inchesPerBase = march ? 1 / ROAD_COST_PER_IN : 1;
  const lookIn = allowance * inchesPerBase;
  const regions = forbiddenRegions(ctx, info, lookIn);
  const near = terrainNear(ctx.terrain, info.centre, lookIn);
  const noStop = noStopRegions(ctx, info, lookIn);
  const reach: PointIn[] = [];
  for (let k = 0; k < 360 / RAY_STEP_DEG; k++) {
    const rel = k * RAY_STEP_DEG > 180 ? k * RAY_STEP_DEG - 360 : k * RAY_STEP_DEG;
    const relRad = (Math.abs(rel) * Math.PI) / 180;
    // Wheels only to the front, paid by the moving corner (frontage x angle); else a facing change.
    const wheel = Math.abs(rel) <= 90 && type.family !== 'swarm' ? info.frontageIn * relRad : Infinity;
    const turn = rel === 0 ? 0 : Math.min(wheel, facingCost);
    const dirDeg = info.frame.headingDeg + rel;
    const budget = allowance - turn;
    const limit = blockedAt(ctx, info.centre, dirDeg, budget * inchesPerBase, regions);
    const walked = budget > 0 ? walkRay(near, type.movement, march, info.centre, dirDeg, budget, limit) : 0;
    const d = noStop.length > 0 ? endOutside(info.centre, dirDeg, walked, noStop) : walked;
    const r = (dirDeg * Math.PI) / 180;
    reach.push({ xIn: info.centre.xIn + Math.cos(r) * d, yIn: info.centre.yIn + Math.sin(r) * d });
  }
  const notes = [
    `${march ? 'March' : 'Advance'}: ${allowance} base inches ("${spec.id}", from the app)`,
    facingCost > 0 ? `facing change ${facingCost}"; wheels cost the moving front corner's path (${MOVEMENT_TABLE_SOURCE})` : `no facing-change cost (${MOVEMENT_TABLE_SOURCE})`,
    ...(type.family === 'swarm' ? [] : [`wheels only to the front, up to 90° either way ("Wheels may only be made to a unit's front", Movement)`]),
    formationChangeNote(ctx, march),
    `rough x${roughCostPerIn(type.movement)}, very rough ${veryRoughCostPerIn(type.movement) === null ? 'impassable' : `x${veryRoughCostPerIn(type.movement)}`}, obstacles ${linearObstacleCostIn(type.movement) ?? 'impassable'}, choke points ${CHOKE_POINT_COST_IN}" + distance${march ? ', roads 1" per 1.5"' : ''} (${MOVEMENT_TABLE_SOURCE})`,
    `not within ${ENEMY_FRONT_ZONE_IN}" of an enemy front except to charge or retire (${ENEMY_FRONT_ZONE_SOURCE})`,
    ...(noStop.length > 0 ? [`may pass through ${noStop.map((g) => g.name).join(', ')} but not end its move on them (Movement)`] : []),
  ];
  return {
    movement: { ok: true, allowanceIn: allowance, reach, notes },
    shapes: [
      { id: `wtdr/${id}/movement/reach`, kind: 'polygon', layer: 'movement', style: march ? 'reach-road' : 'reach', unitId: id, side: info.unit.side, vertices: reach },
      ...noStop.map((g): Shape => ({ id: `wtdr/${id}/movement/no-stop/${g.unitId}`, kind: 'polygon', layer: 'movement', style: 'blocked', unitId: id, side: info.unit.side, vertices: g.poly })),
    ],
  };
}
