/**
 * One straight move on the table, priced by Terrain Effects (p. 3): walks the segment from a stand's centre
 * and returns how far its allowance takes it. Areas cost per inch moved (the most expensive area under the
 * stand's centre counts), lines cost on crossing, hills cost by contours crossed, enemy stands stop it,
 * and so does the table edge. The stand's centre is the point priced (a reading: the supplement does not say
 * which point of a base pays), so a base may overlap terrain by up to half its size before paying for it.
 */
import type { PointIn } from '../../../model/units.ts';
import { pointInPolygon, segmentInsideIntervalsInto, segmentIntersectionT, segmentPolygonCrossingsInto } from '../../../geometry/intersect.ts';
import type { BoundingBoxIn } from '../../../geometry/polygon.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { AREA_CLASSES, LINEAR_CLASSES, type Mover } from '../tables/terrain.ts';
import { roadAt, type VbTerrain } from './terrainScene.ts';
import type { Blocker } from '../context.ts';
import { orderByKey } from '../../../geometry/sortSmall.ts';

export interface MoverProfile {
  readonly mover: Mover;
  readonly slowInfantry: boolean;
  /** Hills: 'free' (skirmishers, commanders), 'two-contours' (other infantry and cavalry), 'artillery'. */
  readonly hills: 'free' | 'two-contours' | 'artillery';
  /** The stand's normal movement (for "half a stand's movement" costs), inches. */
  readonly moveIn: number;
  readonly roadMarch: boolean;
  /**
   * Bridges: "Stands not in Road march pay half their movement or suffer disorder, at the owners option"
   * (Terrain Effects: Bridges, p. 3): true when the owner takes the disorder (the crossing costs nothing).
   */
  readonly bridgeDisorders?: boolean;
}

/** What stops a walk: an enemy base grown by half the moving base (`VbContext.grown`), with its box. */
export type WalkBlocker = Pick<Blocker, 'polygon' | 'box'>;

export interface WalkResult {
  /** How far along the segment the centre gets, inches. */
  readonly reachedIn: number;
  /** Why it stopped short of the segment's end: 'allowance', 'impassable:<id>', 'enemy', 'table-edge'. */
  readonly stoppedBy?: string;
  /** Terrain ids crossed or entered that disorder this mover. */
  readonly disorderedBy: readonly string[];
}

function segMissesBox(a: PointIn, b: PointIn, box: BoundingBoxIn, marginIn = 0): boolean {
  return (
    Math.max(a.xIn, b.xIn) < box.minXIn - marginIn ||
    Math.min(a.xIn, b.xIn) > box.maxXIn + marginIn ||
    Math.max(a.yIn, b.yIn) < box.minYIn - marginIn ||
    Math.min(a.yIn, b.yIn) > box.maxYIn + marginIn
  );
}

const NONE: string[] = [];

/**
 * Scratch of one walk, reused (walks never nest): area intervals, point events (line crossings and hill
 * costs), hill contours and the walk's breakpoints, as typed columns with a count each, so a walk that
 * meets terrain allocates nothing for them. Grown (doubled) when a walk needs more.
 */
let capacity = 16;
let ivFrom: Float64Array = new Float64Array(capacity);
let ivTo: Float64Array = new Float64Array(capacity);
let ivRate: Float64Array = new Float64Array(capacity);
let ivDisorders: Uint8Array = new Uint8Array(capacity);
const ivId: string[] = [];
let evAt: Float64Array = new Float64Array(capacity);
let evCost: Float64Array = new Float64Array(capacity);
let evDisorders: Uint8Array = new Uint8Array(capacity);
const evId: string[] = [];
let ctAt: Float64Array = new Float64Array(capacity);
/** Events and contours in order of `at` (equal ones as added): indices into their columns. */
let evOrder: Int32Array = new Int32Array(capacity);
let ctOrder: Int32Array = new Int32Array(capacity);
let ctUp: Uint8Array = new Uint8Array(capacity);
const ctId: string[] = [];
/** Breakpoints: 0, the limit, and every interval end and event before it (2 + 2 intervals + events). */
let breaks: Float64Array = new Float64Array(3 * capacity + 2);
let ivCount = 0;
let evCount = 0;
let ctCount = 0;

