/**
 * Shot from the Saddle after the roll (The Devil to Pay (2018), Commanders: Shot from the Saddle, p. 6, in
 * ../shared/rulebooks/devil-to-pay-2018.txt): "In any phase that the unit takes hits, roll one die. On a
 * roll of a '6', the commander is 'Shot from the Saddle' and removed." "'Superb' and 'Capable' commanders are
 * replaced with a new 'Weak' commander during the next 'Reload' phase. 'Weak' commanders are not replaced."
 * The same roll comes before a charge the attached commander leads without an order (Commanders: Attached
 * Commander Benefits: "This requires surviving a 'Shot from the Saddle' roll ... before conducting the
 * Charge. The regiment does not receive the charge order bonus."): `choices.purpose: 'lead-charge'`;
 * surviving it sets the unit's `chargeLedByCommander` declaration (declarations.ts).
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeEffect, PendingAction } from '../../../engine/resolve/resolution.ts';
import { readRoll } from '../../../engine/resolve/readDice.ts';
import type { DtpContext } from '../context.ts';
import { SHOT_FROM_SADDLE_ON } from '../dice.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { SRC_SHOT_FROM_SADDLE } from './sources.ts';

/** Why the roll is made (`choices.purpose`): the unit took hits, or its commander is about to lead a charge. */
export const SHOT_FROM_SADDLE_PURPOSES = ['hits', 'lead-charge'] as const;
const SRC_LEAD_CHARGE = 'The Devil to Pay (2018), Commanders: Attached Commander Benefits';

/** One die, 'saddle', for the commander attached to the unit. */
export function shotFromSaddleDice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const info = ctx.units.get(action.unitId!)!;
  if (info.attachedCommanderId !== action.commanderId) {
    return { ok: false, reason: 'shot-from-the-saddle/not-attached', detail: `Commander ${action.commanderId} is not attached to ${info.unit.name}; only attached commanders are at risk (${SRC_SHOT_FROM_SADDLE})` };
  }
  const commander = ctx.commanders.get(action.commanderId!)!.commander;
  return [{ id: 'saddle', label: `Shot from the Saddle: ${commander.name}, 1 d6, a 6 removes him`, count: 1, sides: 6, reading: 'each', source: SRC_SHOT_FROM_SADDLE }];
}

export function resolveShotFromSaddle(ctx: DtpContext, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = shotFromSaddleDice(ctx, action);
  if (!Array.isArray(requests)) return requests;
  const roll = readRoll(requests[0]!, faces.saddle ?? []);
  const info = ctx.units.get(action.unitId!)!;
  const commander = ctx.commanders.get(action.commanderId!)!.commander;
  const shot = roll.value >= SHOT_FROM_SADDLE_ON;
  const effects: OutcomeEffect[] = [];
  const leadCharge = action.choices?.purpose === 'lead-charge';
  let text = `${commander.name} rolls ${roll.value}: unhurt`;
  if (!shot && leadCharge) {
    text = `${commander.name} rolls ${roll.value}: survives and leads ${info.unit.name} in its charge without an order (no Charge Order bonus)`;
    effects.push({ unitId: info.unit.id, text, source: `${SRC_SHOT_FROM_SADDLE}; ${SRC_LEAD_CHARGE}`, status: { rulesetStatus: { chargeLedByCommander: true } } });
  }
  if (shot) {
    const replaced = commander.quality !== 'weak';
    text = `${commander.name} rolls a 6: shot from the saddle and removed${replaced ? '; a new Weak commander takes the brigade at the next Reload' : '; a Weak commander is not replaced'}${leadCharge ? `; ${info.unit.name} may still charge with an order` : ''}`;
    effects.push({ commanderId: commander.id, text, source: SRC_SHOT_FROM_SADDLE, removed: true });
    // The unit's own record of the attachment goes with him (the commander's `attachedToUnitId` goes with his removal).
    if (info.unit.status?.attachedCommanderId === commander.id) {
      effects.push({ unitId: info.unit.id, text: `${info.unit.name} loses its attached commander`, source: SRC_SHOT_FROM_SADDLE, status: { attachedCommanderId: null } });
    }
  }
  return {
    rulesetId: DTP_RULESET_ID,
    action,
    rolls: [roll],
    result: shot ? 'Shot from the Saddle' : leadCharge ? 'Leads the charge' : 'Unhurt',
    summary: `${text}.`,
    steps: [{ text, source: SRC_SHOT_FROM_SADDLE }],
    effects,
    followUps: [],
  };
}
