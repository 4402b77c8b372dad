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
  FACING_SOURCE,
  OBLIQUE_DEG,
  OUT_OF_COMMAND_MOVE_FRACTION,
  OUT_OF_COMMAND_SOURCE,
  PAID_FACING_CHANGE_FRACTION,
  ROAD_MARCH_CROSS_COUNTRY,
  ROAD_MARCH_ON_ROAD,
  ROAD_MARCH_SOURCE,
} from '../tables/movementRates.ts';
import { areaMatters, openWalkIn, walkCost } from './costWalk.ts';
import { moverProfile, standRate } from './standMovement.ts';
import { roadAt, terrainNear, type VbTerrain } from './terrainScene.ts';

/** Directions sampled around each stand (11.25° apart, so the 45° oblique limit falls on a direction). */
export const REACH_BINS = 32;

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

/** Every stand of a context that is not on a side, per side (built on first use, once per state). */
const ENEMY_STANDS = new WeakMap<VbContext, Map<string, VbStand[]>>();

function enemyStands(ctx: VbContext, side: string): readonly VbStand[] {
  let bySide = ENEMY_STANDS.get(ctx);
  if (!bySide) ENEMY_STANDS.set(ctx, (bySide = new Map()));
  let list = bySide.get(side);
  if (!list) bySide.set(side, (list = ctx.allStands.filter((e) => e.side !== side)));
  return list;
}

