/**
 * Movement reach (QRS II, Figure 2 Movement Rate; Road Movement; Gun Maneuvers, Hand Haul).
 *
 * The rate comes from the chart row for the unit's arm and formation. "Whenever a unit combines on- and
 * off-road movement through terrain of different levels of difficulty, it must move at the slowest rate for
 * its entire movement": so along each straight line out from the unit's reference stand, the unit reaches
 * the farthest of open rate (until it would enter broken or rough ground), broken rate (until rough ground)
 * and rough rate, never past an enemy stand, a river or the table edge. The reach is the star polygon of
 * those straight moves, cut by the unit's front where it has one (`reachSectors.ts`: obliques up to 45° at
 * the full rate, the flanks at a flank march's half); a line's change front is traced apart (`wheel.ts`).
 * A march column, broken unit or limbered gun
 * touching a road also gets the road reach along it (the chart's Road column on a good road, the open rate on
 * a poor one).
 */
import type { MovementOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import { standCenter } from '../../geometry/footprint.ts';
import { segmentInsideIntervals, segmentIntersectionT } from '../../geometry/intersect.ts';
import { closestPointOnSegment, segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import type { FfrContext, FfrUnitInfo, PolygonBox } from './context.ts';
import { query } from '../../engine/incremental/query.ts';
import { HAND_HAUL_IN, HEAVY_GUN_WEAPONS, MOVEMENT_RATES, ROAD_BONUS, type MovementRow, type MovementRowId } from './tables/movementRates.ts';
import { IMPASSABLE_LINEAR, classRank, type TerrainClass } from './tables/terrainClasses.ts';
import { qrs } from './tables/source.ts';
import { ROAD_RATE_READING_PARAM } from './fields.ts';
import { changeFrontFor, changeFrontLookIn } from './wheel.ts';
import { deployToFront, dismountNote } from './deployAndDismount.ts';
import { OBLIQUE_MAX_DEG, SECTORS_NOTE, handHaulSectorsFor, movementSectorsFor, type ReachSectors } from './reachSectors.ts';

export interface MovementResult {
  readonly movement: MovementOption | Refusal;
  readonly shapes: readonly Shape[];
  /** The chart row used, when the unit moves by the chart. */
  readonly row?: MovementRow;
  /** Ground class at the unit's reference stand. */
  readonly startClass: TerrainClass;
}

const RAYS = 48;
/** "may retreat up to a half move" (Prolong). */
export const PROLONG_FACTOR = 0.5;
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

/** Whether segment a→b misses the box (grown by a hair): the slab test, no allocation. */
function segmentMissesBox(a: PointIn, b: PointIn, box: Boxed): boolean {
  const m = 1e-9;
  let t0 = 0;
  let t1 = 1;
  const dx = b.xIn - a.xIn;
  if (Math.abs(dx) < 1e-15) {
    if (a.xIn < box.minXIn - m || a.xIn > box.maxXIn + m) return true;
  } else {
    let ta = (box.minXIn - m - a.xIn) / dx;
    let tb = (box.maxXIn + m - a.xIn) / dx;
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return true;
  }
  const dy = b.yIn - a.yIn;
  if (Math.abs(dy) < 1e-15) return a.yIn < box.minYIn - m || a.yIn > box.maxYIn + m;
  let ta = (box.minYIn - m - a.yIn) / dy;
  let tb = (box.maxYIn + m - a.yIn) / dy;
  if (ta > tb) [ta, tb] = [tb, ta];
  return Math.max(t0, ta) > Math.min(t1, tb);
}

/** Distance along a→b (inches, lengthIn long) to the first point inside the polygon, or Infinity. */
function firstEntryIn(a: PointIn, b: PointIn, lengthIn: number, box: Boxed): number {
  // Most polygons are nowhere near a given ray: a box test spares the exact (allocating) one.
  if (segmentMissesBox(a, b, box)) return Infinity;
  const iv = segmentInsideIntervals(a, b, box.polygon);
  return iv.length > 0 ? iv[0]![0] * lengthIn : Infinity;
}

/** cos and sin of each ray's angle from the unit's ray 0 (ray i at 360 i / RAYS degrees), worked out once. */
const RAY_COS: number[] = [];
const RAY_SIN: number[] = [];
for (let i = 0; i < RAYS; i++) {
  const r = (((360 * i) / RAYS) * Math.PI) / 180;
  RAY_COS.push(Math.cos(r));
  RAY_SIN.push(Math.sin(r));
}
/** This reach's ray directions on the table (ray 0 along the unit's front, or +x for a unit without one). */
const DIR_COS = new Float64Array(RAYS);
const DIR_SIN = new Float64Array(RAYS);
function turnRays(offsetRad: number): void {
  const c = Math.cos(offsetRad);
  const s = Math.sin(offsetRad);
  for (let i = 0; i < RAYS; i++) {
    DIR_COS[i] = RAY_COS[i]! * c - RAY_SIN[i]! * s;
    DIR_SIN[i] = RAY_SIN[i]! * c + RAY_COS[i]! * s;
  }
}

function rayEnd(o: PointIn, i: number, lengthIn: number): PointIn {
  return { xIn: o.xIn + DIR_COS[i]! * lengthIn, yIn: o.yIn + DIR_SIN[i]! * lengthIn };
}

/** Distance from o along ray i to the table edge. */
function edgeDistanceIn(table: { readonly widthIn: number; readonly depthIn: number }, o: PointIn, i: number): number {
  const dx = DIR_COS[i]!;
  const dy = DIR_SIN[i]!;
  let t = Infinity;
  if (dx > 1e-12) t = Math.min(t, (table.widthIn - o.xIn) / dx);
  if (dx < -1e-12) t = Math.min(t, -o.xIn / dx);
  if (dy > 1e-12) t = Math.min(t, (table.depthIn - o.yIn) / dy);
  if (dy < -1e-12) t = Math.min(t, -o.yIn / dy);
  return Math.max(0, t);
}

const RAY_STEP_RAD = (2 * Math.PI) / RAYS;
/** `raysToward`'s answer, reused: it is asked once per nearby enemy stand per reach. */
const RAYS_TOWARD = { first: 0, count: 0 };

/**
 * The rays (into `out`: the first index and how many, counting on past the last index round to 0) whose
 * direction can meet a box: every ray when the origin is in or at the box, else those within the angle the
 * box spans seen from the origin, widened by a hair. Skipping the others changes no answer: they miss the box.
 */
function raysToward(origin: PointIn, box: BoundingBoxIn, offsetRad: number, out: { first: number; count: number }): void {
  const m = 1e-6;
  if (origin.xIn >= box.minXIn - m && origin.xIn <= box.maxXIn + m && origin.yIn >= box.minYIn - m && origin.yIn <= box.maxYIn + m) {
    out.first = 0;
    out.count = RAYS;
    return;
  }
  const centre = Math.atan2((box.minYIn + box.maxYIn) / 2 - origin.yIn, (box.minXIn + box.maxXIn) / 2 - origin.xIn) - offsetRad;
  let lo = Infinity;
  let hi = -Infinity;
  for (let corner = 0; corner < 4; corner++) {
    const x = corner & 1 ? box.maxXIn : box.minXIn;
    const y = corner & 2 ? box.maxYIn : box.minYIn;
    let a = Math.atan2(y - origin.yIn, x - origin.xIn) - offsetRad - centre;
    if (a > Math.PI) a -= 2 * Math.PI;
    if (a < -Math.PI) a += 2 * Math.PI;
    lo = Math.min(lo, a);
    hi = Math.max(hi, a);
  }
  const first = Math.ceil((centre + lo - m) / RAY_STEP_RAD);
  const last = Math.floor((centre + hi + m) / RAY_STEP_RAD);
  out.first = first;
  out.count = Math.min(RAYS, Math.max(0, last - first + 1));
}

/**
 * Whether a box meets the square within `maxIn` of `origin` (what a move of at most `maxIn` can reach).
 * Module level, not a closure per call: the dev loader names every inner function, at a cost per call.
 */
function nearOrigin(box: BoundingBoxIn, origin: PointIn, maxIn: number): boolean {
  return box.maxXIn >= origin.xIn - maxIn && box.minXIn <= origin.xIn + maxIn && box.maxYIn >= origin.yIn - maxIn && box.minYIn <= origin.yIn + maxIn;
}

/** Rays from the front to the first edge of the oblique sector (45° at 7.5° a ray: 6). */
const OBLIQUE_RAYS = OBLIQUE_MAX_DEG / (360 / RAYS);
if (!Number.isInteger(OBLIQUE_RAYS)) throw new Error('the reach rays must fall on the oblique sector edges');
/** The factors of the chart rate along a ray, in turning order (`rayFactors` fills it; no array per ray). */
const FACTORS: number[] = [0, 0];

function twoFactors(before: number, after: number): number {
  FACTORS[0] = before;
  FACTORS[1] = after;
  return 2;
}

/**
 * How many factors ray i has (into `FACTORS`): one inside a sector, two on a sector edge (the factor on
 * each side of it, so the outline steps there). Rays run counter-clockwise from the front.
 */
function rayFactors(i: number, sectors: ReachSectors): number {
  const f = sectors.flankFactor;
  const r = sectors.rear ? 1 : 0;
  const b = OBLIQUE_RAYS;
  const half = RAYS / 2;
  if (i === b) return twoFactors(1, f);
  if (i === half - b) return twoFactors(f, r);
  if (i === half + b) return twoFactors(r, f);
  if (i === RAYS - b) return twoFactors(f, 1);
  FACTORS[0] = i < b || i > RAYS - b ? 1 : i > half - b && i < half + b ? r : f;
  return 1;
}

/** How far along one ray the rates times `factor` reach, given where worse ground starts and the stop. */
function rayReachIn(startRank: number, rates: Readonly<Record<(typeof GROUNDS)[number], number>>, factor: number, worse0: number, worse1: number, worse2: number, stopIn: number): number {
  let reach = 0;
  if (startRank <= 0) reach = Math.max(reach, Math.min(rates.open * factor, worse0));
  if (startRank <= 1) reach = Math.max(reach, Math.min(rates.broken * factor, worse1));
  if (startRank <= 2) reach = Math.max(reach, Math.min(rates.rough * factor, worse2));
  return Math.max(0, Math.min(reach, stopIn));
}

/**
 * How far beyond its box a unit's own moves (its reach, its charge reach from its front, its change front)
 * can go, inches: its chart row's fastest rate (or its hand haul), or the change front's reach.
 */
export function moveLookIn(info: FfrUnitInfo): number {
  let m = changeFrontLookIn(info);
  const choice = movementRowFor(info);
  if ('ok' in choice) return m;
  if (choice.kind === 'haul') return Math.max(m, choice.inches, MOVEMENT_RATES[info.unit.horseArtillery ? 'artillery-horse-gun' : 'artillery-field-gun'].open.full * PROLONG_FACTOR);
  const row = MOVEMENT_RATES[choice.id];
  for (const g of GROUNDS) m = Math.max(m, row[g].full, row[g].doubleQuick ?? 0);
  return m;
}

/** The stands of units not of `side` (their polygons with their boxes) whose box comes within `byIn` of `box`. */
export function enemyStandsNear(ctx: FfrContext, box: BoundingBoxIn, side: string, byIn: number): PolygonBox[] {
  const m = byIn + 1e-6;
  const x0 = box.minXIn - m, y0 = box.minYIn - m, x1 = box.maxXIn + m, y1 = box.maxYIn + m;
  const out: PolygonBox[] = [];
  for (const e of ctx.enemyBoxesOf(side)) {
    if (e.box.minXIn > x1 || e.box.maxXIn < x0 || e.box.minYIn > y1 || e.box.maxYIn < y0) continue;
    for (const b of ctx.unit(e.id)!.polygonBoxes) if (b.minXIn <= x1 && b.maxXIn >= x0 && b.minYIn <= y1 && b.maxYIn >= y0) out.push(b);
  }
  return out;
}

/** The enemy stands a unit's own moves can meet (`moveLookIn`): what stops its reaches and its wheels. */
export const enemyStandsNearQuery = query(
  'ffr/enemy-stands-near',
  (ctx: FfrContext, unitId): PolygonBox[] => {
    const info = ctx.unit(unitId)!;
    return enemyStandsNear(ctx, info.box, info.unit.side, moveLookIn(info));
  },
  { equal: 'plain' },
);

/**
 * The star polygon a unit at `origin` reaches with these rates per ground class: every direction alike, or,
 * given `sectors`, the full rates within 45° of the front (and of the rear), the flank factor beyond. Where a
 * sector gets nothing the outline runs through the origin (a charge's cone). `enemies`: enemy stands that
 * may be in the way (at least those within the fastest rate of the origin). Exported for the charge reach
 * and the leaders' own moves.
 */
export function reachPolygon(ctx: FfrContext, enemyStands: readonly PolygonBox[], origin: PointIn, rates: Readonly<Record<(typeof GROUNDS)[number], number>>, sectors?: ReachSectors): PointIn[] {
  const maxIn = Math.max(rates.open, rates.broken, rates.rough);
  const startRank = classRank(ctx.classAt(origin));
  const offsetRad = sectors ? (sectors.headingDeg * Math.PI) / 180 : 0;
  turnRays(offsetRad);
  const areas: { readonly rank: number; readonly box: Boxed }[] = [];
  for (const a of ctx.areas()) if (a.cls !== 'open' && nearOrigin(a.box, origin, maxIn)) areas.push({ rank: a.rank, box: { polygon: a.vertices, minXIn: a.box.minXIn, minYIn: a.box.minYIn, maxXIn: a.box.maxXIn, maxYIn: a.box.maxYIn } });
  // Enemy stands within a move (their footprints meet the square the move can reach), with the rays that can
  // meet them (first ray, how many): a stand off to one side is tested by the few rays toward it.
  const enemies: { readonly box: Boxed; readonly first: number; readonly count: number }[] = [];
  for (const b of enemyStands) {
    if (!nearOrigin(b, origin, maxIn)) continue;
    raysToward(origin, b, offsetRad, RAYS_TOWARD);
    const { first, count } = RAYS_TOWARD;
    if (count > 0) enemies.push({ box: b, first: (((first % RAYS) + RAYS) % RAYS), count });
  }
  // River segments near enough to stop a move.
  const riverSegments: [PointIn, PointIn][] = [];
  const table = ctx.table();
  for (const l of ctx.terrain().linear) {
    if (!IMPASSABLE_LINEAR.includes(l.kind)) continue;
    for (let k = 0; k + 1 < l.points.length; k++) {
      const a = l.points[k]!;
      const b = l.points[k + 1]!;
      if (nearOrigin({ minXIn: Math.min(a.xIn, b.xIn), minYIn: Math.min(a.yIn, b.yIn), maxXIn: Math.max(a.xIn, b.xIn), maxYIn: Math.max(a.yIn, b.yIn) }, origin, maxIn)) riverSegments.push([a, b]);
    }
  }
  const out: PointIn[] = [];
  // A sector with nothing (factor 0) since the last point: the outline goes through the origin once there.
  let gap = false;
  const end = { xIn: 0, yIn: 0 };
  for (let i = 0; i < RAYS; i++) {
    let n = 1;
    if (sectors) n = rayFactors(i, sectors);
    else FACTORS[0] = 1;
    if (FACTORS[0] === 0 && (n === 1 || FACTORS[1] === 0)) {
      gap = true;
      continue;
    }
    // The ray's far end, in one object reused for every ray (the tests below keep no point).
    end.xIn = origin.xIn + DIR_COS[i]! * maxIn;
    end.yIn = origin.yIn + DIR_SIN[i]! * maxIn;
    let stop = Math.min(maxIn, edgeDistanceIn(table, origin, i));
    for (const e of enemies) {
      // Ray i is one of the stand's when it lies within `count` rays on from `first`, round past the last.
      if ((i - e.first + RAYS) % RAYS < e.count) stop = Math.min(stop, firstEntryIn(origin, end, maxIn, e.box));
    }
    for (const [a, b] of riverSegments) {
      const t = segmentIntersectionT(origin, end, a, b);
      if (!Number.isNaN(t)) stop = Math.min(stop, t * maxIn);
    }
    // Entry distance into ground worse than each class.
    let worse0 = Infinity;
    let worse1 = Infinity;
    let worse2 = Infinity;
    for (const a of areas) {
      const d = firstEntryIn(origin, end, maxIn, a.box);
      if (d === Infinity) continue;
      if (a.rank > 0) worse0 = Math.min(worse0, d);
      if (a.rank > 1) worse1 = Math.min(worse1, d);
      if (a.rank > 2) worse2 = Math.min(worse2, d);
    }
    for (let k = 0; k < n; k++) {
      const factor = FACTORS[k]!;
      if (factor === 0) {
        gap = true;
        continue;
      }
      if (gap && out.length > 0) out.push({ xIn: origin.xIn, yIn: origin.yIn });
      gap = false;
      out.push(rayEnd(origin, i, rayReachIn(startRank, rates, factor, worse0, worse1, worse2, stop)));
    }
  }
  if (gap && out.length > 0) out.push({ xIn: origin.xIn, yIn: origin.yIn });
  return out;
}

/** The nearest point of a road's centre line to `p`, with its segment and distance. */
function nearestOnRoad(points: readonly PointIn[], p: PointIn): { seg: number; p: PointIn; d: number } {
  let best = { seg: 0, p: points[0]!, d: Infinity };
  for (let k = 0; k + 1 < points.length; k++) {
    const q = closestPointOnSegment(p, points[k]!, points[k + 1]!);
    const d = Math.hypot(q.xIn - p.xIn, q.yIn - p.yIn);
    if (d < best.d) best = { seg: k, p: q, d };
  }
  return best;
}

/** The road's centre line `lengthIn` both ways from `p` (on segment `seg`), stopped at the road's ends. */
function roadPolylineFrom(points: readonly PointIn[], seg: number, p: PointIn, lengthIn: number): PointIn[] {
  const walk = (dir: 1 | -1): PointIn[] => {
    const pts = [p];
    let left = lengthIn;
    let at = p;
    let k = dir === 1 ? seg + 1 : seg;
    while (left > 1e-9 && k >= 0 && k < points.length) {
      const next = points[k]!;
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
  return [...walk(-1).reverse(), ...walk(1).slice(1)];
}

/**
 * Figure 9's arithmetic (Road Movement): a move of `roadIn` on a good road (bonus `bonus`) then on through
 * ground whose slowest class sets `rateIn` "for its entire movement": the road distance costs roadIn / bonus
 * of the allowance, the rest goes off the road. (12" open rate, 9" on the road x1.5: 6" spent, 6" more over
 * open ground, 15" in all; through broken woods at 10": 4" more, 13".)
 */
export function roadThenOffRoad(rateIn: number, bonus: number, roadIn: number): { spentIn: number; offRoadIn: number; totalIn: number } {
  const spentIn = Math.min(rateIn, roadIn / bonus);
  const offRoadIn = Math.max(0, rateIn - spentIn);
  return { spentIn, offRoadIn, totalIn: Math.min(roadIn, rateIn * bonus) + offRoadIn };
}

/**
 * "A march column, limbered battery, or leader also can begin moving on a road if it later makes contact with
 * the road during movement ... its movement rate will be based on the level of difficulty for the terrain it
 * must move through to reach the road" (Road Movement): straight to the nearest point of each road it does not
 * touch, at the slowest class crossed (a river stops it), then the rest of the allowance times the bonus along
 * the road. Enemy stands on the way are not looked at.
 */
export function roadEntryReach(ctx: FfrContext, mover: RoadMoverShape, rates: Readonly<Record<(typeof GROUNDS)[number], number>>, bonus: number, touching: ReadonlySet<string>): PointIn[][] {
  const out: PointIn[][] = [];
  const from = mover.centre;
  const startRank = classRank(ctx.classAt(from));
  for (const road of ctx.terrain().roads) {
    if (touching.has(road.id)) continue;
    const near = nearestOnRoad(road.points, from);
    const maxIn = Math.max(rates.open, rates.broken, rates.rough);
    if (near.d >= maxIn) continue;
    let rank = startRank;
    for (const a of ctx.areas()) {
      if (a.rank <= rank) continue;
      if (segmentInsideIntervals(from, near.p, a.vertices).length > 0) rank = a.rank;
    }
    if (rank > 2) continue;
    let blocked = false;
    for (const l of ctx.terrain().linear) {
      if (!IMPASSABLE_LINEAR.includes(l.kind)) continue;
      for (let k = 0; k + 1 < l.points.length && !blocked; k++) if (!Number.isNaN(segmentIntersectionT(from, near.p, l.points[k]!, l.points[k + 1]!))) blocked = true;
    }
    const rate = rates[GROUNDS[rank]!];
    if (blocked || near.d >= rate) continue;
    out.push([from, ...roadPolylineFrom(road.points, near.seg, near.p, (rate - near.d) * bonus)]);
  }
  return out;
}

/** What a road move reads of the mover: where it measures from, and its footprints (touching the road). */
export interface RoadMoverShape {
  readonly centre: PointIn;
  readonly box: BoundingBoxIn;
  readonly polygons: readonly (readonly PointIn[])[];
  readonly polygonBoxes: readonly BoundingBoxIn[];
}

/** The roads a mover's stands touch (within half the road's width of its centre line). */
export function touchedRoadIds(ctx: FfrContext, info: RoadMoverShape): Set<string> {
  const out = new Set<string>();
  for (const road of ctx.terrain().roads) {
    const half = (road.widthIn ?? 1) / 2;
    let touching = false;
    for (let k = 0; k + 1 < road.points.length && !touching; k++) {
      const a = road.points[k]!;
      const b = road.points[k + 1]!;
      const reach = half + 1e-9;
      const minX = Math.min(a.xIn, b.xIn) - reach, maxX = Math.max(a.xIn, b.xIn) + reach;
      const minY = Math.min(a.yIn, b.yIn) - reach, maxY = Math.max(a.yIn, b.yIn) + reach;
      if (info.box.maxXIn < minX || info.box.minXIn > maxX || info.box.maxYIn < minY || info.box.minYIn > maxY) continue;
      for (let q = 0; q < info.polygons.length; q++) {
        const poly = info.polygons[q]!;
        // A stand whose box is farther than half the road's width from the segment's cannot touch it.
        const pb = info.polygonBoxes[q]!;
        if (pb.maxXIn < minX || pb.minXIn > maxX || pb.maxYIn < minY || pb.minYIn > maxY) continue;
        for (let e = 0; e < poly.length && !touching; e++) {
          const d = segmentToSegmentDistanceIn(poly[e]!, poly[(e + 1) % poly.length]!, road.points[k]!, road.points[k + 1]!);
          if (d <= half + 1e-9) touching = true;
        }
      }
    }
    if (touching) out.add(road.id);
  }
  return out;
}

/** The road reach of a mover touching a road: along each road it touches, `allowanceIn` both ways from the nearest point. */
export function roadReach(ctx: FfrContext, info: RoadMoverShape, allowanceIn: number, touched = touchedRoadIds(ctx, info)): PointIn[][] {
  const out: PointIn[][] = [];
  for (const road of ctx.terrain().roads) {
    if (!touched.has(road.id)) continue;
    // Nearest point of the road to the reference stand, then walk both ways.
    const best = nearestOnRoad(road.points, info.centre);
    out.push(roadPolylineFrom(road.points, best.seg, best.p, allowanceIn));
  }
  return out;
}

/** Who moves on a road, for its bonus (Road Movement). */
export type RoadMover = 'troops' | 'leader' | 'limbered-guns';

/**
 * How far a unit or leader goes moving entirely on a road from the start, and the note that says why (QRS II,
 * Road Movement): "A unit that starts aligned on or touching a road immediately can move on the road at the
 * open-ground/road rate", and on a good road "The road bonus multiplies the distance traveled by x1.5 for
 * infantry and cavalry in march column, x1.5 for leaders, and x2 for limbered artillery" (Figure 9: "12"
 * open-ground/road rate x1.5 good-road bonus = 18""). A poor road "only [is] treated as open ground". The
 * chart's Road column disagrees for cavalry march columns and guns (24 against 27, 18 and 24 against 24 and
 * 36); the text is followed unless `road-rate-reading` is 'chart'.
 */
export function roadRateFor(ctx: FfrContext, mover: RoadMover, row: MovementRow): { inches: number; bonus: number; text: string } {
  const good = ctx.param('road-condition') !== 'poor';
  const open = row.open.full;
  if (!good) return { inches: open, bonus: 1, text: `${open}" (a poor road is open ground, no bonus; ${ROAD_BONUS.source}).` };
  if (ctx.param(ROAD_RATE_READING_PARAM.id) === 'chart' && row.road) {
    return { inches: row.road.full, bonus: row.road.full / open, text: `${row.road.full}" (the chart's Road column, ${row.source}; reading 'chart' of road-rate-reading).` };
  }
  const bonus = mover === 'limbered-guns' ? ROAD_BONUS.limberedGuns : mover === 'leader' ? ROAD_BONUS.leaders : ROAD_BONUS.troops;
  const inches = open * bonus;
  return { inches, bonus, text: `${inches}" (${open}" open-ground/road rate x${bonus} good-road bonus; ${ROAD_BONUS.source}).` };
}

/**
 * What a Tardy effect allows the unit to move (QRS II, Tardy: "Movement is at half the full move rate in good
 * order, or at the full move rate disordered"; Full Move Disordered: "may only advance or withdraw in its
 * current formation ... wheel or oblique up to 45-degrees"; guns: Figure 2 Gun Maneuvers, Tardy, "Full move
 * limbered"). Tardy lists no march by the flank.
 */
export function tardyNote(guns: boolean, row: MovementRow): string {
  if (guns) return `Tardy: full move limbered, ${row.open.full}" open, ${row.broken.full}" broken, ${row.rough.full}" rough, no double quick (${qrs('Figure 2, Gun Maneuvers, Tardy')}).`;
  const half = (n: number) => `${n / 2}"`;
  return (
    `Tardy: a half move in good order, ${half(row.open.full)} open, ${half(row.broken.full)} broken, ${half(row.rough.full)} rough; ` +
    `or the full move disordered, advancing or withdrawing in its formation (it may wheel or oblique up to 45°), no march by the flank (${qrs('Tardy; Full Move Disordered')}).`
  );
}

/**
 * "an unlimbered battery touching the road may limber up and move on the road" (Road Movement): the limbered
 * row's road move (Well Handled: limber and full move), drawn as `movement/<unit>/road-limber/<i>`.
 */
function limberOntoRoad(ctx: FfrContext, info: FfrUnitInfo, row: MovementRow, base: { layer: 'movement'; unitId: string; side: string }): Shape[] {
  if (ctx.terrain().roads.length === 0) return [];
  const mover: RoadMoverShape = { centre: standCenter(info.formation.reference), box: info.box, polygons: info.polygons, polygonBoxes: info.polygonBoxes };
  const road = roadRateFor(ctx, 'limbered-guns', row);
  return roadReach(ctx, mover, road.inches).map((points, i): Shape => ({ ...base, kind: 'polyline', id: `movement/${info.unit.id}/road-limber/${i}`, style: 'reach-road', points }));
}

/** Figure 9's arithmetic for this row, as a note: leaving the road after some distance on it. */
export function figure9Note(row: MovementRow, bonus: number): string {
  if (bonus <= 1) return `Leaving the road: the whole move at the slowest ground's rate (${ROAD_BONUS.source}).`;
  const example = roadThenOffRoad(row.open.full, bonus, row.open.full * bonus / 2);
  return (
    `Leaving a good road: each inch on it costs 1/${bonus} of the rate of the slowest ground of the whole move, the rest goes off the road ` +
    `(e.g. ${example.totalIn - example.offRoadIn}" on the road costs ${example.spentIn}", then ${example.offRoadIn}" more over open ground; Road Movement, Figure 9).`
  );
}

export function evaluateMovement(ctx: FfrContext, info: FfrUnitInfo): MovementResult {
  const unit = info.unit;
  const formation = info.formation;
  const origin = standCenter(info.formation.reference);
  const startClass = ctx.classAt(origin);
  const choice = movementRowFor(info);
  if ('ok' in choice) return { movement: choice, shapes: [], startClass };
  const base = { layer: 'movement' as const, unitId: unit.id, side: unit.side };
  if (choice.kind === 'haul') {
    const enemies = ctx.t.get(enemyStandsNearQuery, unit.id);
    const reach = reachPolygon(ctx, enemies, origin, { open: choice.inches, broken: choice.inches, rough: choice.inches }, handHaulSectorsFor(info));
    // Prolong (Well Handled): "The gun remains unlimbered and may retreat up to a half move ... The retreat path
    // may change direction up to 45-degrees" (Prolong); a half of the limbered row's full move, backward.
    const row = MOVEMENT_RATES[unit.horseArtillery ? 'artillery-horse-gun' : 'artillery-field-gun'];
    const half = { open: row.open.full * PROLONG_FACTOR, broken: row.broken.full * PROLONG_FACTOR, rough: row.rough.full * PROLONG_FACTOR };
    const prolong = reachPolygon(ctx, enemies, origin, half, { headingDeg: (info.formation.headingDeg + 180) % 360, flankFactor: 0, rear: false });
    return {
      movement: {
        ok: true,
        allowanceIn: choice.inches,
        reach,
        notes: [
          `Hand haul ${choice.inches}" unlimbered, over open, broken or rough ground, forward or backward, changing direction up to ${OBLIQUE_MAX_DEG}° (${HAND_HAUL_IN.source}); no offensive fire after.`,
          `Prolong (Well Handled): retreat unlimbered up to a half move, ${half.open}" open, ${half.broken}" broken, ${half.rough}" rough, changing direction up to ${OBLIQUE_MAX_DEG}° or following a road; no offensive fire in the next phase, and no fire modifier against it (${qrs('Prolong')}).`,
        ],
      },
      shapes: [
        { ...base, kind: 'polygon', id: `movement/${unit.id}/reach`, style: 'reach', vertices: reach },
        { ...base, kind: 'polygon', id: `movement/${unit.id}/prolong`, style: 'reach', vertices: prolong },
        ...limberOntoRoad(ctx, info, row, base),
      ],
      startClass,
    };
  }
  const row = MOVEMENT_RATES[choice.id];
  const rates = { open: row.open.full, broken: row.broken.full, rough: row.rough.full };
  const sectors = movementSectorsFor(info);
  const enemyStands = ctx.t.get(enemyStandsNearQuery, unit.id);
  const reach = reachPolygon(ctx, enemyStands, origin, rates, sectors);
  const allowanceIn = row[startClass === 'impassable' ? 'rough' : startClass].full;
  const heavy = unit.arm === 'artillery' && HEAVY_GUN_WEAPONS.includes(unit.weapon);
  // The chart row's notes read the row (and a heavy gun's weapon) only.
  const notes = [`${row.label}: full move ${row.open.full}" open, ${row.broken.full}" broken, ${row.rough.full}" rough ground; the slowest ground crossed sets the rate for the whole move (${row.source}; ${qrs('Road Movement')}).`];
  if (row.open.doubleQuick !== undefined) {
    notes.push(
      heavy
        ? `No double quick for ${unit.weapon} guns (${qrs('Gun Maneuver Changes 9')}).`
        : `Double quick (Double Quick effect): ${row.open.doubleQuick}" open, ${row.broken.doubleQuick}" broken, ${row.rough.doubleQuick}" rough ground (${row.source}).`,
    );
  }
  if (sectors) notes.push(SECTORS_NOTE);
  notes.push(tardyNote(unit.arm === 'artillery', row));
  const deploy = deployToFront(ctx, info);
  const dismount = dismountNote(ctx, info);
  if (dismount) notes.push(dismount);
  const shapes: Shape[] = [{ ...base, kind: 'polygon', id: `movement/${unit.id}/reach`, style: 'reach', vertices: reach }];
  if (deploy) {
    notes.push(deploy.note);
    shapes.push(deploy.shape);
  }
  const changeFront = changeFrontFor(ctx, info, row, enemyStands);
  if (changeFront.note) notes.push(changeFront.note);
  shapes.push(...changeFront.shapes);
  const mover: RoadMoverShape = { centre: standCenter(info.formation.reference), box: info.box, polygons: info.polygons, polygonBoxes: info.polygonBoxes };
  const touched = ctx.terrain().roads.length > 0 ? touchedRoadIds(ctx, mover) : new Set<string>();
  if (row.road) {
    const road = roadRateFor(ctx, unit.arm === 'artillery' ? 'limbered-guns' : 'troops', row);
    const onRoad = roadReach(ctx, mover, road.inches, touched);
    onRoad.forEach((points, i) => {
      shapes.push({ ...base, kind: 'polyline', id: `movement/${unit.id}/road/${i}`, style: 'reach-road', points });
    });
    if (onRoad.length > 0) {
      notes.push(`On the road: ${road.text}`);
      notes.push(figure9Note(row, road.bonus));
    }
    // A march column or limbered battery may reach a road during its move (not a broken unit).
    if (formation.id !== 'broken' && road.bonus > 1) {
      const entries = roadEntryReach(ctx, mover, rates, road.bonus, touched);
      entries.forEach((points, i) => shapes.push({ ...base, kind: 'polyline', id: `movement/${unit.id}/road-entry/${i}`, style: 'reach-road', points }));
      if (entries.length > 0) notes.push(`To a road and along it: the rate of the slowest ground crossed to reach it, the rest x${road.bonus} on the road (${ROAD_BONUS.source}).`);
    }
  } else if (touched.size > 0 && unit.arm !== 'artillery' && formation.id !== 'garrison') {
    // "A regiment in any other formation with at least one stand touching the road, that rolls a Double Quick,
    // Well Handled, or Rally with Elan effect, may change formation and half move in march column on the road."
    const marchRow = MOVEMENT_RATES[unit.arm === 'cavalry' ? 'cavalry-march-column' : 'infantry-march-column'];
    const road = roadRateFor(ctx, 'troops', marchRow);
    const halfIn = road.inches / 2;
    roadReach(ctx, mover, halfIn, touched).forEach((points, i) => shapes.push({ ...base, kind: 'polyline', id: `movement/${unit.id}/road-march/${i}`, style: 'reach-road', points }));
    notes.push(`Touching a road: with a Double Quick, Well Handled or Rally with Élan effect it may change formation and half move in march column on the road, ${halfIn}" (${ROAD_BONUS.source}).`);
  }
  return { movement: { ok: true, allowanceIn, reach, notes }, shapes, row, startClass };
}
