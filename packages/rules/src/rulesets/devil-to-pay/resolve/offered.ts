/**
 * The actions a unit may roll for now, read off its evaluation (The Devil to Pay (2018),
 * ../shared/rulebooks/devil-to-pay-2018.txt), in the order of the unit's panel:
 * - a fire at each target its fire list allows after target priority (Fire, pp. 20-23);
 * - applying the fire hits waiting beside its stands, once both sides have fired (Fire: Process 3);
 * - a charge and melee at each target its charge list allows, against the defence alone and, when units may
 *   reinforce it, against the reinforced defence (Charge: Reinforce a Defense); when the defender's side has
 *   declared who reinforces, only that defence;
 * - the attached commander's Shot from the Saddle roll to lead a charge without an order, when the unit may
 *   charge and has not declared it (Commanders: Attached Commander Benefits);
 * - the joint charge of every unit that may charge the same target (`combinedCharges`: Melee Modifiers note,
 *   Melee Example 3), alone and reinforced likewise;
 * - a rally when the unit has hits and rally dice (Rally, p. 28); a reform when its rally is refused because it
 *   is disordered (Rally: Reform); standing up when it is prone (Optional Rules: Going Prone);
 * - a skedaddle for any unit with stands on the table (Skedaddle: "a unit may skedaddle" during any action
 *   phase, no order needed).
 */
import type { Evaluation } from '../../../engine/evaluation.ts';
import type { PendingAction } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';
import type { DtpChargeTargetOption } from '../charge.ts';

/** The melee against the plain defence and against the reinforced one, as the option allows. */
function meleeVariants(base: PendingAction, reinforcerIds: readonly string[], declared: boolean): PendingAction[] {
  if (reinforcerIds.length === 0) return [base];
  const reinforced = { ...base, targetUnitIds: [...reinforcerIds] };
  return declared ? [reinforced] : [base, reinforced];
}

export function offeredActions(state: TableState, evaluation: Evaluation, unitId: string): PendingAction[] {
  const unit = evaluation.units[unitId];
  if (!unit) return [];
  const out: PendingAction[] = [];
  for (const option of unit.fire) {
    if (option.ok) out.push({ kind: 'fire', unitId, targetUnitId: option.targetUnitId });
  }
  const status = state.units.find((u) => u.id === unitId)?.status;
  if (typeof status?.rulesetStatus?.pendingFireHits === 'number' && status.rulesetStatus.pendingFireHits > 0) out.push({ kind: 'apply-hits', unitId });
  for (const option of unit.charge) {
    if (!option.ok) continue;
    const o = option as DtpChargeTargetOption;
    out.push(...meleeVariants({ kind: 'melee', unitId, targetUnitId: o.targetUnitId }, o.reinforcerIds ?? [], o.reinforcementDeclared === true));
  }
  const commanderId = unit.command.attachedCommanderId;
  if (commanderId !== undefined && unit.charge.some((o) => o.ok) && status?.rulesetStatus?.chargeLedByCommander !== true) {
    out.push({ kind: 'shot-from-the-saddle', unitId, commanderId, choices: { purpose: 'lead-charge' } });
  }
  for (const combined of evaluation.combinedCharges ?? []) {
    if (!combined.attackerUnitIds.includes(unitId)) continue;
    const unitIds = [unitId, ...combined.attackerUnitIds.filter((id) => id !== unitId)];
    const declared = unit.charge.some((o) => o.ok && o.targetUnitId === combined.targetUnitId && (o as DtpChargeTargetOption).reinforcementDeclared === true);
    out.push(...meleeVariants({ kind: 'melee', unitId, unitIds, targetUnitId: combined.targetUnitId }, combined.reinforcerIds, declared));
  }
  const rally = unit.rally;
  if (!('ok' in rally) && rally.dice > 0) out.push({ kind: 'rally', unitId });
  if ('ok' in rally && rally.reason === 'rally/disordered-must-reform') out.push({ kind: 'reform', unitId });
  if (status?.prone === true) out.push({ kind: 'stand-up', unitId });
  const onTable = state.units.find((u) => u.id === unitId)?.standIds.some((id) => state.stands.some((s) => s.id === id)) === true;
  if (onTable) out.push({ kind: 'skedaddle', unitId });
  return out;
}