function growTo(n: number): void {
  if (n <= capacity) return;
  while (capacity < n) capacity *= 2;
  const grow64 = (a: Float64Array): Float64Array => {
    const b = new Float64Array(capacity);
    b.set(a);
    return b;
  };
  const grow8 = (a: Uint8Array): Uint8Array => {
    const b = new Uint8Array(capacity);
    b.set(a);
    return b;
  };
  ivFrom = grow64(ivFrom);
  ivTo = grow64(ivTo);
  ivRate = grow64(ivRate);
  ivDisorders = grow8(ivDisorders);
  evAt = grow64(evAt);
  evCost = grow64(evCost);
  evDisorders = grow8(evDisorders);
  ctAt = grow64(ctAt);
  ctUp = grow8(ctUp);
  evOrder = new Int32Array(capacity);
  ctOrder = new Int32Array(capacity);
  breaks = new Float64Array(3 * capacity + 2);
}

function addInterval(from: number, to: number, rate: number, id: string, disorders: boolean): void {
  growTo(ivCount + 1);
  ivFrom[ivCount] = from;
  ivTo[ivCount] = to;
  ivRate[ivCount] = rate;
  ivDisorders[ivCount] = disorders ? 1 : 0;
  ivId[ivCount++] = id;
}

function addEvent(at: number, cost: number, id: string, disorders: boolean): void {
  growTo(evCount + 1);
  evAt[evCount] = at;
  evCost[evCount] = cost;
  evDisorders[evCount] = disorders ? 1 : 0;
  evId[evCount++] = id;
}

function addContour(at: number, up: boolean, id: string): void {
  growTo(ctCount + 1);
  ctAt[ctCount] = at;
  ctUp[ctCount] = up ? 1 : 0;
  ctId[ctCount++] = id;
}

/** The first `n` breakpoints in ascending order. */
function sortBreaks(n: number): void {
  for (let i = 1; i < n; i++) {
    const x = breaks[i]!;
    let j = i - 1;
    for (; j >= 0 && breaks[j]! > x; j--) breaks[j + 1] = breaks[j]!;
    breaks[j + 1] = x;
  }
}

const SPANS: number[] = [];
const CROSSINGS: number[] = [];
/** A point on the walk whose road is looked up (read by `roadAt` only). */
const ON_WALK: { xIn: number; yIn: number } = { xIn: 0, yIn: 0 };

/** `list` with `id` added once; a fresh list in place of the shared empty one. */
function withId(list: string[], id: string): string[] {
  const out = list === NONE ? [] : list;
  if (!out.includes(id)) out.push(id);
  return out;
}

/** Distance along a ray (coordinate p, direction component d) to the table edge at 0 or `max`. */
function edge(p: number, d: number, max: number): number {
  return d > 1e-12 ? (max - p) / d : d < -1e-12 ? -p / d : Infinity;
}

/** Whether a line's crossing at `at` is listed already (a walk through a vertex meets two of its segments there). */
function crossedAlready(id: string, at: number): boolean {
  for (let k = 0; k < evCount; k++) if (evId[k] === id && Math.abs(evAt[k]! - at) < 1e-9) return true;
  return false;
}

/**
 * The directions each terrain piece of a walk's terrain can be met in (see movement.ts `writeBinSpans`):
 * from `areasAt`, `linesAt` and `hillsAt`, a [first, last] pair of bins per piece, in the pieces' order;
 * `bin` is the walk's own direction. A piece whose span does not hold it cannot meet the walk, and is
 * skipped as the walk's box tests would skip it.
 */
export interface RaySpans {
  readonly bins: Int32Array;
  readonly areasAt: number;
  readonly linesAt: number;
  readonly hillsAt: number;
  readonly binCount: number;
  readonly bin: number;
}

