/**
 * Cold steel and breakthrough charges (QRS II, Figure 4 Charge Table "+1 Cold steel or breakthrough";
 * Charging with Cold Steel or Breakthrough Charge; Charge Table Changes 22; Weapons, Repeater Carbine or
 * Rifle). Both are declarations, so they come from the table state: `status.rulesetStatus.chargeMode`.
 * - cold steel: the attacker adds 1; the unit does not fire ("Normally, a unit cannot fire if it is charging
 *   with cold steel"), except crack troops, who "can both charge with cold steel ... and fire"; of the units
 *   armed with repeaters "only units armed with Spencer Rifles may charge with cold steel" (RPR, not RPC);
 * - breakthrough: the attacker adds 1, the charge is "a half-move at the double quick rate", and no unit
 *   fires ("They cannot fire during a breakthrough charge").
 */
import type { DiceModifier } from '../../engine/evaluation.ts';
import type { RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import type { Unit } from '../../model/tableState.ts';
import { CHARGE_MODIFIERS } from './tables/chargeTable.ts';
import { qrs } from './tables/source.ts';

export type ChargeMode = 'none' | 'cold-steel' | 'breakthrough';

export const CHARGE_MODE_STATUS_FIELD: RulesetFieldSpec = {
  id: 'chargeMode',
  label: 'Charge declared: with cold steel, or a breakthrough charge',
  type: 'choice',
  choices: [
    { id: 'none', label: 'None (or an ordinary charge)' },
    { id: 'cold-steel', label: 'Charging with cold steel' },
    { id: 'breakthrough', label: 'Breakthrough charge' },
  ],
  default: 'none',
  source: qrs('Figure 4, Charge Table; Charging with Cold Steel or Breakthrough Charge; Charge Table Changes 22'),
  usedFor: 'charge modifiers, breakthrough charge reach, fire',
};

/** Repeater carbines may not charge with cold steel (Weapons, Repeater Carbine (RPC) or Rifle (RPR)). */
const NO_COLD_STEEL_WEAPONS: readonly string[] = ['RPC'];

export function chargeModeOf(value: unknown): ChargeMode {
  return value === 'cold-steel' || value === 'breakthrough' ? value : 'none';
}

/** The attacker's +1 for the declared charge, or why the unit cannot charge that way. */
export function chargeModeModifier(unit: Unit, mode: ChargeMode): { modifier?: DiceModifier; problem?: string } {
  if (mode === 'none') return {};
  const m = CHARGE_MODIFIERS.coldSteelOrBreakthrough;
  if (mode === 'cold-steel' && NO_COLD_STEEL_WEAPONS.includes(unit.weapon)) {
    return { problem: `${unit.name}: units armed with repeater carbines (RPC) do not charge with cold steel; only Spencer rifles (RPR) may (${qrs('Weapons, Repeater Carbine (RPC) or Rifle (RPR)')}); the +1 is left out.` };
  }
  return { modifier: { label: mode === 'cold-steel' ? 'Charging with cold steel' : 'Breakthrough charge', dice: m.value, source: m.source } };
}

/** Why the unit does not fire while charging this way, if it does not. */
export function chargeModeFireBar(unit: Unit, mode: ChargeMode): [reason: string, detail: string] | undefined {
  if (mode === 'breakthrough') return ['fire/breakthrough-charge', `units do not fire during a breakthrough charge (${qrs('Charging with Cold Steel or Breakthrough Charge')})`];
  if (mode === 'cold-steel' && unit.quality !== 'crack' && !NO_COLD_STEEL_WEAPONS.includes(unit.weapon)) {
    return ['fire/cold-steel', `a unit charging with cold steel does not fire; only crack troops may do both (${qrs('Charging with Cold Steel or Breakthrough Charge')})`];
  }
  return undefined;
}

/** A breakthrough charge moves "a half-move at the double quick rate" (Charge Table Changes 22). */
export function chargeRateFactor(mode: ChargeMode): number {
  return mode === 'breakthrough' ? 0.5 : 1;
}

export const BREAKTHROUGH_SOURCE = qrs('Charge Table Changes 22');
