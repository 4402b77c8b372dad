/**
 * RALLY after the roll (The Devil to Pay (2018), Rally, p. 28, in ../shared/rulebooks/devil-to-pay-2018.txt;
 * Quick Reference: Rally): "To remove hits, a regiment or battery rolls two D6. Any rolls of a 4, 5 or 6
 * removes a hit." The dice are the rally breakdown the evaluation shows (rally.ts: distance, prone,
 * universal modifiers). Rally Example: "A crack unit has 4 hits. It is 18" from the nearest enemy ... a
 * total of 4 dice. It rolls a 2, 4, 4, & 6 and removes 3 hits."
 *
 * Which hits come off is the owner's choice; the default takes them off in the reverse of the placement
 * order (hitPlacement.ts): the colours, then the front rank, then the rear, so the firing line comes back
 * first. A stand with two hits is out of the game and has nothing to rally.
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeEffect, PendingAction } from '../../../engine/resolve/resolution.ts';
import { readRoll } from '../../../engine/resolve/readDice.ts';
import type { DtpContext } from '../context.ts';
import { HIT_ON } from '../tables/diceTables.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { rallyDiceOf } from './evaluationParts.ts';
import { hitOrder } from './hitPlacement.ts';
import { SRC_RALLY } from './sources.ts';

/** One group, 'rally': the unit's rally dice, each 4-6 removes a hit. */
export function rallyDice(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const dice = rallyDiceOf(ctx, action.unitId!);
  if ('ok' in dice) return dice;
  const name = ctx.units.get(action.unitId!)!.unit.name;
  const hitOn = dice.hitOn ?? HIT_ON;
  return [{ id: 'rally', label: `${name} rallies: ${dice.dice} d6, each ${hitOn}+ removes a hit`, count: dice.dice, sides: 6, reading: 'hits', hitOn, source: SRC_RALLY }];
}

export function resolveRally(ctx: DtpContext, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const requests = rallyDice(ctx, action);
  if (!Array.isArray(requests)) return requests;
  const roll = readRoll(requests[0]!, faces.rally ?? []);
  const info = ctx.units.get(action.unitId!)!;
  const name = info.unit.name;
  const hitStands = hitOrder(ctx, info).reverse().filter((s) => s.hits === 1);
  const removed = hitStands.slice(0, roll.value).map((s) => s.stand.id);
  const effects: OutcomeEffect[] = [];
  const text = removed.length === 0
    ? `${name} removes no hits`
    : `${name} removes ${removed.length} hit${removed.length === 1 ? '' : 's'} (${removed.join(', ')})${roll.value > hitStands.length ? `; ${roll.value - hitStands.length} more than it had` : ''}`;
  if (removed.length > 0) {
    effects.push({ unitId: info.unit.id, text, source: SRC_RALLY, status: { hitsByStand: Object.fromEntries(removed.map((id) => [id, null])) } });
  }
  return {
    rulesetId: DTP_RULESET_ID,
    action,
    rolls: [roll],
    result: `${removed.length} hit${removed.length === 1 ? '' : 's'} removed`,
    summary: `${text}.`,
    steps: [
      { text: `${name} rolls ${roll.faces.length} d6 (${roll.faces.join(', ') || 'none'}): ${roll.value} of 4, 5 or 6`, source: SRC_RALLY },
      { text, source: SRC_RALLY },
    ],
    effects,
    followUps: [],
  };
}
