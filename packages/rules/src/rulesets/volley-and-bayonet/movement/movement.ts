/**
 * Movement (p. 2) and Terrain Effects (p. 3) for one unit: every stand moves on its own, so each stand gets
 * its own reach (where its centre may end), priced by `walkCost` in REACH_BINS directions. The unit's
 * `MovementOption` carries the first fighting stand's allowance and reach; every stand's reach is drawn.
 */
import type { EvaluationWarning, MovementOption, Refusal } from '../../../engine/evaluation.ts';
import type { Shape } from '../../../engine/shapes.ts';
import { missingParameterWarning } from '../../../engine/rulesetFields.ts';
import type { PointIn } from '../../../model/units.ts';
import { closestPointOnSegment, pointToSegmentDistanceIn } from '../../../geometry/distance.ts';
import { pointInPolygon } from '../../../geometry/intersect.ts';
import { DISMOUNTED_MOVE_PARAM } from '../declarations.ts';
import { boxesApart, type Blocker, type VbContext, type VbStand, type VbUnit } from '../context.ts';
import {
  CHARGE_FACING_SOURCE,
  FACING_SOURCE,
  OBLIQUE_DEG,
  OUT_OF_COMMAND_MOVE_FRACTION,
  OUT_OF_COMMAND_SOURCE,
  PAID_FACING_CHANGE_FRACTION,
  ROAD_MARCH_CROSS_COUNTRY,
  ROAD_MARCH_ON_ROAD,
  ROAD_MARCH_SOURCE,
  STATIONARY_SOURCE,
} from '../tables/movementRates.ts';
import { areaMatters, openWalkIn, walkReachIn, type MoverProfile, type RaySpans } from './costWalk.ts';
import { moverProfile, standRate } from './standMovement.ts';
import { binsCutByEnemies, cutBins } from './outOfCommand.ts';
import { TOUCH_TOLERANCE_IN } from '../command.ts';
import { polygonToPolygonDistanceIn } from '../../../geometry/distance.ts';
import { roadAt, type VbArea, type VbHill, type VbLine, type VbTerrain } from './terrainScene.ts';
import { emptyBox, extendBox, type BoundingBoxIn } from '../../../geometry/polygon.ts';

import { REACH_BINS } from './reachBins.ts';
export { REACH_BINS };

export interface StandReach {
  readonly standId: string;
  readonly allowanceIn: number;
  readonly reach: readonly PointIn[];
  /** Road-march reach along the road the stand is on, if any. */
  readonly roadReach?: readonly PointIn[];
}

export interface MovementResult {
  readonly movement: MovementOption | Refusal;
  readonly stands: readonly StandReach[];
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
}

/** Enemy stands near `s`, each grown by half the moving base's depth: where its centre may not go. */
export function blockersFor(ctx: VbContext, s: VbStand, side: string, rangeIn: number): Blocker[] {
  const grow = s.stand.depthIn / 2;
  return enemiesNear(ctx, s, side, rangeIn, grow).map((e) => ctx.grown(e, grow));
}

/**
 * The stands of other sides than `side` whose footprints meet `box`, in the context's order (units in
 * order, each unit's stands in order, then the commanders'): a spatial read.
 */
