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
import { advanceSpec, marchSpec } from './declarations.ts';
import { enemiesOf, engagedWith, frontZone, type UnitInfo, type WtdrContext } from './context.ts';
import {
  CHOKE_POINT_COST_IN, ENEMY_FRONT_ZONE_IN, ENEMY_FRONT_ZONE_SOURCE, MOVEMENT_TABLE_SOURCE, ROAD_COST_PER_IN,
  facingChangeCostIn, linearObstacleCostIn, roughCostPerIn, veryRoughCostPerIn,
} from './tables/movementTables.ts';
import { AREA_CLASSES, LINEAR_CLASSES } from './tables/terrainClasses.ts';
import type { MovementClass } from './tables/troopTypes.ts';

/** Directions sampled for the reach outline, degrees apart. */
const RAY_STEP_DEG = 10;

export interface MovementResult {
  readonly movement: MovementOption | Refusal;
  readonly shapes: readonly Shape[];
}

/** Minkowski sum of two convex point sets (hull of pairwise sums). */
function minkowski(a: readonly PointIn[], b: readonly PointIn[]): PointIn[] {
  const pts: PointIn[] = [];
  for (const p of a) for (const q of b) pts.push({ xIn: p.xIn + q.xIn, yIn: p.yIn + q.yIn });
  return convexHull(pts);
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

function forbiddenRegions(ctx: WtdrContext, info: UnitInfo, reachIn: number): Region[] {
  const rel = info.hull.map((p) => ({ xIn: info.centre.xIn - p.xIn, yIn: info.centre.yIn - p.yIn }));
  const radius = Math.max(...rel.map((p) => Math.hypot(p.xIn, p.yIn)));
  const out: Region[] = [];
  const enemies = new Set(enemiesOf(ctx, info).map((e) => e.unit.id));
  for (const other of ctx.units.values()) {
    if (other === info || other.stands.length === 0 || other.status === 'destroyed') continue;
    const enemy = enemies.has(other.unit.id);
    if (!enemy && (interpenetrable(info) || interpenetrable(other))) continue;
    // Outline plus a 1" front zone lies within radius + 1" of the other unit's centre.
    if (Math.hypot(other.centre.xIn - info.centre.xIn, other.centre.yIn - info.centre.yIn) - other.radiusIn - 1 > reachIn + radius) continue;
    const body = enemy ? [...other.hull, ...frontZone(other, ENEMY_FRONT_ZONE_IN)] : [...other.hull];
    const grown = minkowski(convexHull(body), rel);
    // Already overlapping (in contact): leaving is the Retire action's business, not blocked here.
    if (!pointInPolygon(info.centre, grown)) out.push({ poly: grown, box: boundingBox(grown) });
  }
  return out;
}

interface Segment {
  readonly t0: number;
  readonly t1: number;
  /** Base inches per inch moved; null = impassable. */
  readonly costPerIn: number | null;
}

/** Distance along the ray the budget buys, honouring every cost on the way. */
function walkRay(near: NearTerrain, movement: MovementClass, march: boolean, from: PointIn, dirDeg: number, budgetIn: number, blockedAtIn: number): number {
  const { terrain, roadPolys } = near;
  // Open ground all round: one inch per inch.
  if (terrain.areas.length === 0 && terrain.linear.length === 0 && (roadPolys.length === 0 || !march)) return Math.max(0, Math.min(blockedAtIn, budgetIn));
  const r = (dirDeg * Math.PI) / 180;
  const lengthIn = Math.min(blockedAtIn, budgetIn / ROAD_COST_PER_IN);
  if (lengthIn <= 0 || budgetIn <= 0) return 0;
  const to = { xIn: from.xIn + Math.cos(r) * lengthIn, yIn: from.yIn + Math.sin(r) * lengthIn };
  const cuts: number[] = [0, 1];
  const areas: { iv: [number, number][]; cost: number | null; road: boolean }[] = [];
  for (const a of terrain.areas) {
    const iv = segmentInsideIntervals(from, to, a.vertices);
    if (iv.length === 0) continue;
    const cls = AREA_CLASSES[a.kind];
    const cost = cls.movement === 'rough' ? roughCostPerIn(movement) : veryRoughCostPerIn(movement);
    areas.push({ iv, cost, road: cls.roadForColumn });
    for (const [t0, t1] of iv) cuts.push(t0, t1);
  }
  const roadIv: [number, number][] = [];
  if (march) {
    for (const poly of roadPolys) {
      for (const iv of segmentInsideIntervals(from, to, poly)) {
        roadIv.push(iv);
        cuts.push(iv[0], iv[1]);
      }
    }
  }
  // Linear terrain crossings: a cost at a point.
  const crossings: { t: number; cost: number | null }[] = [];
  for (const line of terrain.linear) {
    for (let k = 0; k + 1 < line.points.length; k++) {
      const hit = segmentIntersection(from, to, line.points[k]!, line.points[k + 1]!);
      if (!hit) continue;
      const cls = LINEAR_CLASSES[line.kind];
      const onRoad = roadPolys.some((poly) => pointInPolygon(hit.point, poly));
      const cost = cls === 'impassable' ? (onRoad ? CHOKE_POINT_COST_IN : null) : linearObstacleCostIn(movement);
      crossings.push({ t: hit.tA, cost });
      cuts.push(hit.tA);
    }
  }
  const ts = cuts.filter((t) => t >= 0 && t <= 1).sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let k = 0; k + 1 < ts.length; k++) {
    const t0 = ts[k]!;
    const t1 = ts[k + 1]!;
    if (t1 - t0 <= 1e-12) continue;
    const tm = (t0 + t1) / 2;
    const inside = (iv: [number, number][]): boolean => iv.some(([a, b]) => tm > a && tm < b);
    const onRoad = march && (inside(roadIv) || areas.some((a) => a.road && inside(a.iv)));
    let cost: number | null = 1;
    if (onRoad) cost = ROAD_COST_PER_IN;
    else {
      for (const a of areas) {
        if (!inside(a.iv)) continue;
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
  return { terrain: { areas: terrain.areas.filter((a) => near(a.vertices)), linear, roads, elevations: [] }, roadPolys: roadPolygons(roads) };
}

/** Distance along a ray to the first forbidden region or the table edge. */
function blockedAt(ctx: WtdrContext, from: PointIn, dirDeg: number, maxIn: number, regions: readonly Region[]): number {
  const r = (dirDeg * Math.PI) / 180;
  const dx = Math.cos(r);
  const dy = Math.sin(r);
  let t = maxIn;
  const { widthIn, depthIn } = ctx.state.table;
  if (dx > 1e-12) t = Math.min(t, (widthIn - from.xIn) / dx);
  if (dx < -1e-12) t = Math.min(t, -from.xIn / dx);
  if (dy > 1e-12) t = Math.min(t, (depthIn - from.yIn) / dy);
  if (dy < -1e-12) t = Math.min(t, -from.yIn / dy);
  t = Math.max(0, t);
  const to = { xIn: from.xIn + dx * t, yIn: from.yIn + dy * t };
  const minX = Math.min(from.xIn, to.xIn), maxX = Math.max(from.xIn, to.xIn);
  const minY = Math.min(from.yIn, to.yIn), maxY = Math.max(from.yIn, to.yIn);
  for (const { poly, box } of regions) {
    if (box.maxXIn < minX || box.minXIn > maxX || box.maxYIn < minY || box.minYIn > maxY) continue;
    const hits = segmentPolygonCrossings(from, to, poly);
    if (hits.length > 0) t = Math.min(t, hits[0]! * t);
  }
  return t;
}

export function evaluateMovement(ctx: WtdrContext, info: UnitInfo): MovementResult {
  const id = info.unit.id;
  const type = info.type;
  const refuse = (reason: string, detail: string): MovementResult => ({ movement: { ok: false, reason, detail }, shapes: [] });
  if (info.stands.length === 0) return refuse('movement/no-stands', 'the unit has no bases on the table');
  if (!type) return refuse('movement/no-troop-type', 'set rulesetFields["troop-type"] to read movement');
  if (info.status === 'destroyed') return refuse('movement/destroyed', 'lost half or more of its starting bases (Combat Effects and Rallying)');
  const engaged = engagedWith(ctx, info);
  if (engaged.length > 0) return refuse('movement/in-combat', `in contact with ${engaged.join(', ')}: only Melee, Retire or Regroup (Actions)`);
  if (type.movement === 'heavy-artillery') return refuse('movement/pivot-only', 'Heavy Cannon cannot move except to change facing (Movement)');
  const march = info.formation.march;
  const spec = march ? marchSpec(type.id) : advanceSpec(type.id);
  const allowance = ctx.param(spec, `${march ? 'March' : 'Advance'} reach of ${type.label}`, id);
  if (allowance === undefined) return refuse('movement/allowance-not-entered', `base move "${spec.id}" is not in the guide; enter it from the app`);

  const facingCost = facingChangeCostIn(type.movement);
  const regions = forbiddenRegions(ctx, info, allowance / ROAD_COST_PER_IN);
  const near = terrainNear(ctx.state.terrain, info.centre, allowance / ROAD_COST_PER_IN);
  const reach: PointIn[] = [];
  for (let k = 0; k < 360 / RAY_STEP_DEG; k++) {
    const rel = k * RAY_STEP_DEG > 180 ? k * RAY_STEP_DEG - 360 : k * RAY_STEP_DEG;
    const relRad = (Math.abs(rel) * Math.PI) / 180;
    // Wheels only to the front, paid by the moving corner (frontage x angle); else a facing change.
    const wheel = Math.abs(rel) <= 90 && type.family !== 'swarm' ? info.frontageIn * relRad : Infinity;
    const turn = rel === 0 ? 0 : Math.min(wheel, facingCost);
    const dirDeg = info.frame.headingDeg + rel;
    const budget = allowance - turn;
    const limit = blockedAt(ctx, info.centre, dirDeg, budget / ROAD_COST_PER_IN, regions);
    const d = budget > 0 ? walkRay(near, type.movement, march, info.centre, dirDeg, budget, limit) : 0;
    const r = (dirDeg * Math.PI) / 180;
    reach.push({ xIn: info.centre.xIn + Math.cos(r) * d, yIn: info.centre.yIn + Math.sin(r) * d });
  }
  const notes = [
    `${march ? 'March' : 'Advance'}: ${allowance} base inches ("${spec.id}", from the app)`,
    facingCost > 0 ? `facing change ${facingCost}"; wheels cost the moving front corner's path (${MOVEMENT_TABLE_SOURCE})` : `no facing-change cost (${MOVEMENT_TABLE_SOURCE})`,
    `rough x${roughCostPerIn(type.movement)}, very rough ${veryRoughCostPerIn(type.movement) === null ? 'impassable' : `x${veryRoughCostPerIn(type.movement)}`}, obstacles ${linearObstacleCostIn(type.movement) ?? 'impassable'}, choke points ${CHOKE_POINT_COST_IN}" + distance${march ? ', roads 1" per 1.5"' : ''} (${MOVEMENT_TABLE_SOURCE})`,
    `not within ${ENEMY_FRONT_ZONE_IN}" of an enemy front except to charge or retire (${ENEMY_FRONT_ZONE_SOURCE})`,
  ];
  return {
    movement: { ok: true, allowanceIn: allowance, reach, notes },
    shapes: [{ id: `wtdr/${id}/movement/reach`, kind: 'polygon', layer: 'movement', style: march ? 'reach-road' : 'reach', unitId: id, side: info.unit.side, vertices: reach }],
  };
}
