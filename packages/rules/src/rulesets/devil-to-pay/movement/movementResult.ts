/**
 * What `movementOptions` returns: the Devil to Pay movement option (or a refusal) with its shapes.
 */
import type { MovementOption, Refusal } from '../../../engine/evaluation.ts';
import type { Shape } from '../../../engine/shapes.ts';
import type { Formation } from '../../../model/tableState.ts';
import type { PointIn } from '../../../model/units.ts';

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