export function enemyStandsIn(ctx: VbContext, side: string, box: BoundingBoxIn): VbStand[] {
  const picked: VbStand[] = [];
  const keys: number[] = [];
  let sorted = true;
  // A unit's stands mostly come together in the state's order: each unit is asked once per run.
  let runId: string | undefined;
  let runInfo: VbUnit | undefined;
  let runIndex = 0;
  for (const s of ctx.tableStandsIn(box)) {
    if (s.unitId !== runId) {
      runId = s.unitId;
      runInfo = ctx.units.get(s.unitId);
      runIndex = runInfo ? ctx.unitIndex(s.unitId) : -1;
    }
    let e: VbStand | undefined;
    let key: number;
    // A unit's stand of this side is no enemy.
    if (runInfo && runInfo.unit.side === side) continue;
    const at = runInfo ? runInfo.stands.findIndex((v) => v.stand.id === s.id) : -1;
    if (at >= 0) {
      e = runInfo!.stands[at]!;
      key = runIndex * 4096 + at;
    } else {
      e = ctx.vbStand(s);
      if (!e || e.side === side) continue;
      key = ctx.contextOrder(e);
    }
    if (keys.length > 0 && key < keys[keys.length - 1]!) sorted = false;
    picked.push(e);
    keys.push(key);
  }
  if (sorted) return picked;
  const order = picked.map((_, i) => i).sort((a, b) => keys[a]! - keys[b]!);
  return order.map((i) => picked[i]!);
}

/** A box grown by `byIn` on every side. */
function grownBox(b: BoundingBoxIn, byIn: number): BoundingBoxIn {
  return { minXIn: b.minXIn - byIn, minYIn: b.minYIn - byIn, maxXIn: b.maxXIn + byIn, maxYIn: b.maxYIn + byIn };
}

/**
 * Enemy stands near `s` that may stop its moves (boxes within `rangeIn` plus `growIn`), in the context's
 * order, leaving out any whose base grown by `growIn` holds the centre (it may move away from contact).
 * Only that one is grown here: the others are grown when a walk needs them. They are picked from `pool`
 * (`enemyStandsIn` of a box holding the stand's box grown by that reach) or read around the stand.
 */
function enemiesNear(ctx: VbContext, s: VbStand, side: string, rangeIn: number, growIn: number, pool?: readonly VbStand[]): VbStand[] {
  const reach = rangeIn + growIn;
  const c = s.center;
  const out: VbStand[] = [];
  for (const e of pool ?? enemyStandsIn(ctx, side, grownBox(s.box, reach))) {
    if (boxesApart(s.box, e.box, reach)) continue;
    const bx = e.box;
    if (c.xIn >= bx.minXIn - growIn && c.xIn <= bx.maxXIn + growIn && c.yIn >= bx.minYIn - growIn && c.yIn <= bx.maxYIn + growIn && pointInPolygon(c, ctx.grown(e, growIn).polygon)) continue;
    out.push(e);
  }
  return out;
}

/** Walks a road polyline from the point nearest `from`, both ways, `lengthIn` each way. */
export function roadReach(points: readonly PointIn[], from: PointIn, lengthIn: number): PointIn[] {
  let best = { d: Infinity, i: 0, p: points[0]! };
  for (let i = 0; i + 1 < points.length; i++) {
    const p = closestPointOnSegment(from, points[i]!, points[i + 1]!);
    const d = Math.hypot(p.xIn - from.xIn, p.yIn - from.yIn);
    if (d < best.d) best = { d, i, p };
  }
  const walk = (dir: 1 | -1): PointIn[] => {
    const out: PointIn[] = [];
    let left = lengthIn;
    let at = best.p;
    let k = dir === 1 ? best.i + 1 : best.i;
    while (left > 1e-9 && k >= 0 && k < points.length) {
      const next = points[k]!;
      const d = Math.hypot(next.xIn - at.xIn, next.yIn - at.yIn);
      if (d >= left) {
        out.push({ xIn: at.xIn + ((next.xIn - at.xIn) * left) / d, yIn: at.yIn + ((next.yIn - at.yIn) * left) / d });
        left = 0;
        break;
      }
      out.push(next);
      left -= d;
      at = next;
      k += dir;
    }
    return out;
  };
  return [...walk(-1).reverse(), best.p, ...walk(1)];
}

