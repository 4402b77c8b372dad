/**
 * The Devil to Pay (2018), MOVE: how far a unit may move and where its reference point (command stand
 * centre) may end up, honouring forward moves, 45° obliques, wheels measured on the outside of the arc,
 * terrain penalties paid when an obstacle is met, obstacles artillery and mounted cavalry cannot cross, and
 * the 1" enemy exclusion.
 *
 * How the reach is built: the open-ground reach of the unit's path family (forward and oblique moves,
 * wheels then moves, moves then wheels) is sampled once per formation shape and stored as a radius per
 * direction ("bin"); then a ray per bin is walked from the unit's leading edge through terrain, friends and
 * enemies, paying penalties against the remaining allowance. Paths that bend (wheels) cost more allowance
 * per inch of displacement; each bin remembers that ratio so penalties are charged in path inches.
 */
import type { MovementOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Formation, LinearTerrainKind, Road } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { closestPointOnSegment } from '../../geometry/distance.ts';
import { pointInPolygon, segmentIntersection } from '../../geometry/intersect.ts';
import type { DtpContext, UnitInfo } from './context.ts';
import { boxGapIn } from './context.ts';
import {
  AREA_TERRAIN_PENALTY_IN,
  AREA_TERRAIN_SOURCE,
  BLOCKS_ARTILLERY_AND_MOUNTED,
  ENEMY_CLEARANCE_IN,
  FACE_COST_IN,
  FUDGE_MOVE_IN,
  LINEAR_TERRAIN_PENALTY_IN,
  LINEAR_TERRAIN_SOURCE,
  MOVEMENT_TABLE_SOURCE,
  OBLIQUE_DEG,
  PASSAGE_OF_LINES_PENALTY_IN,
  ROAD_ENEMY_CLEARANCE_IN,
  ROAD_MOVE_IN,
  MOUNTED_BONUS_IN,
  movementAllowanceIn,
} from './movementTables.ts';

/** Directions sampled around the reference point (7.5° apart: the 45° oblique limit falls on a bin). */
export const REACH_BINS = 48;
const BIN_DEG = 360 / REACH_BINS;

/** Something met on the way: pay `penaltyIn` to cross it, or stop there when `stop` is set. */
export interface PathEvent {
  /** Displacement of the unit when it meets the obstacle, inches. */
  readonly atIn: number;
  readonly penaltyIn: number;
  /** The unit may not cross (impassable terrain, enemy exclusion, table edge). */
  readonly stop?: boolean;
  readonly label: string;
}

export interface PathWalk {
  /** How far the unit gets, inches of displacement. */
  readonly reachIn: number;
  /** The obstacle it stopped at, if any. */
  readonly stoppedBy?: string;
  /** Penalties paid on the way, inches. */
  readonly paidIn: number;
}

/**
 * Walk a straight path paying penalties when obstacles are met (Move: Terrain Penalties): "When a unit moves
 * and does not have enough movement to overcome an obstacle it stops" at it.
 *
 * @param allowanceIn movement allowance, inches of path
 * @param events obstacles on the way (any order)
 * @param pathPerDisplacement inches of path used per inch of displacement (1 for a straight move; more
 *   when the path wheels)
 * @param maxDisplacementIn how far the path could go on open ground, inches (default allowance / ratio)
 * @example walkPenalties(12, [{ atIn: 10, penaltyIn: 3, label: 'fence' }]).reachIn // 10 (stops at the fence)
 */
export function walkPenalties(allowanceIn: number, events: readonly PathEvent[], pathPerDisplacement = 1, maxDisplacementIn?: number): PathWalk {
  const k = pathPerDisplacement;
  let budget = allowanceIn;
  let paid = 0;
  let limit = maxDisplacementIn ?? allowanceIn / k;
  const sorted = [...events].sort((a, b) => a.atIn - b.atIn);
  for (const e of sorted) {
    const at = Math.max(0, e.atIn);
    // Out of movement before reaching it (strictly: reaching it exactly with nothing left is stopping there).
    if (at * k >= budget || at >= limit) break;
    if (e.stop) return { reachIn: at, stoppedBy: e.label, paidIn: paid };
    if (budget - at * k < e.penaltyIn) return { reachIn: at, stoppedBy: e.label, paidIn: paid };
    budget -= e.penaltyIn;
    paid += e.penaltyIn;
  }
  limit = Math.min(limit, budget / k);
  return { reachIn: Math.max(0, limit), paidIn: paid };
}

