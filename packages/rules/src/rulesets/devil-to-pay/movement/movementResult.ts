/**
 * What `movementOptions` returns: the Devil to Pay movement option (or a refusal) with its shapes, and, in
 * a private field, what the result read other units through, so that a session (`session.ts`) recomputes
 * a unit's movement only when a change can reach it (`movementDependsOnBox`).
 */
import type { MovementOption, Refusal } from '../../../engine/evaluation.ts';
import type { Shape } from '../../../engine/shapes.ts';
import type { Formation } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import type { BoxIn } from '../context.ts';
import { ENEMY_CLEARANCE_IN } from '../tables/movementTables.ts';

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

/** Rounding room added to the dependency radii below (they only decide what a session recomputes). */
export const DEPENDENCY_SLACK_IN = 0.05;

/**
 * What a movement result read other units through (see `movementDependsOnBox`): the reach box, the
 * reference point, and the two radii a unit's box disc or box must come within to matter.
 */
export interface Dependency {
  readonly box: BoxIn;
  readonly refX: number;
  readonly refY: number;
  /** walkReach: a unit's group is skipped unless its box disc (grown 1" at most) comes this near. */
  readonly reachIn: number;
  /** fudgeWalk: an enemy stand's grown disc must come within 3" + the unit's radius (+ its own 1"). */
  readonly fudgeIn: number;
  /**
   * The outline the walks move (`OUR_FRAME`, unitOutline.ts): [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth],
   * its centre, its right and forward unit axes and half extents, inches.
   */
  readonly frame: readonly number[];
  /** The box of every swept outline (the outline carried to each reach and fudge point), [minX, minY, maxX, maxY]. */
  readonly sweepBox: readonly number[];
}

/**
 * `Dependency.sweepBox`: the outline's box (its points `outline`, x0, y0, ...) widened by the furthest shift
 * to a reach or fudge point each way (a swept rectangle's box is its start box and its end box together).
 */