/** Distance from `p` to a polyline (or a closed outline), 0 inside a closed outline. */
function polygonOutlineDistanceIn(p: PointIn, points: readonly PointIn[], closed: boolean): number {
  if (closed && pointInPolygon(p, points)) return 0;
  let d = Infinity;
  const n = points.length;
  for (let i = closed ? 0 : 1, j = closed ? n - 1 : 0; i < n; j = i++) {
    const e = pointToSegmentDistanceIn(p, points[j]!, points[i]!);
    if (e < d) d = e;
  }
  return n === 1 ? Math.hypot(points[0]!.xIn - p.xIn, points[0]!.yIn - p.yIn) : d;
}

/** A walk that stops this close to its allowance went all the way (rounding in its length, not a stop). */
const FULL_REACH_SLACK_IN = 1e-9;
/** Radians between neighbouring reach directions. */
const STEP_RAD = (2 * Math.PI) / REACH_BINS;
/** Unit vectors of the reach directions in the stand's frame (bin 0 straight ahead, counter-clockwise). */
const BIN_COS = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.cos((b * 2 * Math.PI) / REACH_BINS));
const BIN_SIN = Float64Array.from({ length: REACH_BINS }, (_, b) => Math.sin((b * 2 * Math.PI) / REACH_BINS));
/** 1 for the bins within the 45° oblique of straight ahead (free for every stand), else 0. */
const WITHIN_OBLIQUE = Uint8Array.from({ length: REACH_BINS }, (_, b) => {
  const offDeg = (b * 360) / REACH_BINS;
  return offDeg <= OBLIQUE_DEG + 1e-9 || offDeg >= 360 - OBLIQUE_DEG - 1e-9 ? 1 : 0;
});

/**
 * Where stand `s`'s centre may end, per reach direction: its walks at `allowanceIn` (its move `moveIn`),
 * stopped by the enemy stands of `pool` near it (`standEnemies`).
 */
export function standReach(ctx: VbContext, terrain: VbTerrain, info: VbUnit, s: VbStand, allowanceIn: number, moveIn: number, pool: readonly VbStand[]): PointIn[] {
  const c = s.center;
  const h = (s.stand.pose.headingDeg * Math.PI) / 180;
  const cosH = Math.cos(h);
  const sinH = Math.sin(h);
  // Poorly trained stands have no free facing change: beyond the 45° oblique a change costs half the move.
  const paidTurns = info.poorlyTrained && s.type !== 'command';
  const widthIn = terrain.table.widthIn;
  const depthIn = terrain.table.depthIn;
  // What the walks read (enemy stands near, terrain near), prepared on the first ray that is walked.
  let walker: RayWalker | undefined;
  const out: PointIn[] = new Array(REACH_BINS);
  for (let b = 0; b < REACH_BINS; b++) {
    const a = paidTurns && WITHIN_OBLIQUE[b] === 0 ? allowanceIn * (1 - PAID_FACING_CHANGE_FRACTION) : allowanceIn;
    // The ray's direction by rotating the bin's unit vector (two products, not a cosine and sine per ray).
    const cos = cosH * BIN_COS[b]! - sinH * BIN_SIN[b]!;
    const sin = sinH * BIN_COS[b]! + cosH * BIN_SIN[b]!;
    const endX = c.xIn + cos * a;
    const endY = c.yIn + sin * a;
    walker ??= prepareWalks(ctx, terrain, info, s, allowanceIn, moveIn, h, pool);
    // A ray that ends on the table and is walked (or, open, needs no walk) to its whole allowance ends at
    // its end point: the same point whichever way it was found, so an update that keeps it agrees.
    const endOnTable = endX >= 0 && endX <= widthIn && endY >= 0 && endY <= depthIn;
    if (endOnTable && (walker.busyBins & (1 << b)) === 0) {
      out[b] = { xIn: endX, yIn: endY };
      continue;
    }
    const reachedIn = walkRay(walker, b, a, endX, endY);
    out[b] = endOnTable && reachedIn >= a - FULL_REACH_SLACK_IN ? { xIn: endX, yIn: endY } : { xIn: c.xIn + cos * reachedIn, yIn: c.yIn + sin * reachedIn };
  }
  return out;
}