function spanHolds(spans: RaySpans, at: number): boolean {
  const first = spans.bins[at]!;
  const last = spans.bins[at + 1]!;
  const b = spans.bin;
  return (b >= first && b <= last) || (b + spans.binCount >= first && b + spans.binCount <= last);
}

/**
 * `walkCost`'s answer for a walk that meets nothing (no terrain, no enemy): the allowance or the table edge,
 * computed the same way to the last bit, so a caller may skip the walk without changing the answer. The
 * end is given as two numbers: most rays of a reach are open and need no end object.
 */
export function openWalkIn(table: { readonly widthIn: number; readonly depthIn: number }, a: PointIn, bxIn: number, byIn: number, allowanceIn: number): number {
  const lengthIn = hypot2(bxIn - a.xIn, byIn - a.yIn);
  if (lengthIn < 1e-9) return 0;
  const dx = (bxIn - a.xIn) / lengthIn;
  const dy = (byIn - a.yIn) / lengthIn;
  let limit = lengthIn;
  const tEdge = Math.min(edge(a.xIn, dx, table.widthIn), edge(a.yIn, dy, table.depthIn));
  if (tEdge < limit) limit = Math.max(0, tEdge);
  return allowanceIn < limit ? allowanceIn : limit;
}

/**
 * Whether `walkCost` prices an area of this class for this mover at all: areas it crosses at the plain rate
 * without disorder are skipped there, so a caller may drop them beforehand (same answers, fewer tests).
 */
export function areaMatters(cls: keyof typeof AREA_CLASSES, profile: MoverProfile): boolean {
  const rule = AREA_CLASSES[cls];
  const rate = profile.mover === 'infantry' && profile.slowInfantry && rule.slowInfantryCost !== undefined ? rule.slowInfantryCost : rule.cost[profile.mover];
  const disorders = rule.disorders?.includes(profile.mover) ?? false;
  return rate !== 1 || disorders;
}

/**
 * Distance along a→b (inches) where the segment first meets the polygon's outline; Infinity when it never
 * does. Callers drop polygons that contain `a` (see `walkCost`). Allocation-free: it runs per ray and blocker.
 */
export function firstEntryIn(a: PointIn, b: PointIn, polygon: readonly PointIn[], lengthIn: number): number {
  let t = Infinity;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const u = segmentIntersectionT(a, b, polygon[j]!, polygon[i]!);
    if (u < t) t = u;
  }
  return t === Infinity ? Infinity : Math.max(0, t) * lengthIn;
}

/** Why the last walk stopped and what disordered it (read by `walkCost` right after `walkReachIn`). */
let lastStoppedBy: string | undefined;
let lastDisorderedBy: string[] = NONE;

/** Records a walk's end and returns how far it got: walks that need only the distance build no result. */
function stop(reachedIn: number, stoppedBy: string | undefined, disorderedBy: string[]): number {
  lastStoppedBy = stoppedBy;
  lastDisorderedBy = disorderedBy;
  return reachedIn;
}

/** `walkReachIn` (the same arguments) with why it stopped and what disordered the mover on the way. */
export function walkCost(...walk: Parameters<typeof walkReachIn>): WalkResult {
  const reachedIn = walkReachIn(...walk);
  return lastStoppedBy !== undefined ? { reachedIn, stoppedBy: lastStoppedBy, disorderedBy: lastDisorderedBy } : { reachedIn, disorderedBy: lastDisorderedBy };
}

/**
 * Walk a → b spending `allowanceIn`: how far along it the centre gets, inches. `blockers` are polygons the
 * centre may not enter (enemy stands grown by half the moving base); the caller leaves out any the centre
 * starts inside (moving away from contact is allowed). `spans`, when given, says which terrain pieces the
 * walk's direction can meet at all.
 */
