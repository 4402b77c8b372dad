/**
 * CHARGE and melee after the roll (The Devil to Pay (2018), Charge: Melee, in
 * ../shared/rulebooks/devil-to-pay-2018.txt; Quick Reference: Charge Outcome):
 * "Both the attacker and the defender roll the appropriate number of dice with 4, 5 or 6 scoring a hit.
 * Hits are applied appropriately to the units by the owning players. Hits are distributed evenly across
 * units involved in the melee and cause attached commanders to check for 'Shot from the saddle'."
 * "The side that suffered the least hits wins the melee (Defender wins ties) and is disordered. If the
 * attacker is the victor, he may occupy the defender's positions." "Each unit that lost immediately
 * skedaddles" (a `skedaddle` follow-up per losing unit, resolveSkedaddle.ts). "Reinforcing units are
 * considered defenders for melee results" (Reinforce a Defense).
 */
import type { Refusal } from '../../../engine/evaluation.ts';
import type { DiceFaces, DiceRequest, Outcome, OutcomeEffect, OutcomeStep, PendingAction, StatusPatch } from '../../../engine/resolve/resolution.ts';
import { readRoll } from '../../../engine/resolve/readDice.ts';
import type { DtpContext } from '../context.ts';
import { meleeOutcome } from '../charge.ts';
import { HIT_ON } from '../tables/diceTables.ts';
import { DTP_RULESET_ID } from '../evaluate.ts';
import { meleeSides, type MeleeSides } from './meleeSides.ts';
import { placeHits } from './hitPlacement.ts';
import { hitEffect, shotFromSaddleFollowUp } from './hitEffect.ts';
import { SRC_CHARGE_DISORDER, SRC_MELEE, SRC_PRONE } from './sources.ts';

const names = (ctx: DtpContext, ids: readonly string[]): string => ids.map((id) => ctx.units.get(id)!.unit.name).join(' and ');

/** Two groups, 'attacker' and 'defender', each one die per eligible stand with its modifiers, 4-6 a hit. */
export function meleeDiceRequests(ctx: DtpContext, action: PendingAction): DiceRequest[] | Refusal {
  const sides = meleeSides(ctx, action);
  if ('ok' in sides) return sides;
  return requestsOf(ctx, sides);
}

function requestsOf(ctx: DtpContext, sides: MeleeSides): DiceRequest[] {
  const group = (id: 'attacker' | 'defender', ids: readonly string[], dice: MeleeSides['attacker']): DiceRequest => ({
    id,
    label: `${id === 'attacker' ? 'Attacker' : 'Defender'} ${names(ctx, ids)}: ${dice.dice} d6, hits on ${dice.hitOn ?? HIT_ON}+`,
    count: dice.dice,
    sides: 6,
    reading: 'hits',
    hitOn: dice.hitOn ?? HIT_ON,
    source: SRC_MELEE,
  });
  return [group('attacker', sides.attackerIds, sides.attacker), group('defender', sides.defenderIds, sides.defender)];
}

/**
 * A side's hits shared evenly across its units, in the side's order: every unit the same share, the units
 * first in the list one more each until the rest is gone ("distributed evenly"; which units take the odd
 * hits is the owners' choice, the book does not say).
 */
export function shareHitsEvenly(hits: number, unitIds: readonly string[]): number[] {
  const each = Math.floor(hits / unitIds.length);
  const rest = hits - each * unitIds.length;
  return unitIds.map((_, i) => each + (i < rest ? 1 : 0));
}