/**
 * What the walks of one stand read (blockers near, terrain near), read once, with the reach directions
 * each item spans: `bins` holds a [first, last] pair per blocker, then per area, line and hill.
 */
interface RayWalker extends RaySpans {
  readonly c: PointIn;
  readonly table: VbTerrain['table'];
  readonly profile: MoverProfile;
  readonly ctx: VbContext;
  /** Enemy stands near whose grown bases may stop a ray, and how much they are grown (half this base's depth). */
  readonly enemies: readonly VbStand[];
  readonly growIn: number;
  /** Their grown bases, each made when a ray first meets its span. */
  readonly grownBases: (Blocker | undefined)[];
  readonly bins: Int32Array;
  /** Bit b set when some span holds bin b (REACH_BINS is 32): the other rays are open ground. */
  readonly busyBins: number;
  /** The enemies' grown bases a ray can meet, refilled per ray that has any (walks never keep it). */
  readonly onRay: Blocker[];
  /** What the walks read of the terrain near (the spans say which pieces each ray can meet). */
  readonly near: VbTerrain;
  /** The ray being walked (set before each walk). */
  bin: number;
}

/** The unwrapped bin span [first, last] of the directions from `h` between `loRad` and `hiRad`, written at `at`. */
function writeSpan(bins: Int32Array, at: number, loRad: number, hiRad: number, h: number, slackBins: number): void {
  let f = Math.ceil((loRad - h) / STEP_RAD - slackBins);
  let l = Math.floor((hiRad - h) / STEP_RAD + slackBins);
  const shift = Math.floor(f / REACH_BINS) * REACH_BINS;
  f -= shift;
  l -= shift;
  bins[at] = f;
  bins[at + 1] = l;
}

function writeFullSpan(bins: Int32Array, at: number): void {
  bins[at] = 0;
  bins[at + 1] = REACH_BINS - 1;
}

/**
 * Writes the angular span of each enemy base grown by `growIn`, as seen from `c`, into `bins` from `at` (a
 * first, last pair per base): the grown base lies within the disk around the base's centre whose radius is
 * half its diagonal plus `growIn`, so a ray that meets it points between the tangents to that disk (a little
 * wider than the grown base itself: a few more rays are walked, each by the exact test). Unwrapped: a ray at
 * bin b (or b + REACH_BINS) can meet the grown base only if it is in [first, last]; a disk that holds `c`
 * covers every bin. `slackBins` widens each span so a grazing ray is never dropped. Returns the next index.
 */
function writeGrownBaseSpans(bins: Int32Array, at: number, bases: readonly VbStand[], growIn: number, c: PointIn, h: number, slackBins: number): number {
  for (let k = 0; k < bases.length; k++, at += 2) {
    const e = bases[k]!;
    const dx = e.center.xIn - c.xIn;
    const dy = e.center.yIn - c.yIn;
    const d = Math.sqrt(dx * dx + dy * dy);
    // A hair over the radius: the grown base's points lie on it up to rounding.
    const r = (Math.sqrt(e.stand.widthIn * e.stand.widthIn + e.stand.depthIn * e.stand.depthIn) / 2 + growIn) * (1 + 1e-12);
    if (d <= r) {
      writeFullSpan(bins, at);
      continue;
    }
    const mid = Math.atan2(dy, dx);
    const half = Math.asin(r / d);
    writeSpan(bins, at, mid - half, mid + half, h, slackBins);
  }
  return at;
}

/**
 * A direction as a number that grows with its angle, 4 to the turn (0 along +x, 1 along +y, 2 along -x),
 * opposite directions exactly 2 apart: ordering directions needs no arctangent.
 */
function turnQuarters(dx: number, dy: number): number {
  const p = dx / (Math.abs(dx) + Math.abs(dy));
  return dy < 0 ? 3 + p : 1 - p;
}