/** Enemy stands near `s`, each grown by half the moving base's depth: where its centre may not go. */
export function blockersFor(ctx: VbContext, s: VbStand, side: string, rangeIn: number): Blocker[] {
  const grow = s.stand.depthIn / 2;
  const reach = rangeIn + grow;
  const out: Blocker[] = [];
  for (const e of enemyStands(ctx, side)) {
    if (boxesApart(s.box, e.box, reach)) continue;
    const b = ctx.grown(e, grow);
    // Already in contact: it may move away (and `walkCost` never sees this one).
    if (pointInPolygon(s.center, b.polygon)) continue;
    out.push(b);
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

/**
 * Keeps a ray's end from an earlier evaluation: the session hands one in when nothing that ray could meet
 * has changed (its previous point, or undefined to walk it again).
 */
export type KeepRay = (bin: number, from: PointIn, toXIn: number, toYIn: number) => PointIn | undefined;

function standReach(ctx: VbContext, terrain: VbTerrain, info: VbUnit, s: VbStand, allowanceIn: number, moveIn: number, keep?: KeepRay): PointIn[] {
  const c = s.center;
  const h = (s.stand.pose.headingDeg * Math.PI) / 180;
  const step = (2 * Math.PI) / REACH_BINS;
  // What the walks read (enemy stands near, terrain near), prepared on the first ray that is walked.
  let walkRay: RayWalk | undefined;
  const out: PointIn[] = [];
  for (let b = 0; b < REACH_BINS; b++) {
    const offDeg = (b * 360) / REACH_BINS;
    // Poorly trained stands have no free facing change: beyond the 45° oblique a change costs half the move.
    const within = offDeg <= OBLIQUE_DEG + 1e-9 || offDeg >= 360 - OBLIQUE_DEG - 1e-9;
    const a = info.poorlyTrained && s.type !== 'command' && !within ? allowanceIn * (1 - PAID_FACING_CHANGE_FRACTION) : allowanceIn;
    const th = h + b * step;
    // One cosine and sine per ray, shared by its end and its answer (the same values either way).
    const cos = Math.cos(th);
    const sin = Math.sin(th);
    const endX = c.xIn + cos * a;
    const endY = c.yIn + sin * a;
    const kept = keep?.(b, c, endX, endY);
    if (kept) {
      out.push(kept);
      continue;
    }
    walkRay ??= prepareWalks(ctx, terrain, info, s, allowanceIn, moveIn, h, step);
    const reachedIn = walkRay(b, a, endX, endY);
    out.push({ xIn: c.xIn + cos * reachedIn, yIn: c.yIn + sin * reachedIn });
  }
  return out;
}

/** How far one ray of a stand's reach goes: bin, allowance along it, its end at that allowance. */
type RayWalk = (b: number, a: number, endXIn: number, endYIn: number) => number;

/** The ray walker of one stand: what its walks read (blockers near, terrain near), read once. */
function prepareWalks(ctx: VbContext, terrain: VbTerrain, info: VbUnit, s: VbStand, allowanceIn: number, moveIn: number, h: number, step: number): RayWalk {
  const c = s.center;
  const profile = moverProfile(info, s, moveIn);
  const blockers = blockersFor(ctx, s, info.unit.side, allowanceIn);
  const nearAll = terrainNear(terrain, c, allowanceIn);
  // Only what this mover pays for or is disordered by: open ground for it needs no walk.
  // Every ray stays within the allowance of the centre: terrain further than that is never met.
  const within = allowanceIn + 1e-6;
  const near: VbTerrain = {
    ...nearAll,
    areas: nearAll.areas.filter((a) => areaMatters(a.cls, profile) && polygonOutlineDistanceIn(c, a.vertices, true) <= within),
    lines: nearAll.lines.filter((l) => polygonOutlineDistanceIn(c, l.points, false) <= within),
    hills: profile.hills === 'free' ? [] : nearAll.hills.filter((h) => polygonOutlineDistanceIn(c, h.vertices, true) <= within),
  };
  // Each blocker's angular span as seen from the centre (from its box corners: a little wide, never
  // narrow; it never contains the centre, so under 180°), put into the directions it covers, so a ray
  // tests only the blockers that can stop it.
  const n = blockers.length;
  const firstBin = new Int32Array(n);
  const lastBin = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const bx = blockers[k]!.box;
    // A box around the centre (contact) covers every direction.
    if (c.xIn >= bx.minXIn && c.xIn <= bx.maxXIn && c.yIn >= bx.minYIn && c.yIn <= bx.maxYIn) {
      firstBin[k] = 0;
      lastBin[k] = REACH_BINS - 1;
      continue;
    }
    const mid = Math.atan2((bx.minYIn + bx.maxYIn) / 2 - c.yIn, (bx.minXIn + bx.maxXIn) / 2 - c.xIn);
    let lo = 0;
    let hi = 0;
    for (let q = 0; q < 4; q++) {
      const x = q === 0 || q === 3 ? bx.minXIn : bx.maxXIn;
      const y = q < 2 ? bx.minYIn : bx.maxYIn;
      let d = Math.atan2(y - c.yIn, x - c.xIn) - mid;
      d -= 2 * Math.PI * Math.round(d / (2 * Math.PI));
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
    // Bins relative to the heading, unwrapped: a ray at bin b (or b + REACH_BINS) is in [first, last].
    let first = Math.ceil((mid + lo - h) / step - 1e-9);
    let last = Math.floor((mid + hi - h) / step + 1e-9);
    const shift = Math.floor(first / REACH_BINS) * REACH_BINS;
    first -= shift;
    last -= shift;
    firstBin[k] = first;
    lastBin[k] = last;
  }

  const onRay: Blocker[] = [];
  // No terrain within reach that could cost this mover anything: rays need no walk unless a blocker is on them.
  const open = near.areas.length === 0 && near.lines.length === 0 && (near.hills.length === 0 || profile.hills === 'free');
  return (b, a, endX, endY) => {
    // Setting a length is a runtime call: only when there is something to clear.
    if (onRay.length !== 0) onRay.length = 0;
    for (let k = 0; k < n; k++) {
      if ((b >= firstBin[k]! && b <= lastBin[k]!) || (b + REACH_BINS >= firstBin[k]! && b + REACH_BINS <= lastBin[k]!)) onRay.push(blockers[k]!);
    }
    // Nothing on this ray but open ground: the full allowance, or the table edge (as `walkCost` gives it).
    return onRay.length === 0 && open ? openWalkIn(terrain.table, c, endX, endY, a) : walkCost(near, c, { xIn: endX, yIn: endY }, profile, a, onRay).reachedIn;
  };
}

export function evaluateMovement(
  ctx: VbContext,
  terrain: VbTerrain,
  info: VbUnit,
  standInCommand: ReadonlyMap<string, boolean>,
  keepFor?: (s: VbStand, allowanceIn: number) => KeepRay | undefined,
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
    const reach = standReach(ctx, terrain, info, s, crossIn, rate.rateIn, keepFor?.(s, crossIn));
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
      if (outOfCommand) notes.push(`Out of command: half movement, disordered if it moves, never toward a visible enemy (${OUT_OF_COMMAND_SOURCE})`);
      if (roadMarch) notes.push(`Road march: x${ROAD_MARCH_CROSS_COUNTRY} cross-country, x${ROAD_MARCH_ON_ROAD} on a road; no combat value; half a move to form up (${ROAD_MARCH_SOURCE})`);
      if (info.poorlyTrained) notes.push(`Poorly trained: no free facing change; a change of facing costs half the move (${FACING_SOURCE})`);
      if (info.disordered && !info.permanentlyDisordered) notes.push(`Recovering from disorder costs half the move, not in contact with the enemy (Movement: Disorder, p. 2)`);
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