/** Open-ground reach radius per bin (bin 0 = straight ahead, counter-clockwise), and the formation shape it came from. */
interface OpenReach {
  readonly radiusIn: Float64Array;
}

const openReachCache = new Map<string, OpenReach>();

/**
 * Open-ground reach for a unit whose reference point is at the origin facing +x, with front corners at
 * (frontXIn, leftYIn) and (frontXIn, rightYIn) (left positive). Forward and oblique moves, wheels about
 * either front corner costing frontage × angle (Move: Movement, Wheel: measure the outside of the arc).
 */
function openReach(allowanceIn: number, frontXIn: number, leftYIn: number, rightYIn: number, oblique: boolean, anyDirection: boolean): OpenReach {
  const key = `${allowanceIn.toFixed(2)}|${frontXIn.toFixed(2)}|${leftYIn.toFixed(2)}|${rightYIn.toFixed(2)}|${oblique}|${anyDirection}`;
  const hit = openReachCache.get(key);
  if (hit) return hit;
  const radiusIn = new Float64Array(REACH_BINS);
  if (anyDirection) {
    radiusIn.fill(allowanceIn);
  } else {
    const put = (x: number, y: number): void => {
      const r = Math.hypot(x, y);
      if (r < 1e-9) return;
      let deg = (Math.atan2(y, x) * 180) / Math.PI;
      if (deg < 0) deg += 360;
      const b = Math.round(deg / BIN_DEG) % REACH_BINS;
      if (r > radiusIn[b]!) radiusIn[b] = r;
    };
    const frontageIn = Math.max(0.1, leftYIn - rightYIn);
    const obliques: number[] = [];
    if (oblique) for (let a = -OBLIQUE_DEG; a <= OBLIQUE_DEG + 1e-9; a += BIN_DEG / 2) obliques.push((a * Math.PI) / 180);
    else obliques.push(0);
    const maxWheel = Math.min(Math.PI, allowanceIn / frontageIn);
    const steps = 24;
    for (let i = 0; i <= steps; i++) {
      const theta = (maxWheel * i) / steps;
      const rest = allowanceIn - theta * frontageIn;
      if (rest < -1e-9) break;
      for (const dir of [1, -1]) {
        // Wheel left pivots on the left front corner; wheel right on the right one.
        const py = dir > 0 ? leftYIn : rightYIn;
        const t = dir * theta;
        const c = Math.cos(t);
        const s = Math.sin(t);
        // Reference point (origin) rotated about the pivot (frontX, py).
        const wx = frontXIn + (0 - frontXIn) * c - (0 - py) * s;
        const wy = py + (0 - frontXIn) * s + (0 - py) * c;
        put(wx, wy);
        for (const a of obliques) {
          // Then straight on (or obliquely) in the new facing with what is left.
          put(wx + Math.cos(t + a) * rest, wy + Math.sin(t + a) * rest);
          for (let f = 0.25; f < 1; f += 0.25) put(wx + Math.cos(t + a) * rest * f, wy + Math.sin(t + a) * rest * f);
        }
        // Or straight on first, then wheel at the end.
        const mx = rest + frontXIn;
        const ex = mx + (0 - frontXIn) * c - (0 - py) * s;
        const ey = py + (0 - frontXIn) * s + (0 - py) * c;
        put(ex, ey);
      }
    }
  }
  const out = { radiusIn };
  if (openReachCache.size > 2000) openReachCache.clear();
  openReachCache.set(key, out);
  return out;
}

/** Extra facts a Devil to Pay movement option carries beyond the contract. */
export interface DtpMovementOption extends MovementOption {
  readonly formation: Formation;
  /** Whether the unit may oblique (green troops may not). */
  readonly oblique: boolean;
  /** 18" (+6" mounted) along a road for march column / limbered artillery beyond 12" of the enemy. */
  readonly roadAllowanceIn?: number;
  /** Road reach as polylines from the reference point along the road(s). */
  readonly roadReach?: readonly (readonly PointIn[])[];
  /** Fudge move: 3" in any direction, no terrain effects, still 1" from the enemy. */
  readonly fudgeReach: readonly PointIn[];
  /** Left/Right Face (March Column <-> Line): costs 3"; what is left to move in the new formation. */
  readonly face?: { readonly toFormation: Formation; readonly costIn: number; readonly remainingIn: number };
  /** Straight ahead: how far on this table, and what stops the unit, if anything. */
  readonly straightAheadIn: number;
  readonly straightAheadStoppedBy?: string;
}