/** The angle, radians, of a `turnQuarters` value (any number of turns: 4 per turn, 2π per turn). */
function quartersToRad(q: number): number {
  const turns = Math.floor(q / 4);
  const r = q - 4 * turns;
  const p = r < 2 ? 1 - r : r - 3;
  const dy = r < 2 ? 1 - Math.abs(p) : -(1 - Math.abs(p));
  let a = Math.atan2(dy, p);
  if (a < 0) a += 2 * Math.PI;
  return a + 2 * Math.PI * turns;
}

/**
 * Writes the angular span of an outline (a polyline, or a polygon when `closed`) as seen from `c` at `at`:
 * the directions swept walking its vertices (each segment sweeps the smaller turn between its ends, as `c`
 * is not on it), which is every direction a ray from `c` can meet it in. An outline around `c` (a full turn
 * swept) or through it covers every bin. Same pair and slack as `writeGrownBaseSpans`; returns the next index.
 * The sweep is counted in `turnQuarters` (ordered like angles), so only its two ends take an arctangent.
 */
function writeOutlineSpan(bins: Int32Array, at: number, points: readonly PointIn[], closed: boolean, c: PointIn, h: number, slackBins: number): number {
  const n = points.length;
  const x0 = points[0]!.xIn - c.xIn;
  const y0 = points[0]!.yIn - c.yIn;
  if (Math.abs(x0) < 1e-9 && Math.abs(y0) < 1e-9) {
    writeFullSpan(bins, at);
    return at + 2;
  }
  let prev = turnQuarters(x0, y0);
  let swept = prev;
  let lo = prev;
  let hi = prev;
  for (let i = 1, end = closed ? n : n - 1; i <= end; i++) {
    const p = points[i % n]!;
    const dx = p.xIn - c.xIn;
    const dy = p.yIn - c.yIn;
    if (Math.abs(dx) < 1e-9 && Math.abs(dy) < 1e-9) {
      writeFullSpan(bins, at);
      return at + 2;
    }
    const q = turnQuarters(dx, dy);
    let turn = q - prev;
    turn -= 4 * Math.round(turn / 4);
    // Half a turn: `c` is on the segment (or as good as), which then lies in two opposite directions.
    if (Math.abs(turn) > 2 - 1e-6) {
      writeFullSpan(bins, at);
      return at + 2;
    }
    swept += turn;
    prev = q;
    if (swept < lo) lo = swept;
    if (swept > hi) hi = swept;
  }
  if (hi - lo >= 4 - 1e-6) writeFullSpan(bins, at);
  else writeSpan(bins, at, quartersToRad(lo), quartersToRad(hi), h, slackBins);
  return at + 2;
}

/** Whether a box meets the square of half-side `radiusIn` around `c` (as `terrainNear` picks pieces). */
function boxWithin(b: BoundingBoxIn, c: PointIn, radiusIn: number): boolean {
  return b.minXIn <= c.xIn + radiusIn && c.xIn - radiusIn <= b.maxXIn && b.minYIn <= c.yIn + radiusIn && c.yIn - radiusIn <= b.maxYIn;
}

/** The spans of the stand being walked (one stand's walks at a time: `standReach` never nests), grown as needed. */
let SPAN_BINS = new Int32Array(64);

