/**
 * The Devil to Pay after the roll: `devilToPay.resolution` (engine/resolve/resolution.ts). Each kind of
 * action has its own module (resolveFire.ts ...); this one routes an action to it over a context of the
 * table state (`buildContext`), so the dice come from the same queries the evaluation runs.
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, PendingAction, RulesetResolution } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';
import { buildContext, type DtpContext } from '../context.ts';
import { DTP_RESOLUTION_KINDS } from './kinds.ts';
import { offeredActions } from './offered.ts';
import { fireDice, resolveFire } from './resolveFire.ts';
import { applyHitsDice, resolveApplyHits } from './resolveApplyHits.ts';
import { meleeDiceRequests, resolveMelee } from './resolveMelee.ts';
import { rallyDice, resolveRally } from './resolveRally.ts';
import { reformDice, resolveReform, resolveStandUp, standUpDice } from './resolveReform.ts';
import { resolveSkedaddle, skedaddleDice } from './resolveSkedaddle.ts';
import { resolveShotFromSaddle, shotFromSaddleDice } from './resolveShotFromSaddle.ts';

interface KindHandler {
  dice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal;
  resolve(ctx: DtpContext, action: PendingAction, faces: DiceFaces, state: TableState): Outcome | Refusal;
}

const HANDLERS: Readonly<Record<string, KindHandler>> = {
  fire: { dice: fireDice, resolve: resolveFire },
  'apply-hits': { dice: applyHitsDice, resolve: resolveApplyHits },
  melee: { dice: meleeDiceRequests, resolve: resolveMelee },
  rally: { dice: rallyDice, resolve: resolveRally },
  reform: { dice: reformDice, resolve: resolveReform },
  'stand-up': { dice: standUpDice, resolve: resolveStandUp },
  skedaddle: { dice: skedaddleDice, resolve: resolveSkedaddle },
  'shot-from-the-saddle': { dice: shotFromSaddleDice, resolve: resolveShotFromSaddle },
};

function handlerOf(action: PendingAction): KindHandler {
  const handler = HANDLERS[action.kind];
  if (!handler) throw new Error(`The Devil to Pay does not resolve "${action.kind}" (it resolves: ${Object.keys(HANDLERS).join(', ')})`);
  return handler;
}

/** Units named by the action that have no stands on the table: nothing of theirs can roll. */
function noStandsRefusal(ctx: DtpContext, action: PendingAction): Refusal | undefined {
  const ids = [action.unitId, ...(action.unitIds ?? []), action.targetUnitId, ...(action.targetUnitIds ?? [])].filter((id): id is string => id !== undefined);
  for (const id of ids) {
    const info = ctx.units.get(id)!;
    if (info.stands.length === 0) return { ok: false, reason: 'resolve/no-stands', detail: `${info.unit.name} has no stands on the table` };
  }
  return undefined;
}

export const dtpResolution: RulesetResolution = {
  // Quick Reference: Fire, Charge and Rally "4, 5, 6 = Hit", one die per stand; Skedaddle 3D6".
  dice: { sides: 6, styles: ['pool', 'opposed'], source: 'The Devil to Pay (2018), Fire (p. 23), Charge: Melee, Rally (p. 28), Skedaddle' },
  kinds: DTP_RESOLUTION_KINDS,
  offered: offeredActions,
  diceFor(state: TableState, action: PendingAction) {
    const ctx = buildContext(state);
    return noStandsRefusal(ctx, action) ?? handlerOf(action).dice(ctx, action);
  },
  resolve(state: TableState, action: PendingAction, faces: DiceFaces) {
    const ctx = buildContext(state);
    return noStandsRefusal(ctx, action) ?? handlerOf(action).resolve(ctx, action, faces, state);
  },
};