export function sweepBoxOf(outline: ArrayLike<number>, refX: number, refY: number, ...ends: (readonly PointIn[])[]): number[] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < outline.length; i += 2) {
    const x = outline[i]!, y = outline[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  let lowX = 0, lowY = 0, highX = 0, highY = 0;
  for (const list of ends) {
    for (const v of list) {
      const dx = v.xIn - refX, dy = v.yIn - refY;
      if (dx < lowX) lowX = dx;
      if (dx > highX) highX = dx;
      if (dy < lowY) lowY = dy;
      if (dy > highY) highY = dy;
    }
  }
  return [minX + lowX, minY + lowY, maxX + highX, maxY + highY];
}

/**
 * A movement result that records what it read other units through. A private field rather than a
 * WeakMap entry per result: the WeakMap insert (and its ephemeron work in GC) cost about 3% of the whole
 * call. JSON, spreads and structural equality see only `movement` and `shapes`, as on a plain result.
 */
export class DependentMovementResult implements MovementResult {
  readonly movement: DtpMovementOption;
  readonly shapes: readonly Shape[];
  readonly #dependency: Dependency;

  constructor(movement: DtpMovementOption, shapes: readonly Shape[], dependency: Dependency) {
    this.movement = movement;
    this.shapes = shapes;
    this.#dependency = dependency;
  }

  /** The recorded dependency, or undefined for a result without one (road moves, refusals). */
  static of(result: MovementResult): Dependency | undefined {
    return #dependency in result ? (result as DependentMovementResult).#dependency : undefined;
  }
}

/**
 * Whether a unit whose box is `b` (before or after a change) can matter to this result; undefined when
 * the result has no recorded dependency (road moves, refusals: anything may matter). Another unit is read
 * only when its box meets the reach box (collectObstacles' `boxMeets`), and then counts only if its group's
 * disc (the box's circumscribed disc, grown by at most the 1" enemy clearance) passes the direction cull
 * (distance from the reference point minus that radius within the open reach plus the unit's radius), or
 * one of its stands passes fudgeWalk's disc test (a stand's centre lies in the box and its half-diagonal
 * is at most the box's, so the box centre is then within the fudge radius plus twice the box's half-diagonal);
 * then the whole box is tested as one stand (`movementDependsOnStands`).
 */
export function movementDependsOnBox(result: MovementResult, b: BoxIn): boolean | undefined {
  return movementDependsOnStands(result, b, [b]);
}

/**
 * How much further than its box's half-diagonal a stand's piece can reach: enemies are grown by the 1"
 * clearance along the stand's own axes (writeRectPiece), which puts a corner up to √2 times that further out.
 */
const GROWN_CORNER_IN = Math.SQRT2 * ENEMY_CLEARANCE_IN;

/**
 * `movementDependsOnBox`'s first two tests for a unit whose box is `b`, then, stand by stand (`standBoxes`,
 * each stand's own box), whether the stand's piece can meet the unit's outline on a path it actually took:
 * both walks (reachWalk, fudgeWalk) move the outline rectangle without turning, from the reference point
 * to each reach and fudge point, and count only what the rectangle (its rays out and the pieces' corners'
 * rays back) meets on the way. So a stand matters only when its disc, grown for the enemy clearance, meets
 * the rectangle swept to some reach or fudge point: much tighter than a disc of the unit's size round the
 * path beside a line (a sideways path sweeps the line's depth, not its width). Undefined exactly when
 * `movementDependsOnBox` is.
 */
export function movementDependsOnStands(result: MovementResult, b: BoxIn, standBoxes: readonly BoxIn[]): boolean | undefined {
  const d = DependentMovementResult.of(result);
  if (!d) return undefined;
  if (!nearReach(d, b)) return false;
  const m = result.movement as DtpMovementOption;
  const f = d.frame;
  for (let i = 0; i < 8; i++) if (!Number.isFinite(f[i]!)) return true; // no sound rectangle: assume it matters
  for (const s of standBoxes) {
    const half = hypot2(s.maxXIn - s.minXIn, s.maxYIn - s.minYIn) / 2;
    const cx = (s.minXIn + s.maxXIn) / 2;
    const cy = (s.minYIn + s.maxYIn) / 2;
    const reachIn = half + GROWN_CORNER_IN + DEPENDENCY_SLACK_IN;
    // Outside the box of every swept outline (grown as the rectangles are below): no path comes near.
    const sw = d.sweepBox;
    if (cx < sw[0]! - reachIn || cy < sw[1]! - reachIn || cx > sw[2]! + reachIn || cy > sw[3]! + reachIn) continue;
    if (sweptOutlineNear(d, m.reach, cx, cy, reachIn) || sweptOutlineNear(d, m.fudgeReach, cx, cy, reachIn)) return true;
  }
  return false;
}

/**
 * Whether the disc at (cx, cy) of radius `reachIn` may meet the outline swept from the reference point to
 * one of `ends`: in the outline's frame, the segment the disc's centre takes relative to the moving
 * rectangle (from where it is to where it is once the rectangle has moved) against the rectangle grown
 * by `reachIn` on every side (a square-cornered superset of the rounded one).
 */
function sweptOutlineNear(d: Dependency, ends: readonly PointIn[], cx: number, cy: number, reachIn: number): boolean {
  const f = d.frame;
  const ux = f[2]!, uy = f[3]!, nx = f[4]!, ny = f[5]!;
  const px = cx - f[0]!;
  const py = cy - f[1]!;
  const pu = px * ux + py * uy;
  const pn = px * nx + py * ny;
  const hu = f[6]! + reachIn;
  const hn = f[7]! + reachIn;
  for (const v of ends) {
    const tx = v.xIn - d.refX;
    const ty = v.yIn - d.refY;
    if (segmentMeetsCenteredBox(pu, pn, -(tx * ux + ty * uy), -(tx * nx + ty * ny), hu, hn)) return true;
  }
  return false;
}

/** Whether the segment from (ox, oy) along (dx, dy) for t in [0, 1] meets the box [-hx, hx] x [-hy, hy] (Liang-Barsky). */
function segmentMeetsCenteredBox(ox: number, oy: number, dx: number, dy: number, hx: number, hy: number): boolean {
  let t0 = 0;
  let t1 = 1;
  // A move of under 1e-12" along an axis is no move there (far inside the slack).
  if (Math.abs(dx) < 1e-12) {
    if (ox < -hx || ox > hx) return false;
  } else {
    const a = (-hx - ox) / dx;
    const b = (hx - ox) / dx;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  }
  if (Math.abs(dy) < 1e-12) {
    if (oy < -hy || oy > hy) return false;
  } else {
    const a = (-hy - oy) / dy;
    const b = (hy - oy) / dy;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  }
  return t0 <= t1;
}

/**
 * Whether a unit whose box is `b` is read at all: its box meets the reach box (collectObstacles' `boxMeets`,
 * with a little margin) and its disc passes the direction cull or the fudge walk's.
 */
function nearReach(d: Dependency, b: BoxIn): boolean {
  const r = d.box;
  if (b.maxXIn < r.minXIn - 0.01 || b.minXIn > r.maxXIn + 0.01 || b.maxYIn < r.minYIn - 0.01 || b.minYIn > r.maxYIn + 0.01) return false;
  const half = hypot2(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) / 2;
  const cx = (b.minXIn + b.maxXIn) / 2;
  const cy = (b.minYIn + b.maxYIn) / 2;
  const dist = hypot2(cx - d.refX, cy - d.refY);
  return dist <= d.reachIn + half || dist <= d.fudgeIn + 2 * half;
}


/**
 * The box within which other units' stands were looked at for this result: a unit whose box (before and
 * after a change) does not meet it cannot change the result. Undefined when the result may depend on units
 * further away (road moves, refusals): then the caller must assume anything can.
 */
export function movementDependencyBox(result: MovementResult): BoxIn | undefined {
  return DependentMovementResult.of(result)?.box;
}