function prepareWalks(ctx: VbContext, terrain: VbTerrain, info: VbUnit, s: VbStand, allowanceIn: number, moveIn: number, h: number, pool: readonly VbStand[]): RayWalker {
  const c = s.center;
  const profile = moverProfile(info, s, moveIn);
  const growIn = s.stand.depthIn / 2;
  const enemies = enemiesNear(ctx, s, info.unit.side, allowanceIn, growIn, pool);
  // Only what this mover pays for or is disordered by: open ground for it needs no walk. Every ray stays
  // within the allowance of the centre: terrain further than that is never met (boxes first, as
  // `terrainNear` tests them, then the outline). Plain loops: this runs for every stand.
  const within = allowanceIn + 1e-6;
  const areas: VbArea[] = [];
  for (const a of terrain.areas) if (boxWithin(a.box, c, allowanceIn) && areaMatters(a.cls, profile) && polygonOutlineDistanceIn(c, a.vertices, true) <= within) areas.push(a);
  const lines: VbLine[] = [];
  for (const l of terrain.lines) if (boxWithin(l.box, c, allowanceIn) && polygonOutlineDistanceIn(c, l.points, false) <= within) lines.push(l);
  const hills: VbHill[] = [];
  if (profile.hills !== 'free') for (const hl of terrain.hills) if (boxWithin(hl.box, c, allowanceIn) && polygonOutlineDistanceIn(c, hl.vertices, true) <= within) hills.push(hl);
  // Blockers and terrain put into the directions they span, so a ray tests only what can stop or cost it,
  // and a ray that meets none of it is open ground (the same answer as a walk, which would skip them all).
  // Blockers keep the tight slack they always had; terrain gets a wider one (a corner-grazing ray costs a walk).
  // An enemy's span comes from its box grown by `growIn` (its grown base lies inside that box): its grown
  // base is built only when a ray in that span is walked.
  const spanCount = 2 * (enemies.length + areas.length + lines.length + hills.length);
  if (SPAN_BINS.length < spanCount) SPAN_BINS = new Int32Array(2 * spanCount);
  const bins = SPAN_BINS;
  const areasAt = writeGrownBaseSpans(bins, 0, enemies, growIn, c, h, 1e-9);
  let at = areasAt;
  for (const a of areas) at = writeOutlineSpan(bins, at, a.vertices, true, c, h, 1e-6);
  const linesAt = at;
  for (const l of lines) at = writeOutlineSpan(bins, at, l.points, false, c, h, 1e-6);
  const hillsAt = at;
  for (const hl of hills) at = writeOutlineSpan(bins, at, hl.vertices, true, c, h, 1e-6);
  let busyBins = 0;
  // A span [first, last] (first in [0, REACH_BINS), last up to a turn beyond) holds bin b when b or
  // b + REACH_BINS is in it: the bins first..last, wrapped, at most one turn of them.
  for (let k = 0; k < spanCount; k += 2) {
    const end = Math.min(bins[k + 1]!, bins[k]! + REACH_BINS - 1);
    for (let x = bins[k]!; x <= end; x++) busyBins |= 1 << x % REACH_BINS;
  }
  const near: VbTerrain = { areas, lines, hills, roads: terrain.roads, table: terrain.table };
  return { c, table: terrain.table, profile, ctx, enemies, growIn, grownBases: new Array(enemies.length), bins, areasAt, linesAt, hillsAt, binCount: REACH_BINS, busyBins, onRay: [], near, bin: 0 };
}

/** The end of the ray being walked (walks never keep it): one point for every walk, not one each. */
const RAY_END: { xIn: number; yIn: number } = { xIn: 0, yIn: 0 };

/** How far one ray of a stand's reach goes: bin, allowance along it, its end at that allowance. */
function walkRay(w: RayWalker, b: number, a: number, endX: number, endY: number): number {
  // Nothing spans this ray: open ground, the full allowance or the table edge (as `walkCost` gives it).
  if ((w.busyBins & (1 << b)) === 0) return openWalkIn(w.table, w.c, endX, endY, a);
  const onRay = w.onRay;
  // Setting a length is a runtime call (and drops the list's store): only when there is something to clear.
  if (onRay.length !== 0) onRay.length = 0;
  for (let k = 0, at = 0; k < w.enemies.length; k++, at += 2) {
    const first = w.bins[at]!;
    const last = w.bins[at + 1]!;
    if ((b >= first && b <= last) || (b + REACH_BINS >= first && b + REACH_BINS <= last)) onRay.push((w.grownBases[k] ??= w.ctx.grown(w.enemies[k]!, w.growIn)));
  }
  w.bin = b;
  RAY_END.xIn = endX;
  RAY_END.yIn = endY;
  return walkReachIn(w.near, w.c, RAY_END, w.profile, a, onRay, w);
}