export interface MovementResult {
  readonly movement: DtpMovementOption | Refusal;
  readonly shapes: readonly Shape[];
}

interface Box {
  minXIn: number;
  minYIn: number;
  maxXIn: number;
  maxYIn: number;
}

function boxOfPoints(points: readonly PointIn[]): Box {
  const b = { minXIn: Infinity, minYIn: Infinity, maxXIn: -Infinity, maxYIn: -Infinity };
  for (const p of points) {
    if (p.xIn < b.minXIn) b.minXIn = p.xIn;
    if (p.xIn > b.maxXIn) b.maxXIn = p.xIn;
    if (p.yIn < b.minYIn) b.minYIn = p.yIn;
    if (p.yIn > b.maxYIn) b.maxYIn = p.yIn;
  }
  return b;
}

/** A straight-line crossing ray from `o` along (dx, dy) for `lenIn` inches: distance to the first hit on segment a-b. */
function rayHit(o: PointIn, dx: number, dy: number, lenIn: number, a: PointIn, b: PointIn): number | undefined {
  const hit = segmentIntersection(o, { xIn: o.xIn + dx * lenIn, yIn: o.yIn + dy * lenIn }, a, b);
  return hit ? hit.tA * lenIn : undefined;
}

/**
 * Distance along a ray to where it enters a stand rectangle grown by `growIn` on every side, if it does.
 * A ray that starts inside counts as meeting it at 0 only when it heads toward the rectangle's centre, so
 * a unit already too close may still move away; a ray that only grazes its start point does not count.
 */
function rayIntoGrownRect(o: PointIn, dx: number, dy: number, corners: readonly PointIn[], growIn: number): number | undefined {
  // Rectangle frame from its corners: [frontLeft, frontRight, rearRight, rearLeft].
  const fl = corners[0]!;
  const fr = corners[1]!;
  const rr = corners[2]!;
  const cx = (fl.xIn + rr.xIn) / 2;
  const cy = (fl.yIn + rr.yIn) / 2;
  const wx = fr.xIn - fl.xIn;
  const wy = fr.yIn - fl.yIn;
  const w = Math.hypot(wx, wy);
  const ux = wx / w;
  const uy = wy / w;
  const vx = fr.xIn - rr.xIn;
  const vy = fr.yIn - rr.yIn;
  const d = Math.hypot(vx, vy);
  const nx = vx / d;
  const ny = vy / d;
  const hu = w / 2 + growIn;
  const hv = d / 2 + growIn;
  const ou = (o.xIn - cx) * ux + (o.yIn - cy) * uy;
  const ov = (o.xIn - cx) * nx + (o.yIn - cy) * ny;
  const du = dx * ux + dy * uy;
  const dv = dx * nx + dy * ny;
  let t0 = 0;
  let t1 = Infinity;
  for (const [op, dp, h] of [[ou, du, hu], [ov, dv, hv]] as const) {
    if (Math.abs(dp) < 1e-12) {
      if (op < -h || op > h) return undefined;
    } else {
      let a = (-h - op) / dp;
      let b = (h - op) / dp;
      if (a > b) [a, b] = [b, a];
      t0 = Math.max(t0, a);
      t1 = Math.min(t1, b);
      if (t0 > t1) return undefined;
    }
  }
  if (t1 <= 1e-9) return undefined;
  if (t0 === 0 && (cx - o.xIn) * dx + (cy - o.yIn) * dy <= 0) return undefined;
  return t0;
}

/** Distance from a point to the nearest stand of any enemy unit, inches (centre-to-edge, cheap bound). */
function nearestEnemyIn(ctx: DtpContext, info: UnitInfo): number {
  let best = Infinity;
  for (const e of ctx.enemiesOf(info.unit.id)) {
    const gap = boxGapIn(info.box, e.box);
    if (gap < best) best = gap;
  }
  return best;
}

