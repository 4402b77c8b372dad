/**
 * What each Musketry & Cannonade effect does (QRS II, Figure 3 "EFFECTS" and "ADDITIONAL EFFECTS"; Fire
 * Combat Effects, Inflicting Troop Casualties; Changes 20). The die result each needs against a target's
 * rating is a parameter (`fields.ts`, the Figure 3 columns); these are the effects' words and numbers.
 */
import { qrs } from './source.ts';
import type { FireEffect } from './fireTables.ts';

export type FireResult = FireEffect | 'desultory';

export interface FireEffectRow {
  readonly result: string;
  /** Troop stands lost (Galling: only when already disordered). */
  readonly troopStandsLost: number;
  readonly troopsDisordered: boolean;
  /** Gun stands wrecked (lost), damaged and silenced; 'rest' silences every stand left. */
  readonly gunStandsWrecked: number;
  readonly gunStandsDamaged: number;
  readonly gunStandsSilenced: number | 'rest';
  /** Whether a charge by the target is checked (else it goes home). */
  readonly chargeChecked: boolean;
  /** Lively Fire: "From cannonade only ... Musketry no effect." */
  readonly cannonadeOnly: boolean;
  readonly text: string;
}

export const FIRE_EFFECTS_SOURCE = qrs('Figure 3, Musketry & Cannonade Table, Effects');

export const FIRE_EFFECT_ROWS: Readonly<Record<FireResult, FireEffectRow>> = {
  // "Withering Fire. Troops disordered and lose 2 stands. Charge checked. 1 gun stand wrecked and remaining
  // stands silenced. Lose one additional troop or gun stand on a 15 or more."
  withering: { result: 'Withering Fire', troopStandsLost: 2, troopsDisordered: true, gunStandsWrecked: 1, gunStandsDamaged: 0, gunStandsSilenced: 'rest', chargeChecked: true, cannonadeOnly: false, text: 'Troops disordered and lose 2 stands. Charge checked. 1 gun stand wrecked and remaining stands silenced. Lose one additional troop or gun stand on a 15 or more.' },
  // "Telling Fire. Troops disordered and lose 1 stand. 1 gun stand damaged and 1 stand silenced. Charge checked."
  telling: { result: 'Telling Fire', troopStandsLost: 1, troopsDisordered: true, gunStandsWrecked: 0, gunStandsDamaged: 1, gunStandsSilenced: 1, chargeChecked: true, cannonadeOnly: false, text: 'Troops disordered and lose 1 stand. 1 gun stand damaged and 1 stand silenced. Charge checked.' },
  // "Galling Fire. Troops disordered or lose 1 stand if already disordered. Charge home. 1 gun stand silenced."
  galling: { result: 'Galling Fire', troopStandsLost: 1, troopsDisordered: true, gunStandsWrecked: 0, gunStandsDamaged: 0, gunStandsSilenced: 1, chargeChecked: false, cannonadeOnly: false, text: 'Troops disordered or lose 1 stand if already disordered. Charge home. 1 gun stand silenced.' },
  // "Lively Fire. From cannonade only, troops disordered or 1 gun stand silenced. Musketry no effect. Charge home."
  lively: { result: 'Lively Fire', troopStandsLost: 0, troopsDisordered: true, gunStandsWrecked: 0, gunStandsDamaged: 0, gunStandsSilenced: 1, chargeChecked: false, cannonadeOnly: true, text: 'From cannonade only, troops disordered or 1 gun stand silenced. Musketry no effect. Charge home.' },
  // "Desultory Fire. No effect. Charge home."
  desultory: { result: 'Desultory Fire', troopStandsLost: 0, troopsDisordered: false, gunStandsWrecked: 0, gunStandsDamaged: 0, gunStandsSilenced: 0, chargeChecked: false, cannonadeOnly: false, text: 'No effect. Charge home.' },
};

/** "Lose one additional troop or gun stand on a 15 or more" (Figure 3); "limited to three stands" (Changes 20). */
export const WITHERING_EXTRA_AT = 15;
export const WITHERING_MAX_STANDS = 3;
export const WITHERING_LIMIT_SOURCE = qrs('Musketry and Cannonade Table Changes 20');

/** "Massed Target. Units within 2" behind target suffer the next lower effect." */
export const NEXT_LOWER: Readonly<Record<FireResult, FireResult>> = { withering: 'telling', telling: 'galling', galling: 'lively', lively: 'desultory', desultory: 'desultory' };

/** "Charge Checked. Retreat charging unit 2" from enemy. Cavalry may recall up to a full move." */
export const CHARGE_CHECKED_RETREAT_IN = 2;
export const CHARGE_CHECKED_SOURCE = qrs('Figure 3, Additional Effects, Charge Checked');

/** "Low on Ammo. On a base die result of 10, mark one gun stand or unit of troops firing half or more stands." */
export const LOW_ON_AMMO_BASE_DIE = 10;
export const LOW_ON_AMMO_SOURCE = qrs('Figure 3, Additional Effects, Low on Ammo');

/** "Fallen Leader check on a base die result of 10." */
export const FALLEN_LEADER_BASE_DIE = 10;
export const FALLEN_LEADER_CHECK_SOURCE = qrs('Figure 3, Additional Effects, Fallen Leader');