/**
 * The enemy stands any of the unit's walks may meet, in the context's order: those in the movers' boxes
 * grown by the longest reach (a full move, doubled in road march, and half the base; `enemiesNear` picks
 * each stand's own from them).
 */
export function movementEnemies(ctx: VbContext, info: VbUnit): VbStand[] {
  if (info.routed) return [];
  let lookIn = 0;
  const movingBox = emptyBox();
  for (const s of info.combatStands.concat(info.unitCommanders)) {
    const rate = standRate(ctx, info, s);
    if ('missing' in rate) continue;
    lookIn = Math.max(lookIn, rate.rateIn * (info.roadMarch && s.type !== 'command' ? ROAD_MARCH_CROSS_COUNTRY : 1) + s.stand.depthIn / 2);
    extendBox(movingBox, s.box);
  }
  return lookIn > 0 ? ctx.enemyStandsNear(info.unit.side, movingBox, lookIn + 1e-6) : [];
}

/** Whether a combat stand of the unit touches an enemy unit's stand (within the command module's touching tolerance). */
function inContact(ctx: VbContext, info: VbUnit): boolean {
  if (info.combatStands.length === 0) return false;
  for (const e of ctx.enemyStandsNear(info.unit.side, info.combatBox, TOUCH_TOLERANCE_IN)) {
    if (e.unitId === undefined) continue;
    for (const s of info.combatStands) if (polygonToPolygonDistanceIn(s.corners, e.corners) <= TOUCH_TOLERANCE_IN) return true;
  }
  return false;
}

