/**
 * The RALLY order's other two uses, no dice (The Devil to Pay (2018), in ../shared/rulebooks/devil-to-pay-2018.txt):
 * - Reform (Rally: Reform, p. 28): "A unit or commander may expend an order to change from disordered to
 *   line. The line must face the nearest enemy." Dismounted cavalry "reforms ... into Loose Order" (Armies:
 *   Dismounted Cavalry). "A regiment or battery may not rally off hits on the same action that it reformed"
 *   (Rally: note). "A prone disordered unit must first stand up before reforming" (Optional Rules: Going Prone).
 * - Stand up (Optional Rules: Going Prone): "The unit may stand up on a RALLY action with the expenditure of
 *   an order."
 * Both are status changes the operator applies in one step; the stands are dressed by hand.
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction, StatusPatch } from '../../../engine/resolve/resolution.ts';
import type { DtpContext } from '../context.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { SRC_PRONE, SRC_REFORM } from './sources.ts';

const SRC_DISMOUNTED = 'The Devil to Pay (2018), Armies: Dismounted Cavalry';

function isDisordered(ctx: DtpContext, unitId: string): boolean {
  const info = ctx.units.get(unitId)!;
  return info.unit.status?.disordered === true || ctx.formationOf(unitId).formation === 'disordered';
}

/** No dice; a refusal when the unit is not disordered or is lying prone. */
export function reformDice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  if (!isDisordered(ctx, info.unit.id)) return { ok: false, reason: 'reform/not-disordered', detail: `${info.unit.name} is not disordered (${SRC_REFORM})` };
  if (info.unit.status?.prone) return { ok: false, reason: 'rally/prone-must-stand-up', detail: `${info.unit.name} must first stand up, then reform (${SRC_PRONE})` };
  return [];
}

export function resolveReform(ctx: DtpContext, action: PendingAction, _faces: DiceFaces): Outcome | Refusal {
  const refused = reformDice(ctx, action);
  if (!Array.isArray(refused)) return refused;
  const info = ctx.units.get(action.unitId!)!;
  const dismounted = ctx.formationOf(info.unit.id).dismounted;
  const into = dismounted ? 'loose order' : 'line';
  const status: StatusPatch = { disordered: null, ...(info.unit.status?.formation === 'disordered' ? { formation: null } : {}) };
  const text = `${info.unit.name} reforms into ${into} facing the nearest enemy; it may not rally off hits on this action`;
  const source = dismounted ? `${SRC_REFORM}; ${SRC_DISMOUNTED}` : SRC_REFORM;
  return {
    rulesetId: DTP_RULESET_ID,
    action,
    rolls: [],
    result: 'Reformed',
    summary: `${text}.`,
    steps: [{ text, source }],
    effects: [{ unitId: info.unit.id, text, source, status }],
    followUps: [],
  };
}

/** No dice; a refusal when the unit is not prone. */
export function standUpDice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  return info.unit.status?.prone ? [] : { ok: false, reason: 'stand-up/not-prone', detail: `${info.unit.name} is not prone (${SRC_PRONE})` };
}

export function resolveStandUp(ctx: DtpContext, action: PendingAction, _faces: DiceFaces): Outcome | Refusal {
  const refused = standUpDice(ctx, action);
  if (!Array.isArray(refused)) return refused;
  const info = ctx.units.get(action.unitId!)!;
  const text = `${info.unit.name} stands up`;
  return {
    rulesetId: DTP_RULESET_ID,
    action,
    rolls: [],
    result: 'Stood up',
    summary: `${text}.`,
    steps: [{ text, source: SRC_PRONE }],
    effects: [{ unitId: info.unit.id, text, source: SRC_PRONE, status: { prone: null } }],
    followUps: [],
  };
}
