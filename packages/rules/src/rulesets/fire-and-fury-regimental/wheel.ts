/**
 * Change front (QRS II, Change Front, Figure 7): "A unit in line or extended line may now perform a change
 * front maneuver by wheeling forward or backwards up to 90-degrees ... The wheel forward or backwards always
 * is measured from the front face of the unit with the pivot point touching the corner of the inside flank
 * stand. A unit cannot wheel more than 90-degrees or further than its maximum movement rate."
 *
 * For each inside flank (left, right) and each way (forward, backward) the unit's front face turns about
 * the front corner of its inside flank stand; the outside front corner travels frontage x angle (radians),
 * which may not exceed the rate. The rate is the chart's for the slowest ground the wheeling faces pass
 * over ("the slowest rate for its entire movement", Road Movement), sampled every `STEP_DEG` and every
 * `SAMPLE_SPACING_IN` along both faces (terrain smaller than that can slip between samples); an enemy stand
 * or impassable ground in the way stops the wheel at the last clear step.
 */
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import type { Stand } from '../../model/tableState.ts';
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import { worstClassAt, type FfrContext, type FfrUnitInfo, type PolygonBox } from './context.ts';
import type { MovementRow } from './tables/movementRates.ts';
import { standCorners } from '../../geometry/footprint.ts';
import { pointToSegmentDistanceIn } from '../../geometry/distance.ts';
import { pointToPolygonDistanceIn } from '../../geometry/distance.ts';
import { frontRankStands } from '../../geometry/frontLine.ts';
import { normalizeDeg } from '../../geometry/angles.ts';
import { pointInPolygon, segmentTouchesPolygonBoundary, segmentsIntersect } from '../../geometry/intersect.ts';
import { IMPASSABLE_LINEAR, TERRAIN_CLASS_ORDER, type TerrainClass } from './tables/terrainClasses.ts';
import { qrs } from './tables/source.ts';

export const CHANGE_FRONT_MAX_DEG = 90;
export const CHANGE_FRONT_SOURCE = qrs('Change Front, Figure 7');
/** Angle step at which the wheeling faces are tested against ground and enemies, degrees. */
export const STEP_DEG = 5;
/** Largest distance between ground samples along a wheeling face, inches. */
export const SAMPLE_SPACING_IN = 3;

export type WheelFlank = 'left' | 'right';
export type WheelWay = 'forward' | 'backward';

export interface WheelGround {
  /** Ground class at a point (the rule set's terrain classes). */
  classAt(p: PointIn): TerrainClass;
  /** Enemy stands: a wheel does not pass through them. */
  readonly blockers: readonly { readonly polygon: readonly PointIn[]; readonly box: BoundingBoxIn }[];
  /** Segments nothing crosses (rivers). */
  readonly walls: readonly (readonly [PointIn, PointIn])[];
  /** True when `classAt` is open everywhere the wheel can go (no sampling needed). */
  readonly allOpen?: boolean;
  /** True when the ground is open everywhere within `radiusIn` of `centre` (a cheap test before sampling). */
  openWithin?(centre: PointIn, radiusIn: number): boolean;
}

export interface ChangeFrontWheel {
  /** The inside (pivot) flank. */
  readonly pivotFlank: WheelFlank;
  readonly way: WheelWay;
  /** The front corner of the inside flank stand. */
  readonly pivot: PointIn;
  readonly frontageIn: number;
  /** Largest wheel at the full move rate, degrees (0.1° steps, rounded down). */
  readonly maxDeg: number;
  /** Largest wheel at the double quick rate, when the chart row has one. */
  readonly maxDegDoubleQuick?: number;
  /** What stops the full-move wheel first. */
  readonly limitedBy: 'ninety-degrees' | 'movement-rate' | 'enemy' | 'impassable';
  /** Slowest ground the faces pass over up to `maxDeg`. */
  readonly ground: TerrainClass;
  /** Heading of the unit after wheeling `maxDeg`. */
  readonly headingAfterDeg: number;
  /** The sector the front face sweeps: the pivot, then the outside front corner's arc. */
  readonly sweep: readonly PointIn[];
}

export interface WheelRates {
  readonly full: (ground: TerrainClass) => number;
  /** Undefined when the chart gives one number. */
  readonly doubleQuick?: (ground: TerrainClass) => number;
}