export function evaluateMovement(
  ctx: VbContext,
  terrain: VbTerrain,
  info: VbUnit,
  standInCommand: Pick<ReadonlyMap<string, boolean>, 'get'>,
  reachOf?: (s: VbStand, allowanceIn: number, moveIn: number) => readonly PointIn[],
  /** An out-of-command stand's reach directions toward a visible enemy (`binsCutByEnemies`), as a mask. */
  cutOf: (s: VbStand) => number = (s) => binsCutByEnemies(ctx, info, s),
): MovementResult {
  const u = info.unit;
  const warnings: EvaluationWarning[] = [];
  const shapes: Shape[] = [];
  const stands: StandReach[] = [];
  const movers = [...info.combatStands, ...info.unitCommanders];
  if (movers.length === 0) return { movement: { ok: false, reason: 'movement/no-stands', detail: `${u.name} has no stands on the table` }, stands, shapes, warnings };
  if (info.routed) {
    return { movement: { ok: false, reason: 'movement/routed', detail: `${u.name} is routed: it moves a full turn to the rear and may only rally (Morale; Rally, p. 4)` }, stands, shapes, warnings };
  }
  const notes: string[] = ['Each stand moves on its own; the reach is where its centre may end (free facing change, 45° oblique).'];
  let missing: string | undefined;
  // Each stand's reach, by default against the enemy stands any of the unit's walks may meet (read once).
  let pool: readonly VbStand[] | undefined;
  const reachAt = reachOf ?? ((s: VbStand, allowanceIn: number, moveIn: number) => standReach(ctx, terrain, info, s, allowanceIn, moveIn, (pool ??= movementEnemies(ctx, info))));
  for (const s of movers) {
    const rate = standRate(ctx, info, s);
    if ('missing' in rate) {
      if (rate.missing !== 'spacer') missing ??= rate.missing;
      continue;
    }
    const outOfCommand = s.type !== 'command' && standInCommand.get(s.stand.id) === false;
    let allowanceIn = rate.rateIn * (outOfCommand ? OUT_OF_COMMAND_MOVE_FRACTION : 1);
    const roadMarch = info.roadMarch && s.type !== 'command';
    const crossIn = allowanceIn * (roadMarch ? ROAD_MARCH_CROSS_COUNTRY : 1);
    // Out of command: never toward a visible enemy unit (the reach's directions toward one are cut).
    const cutMask = outOfCommand ? cutOf(s) : 0;
    const reach = cutBins(s, reachAt(s, crossIn, rate.rateIn), cutMask);
    const seesEnemy = cutMask !== 0;
    let roadPts: PointIn[] | undefined;
    if (roadMarch) {
      const road = roadAt(terrain, s.center);
      if (road) {
        // "Stands in Road march moving along a road ignore all terrain through or across which the road passes."
        roadPts = roadReach(road.points, s.center, allowanceIn * ROAD_MARCH_ON_ROAD);
        shapes.push({ kind: 'polyline', id: `movement/road/${s.stand.id}`, layer: 'movement', style: 'reach-road', unitId: u.id, side: u.side, points: roadPts });
      }
    }
    shapes.push({ kind: 'polygon', id: `movement/reach/${s.stand.id}`, layer: 'movement', style: 'reach', unitId: u.id, side: u.side, vertices: reach });
    stands.push({ standId: s.stand.id, allowanceIn: roadMarch ? crossIn : allowanceIn, reach, ...(roadPts ? { roadReach: roadPts } : {}) });
    if (stands.length === 1) {
      notes.push(`${rate.label} ${rate.rateIn}" (${rate.source})`);
      if (outOfCommand) notes.push(`Out of command: half movement, disordered if it moves, never toward a visible enemy${seesEnemy ? ' (the reach goes nowhere toward the enemy it sees)' : ''} (${OUT_OF_COMMAND_SOURCE})`);
      // "Stands recovering from road march cannot be in contact with the enemy"; nor may a stand recover from disorder in contact.
      const contact = (roadMarch || (info.disordered && !info.permanentlyDisordered)) && inContact(ctx, info);
      if (roadMarch) notes.push(`Road march: x${ROAD_MARCH_CROSS_COUNTRY} cross-country, x${ROAD_MARCH_ON_ROAD} on a road; no combat value; forming up costs half a move, not in contact with the enemy, with a free change of facing, and it may fire or melee that turn${contact ? '; in contact with the enemy now: it may not form up' : ''} (${ROAD_MARCH_SOURCE})`);
      if (info.poorlyTrained) notes.push(`Poorly trained: no free facing change; a change of facing costs half the move, and a second change puts it into disorder (${FACING_SOURCE}; ${CHARGE_FACING_SOURCE})`);
      else notes.push(`A second facing change (up to 180°) costs half the move; the reach shows the free one; a charging stand turns only at the start and never twice (${FACING_SOURCE}; ${CHARGE_FACING_SOURCE})`);
      if ((s.type === 'infantry' || s.type === 'artillery') && !outOfCommand && !info.stationary) {
        notes.push(`May go stationary instead (in command): no move, no recovering from disorder or road march${info.poorlyTrained ? '' : '; a free facing change does not count as moving'} (${STATIONARY_SOURCE})`);
      }
      if (info.disordered && !info.permanentlyDisordered) notes.push(`Recovering from disorder costs half the move, not in contact with the enemy${contact ? '; in contact with the enemy now: it may not recover' : ''} (Movement: Disorder, p. 2)`);
    }
  }
  if (missing?.startsWith('parameter:')) warnings.push(missingParameterWarning(DISMOUNTED_MOVE_PARAM, `${u.name}: movement of dismounted stands`, u.id));
  const first = stands[0];
  if (!first) {
    const reason = missing?.startsWith('parameter:') ? 'movement/parameter-missing' : 'movement/no-troop-type';
    return { movement: { ok: false, reason, detail: `${u.name}: no movement rate (${missing ?? 'no moving stands'})` }, stands, shapes, warnings };
  }
  return { movement: { ok: true, allowanceIn: first.allowanceIn, reach: first.reach, notes }, stands, shapes, warnings };
}
