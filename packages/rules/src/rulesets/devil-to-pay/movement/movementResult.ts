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
  /** Furthest point of the unit's outline (its bounding rectangle in its own frame) from the reference point. */
  readonly outlineIn: number;
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
 * is at most the box's, so the box centre is then within the fudge radius plus twice the box's half-diagonal).
 */
export function movementDependsOnBox(result: MovementResult, b: BoxIn): boolean | undefined {
  const d = DependentMovementResult.of(result);
  if (!d) return undefined;
  const r = d.box;
  // The same overlap test as collectObstacles' `boxMeets`, with a little margin.
  if (b.maxXIn < r.minXIn - 0.01 || b.minXIn > r.maxXIn + 0.01 || b.maxYIn < r.minYIn - 0.01 || b.minYIn > r.maxYIn + 0.01) return false;
  const half = hypot2(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn) / 2;
  const cx = (b.minXIn + b.maxXIn) / 2;
  const cy = (b.minYIn + b.maxYIn) / 2;
  const dist = hypot2(cx - d.refX, cy - d.refY);
  if (!(dist <= d.reachIn + half || dist <= d.fudgeIn + 2 * half)) return false;
  // Tighter: every ray leaves from the unit's outline and another unit counts only where it is met before
  // the unit stops, so it must come within the outline's radius (and the 1" clearance) of the path the
  // reference point took in some direction: a segment to a reach or fudge vertex.
  const m = result.movement as DtpMovementOption;
  const limitIn = d.outlineIn + half + ENEMY_CLEARANCE_IN + DEPENDENCY_SLACK_IN;
  return nearPath(m.reach, d.refX, d.refY, cx, cy, limitIn) || nearPath(m.fudgeReach, d.refX, d.refY, cx, cy, limitIn);
}

/**
 * `movementDependsOnBox` for a unit whose box is `b`, refined by its stands' own boxes (`standBoxes`, all
 * inside `b`): the path test asks that some stand's disc, not the whole unit's, come near a path, since a
 * unit counts only where one of its stands is met. Undefined exactly when `movementDependsOnBox` is.
 */
export function movementDependsOnStands(result: MovementResult, b: BoxIn, standBoxes: readonly BoxIn[]): boolean | undefined {
  const whole = movementDependsOnBox(result, b);
  if (whole !== true || standBoxes.length <= 1) return whole;
  const d = DependentMovementResult.of(result)!;
  const m = result.movement as DtpMovementOption;
  for (const s of standBoxes) {
    const half = hypot2(s.maxXIn - s.minXIn, s.maxYIn - s.minYIn) / 2;
    const cx = (s.minXIn + s.maxXIn) / 2;
    const cy = (s.minYIn + s.maxYIn) / 2;
    const limitIn = d.outlineIn + half + ENEMY_CLEARANCE_IN + DEPENDENCY_SLACK_IN;
    if (nearPath(m.reach, d.refX, d.refY, cx, cy, limitIn) || nearPath(m.fudgeReach, d.refX, d.refY, cx, cy, limitIn)) return true;
  }
  return false;
}

/** Whether (cx, cy) lies within `limitIn` of a segment from (rx, ry) to one of `ends`. */
function nearPath(ends: readonly PointIn[], rx: number, ry: number, cx: number, cy: number, limitIn: number): boolean {
  const limit2 = limitIn * limitIn;
  for (const v of ends) {
    const dx = v.xIn - rx;
    const dy = v.yIn - ry;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((cx - rx) * dx + (cy - ry) * dy) / len2));
    const ex = rx + dx * t - cx;
    const ey = ry + dy * t - cy;
    if (ex * ex + ey * ey <= limit2) return true;
  }
  return false;
}

/**
 * The box within which other units' stands were looked at for this result: a unit whose box (before and
 * after a change) does not meet it cannot change the result. Undefined when the result may depend on units
 * further away (road moves, refusals): then the caller must assume anything can.
 */
export function movementDependencyBox(result: MovementResult): BoxIn | undefined {
  return DependentMovementResult.of(result)?.box;
}
