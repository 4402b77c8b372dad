/**
 * FIRE after the roll (The Devil to Pay (2018), Fire: Fire, p. 23, in ../shared/rulebooks/devil-to-pay-2018.txt):
 * "The firer rolls the appropriate number of dice with 4, 5 or 6 scoring a hit." The dice are the fire
 * option's breakdown (`evaluationParts.ts`); the hits go on the target's stands (`hitPlacement.ts`).
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeStep, PendingAction } from '../../../engine/resolve/resolution.ts';
import { readRoll } from '../../../engine/resolve/readDice.ts';
import type { DtpContext } from '../context.ts';
import { HIT_ON } from '../tables/diceTables.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { fireOptionOf } from './evaluationParts.ts';
import { placeHits } from './hitPlacement.ts';
import { hitEffect, shotFromSaddleFollowUp } from './hitEffect.ts';
import { SRC_FIRE_ROLL, SRC_FIRE_SIMULTANEOUS } from './sources.ts';

/** One group, 'fire': the option's dice, each 4-6 a hit. */
export function fireDice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const option = fireOptionOf(ctx, action.unitId!, action.targetUnitId!);
  if (!option.ok) return option;
  const firer = ctx.units.get(action.unitId!)!.unit;
  const target = ctx.units.get(action.targetUnitId!)!.unit;
  const hitOn = option.breakdown.hitOn ?? HIT_ON;
  return [{
    id: 'fire',
    label: `${firer.name} fires at ${target.name}: ${option.breakdown.dice} d6, hits on ${hitOn}+`,
    count: option.breakdown.dice,
    sides: 6,
    reading: 'hits',
    hitOn,
    source: SRC_FIRE_ROLL,
  }];
}

/** The target takes one hit per 4-6; a stand's second hit removes it; a regiment down to one stand goes. */
export function resolveFire(ctx: DtpContext, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = fireDice(ctx, action);
  if (!Array.isArray(requests)) return requests;
  const roll = readRoll(requests[0]!, faces.fire ?? []);
  const firer = ctx.units.get(action.unitId!)!;
  const target = ctx.units.get(action.targetUnitId!)!;
  const hits = roll.value;
  const placement = placeHits(ctx, target.unit.id, hits);
  const steps: OutcomeStep[] = [
    { text: `${firer.unit.name} rolls ${roll.faces.length} d6 (${roll.faces.join(', ') || 'none'}): ${hits} hit${hits === 1 ? '' : 's'} on 4, 5 or 6`, source: SRC_FIRE_ROLL },
  ];
  const effects = [];
  const followUps: PendingAction[] = [];
  if (hits > 0) {
    const effect = hitEffect(target, placement, SRC_FIRE_ROLL);
    steps.push({ text: effect.text, source: effect.source });
    steps.push({ text: 'Fire is simultaneous: place the hits next to the stands and apply them once both sides have fired', source: SRC_FIRE_SIMULTANEOUS });
    effects.push(effect);
    const saddle = shotFromSaddleFollowUp(target, placement);
    if (saddle) followUps.push(saddle);
  }
  const result = hits === 0 ? 'No hits' : `${hits} hit${hits === 1 ? '' : 's'}`;
  const summary = hits === 0
    ? `${firer.unit.name} fires at ${target.unit.name}: no hits.`
    : `${firer.unit.name} fires at ${target.unit.name}: ${effects[0]!.text.replace(`${target.unit.name}: `, '')}.`;
  return { rulesetId: DTP_RULESET_ID, action, rolls: [roll], result, summary, steps, effects, followUps };
}