/**
 * Walk `distIn` inches along a road polyline from `start` (on segment `seg`), forward or backward, stopping
 * early where `blocked` says so (sampled every quarter inch). Returns the polyline walked.
 */
function walkRoad(points: readonly PointIn[], seg: number, start: PointIn, forward: boolean, distIn: number, blocked: (p: PointIn) => boolean): PointIn[] {
  const out: PointIn[] = [start];
  let left = distIn;
  let at = start;
  let i = forward ? seg + 1 : seg;
  const stepIn = 0.25;
  while (left > 1e-9 && i >= 0 && i < points.length) {
    const next = points[i]!;
    const len = Math.hypot(next.xIn - at.xIn, next.yIn - at.yIn);
    const take = Math.min(len, left);
    for (let d = Math.min(stepIn, take); ; d = Math.min(d + stepIn, take)) {
      const p = len === 0 ? next : { xIn: at.xIn + ((next.xIn - at.xIn) * d) / len, yIn: at.yIn + ((next.yIn - at.yIn) * d) / len };
      if (blocked(p)) {
        const back = Math.max(0, d - stepIn);
        if (back > 0) out.push(len === 0 ? next : { xIn: at.xIn + ((next.xIn - at.xIn) * back) / len, yIn: at.yIn + ((next.yIn - at.yIn) * back) / len });
        return out;
      }
      if (d >= take) {
        out.push(p);
        at = p;
        break;
      }
    }
    left -= take;
    i += forward ? 1 : -1;
  }
  return out;
}

function roadReach(ctx: DtpContext, info: UnitInfo, ref: PointIn, roads: readonly Road[], distIn: number, leadIn: number): PointIn[][] {
  const out: PointIn[][] = [];
  const enemies = ctx.enemiesOf(info.unit.id).flatMap((e) => e.stands);
  const blocked = (p: PointIn): boolean => enemies.some((s) => rayIntoGrownRect(p, 1, 0, s.corners, ENEMY_CLEARANCE_IN + leadIn) === 0);
  for (const road of roads) {
    const half = (road.widthIn ?? 1) / 2;
    for (let i = 0; i + 1 < road.points.length; i++) {
      const a = road.points[i]!;
      const b = road.points[i + 1]!;
      const c = closestPointOnSegment(ref, a, b);
      // On the road: the reference point within the road's width (plus half an inch of placement slack).
      if (Math.hypot(c.xIn - ref.xIn, c.yIn - ref.yIn) > half + 0.5) continue;
      out.push(walkRoad(road.points, i, c, true, distIn, blocked), walkRoad(road.points, i, c, false, distIn, blocked));
      break;
    }
  }
  return out.filter((l) => l.length > 1);
}

/**
 * Movement options for one unit on a MOVE order.
 *
 * @param ctx the per-state context
 * @param unitId the unit to move
 * @returns the allowance and reach (or a refusal), and shapes on the 'movement' layer
 */
