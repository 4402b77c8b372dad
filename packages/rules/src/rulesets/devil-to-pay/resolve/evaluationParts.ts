/**
 * The parts of the evaluation the after-the-roll modules take their dice from, read through the same
 * queries `evaluate` runs (fire list with target priority, charge options, combined charges, rally dice), so
 * a roll asks for exactly the dice the unit's panel shows.
 */
import type { ChargeRefusal, CombinedChargeReading, DiceBreakdown, FireRefusal, FireTargetOption, Refusal } from '../../../engine/evaluation.ts';
import type { DtpContext } from '../context.ts';
import { fireListQuery } from '../fire/fire.ts';
import { chargeQuery, rallyQuery } from '../evaluate.ts';
import { combinedCharges, type DtpChargeTargetOption } from '../charge.ts';

/** The firer's option at the target, after target priority, or its refusal. */
export function fireOptionOf(ctx: DtpContext, firerId: string, targetId: string): FireTargetOption | FireRefusal {
  const list = ctx.t.get(fireListQuery, firerId);
  const entry = list.find((o) => o.targetUnitId === targetId) ?? list.find((o) => o.targetUnitId === '*');
  return entry ?? { ok: false, targetUnitId: targetId, reason: 'fire/not-an-enemy', detail: 'Only enemy units can be fired at (Fire: Eligible Stands)' };
}

/** The attacker's charge option at the target, or its refusal. */
export function chargeOptionOf(ctx: DtpContext, attackerId: string, targetId: string): DtpChargeTargetOption | ChargeRefusal {
  const found = ctx.t.get(chargeQuery, attackerId).charge.find((o) => o.targetUnitId === targetId);
  if (found) return found as DtpChargeTargetOption | ChargeRefusal;
  if (ctx.units.get(attackerId)!.unit.side === ctx.units.get(targetId)!.unit.side) {
    return { ok: false, targetUnitId: targetId, reason: 'charge/not-an-enemy', detail: 'Only an enemy unit can be charged (Charge: Charge Move)' };
  }
  return {
    ok: false,
    targetUnitId: targetId,
    reason: 'charge/target-out-of-reach',
    detail: 'The target is not within 6" and 45° of the front centre (Charge: Charge Move)',
  };
}

/**
 * The attacking side of several units charging one target, as the evaluation's combined charge reads it
 * (`combinedCharges`, charge.ts): each unit's own option, the charge order once.
 */
export function combinedChargeOf(ctx: DtpContext, attackerIds: readonly string[], targetId: string): CombinedChargeReading | undefined {
  return combinedCharges(attackerIds.map((unitId) => ({ unitId, charge: [chargeOptionOf(ctx, unitId, targetId)] })))[0];
}

/** The unit's rally dice or refusal. */
export function rallyDiceOf(ctx: DtpContext, unitId: string): DiceBreakdown | Refusal {
  return ctx.t.get(rallyQuery, unitId);
}