/** `p` turned about `about` by the angle whose cosine and sine are given. */
function turn(p: PointIn, about: PointIn, c: number, s: number): PointIn {
  const dx = p.xIn - about.xIn;
  const dy = p.yIn - about.yIn;
  return { xIn: about.xIn + dx * c - dy * s, yIn: about.yIn + dx * s + dy * c };
}

function rotate(p: PointIn, about: PointIn, rad: number): PointIn {
  return turn(p, about, Math.cos(rad), Math.sin(rad));
}

function segmentMeetsPolygon(a: PointIn, b: PointIn, polygon: readonly PointIn[], box: BoundingBoxIn): boolean {
  if (Math.max(a.xIn, b.xIn) < box.minXIn || Math.min(a.xIn, b.xIn) > box.maxXIn || Math.max(a.yIn, b.yIn) < box.minYIn || Math.min(a.yIn, b.yIn) > box.maxYIn) return false;
  return segmentTouchesPolygonBoundary(a, b, polygon) || pointInPolygon(a, polygon);
}

interface Step {
  readonly deg: number;
  /** Worst ground from 0 up to this step. */
  readonly ground: TerrainClass;
  readonly blocked?: 'enemy' | 'impassable';
}

/** `classRank` as a table: `worse` runs at every sampled point. */
const RANK = Object.fromEntries(TERRAIN_CLASS_ORDER.map((c, i) => [c, i])) as Readonly<Record<TerrainClass, number>>;

