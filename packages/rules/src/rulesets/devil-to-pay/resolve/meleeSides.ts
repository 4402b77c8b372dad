/**
 * Who fights a melee and with how many dice (The Devil to Pay (2018), Charge, in
 * ../shared/rulebooks/devil-to-pay-2018.txt): the charging units (one, or several on one target, Melee
 * Modifiers note and Melee Example 3) and the defender with the units that reinforce it (Reinforce a
 * Defense). The dice are the evaluation's: the unit's charge option, the combined charge of several units,
 * the option's reinforced defence; a set of reinforcers the evaluation does not list whole is the same
 * `meleeDice` over those units.
 */
import type { DiceBreakdown, Refusal } from '../../../engine/evaluation.ts';
import type { PendingAction } from '../../../engine/resolve/resolution.ts';
import type { DtpContext } from '../context.ts';
import { meleeDice, meleeParticipantOf, type DtpChargeTargetOption } from '../charge.ts';
import { chargeOptionOf, combinedChargeOf } from './evaluationParts.ts';
import { SRC_REINFORCE } from './sources.ts';

export interface MeleeSides {
  /** The charging units, the acting unit first. */
  readonly attackerIds: readonly string[];
  /** The target, then the units reinforcing it. */
  readonly defenderIds: readonly string[];
  readonly attacker: DiceBreakdown;
  readonly defender: DiceBreakdown;
  /** Each charging unit's own option at the target (what disordered it on the way, the flank bonus ...). */
  readonly options: readonly DtpChargeTargetOption[];
}

const unique = (ids: readonly string[]): string[] => [...new Set(ids)];
const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/**
 * The two sides of the melee the action names, or why it cannot be fought: a charging unit with no charge
 * on the target (its refusal), a named reinforcer that cannot reinforce against any of the chargers.
 * Without `targetUnitIds` the defence is reinforced by the units its side declared reinforcing (status
 * `reinforcing`, declarations.ts), else by none.
 */
export function meleeSides(ctx: DtpContext, action: PendingAction): MeleeSides | Refusal {
  const targetId = action.targetUnitId!;
  const attackerIds = unique([action.unitId!, ...(action.unitIds ?? [])]);
  const options: DtpChargeTargetOption[] = [];
  for (const id of attackerIds) {
    const option = chargeOptionOf(ctx, id, targetId);
    if (!option.ok) return { ...option, detail: `${ctx.units.get(id)!.unit.name}: ${option.detail ?? option.reason}` };
    options.push(option);
  }
  const attacker = attackerIds.length === 1 ? options[0]!.attacker : combinedChargeOf(ctx, attackerIds, targetId)!.attacker;

  const possible = unique(options.flatMap((o) => o.reinforcerIds));
  const declared = options.some((o) => o.reinforcementDeclared === true);
  const reinforcerIds = unique((action.targetUnitIds ?? (declared ? possible : [])).filter((id) => id !== targetId));
  for (const id of reinforcerIds) {
    if (!possible.includes(id)) {
      const name = ctx.units.get(id)!.unit.name;
      const why = declared && options.some((o) => o.reinforcementDeclared) ? ' or is not declared reinforcing' : '';
      return { ok: false, reason: 'melee/cannot-reinforce', detail: `${name} cannot reinforce: no charging unit is within 6" and 45° of its front centre${why} (${SRC_REINFORCE})` };
    }
  }
  let defender = options[0]!.defender;
  if (reinforcerIds.length > 0) {
    const whole = options.find((o) => o.reinforcedDefender && sameSet(o.reinforcerIds, reinforcerIds));
    defender = whole?.reinforcedDefender ?? meleeDice([targetId, ...reinforcerIds].map((id) => meleeParticipantOf(ctx, id)), { chargeOrder: false });
  }
  return { attackerIds, defenderIds: [targetId, ...reinforcerIds], attacker, defender, options };
}
