/**
 * Fire: Process, step 3 "Apply hits" (The Devil to Pay (2018), Fire, in ../shared/rulebooks/devil-to-pay-2018.txt):
 * the hits that waited beside a unit's stands while both sides fired go on the stands (hitPlacement.ts:
 * "When a stand receives a second hit it is removed", a regiment reduced to one stand is removed, p. 23),
 * and an attached commander checks for Shot from the Saddle. No dice.
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction } from '../../../engine/resolve/resolution.ts';
import type { DtpContext } from '../context.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { pendingFireHits } from '../declarations.ts';
import { placeHits } from './hitPlacement.ts';
import { hitEffect, shotFromSaddleFollowUp } from './hitEffect.ts';
import { SRC_FIRE_SIMULTANEOUS } from './sources.ts';

/** No dice; a refusal when no hits wait beside the unit's stands. */
export function applyHitsDice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  if (pendingFireHits(info.unit) === 0) return { ok: false, reason: 'apply-hits/none-waiting', detail: `No fire hits wait beside ${info.unit.name}'s stands (${SRC_FIRE_SIMULTANEOUS})` };
  return [];
}

export function resolveApplyHits(ctx: DtpContext, action: PendingAction, _faces: DiceFaces): Outcome | Refusal {
  const refused = applyHitsDice(ctx, action);
  if (!Array.isArray(refused)) return refused;
  const info = ctx.units.get(action.unitId!)!;
  const hits = pendingFireHits(info.unit);
  const placement = placeHits(ctx, info.unit.id, hits);
  const effect = hitEffect(info, placement, SRC_FIRE_SIMULTANEOUS, { status: { rulesetStatus: { pendingFireHits: null } } });
  const saddle = shotFromSaddleFollowUp(info, placement);
  return {
    rulesetId: DTP_RULESET_ID,
    action,
    rolls: [],
    result: `${hits} hit${hits === 1 ? '' : 's'} applied`,
    summary: `${effect.text}.`,
    steps: [{ text: effect.text, source: effect.source }],
    effects: [effect],
    followUps: saddle ? [saddle] : [],
  };
}
