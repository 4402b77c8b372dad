/**
 * What The Devil to Pay reads from `UnitStatus.rulesetStatus` (engine/rulesetFields.ts): the two charge
 * declarations the table itself cannot show (both are announced during a CHARGE action, so the operator
 * sets them for that action and clears them after), and the fire hits waiting beside a unit's stands until
 * both sides have fired (set and cleared by the fire and apply-hits outcomes, resolve/).
 */
import type { RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import type { Unit } from '../../model/tableState.ts';
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import type { UnitInfo } from './context.ts';

/**
 * "The attached commander may also lead the regiment in a charge without using an Order. This requires
 * surviving a 'Shot from the Saddle' roll (see below) before conducting the Charge. The regiment does not
 * receive the charge order bonus." Set once the roll is survived; the charge then spends no order.
 */
export const CHARGE_LED_BY_COMMANDER_FIELD: RulesetFieldSpec = {
  id: 'chargeLedByCommander',
  label: 'Charge led by the attached commander, without an order',
  type: 'boolean',
  default: false,
  source: 'The Devil to Pay (2018), Commanders: Attached Commander Benefits (and Shot from the Saddle)',
  usedFor: 'charge: no order spent and no Charge Order +1 die in the attacker pool',
};

/**
 * "Players may commit additional units to 'reinforce a defense.' The reinforcing unit must expend an
 * order. The target enemy unit must be within 6" and 45 degrees of its front center." No default: absent
 * means not declared, and then every unit that may reinforce is counted, as before.
 */
export const REINFORCING_FIELD: RulesetFieldSpec = {
  id: 'reinforcing',
  label: 'Reinforcing a defence this Charge action (expends an order)',
  type: 'boolean',
  source: 'The Devil to Pay (2018), Charge: Reinforce a Defense',
  usedFor: "charge: which of the units that may reinforce join the defender's dice",
};

/**
 * Fire: Process: "The effects of fire are simultaneous, and hits are not applied until both sides have
 * fired. Therefore, place hits next to stands until step 3: Apply Hits." The hits a unit has been fired at
 * with and that wait beside its stands; the fire outcome adds to it, the 'apply-hits' outcome places them
 * on the stands and clears it (resolve/). Stands are not hit yet, so the unit still fires at full strength.
 */
export const PENDING_FIRE_HITS_FIELD: RulesetFieldSpec = {
  id: 'pendingFireHits',
  label: 'Fire hits waiting beside the stands until both sides have fired',
  type: 'integer',
  min: 0,
  unit: 'hits',
  source: 'The Devil to Pay (2018), Fire: Process (3. Apply hits)',
  usedFor: 'after the roll: hits to place on the stands once both sides have fired',
};

export const DTP_STATUS_FIELDS: readonly RulesetFieldSpec[] = [CHARGE_LED_BY_COMMANDER_FIELD, REINFORCING_FIELD, PENDING_FIRE_HITS_FIELD];

/** Fire hits waiting beside the unit's stands (0 when none). */
export function pendingFireHits(unit: Unit): number {
  const v = rulesetValue(PENDING_FIRE_HITS_FIELD, unit.status?.rulesetStatus);
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : 0;
}

/** Whether the unit's charge is declared led by its attached commander (the field, whatever the attachment). */
export function chargeLedByCommanderDeclared(unit: Unit): boolean {
  return rulesetValue(CHARGE_LED_BY_COMMANDER_FIELD, unit.status?.rulesetStatus) === true;
}

/** The unit's reinforcement declaration: true, false, or undefined when not declared. */
export function reinforcingDeclared(unit: Unit): boolean | undefined {
  const v = rulesetValue(REINFORCING_FIELD, unit.status?.rulesetStatus);
  return typeof v === 'boolean' ? v : undefined;
}

/**
 * Declarations the table contradicts: a charge led by a commander who is not attached (the charge is then
 * read as spending an order, with its bonus), and a reinforcement by a unit with no order left.
 */
export function declarationWarnings(info: UnitInfo): EvaluationWarning[] {
  const out: EvaluationWarning[] = [];
  const unit = info.unit;
  if (chargeLedByCommanderDeclared(unit) && info.attachedCommanderId === undefined) {
    out.push({
      code: 'charge/led-without-commander',
      message: `${unit.name}: a charge led by the attached commander needs one attached; read as a charge with an order (+1 die).`,
      unitId: unit.id,
    });
  }
  if (reinforcingDeclared(unit) === true && unit.status?.ordersLeft === 0) {
    out.push({
      code: 'charge/reinforce-without-order',
      message: `${unit.name}: reinforcing a defence expends an order, and it has none left (Charge: Reinforce a Defense).`,
      unitId: unit.id,
    });
  }
  return out;
}