export function resolveMelee(ctx: DtpContext, action: PendingAction, faces: DiceFaces): Outcome | Refusal {
  const sides = meleeSides(ctx, action);
  if ('ok' in sides) return sides;
  const requests = requestsOf(ctx, sides);
  const attackerRoll = readRoll(requests[0]!, faces.attacker ?? []);
  const defenderRoll = readRoll(requests[1]!, faces.defender ?? []);
  const hitsOnDefence = attackerRoll.value;
  const hitsOnAttack = defenderRoll.value;
  const result = meleeOutcome(hitsOnAttack, hitsOnDefence);
  const attackNames = names(ctx, sides.attackerIds);
  const defenceNames = names(ctx, sides.defenderIds);

  const steps: OutcomeStep[] = [];
  sides.options.forEach((o, i) => {
    if (o.disorderedBy.length === 0) return;
    steps.push({ text: `${ctx.units.get(sides.attackerIds[i]!)!.unit.name} is disordered by ${o.disorderedBy.join(', ')} before the melee`, source: SRC_CHARGE_DISORDER });
  });
  steps.push(
    { text: `${attackNames} roll ${attackerRoll.faces.length} d6 (${attackerRoll.faces.join(', ') || 'none'}): ${hitsOnDefence} hits on 4, 5 or 6`, source: SRC_MELEE },
    { text: `${defenceNames} roll ${defenderRoll.faces.length} d6 (${defenderRoll.faces.join(', ') || 'none'}): ${hitsOnAttack} hits`, source: SRC_MELEE },
  );
  const tie = hitsOnAttack === hitsOnDefence;
  const band = result.winner === 'attacker' ? 'Attacker wins' : tie ? 'Defender wins the tie' : 'Defender wins';
  steps.push({
    text: `${band}: the side that suffered fewer hits wins (the defender wins ties); the winner is disordered${result.attackerMayOccupy ? ' and may occupy the defender\'s position' : ''}; each losing unit skedaddles`,
    source: SRC_MELEE,
  });

  const effects: OutcomeEffect[] = [];
  const saddles: PendingAction[] = [];
  const skedaddles: PendingAction[] = [];
  const fight = (ids: readonly string[], hits: number, won: boolean, fleeFrom: string): void => {
    const shares = shareHitsEvenly(hits, ids);
    ids.forEach((id, i) => {
      const info = ctx.units.get(id)!;
      const placement = placeHits(ctx, id, shares[i]!);
      const status: { -readonly [K in keyof StatusPatch]: StatusPatch[K] } = {};
      const texts: string[] = [];
      if (info.unit.status?.prone) {
        status.prone = null;
        texts.push('stands up (prone units are up once the melee is over)');
      }
      if (!placement.unitRemoved) {
        if (won) {
          status.disordered = true;
          texts.push(`wins and is disordered${result.attackerMayOccupy ? '; may occupy the defender\'s position' : ''}`);
        } else {
          texts.push('loses: skedaddles at once (roll 3D6)');
          skedaddles.push({ kind: 'skedaddle', unitId: id, targetUnitId: fleeFrom });
        }
      }
      const effect = hitEffect(info, placement, SRC_MELEE, { status, text: texts.join('; ') });
      effects.push(info.unit.status?.prone ? { ...effect, source: `${effect.source}; ${SRC_PRONE}` } : effect);
      const saddle = shotFromSaddleFollowUp(info, placement);
      if (saddle) saddles.push(saddle);
    });
  };
  fight(sides.attackerIds, hitsOnAttack, result.winner === 'attacker', sides.defenderIds[0]!);
  fight(sides.defenderIds, hitsOnDefence, result.winner === 'defender', sides.attackerIds[0]!);
  for (const e of effects) steps.push({ text: e.text, source: e.source });

  const removedIds = effects.filter((e) => e.removed).map((e) => e.unitId!);
  const standing = (ids: readonly string[]) => ids.filter((id) => !removedIds.includes(id));
  const winners = standing(result.winner === 'attacker' ? sides.attackerIds : sides.defenderIds);
  const losers = skedaddles.map((s) => s.unitId!);
  const parts = [
    winners.length > 0 ? `${names(ctx, winners)} disordered${result.attackerMayOccupy ? ', may occupy the position' : ''}` : '',
    removedIds.length > 0 ? `${names(ctx, removedIds)} removed` : '',
    losers.length > 0 ? `${names(ctx, losers)} skedaddle${losers.length === 1 ? 's' : ''}` : '',
  ].filter((p) => p !== '');
  const summary = `${attackNames} charge ${defenceNames}: ${hitsOnDefence} hits against ${hitsOnAttack}. ${band}: ${parts.join('; ')}.`;
  return {
    rulesetId: DTP_RULESET_ID,
    action,
    rolls: [attackerRoll, defenderRoll],
    result: band,
    summary,
    steps,
    effects,
    followUps: [...saddles, ...skedaddles],
  };
}