export function movementOptions(ctx: DtpContext, unitId: string): MovementResult {
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`movementOptions: no unit '${unitId}' in the table state`);
  if (info.stands.length === 0) return { movement: { ok: false, reason: 'movement/no-stands', detail: 'The unit has no stands on the table' }, shapes: [] };
  const unit = info.unit;
  if (unit.status?.prone) {
    return { movement: { ok: false, reason: 'movement/prone', detail: 'Prone: N/A on the Movement table; stand up on a RALLY order first (Optional Rules: Going Prone)' }, shapes: [] };
  }
  const reading = ctx.formationOf(unitId);
  const notes: string[] = [];
  let formation = reading.formation;
  if (formation === 'unknown') {
    notes.push('Formation not recognised: using Line (9") until the stands are dressed or status.formation is set');
    formation = 'line';
  }
  const mounted = reading.mounted;
  const horse = unit.horseArtillery === true;
  const allowanceIn = movementAllowanceIn(formation, { mounted, horseArtillery: horse })!;
  notes.push(`${formation} ${allowanceIn}" (${MOVEMENT_TABLE_SOURCE}${mounted || (horse && formation !== 'unlimbered') ? `; cavalry +${MOUNTED_BONUS_IN}"` : ''})`);
  const isArtillery = unit.arm === 'artillery';
  const prolong = isArtillery && formation === 'unlimbered';
  if (prolong) notes.push('Prolong: 3" in any direction or turn up to 45° (Move: Special Movements, Prolong)');
  const green = unit.quality === 'green';
  const oblique = !green;
  if (green) notes.push('Green troops may not oblique (Move: Movement, Oblique)');
  const cannotCrossObstacles = isArtillery || mounted;

  // The unit's frame: reference point (command stand centre) and heading.
  const refStand = ctx.stands.get(reading.referenceStandId) ?? info.command ?? info.stands[0]!;
  const ref = refStand.center;
  const headingDeg = reading.headingDeg;
  const f = headingToVector(headingDeg);
  // Extent of the unit around the reference point: forward (x') and left (y') of every corner.
  let frontX = -Infinity;
  let backX = Infinity;
  let leftY = -Infinity;
  let rightY = Infinity;
  const localCorners: { x: number; y: number }[] = [];
  for (const s of info.stands) {
    if (s.stand.role === 'limber' && !reading.limbered) continue;
    for (const c of s.corners) {
      const dx = c.xIn - ref.xIn;
      const dy = c.yIn - ref.yIn;
      const x = dx * f.x + dy * f.y;
      const y = -dx * f.y + dy * f.x;
      localCorners.push({ x, y });
      if (x > frontX) frontX = x;
      if (x < backX) backX = x;
      if (y > leftY) leftY = y;
      if (y < rightY) rightY = y;
    }
  }
  const open = openReach(allowanceIn, frontX, leftY, rightY, oblique, prolong);

  // Rays leave from points on the unit's outline: its bounding rectangle's corners and edge midpoints.
  const rectLocal = [
    { x: frontX, y: leftY },
    { x: frontX, y: (leftY + rightY) / 2 },
    { x: frontX, y: rightY },
    { x: (frontX + backX) / 2, y: rightY },
    { x: backX, y: rightY },
    { x: backX, y: (leftY + rightY) / 2 },
    { x: backX, y: leftY },
    { x: (frontX + backX) / 2, y: leftY },
  ];
  const midX = (frontX + backX) / 2;
  const midY = (leftY + rightY) / 2;
  const toTable = (x: number, y: number): PointIn => ({ xIn: ref.xIn + x * f.x - y * f.y, yIn: ref.yIn + x * f.y + y * f.x });

  // Everything that could matter lies within the allowance plus the unit's size of the reference point.
  const radiusIn = Math.max(...localCorners.map((c) => Math.hypot(c.x, c.y)));
  const reachBox: Box = { minXIn: ref.xIn - allowanceIn - radiusIn - 1, minYIn: ref.yIn - allowanceIn - radiusIn - 1, maxXIn: ref.xIn + allowanceIn + radiusIn + 1, maxYIn: ref.yIn + allowanceIn + radiusIn + 1 };
  const near = (b: Box): boolean => !(b.maxXIn < reachBox.minXIn || b.minXIn > reachBox.maxXIn || b.maxYIn < reachBox.minYIn || b.minYIn > reachBox.maxYIn);

  const linear = ctx.state.terrain.linear.filter((l) => near(boxOfPoints(l.points)));
  const areas = ctx.state.terrain.areas.filter((a) => near(boxOfPoints(a.vertices)));
  const startAreas = new Set(areas.filter((a) => pointInPolygon(ref, a.vertices)).map((a) => a.id));
  const friends = (ctx.unitsBySide.get(unit.side) ?? []).filter((u) => u !== info && u.stands.length > 0 && near(u.box));
  const enemies = ctx.enemiesOf(unitId).filter((u) => u.stands.length > 0 && near(u.box));
  const table = ctx.state.table;

  const reach: PointIn[] = [];
  let straightAheadIn = 0;
  let straightAheadStoppedBy: string | undefined;
  for (let b = 0; b < REACH_BINS; b++) {
    const openR = open.radiusIn[b]!;
    if (openR <= 1e-9) {
      reach.push(ref);
      continue;
    }
    const k = allowanceIn / openR;
    const angLocal = (b * BIN_DEG * Math.PI) / 180;
    const lx = Math.cos(angLocal);
    const ly = Math.sin(angLocal);
    const dx = lx * f.x - ly * f.y;
    const dy = lx * f.y + ly * f.x;
    const origins = rectLocal.filter((p) => (p.x - midX) * lx + (p.y - midY) * ly > 1e-9).map((p) => toTable(p.x, p.y));
    const lenIn = openR + 0.01;
    const firstAt = new Map<string, PathEvent>();
    const meet = (key: string, e: PathEvent): void => {
      const prev = firstAt.get(key);
      if (!prev || e.atIn < prev.atIn) firstAt.set(key, e);
    };
    for (const o of origins) {
      for (const line of linear) {
        const penalty = LINEAR_TERRAIN_PENALTY_IN[line.kind];
        const blocks = penalty === undefined || (cannotCrossObstacles && BLOCKS_ARTILLERY_AND_MOUNTED.has(line.kind as LinearTerrainKind));
        if (penalty === 0) continue;
        for (let i = 0; i + 1 < line.points.length; i++) {
          const t = rayHit(o, dx, dy, lenIn, line.points[i]!, line.points[i + 1]!);
          if (t !== undefined) {
            meet(`l:${line.id}`, { atIn: t, penaltyIn: penalty ?? 0, stop: blocks, label: `${line.kind} '${line.id}'` });
            break;
          }
        }
      }
      for (const area of areas) {
        if (startAreas.has(area.id)) continue;
        if (pointInPolygon(o, area.vertices)) {
          // Part of the unit is already in it: the penalty is met at once.
          meet(`a:${area.id}`, { atIn: 0, penaltyIn: AREA_TERRAIN_PENALTY_IN[area.kind], label: `${area.kind} '${area.id}'` });
          continue;
        }
        const v = area.vertices;
        for (let i = 0, j = v.length - 1; i < v.length; j = i++) {
          const t = rayHit(o, dx, dy, lenIn, v[j]!, v[i]!);
          if (t !== undefined) meet(`a:${area.id}`, { atIn: t, penaltyIn: AREA_TERRAIN_PENALTY_IN[area.kind], label: `${area.kind} '${area.id}'` });
        }
      }
      for (const friend of friends) {
        for (const s of friend.stands) {
          const t = rayIntoGrownRect(o, dx, dy, s.corners, 0);
          if (t !== undefined && t <= lenIn) meet(`f:${friend.unit.id}`, { atIn: t, penaltyIn: PASSAGE_OF_LINES_PENALTY_IN, label: `passage of lines through '${friend.unit.id}'` });
        }
      }
      for (const enemy of enemies) {
        for (const s of enemy.stands) {
          const t = rayIntoGrownRect(o, dx, dy, s.corners, ENEMY_CLEARANCE_IN);
          if (t !== undefined && t <= lenIn) meet(`e:${enemy.unit.id}`, { atIn: t, penaltyIn: 0, stop: true, label: `1" from enemy '${enemy.unit.id}'` });
        }
      }
      // Table edge.
      const tx = dx > 1e-12 ? (table.widthIn - o.xIn) / dx : dx < -1e-12 ? -o.xIn / dx : Infinity;
      const ty = dy > 1e-12 ? (table.depthIn - o.yIn) / dy : dy < -1e-12 ? -o.yIn / dy : Infinity;
      const te = Math.min(tx, ty);
      if (te <= lenIn) meet('table', { atIn: Math.max(0, te), penaltyIn: 0, stop: true, label: 'table edge' });
    }
    const events = [...firstAt.values()];
    for (const id of startAreas) {
      const area = areas.find((a) => a.id === id)!;
      // Starting inside area terrain: the penalty is met at once.
      events.push({ atIn: 0, penaltyIn: AREA_TERRAIN_PENALTY_IN[area.kind], label: `${area.kind} '${area.id}'` });
    }
    const walk = walkPenalties(allowanceIn, events, k, openR);
    if (b === 0) {
      straightAheadIn = walk.reachIn;
      straightAheadStoppedBy = walk.stoppedBy;
    }
    reach.push({ xIn: ref.xIn + dx * walk.reachIn, yIn: ref.yIn + dy * walk.reachIn });
  }
  const polygon = dedupe(reach);
  if (linear.length + areas.length > 0) notes.push(`Terrain penalties paid when met (${LINEAR_TERRAIN_SOURCE}; ${AREA_TERRAIN_SOURCE})`);
  if (cannotCrossObstacles) notes.push('Artillery and mounted cavalry cannot cross fences, walls, hasty works, entrenchments, abatis or chevaux-de-frise');
  if (straightAheadStoppedBy) notes.push(`Straight ahead: stops after ${straightAheadIn.toFixed(1)}" at ${straightAheadStoppedBy}`);

  // Fudge move (Special Movements): 3" any way, terrain does not matter, still 1" from the enemy.
  const fudgeReach: PointIn[] = [];
  for (let b = 0; b < REACH_BINS; b++) {
    const ang = ((headingDeg + b * BIN_DEG) * Math.PI) / 180;
    const dx = Math.cos(ang);
    const dy = Math.sin(ang);
    let limit = FUDGE_MOVE_IN;
    const lx = Math.cos((b * BIN_DEG * Math.PI) / 180);
    const ly = Math.sin((b * BIN_DEG * Math.PI) / 180);
    for (const p of rectLocal) {
      if ((p.x - midX) * lx + (p.y - midY) * ly <= 1e-9) continue;
      const o = toTable(p.x, p.y);
      for (const enemy of enemies) for (const s of enemy.stands) {
        const t = rayIntoGrownRect(o, dx, dy, s.corners, ENEMY_CLEARANCE_IN);
        if (t !== undefined && t < limit) limit = t;
      }
    }
    fudgeReach.push({ xIn: ref.xIn + dx * limit, yIn: ref.yIn + dy * limit });
  }

  // Roads: March Column and Limbered Artillery move 18" on a road beyond 12" of the enemy, ignoring terrain.
  let roadAllowanceIn: number | undefined;
  let roadLines: PointIn[][] | undefined;
  if ((formation === 'march-column' || formation === 'limbered') && ctx.state.terrain.roads.length > 0) {
    if (nearestEnemyIn(ctx, info) > ROAD_ENEMY_CLEARANCE_IN) {
      roadAllowanceIn = ROAD_MOVE_IN + (mounted || horse ? MOUNTED_BONUS_IN : 0);
      const lines = roadReach(ctx, info, ref, ctx.state.terrain.roads, roadAllowanceIn, Math.max(0, frontX));
      if (lines.length > 0) {
        roadLines = lines;
        notes.push(`On road: ${roadAllowanceIn}" along the road, no terrain penalties (${MOVEMENT_TABLE_SOURCE})`);
      } else roadAllowanceIn = undefined;
    } else notes.push('Road move (18") not allowed within 12" of an enemy (Armies, Infantry: March Column)');
  }

  // Left/Right Face between March Column and Line costs 3" (Move: Formation Change, option 2).
  let face: DtpMovementOption['face'];
  if (formation === 'line' || formation === 'march-column') {
    const toFormation: Formation = formation === 'line' ? 'march-column' : 'line';
    const next = movementAllowanceIn(toFormation, { mounted })!;
    face = { toFormation, costIn: FACE_COST_IN, remainingIn: next - FACE_COST_IN };
  }

  const side = unit.side;
  const shapes: Shape[] = [{ id: `${unitId}/movement/reach`, kind: 'polygon', layer: 'movement', style: 'reach', unitId, side, vertices: polygon }];
  roadLines?.forEach((points, i) => shapes.push({ id: `${unitId}/movement/road/${i}`, kind: 'polyline', layer: 'movement', style: 'reach-road', unitId, side, points }));

  const movement: DtpMovementOption = {
    ok: true,
    allowanceIn,
    reach: polygon,
    notes,
    formation,
    oblique,
    fudgeReach: dedupe(fudgeReach),
    straightAheadIn,
    ...(straightAheadStoppedBy ? { straightAheadStoppedBy } : {}),
    ...(roadAllowanceIn !== undefined ? { roadAllowanceIn, roadReach: roadLines! } : {}),
    ...(face ? { face } : {}),
  };
  return { movement, shapes };
}

function dedupe(points: readonly PointIn[]): PointIn[] {
  const out: PointIn[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || Math.abs(last.xIn - p.xIn) > 1e-9 || Math.abs(last.yIn - p.yIn) > 1e-9) out.push(p);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (out.length > 1 && first && last && Math.abs(first.xIn - last.xIn) < 1e-9 && Math.abs(first.yIn - last.yIn) < 1e-9) out.pop();
  return out;
}