function worse(a: TerrainClass, b: TerrainClass): TerrainClass {
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * The worse of `worst` and the ground at the n points k/n of the way from a to b (k = 1..n). Module level,
 * not a closure per wheel: the dev loader names every inner function, at a cost per call.
 */
function worstAlong(ground: WheelGround, a: PointIn, b: PointIn, n: number, worst: TerrainClass): TerrainClass {
  for (let k = 1; k <= n; k++) worst = worse(worst, ground.classAt({ xIn: a.xIn + ((b.xIn - a.xIn) * k) / n, yIn: a.yIn + ((b.yIn - a.yIn) * k) / n }));
  return worst;
}

/**
 * The wheel's steps: from 0 to 90° every STEP_DEG, the worst ground met so far and whether the faces at
 * that angle (or the outside corners' paths since the last step) meet an enemy stand, a wall or impassable
 * ground.
 */
function walkWheel(pivot: PointIn, outer: PointIn, rearPivot: PointIn, rearOuter: PointIn, sign: number, ground: WheelGround, untilDeg: number): Step[] {
  let worst: TerrainClass = 'open';
  // Ground under both faces every SAMPLE_SPACING_IN or less, out to the outside end.
  const n = Math.max(1, Math.ceil(Math.hypot(outer.xIn - pivot.xIn, outer.yIn - pivot.yIn) / SAMPLE_SPACING_IN));
  const sampled = !ground.allOpen;
  if (sampled) {
    worst = worstAlong(ground, pivot, outer, n, worst);
    worst = worstAlong(ground, rearPivot, rearOuter, n, worst);
  }
  const steps: Step[] = [{ deg: 0, ground: worst }];
  const checked = ground.blockers.length > 0 || ground.walls.length > 0;
  // Open ground and nothing in the way: the rate alone decides (maxAngle's closed form), no steps needed.
  if (!sampled && !checked) return steps;
  let prevOuter = outer;
  let prevRearOuter = rearOuter;
  // Steps past the largest angle any rate allows (plus the step reaching it) cannot change the answer.
  for (let deg = STEP_DEG; deg <= untilDeg + 1e-9; deg += STEP_DEG) {
    const rad = (sign * deg * Math.PI) / 180;
    const c = Math.cos(rad);
    const sn = Math.sin(rad);
    const o = turn(outer, pivot, c, sn);
    const rp = turn(rearPivot, pivot, c, sn);
    const ro = turn(rearOuter, pivot, c, sn);
    if (sampled) {
      worst = worstAlong(ground, pivot, o, n, worst);
      worst = worstAlong(ground, rp, ro, n, worst);
    }
    let blocked: Step['blocked'];
    if ((worst as TerrainClass) === 'impassable') blocked = 'impassable';
    if (!blocked && checked) {
      const faces: (readonly [PointIn, PointIn])[] = [[pivot, o], [rp, ro], [prevOuter, o], [prevRearOuter, ro]];
      for (const [a, b] of faces) {
        if (blocked) break;
        for (const w of ground.walls) if (segmentsIntersect(a, b, w[0], w[1])) blocked = 'impassable';
        for (const e of ground.blockers) if (!blocked && segmentMeetsPolygon(a, b, e.polygon, e.box)) blocked = 'enemy';
      }
    }
    steps.push(blocked ? { deg, ground: worst, blocked } : { deg, ground: worst });
    if (blocked) break;
    prevOuter = o;
    prevRearOuter = ro;
  }
  return steps;
}

/** The angle, degrees, a face `frontageIn` long turns when its outside corner travels the rate on `g` (0 on impassable). */
function degForRate(g: TerrainClass, rate: (g: TerrainClass) => number, frontageIn: number): number {
  return g === 'impassable' ? 0 : ((rate(g) / frontageIn) * 180) / Math.PI;
}

/** Largest angle (degrees, 0.1° steps) the outside corner may travel at `rate` over the steps' ground. */
function maxAngle(steps: readonly Step[], frontageIn: number, rate: (g: TerrainClass) => number): { deg: number; ground: TerrainClass; limitedBy: ChangeFrontWheel['limitedBy'] } {
  let best = { deg: 0, ground: steps[0]!.ground, limitedBy: 'movement-rate' as ChangeFrontWheel['limitedBy'] };
  for (let i = 1; i < steps.length; i++) {
    const s = steps[i]!;
    const prev = steps[i - 1]!;
    if (s.blocked) return { ...best, limitedBy: s.blocked };
    const allowed = degForRate(s.ground, rate, frontageIn);
    // The worse ground may be entered anywhere in this step: reaching into it needs its rate.
    if (allowed < s.deg) {
      const deg = allowed >= prev.deg ? allowed : prev.deg;
      return { deg, ground: allowed >= prev.deg ? s.ground : prev.ground, limitedBy: 'movement-rate' };
    }
    best = { deg: s.deg, ground: s.ground, limitedBy: 'ninety-degrees' };
  }
  if (steps.length === 1) {
    // No steps walked (one ground, nothing in the way): the rate on it decides, up to 90°.
    const deg = degForRate(steps[0]!.ground, rate, frontageIn);
    return deg >= CHANGE_FRONT_MAX_DEG ? { deg: CHANGE_FRONT_MAX_DEG, ground: steps[0]!.ground, limitedBy: 'ninety-degrees' } : { deg, ground: steps[0]!.ground, limitedBy: 'movement-rate' };
  }
  return best;
}

/** Arc points for drawing, at most this far apart in angle, degrees (a tenth of an inch off at 15"). */
const DRAW_STEP_DEG = 10;

function arc(pivot: PointIn, outer: PointIn, sign: number, deg: number): PointIn[] {
  const pts: PointIn[] = [pivot, outer];
  const n = Math.max(1, Math.ceil(deg / DRAW_STEP_DEG));
  for (let i = 1; i <= n; i++) pts.push(rotate(outer, pivot, (sign * (deg * i) / n * Math.PI) / 180));
  return pts;
}

/**
 * The four change-front wheels of a unit whose fighting stands are `stands`, facing `headingDeg`: pivot on
 * the left or right front corner, forward or backward, each with its largest angle at the unit's rates.
 */
export function changeFrontWheels(
  stands: readonly Stand[],
  headingDeg: number,
  rates: WheelRates,
  ground: WheelGround,
  front: readonly Stand[] = frontRankStands(stands, headingDeg),
): ChangeFrontWheel[] {
  if (stands.length === 0 || front.length === 0) return [];
  const fl = standCorners(front[0]!)[0];
  const fr = standCorners(front[front.length - 1]!)[1];
  const frontageIn = Math.hypot(fr.xIn - fl.xIn, fr.yIn - fl.yIn);
  if (frontageIn < 1e-9) return [];
  const h = (headingDeg * Math.PI) / 180;
  const hx = Math.cos(h);
  const hy = Math.sin(h);
  // Depth of the unit along its heading, from the front face back.
  let minAlong = Infinity;
  let maxAlong = -Infinity;
  for (const s of stands) {
    for (const c of standCorners(s)) {
      const a = c.xIn * hx + c.yIn * hy;
      if (a < minAlong) minAlong = a;
      if (a > maxAlong) maxAlong = a;
    }
  }
  const depthIn = maxAlong - minAlong;
  const back = (p: PointIn): PointIn => ({ xIn: p.xIn - hx * depthIn, yIn: p.yIn - hy * depthIn });
  const fastestIn = Math.max(rates.full('open'), rates.full('broken'), rates.full('rough'), ...(rates.doubleQuick ? [rates.doubleQuick('open'), rates.doubleQuick('broken'), rates.doubleQuick('rough')] : []));
  const untilDeg = Math.min(CHANGE_FRONT_MAX_DEG, (Math.ceil((((fastestIn / frontageIn) * 180) / Math.PI) / STEP_DEG) + 1) * STEP_DEG);
  // Every wheeling face stays within this radius of its pivot: ground farther away is never sampled.
  const radiusIn = Math.hypot(frontageIn, depthIn);
  // Only stands and walls within that radius of the pivot can meet a wheeling face: the rest are left out
  // before the steps (most wheels then have nothing to check at all).
  const groundAt = (pivot: PointIn): WheelGround => {
    const r = radiusIn + 1e-9;
    const blockers = ground.blockers.filter((e) => Math.hypot(Math.max(e.box.minXIn - pivot.xIn, 0, pivot.xIn - e.box.maxXIn), Math.max(e.box.minYIn - pivot.yIn, 0, pivot.yIn - e.box.maxYIn)) <= r);
    const walls = ground.walls.filter((w) => pointToSegmentDistanceIn(pivot, w[0], w[1]) <= r);
    const open = ground.allOpen === true || ground.openWithin?.(pivot, radiusIn) === true;
    return { ...ground, blockers, walls, ...(open ? { allOpen: true } : {}) };
  };
  const out: ChangeFrontWheel[] = [];
  for (const pivotFlank of ['left', 'right'] as const) {
    const pivot = pivotFlank === 'left' ? fl : fr;
    const outer = pivotFlank === 'left' ? fr : fl;
    for (const way of ['forward', 'backward'] as const) {
      // Left pivot forward turns the face counter-clockwise (the right flank comes forward), and so on.
      const sign = (pivotFlank === 'left' ? 1 : -1) * (way === 'forward' ? 1 : -1);
      const steps = walkWheel(pivot, outer, back(pivot), back(outer), sign, groundAt(pivot), untilDeg);
      const full = maxAngle(steps, frontageIn, rates.full);
      const deg = Math.floor(full.deg * 10 + 1e-6) / 10;
      const dq = rates.doubleQuick ? Math.floor(maxAngle(steps, frontageIn, rates.doubleQuick).deg * 10 + 1e-6) / 10 : undefined;
      out.push({
        pivotFlank,
        way,
        pivot,
        frontageIn,
        maxDeg: deg,
        ...(dq !== undefined ? { maxDegDoubleQuick: dq } : {}),
        limitedBy: full.limitedBy,
        ground: full.ground,
        headingAfterDeg: normalizeDeg(headingDeg + sign * deg),
        sweep: arc(pivot, outer, sign, deg),
      });
    }
  }
  return out;
}

/** How far beyond its box a unit's change front looks, inches: every wheeling face stays within its diagonal. */
export function changeFrontLookIn(info: FfrUnitInfo): number {
  const b = info.box;
  return Math.hypot(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) + 1;
}

const ORDER_TEXT: Readonly<Record<ChangeFrontWheel['limitedBy'], string>> = {
  'ninety-degrees': 'the 90° limit',
  'movement-rate': 'the rate',
  enemy: 'an enemy unit in the way',
  impassable: 'impassable ground',
};

function wheelText(w: ChangeFrontWheel): string {
  const dq = w.maxDegDoubleQuick !== undefined && w.maxDegDoubleQuick !== w.maxDeg ? `, ${w.maxDegDoubleQuick}° at the double quick` : '';
  const ground = w.ground !== 'open' ? ` over ${w.ground} ground` : '';
  return `${w.way} ${w.maxDeg}° (${ORDER_TEXT[w.limitedBy]}${ground})${dq}`;
}

/**
 * The change front of a unit in line or extended line, for its movement: a note with each wheel's largest
 * angle and the sector each sweeps (a shape per wheel that turns at all). Nothing for other formations.
 * `row` is the unit's chart row: the full move for Well Handled, the double quick for a Double Quick effect
 * ("Well handled maneuver at the double quick rate", Figure 5).
 */
export function changeFrontFor(ctx: FfrContext, info: FfrUnitInfo, row: MovementRow, enemyStands: readonly PolygonBox[]): { note?: string; shapes: Shape[] } {
  const f = info.formation;
  if (info.unit.arm === 'artillery' || (f.id !== 'line' && f.id !== 'extended-line')) return { shapes: [] };
  // Only what the wheel can reach matters: within the unit's box grown by its own diagonal.
  const b = info.box;
  const reachIn = changeFrontLookIn(info);
  const blockers: { polygon: readonly PointIn[]; box: BoundingBoxIn }[] = [];
  for (const e of enemyStands) {
    if (e.minXIn > b.maxXIn + reachIn || e.maxXIn < b.minXIn - reachIn || e.minYIn > b.maxYIn + reachIn || e.maxYIn < b.minYIn - reachIn) continue;
    blockers.push({ polygon: e.polygon, box: e });
  }
  // Ground: only areas near enough to be swept; none near (the usual case) means open ground throughout.
  const near = ctx.areas().filter((a) => a.cls !== 'open' && !(a.box.minXIn > b.maxXIn + reachIn || a.box.maxXIn < b.minXIn - reachIn || a.box.minYIn > b.maxYIn + reachIn || a.box.maxYIn < b.minYIn - reachIn));
  const classAt = (p: PointIn): TerrainClass => worstClassAt(near, p);
  const walls: (readonly [PointIn, PointIn])[] = [];
  for (const l of ctx.terrain().linear) {
    if (!IMPASSABLE_LINEAR.includes(l.kind)) continue;
    for (let k = 0; k + 1 < l.points.length; k++) {
      const p = l.points[k]!;
      const q = l.points[k + 1]!;
      if (Math.min(p.xIn, q.xIn) > b.maxXIn + reachIn || Math.max(p.xIn, q.xIn) < b.minXIn - reachIn || Math.min(p.yIn, q.yIn) > b.maxYIn + reachIn || Math.max(p.yIn, q.yIn) < b.minYIn - reachIn) continue;
      walls.push([p, q]);
    }
  }
  const cell = (g: TerrainClass) => row[g === 'impassable' ? 'rough' : g];
  const hasDq = row.open.doubleQuick !== undefined;
  const wheels = changeFrontWheels(f.stands, f.headingDeg, { full: (g) => cell(g).full, ...(hasDq ? { doubleQuick: (g: TerrainClass) => cell(g).doubleQuick ?? cell(g).full } : {}) }, {
    classAt,
    blockers,
    walls,
    allOpen: near.length === 0,
    // Box first, then the exact distance: an area not within the radius is never swept.
    openWithin: (c, r) =>
      !near.some((a) => !(a.box.minXIn > c.xIn + r || a.box.maxXIn < c.xIn - r || a.box.minYIn > c.yIn + r || a.box.maxYIn < c.yIn - r) && pointToPolygonDistanceIn(c, a.vertices) <= r),
  }, info.frontRank);
  if (wheels.length === 0) return { shapes: [] };
  const unit = info.unit;
  const shapes: Shape[] = [];
  for (const w of wheels) {
    if (w.maxDeg <= 0) continue;
    shapes.push({ kind: 'polygon', id: `movement/${unit.id}/change-front/${w.pivotFlank}-${w.way}`, layer: 'movement', style: 'reach', unitId: unit.id, side: unit.side, vertices: w.sweep });
  }
  const flank = (side: WheelFlank) => wheels.filter((w) => w.pivotFlank === side).map(wheelText).join(', ');
  const who = unit.status?.disordered === true ? 'after a Rally with Élan (a disordered unit cannot change front until it rallies)' : 'Well Handled at the full move; Double Quick at its rate; Rally with Élan';
  const note =
    `Change front (${who}; ${CHANGE_FRONT_SOURCE}): wheel up to 90° or as far as the outside corner may travel, frontage ${wheels[0]!.frontageIn.toFixed(1)}"; ` +
    `pivot on the left flank ${flank('left')}; on the right flank ${flank('right')}. No other move with it; a flank may be refused after.`;
  return { note, shapes };
}
