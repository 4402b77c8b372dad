/**
 * FIRE after the roll (The Devil to Pay (2018), Fire, in ../shared/rulebooks/devil-to-pay-2018.txt):
 * "The firer rolls the appropriate number of dice with 4, 5 or 6 scoring a hit" (Fire, p. 23). The dice are
 * the fire option's breakdown (`evaluationParts.ts`).
 *
 * "The effects of fire are simultaneous, and hits are not applied until both sides have fired. Therefore,
 * place hits next to stands until step 3: Apply Hits" (Fire: Process). So by default the hits wait beside
 * the target's stands (status `pendingFireHits`, declarations.ts), the target still firing at full strength,
 * and an 'apply-hits' follow-up (resolveApplyHits.ts) puts them on the stands. The choice
 * `applyHits: 'now'` places them at once (a fire nobody answers, a table that skips the wait).
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeEffect, OutcomeStep, PendingAction } from '../../../engine/resolve/resolution.ts';
import { readRoll } from '../../../engine/resolve/readDice.ts';
import type { DtpContext } from '../context.ts';
import { HIT_ON } from '../tables/diceTables.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { pendingFireHits } from '../declarations.ts';
import { fireOptionOf } from './evaluationParts.ts';
import { placeHits } from './hitPlacement.ts';
import { hitEffect, hitWords, shotFromSaddleFollowUp } from './hitEffect.ts';
import { SRC_FIRE_ROLL, SRC_FIRE_SIMULTANEOUS } from './sources.ts';

/** When the hits go on the stands (`choices.applyHits` of a fire). */
export const FIRE_HIT_TIMINGS = ['after-both-sides-fire', 'now'] as const;

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

/** The target takes one hit per 4-6: beside its stands until both sides have fired, or at once. */
export function resolveFire(ctx: DtpContext, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = fireDice(ctx, action);
  if (!Array.isArray(requests)) return requests;
  const roll = readRoll(requests[0]!, faces.fire ?? []);
  const firer = ctx.units.get(action.unitId!)!;
  const target = ctx.units.get(action.targetUnitId!)!;
  const hits = roll.value;
  const now = action.choices?.applyHits === 'now';
  const steps: OutcomeStep[] = [
    { text: `${firer.unit.name} rolls ${roll.faces.length} d6 (${roll.faces.join(', ') || 'none'}): ${hits} hit${hits === 1 ? '' : 's'} on 4, 5 or 6`, source: SRC_FIRE_ROLL },
  ];
  const effects: OutcomeEffect[] = [];
  const followUps: PendingAction[] = [];
  let words = 'no hits';
  if (hits > 0 && now) {
    const placement = placeHits(ctx, target.unit.id, hits);
    const effect = hitEffect(target, placement, SRC_FIRE_ROLL);
    steps.push({ text: effect.text, source: effect.source });
    effects.push(effect);
    words = hitWords(placement);
    const saddle = shotFromSaddleFollowUp(target, placement);
    if (saddle) followUps.push(saddle);
  } else if (hits > 0) {
    const waiting = pendingFireHits(target.unit) + hits;
    // What they will do once applied, if nothing else changes meanwhile.
    const preview = placeHits(ctx, target.unit.id, waiting);
    const text = `${target.unit.name}: ${hits} hit${hits === 1 ? '' : 's'} placed beside the stands (${waiting} waiting), applied once both sides have fired: ${hitWords(preview)}`;
    steps.push({ text, source: SRC_FIRE_SIMULTANEOUS });
    effects.push({ unitId: target.unit.id, text, source: `${SRC_FIRE_ROLL}; ${SRC_FIRE_SIMULTANEOUS}`, status: { rulesetStatus: { pendingFireHits: waiting } } });
    followUps.push({ kind: 'apply-hits', unitId: target.unit.id });
    words = `${hits} hit${hits === 1 ? '' : 's'}, applied once both sides have fired`;
  }
  const result = hits === 0 ? 'No hits' : `${hits} hit${hits === 1 ? '' : 's'}`;
  return { rulesetId: DTP_RULESET_ID, action, rolls: [roll], result, summary: `${firer.unit.name} fires at ${target.unit.name}: ${words}.`, steps, effects, followUps };
}