export function walkReachIn(
  terrain: VbTerrain,
  a: PointIn,
  b: PointIn,
  profile: MoverProfile,
  allowanceIn: number,
  blockers: readonly WalkBlocker[] = [],
  spans?: RaySpans,
): number {
  const lengthIn = hypot2(b.xIn - a.xIn, b.yIn - a.yIn);
  // Most walks cross nothing that disorders: share one empty list rather than allocate one per walk.
  let disorderedBy: string[] = NONE;
  if (lengthIn < 1e-9) return stop(0, undefined, disorderedBy);
  const dx = (b.xIn - a.xIn) / lengthIn;
  const dy = (b.yIn - a.yIn) / lengthIn;
  // Table edge: the centre stays on the table.
  let limit = lengthIn;
  let limitBy: string | undefined;
  const tEdge = Math.min(edge(a.xIn, dx, terrain.table.widthIn), edge(a.yIn, dy, terrain.table.depthIn));
  if (tEdge < limit) (limit = Math.max(0, tEdge)), (limitBy = 'table-edge');
  for (const blocker of blockers) {
    if (segMissesBox(a, b, blocker.box)) continue;
    const t = firstEntryIn(a, b, blocker.polygon, lengthIn);
    if (t < limit) (limit = t), (limitBy = 'enemy');
  }
  // Area intervals with their cost per inch.
  ivCount = 0;
  for (let k = 0; k < terrain.areas.length; k++) {
    if (spans && !spanHolds(spans, spans.areasAt + 2 * k)) continue;
    const area = terrain.areas[k]!;
    if (segMissesBox(a, b, area.box)) continue;
    const rule = AREA_CLASSES[area.cls];
    let rate = profile.mover === 'infantry' && profile.slowInfantry && rule.slowInfantryCost !== undefined ? rule.slowInfantryCost : rule.cost[profile.mover];
    const disorders = rule.disorders?.includes(profile.mover) ?? false;
    if (rate === 1 && !disorders) continue;
    const inside = segmentInsideIntervalsInto(a, b, area.vertices, SPANS);
    if (inside.length === 0) continue;
    // Already inside ground it may not enter (placed there by hand): let it walk out at the plain rate.
    if (rate === 'impassable' && inside[0]! <= 1e-9) rate = 1;
    for (let q = 0; q < inside.length; q += 2) addInterval(inside[q]! * lengthIn, inside[q + 1]! * lengthIn, rate === 'impassable' ? Infinity : rate, area.id, disorders);
  }
  // Lines crossed; a road across a stream or river there is a bridge or ford.
  evCount = 0;
  for (let k = 0; k < terrain.lines.length; k++) {
    if (spans && !spanHolds(spans, spans.linesAt + 2 * k)) continue;
    const line = terrain.lines[k]!;
    if (segMissesBox(a, b, line.box)) continue;
    const rule = LINEAR_CLASSES[line.cls];
    for (let i = 0; i + 1 < line.points.length; i++) {
      const t = segmentIntersectionT(a, b, line.points[i]!, line.points[i + 1]!);
      if (!(t === t) || t * lengthIn < 1e-9) continue;
      const at = t * lengthIn;
      if (crossedAlready(line.id, at)) continue;
      let c = rule.cost[profile.mover];
      if (line.cls === 'river' || line.cls === 'stream') {
        ON_WALK.xIn = a.xIn + dx * at;
        ON_WALK.yIn = a.yIn + dy * at;
        if (roadAt(terrain, ON_WALK) !== undefined) {
          if (!profile.roadMarch && profile.bridgeDisorders) {
            addEvent(at, 0, line.id, true);
            continue;
          }
          c = profile.roadMarch ? { inches: 0 } : 'half-move';
        }
      }
      const cost = c === 'impassable' ? Infinity : c === 'half-move' ? profile.moveIn / 2 : c.inches;
      addEvent(at, cost, line.id, line.cls === 'works');
    }
  }
  // Hills: contour lines crossed, in order.
  if (profile.hills !== 'free' && terrain.hills.length > 0) {
    ctCount = 0;
    for (let k = 0; k < terrain.hills.length; k++) {
      if (spans && !spanHolds(spans, spans.hillsAt + 2 * k)) continue;
      const h = terrain.hills[k]!;
      if (segMissesBox(a, b, h.box)) continue;
      const inside0 = pointInPolygon(a, h.vertices);
      const ts = segmentPolygonCrossingsInto(a, b, h.vertices, CROSSINGS);
      let inside = inside0;
      let last = -1;
      for (const t of ts) {
        if (t - last < 1e-9) continue; // a crossing through a vertex is listed twice
        last = t;
        inside = !inside;
        addContour(t * lengthIn, inside, h.id);
      }
    }
    orderByKey(ctAt, ctCount, ctOrder);
    for (let i = 0; i < ctCount; i++) {
      const c = ctOrder[i]!;
      const at = ctAt[c]!;
      if (profile.hills === 'two-contours') {
        // "pay half their movement to climb or descend two contours on the same hill in the same turn; they are also disordered".
        if (i === 1) addEvent(at, profile.moveIn / 2, ctId[c]!, true);
      } else {
        ON_WALK.xIn = a.xIn + dx * at;
        ON_WALK.yIn = a.yIn + dy * at;
        if (roadAt(terrain, ON_WALK) === undefined) {
          // Artillery: half to climb one contour, nothing to descend, never two contours in a turn (off roads).
          if (i >= 1) addEvent(at, Infinity, ctId[c]!, false);
          else if (ctUp[c] === 1) addEvent(at, profile.moveIn / 2, ctId[c]!, false);
        }
      }
    }
  }
  // Open ground all the way (most directions): no pieces to walk.
  if (ivCount === 0 && evCount === 0) {
    if (allowanceIn < limit) return stop(allowanceIn, 'allowance', disorderedBy);
    return stop(limit, limitBy, disorderedBy);
  }
  orderByKey(evAt, evCount, evOrder);
  // Walk the pieces between breakpoints.
  let nBreaks = 0;
  breaks[nBreaks++] = 0;
  breaks[nBreaks++] = limit;
  for (let i = 0; i < ivCount; i++) {
    if (ivFrom[i]! < limit) breaks[nBreaks++] = ivFrom[i]!;
    if (ivTo[i]! < limit) breaks[nBreaks++] = ivTo[i]!;
  }
  for (let i = 0; i < evCount; i++) if (evAt[i]! < limit) breaks[nBreaks++] = evAt[i]!;
  sortBreaks(nBreaks);
  let spent = 0;
  let ei = 0;
  for (let k = 0; k + 1 < nBreaks || k === 0; k++) {
    const s0 = breaks[k]!;
    // Point events at s0.
    while (ei < evCount && evAt[evOrder[ei]!]! <= s0 + 1e-9) {
      const e = evOrder[ei++]!;
      if (evAt[e]! > limit) break;
      if (spent + evCost[e]! > allowanceIn + 1e-9) {
        return stop(Math.max(0, evAt[e]! - 1e-3), evCost[e] === Infinity ? `impassable:${evId[e]}` : 'allowance', disorderedBy);
      }
      spent += evCost[e]!;
      if (evDisorders[e] === 1) disorderedBy = withId(disorderedBy, evId[e]!);
    }
    if (k + 1 >= nBreaks) break;
    const s1 = breaks[k + 1]!;
    const mid = (s0 + s1) / 2;
    let rate = 1;
    let rateId = '';
    for (let i = 0; i < ivCount; i++) {
      if (ivFrom[i]! <= mid && mid <= ivTo[i]!) {
        if (ivRate[i]! > rate) (rate = ivRate[i]!), (rateId = ivId[i]!);
        if (ivDisorders[i] === 1) disorderedBy = withId(disorderedBy, ivId[i]!);
      }
    }
    if (rate === Infinity) return stop(s0, `impassable:${rateId}`, disorderedBy);
    if (spent + rate * (s1 - s0) >= allowanceIn - 1e-12) {
      return stop(s0 + (allowanceIn - spent) / rate, 'allowance', disorderedBy);
    }
    spent += rate * (s1 - s0);
  }
  return stop(limit, limitBy, disorderedBy);
}
