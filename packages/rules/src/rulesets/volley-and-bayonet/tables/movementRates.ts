/**
 * Movement rates, inches per turn (Movement: "Stands move at the following rates", p. 2), and the movement
 * rules that are numbers (Facing, Oblique Movement, Road March, Charges, p. 2; Command and Control, p. 2).
 */
import { cite } from './source.ts';

export type RateClass =
  | 'slow-infantry'
  | 'fast-infantry'
  | 'light-dragoons-mounted-infantry'
  | 'light-artillery'
  | 'field-artillery-pack-transport'
  | 'heavy-artillery-wheeled-transport'
  | 'commanders';

const RATES = cite('Movement', 2);

/** Movement rate table (Movement, p. 2): Type / Movement Rate. */
export const MOVEMENT_RATES_IN: Readonly<Record<RateClass, { readonly rateIn: number; readonly label: string; readonly source: string }>> = {
  'slow-infantry': { rateIn: 12, label: 'Slow Infantry', source: RATES },
  'fast-infantry': { rateIn: 16, label: 'Fast Infantry', source: RATES },
  'light-dragoons-mounted-infantry': { rateIn: 24, label: 'Light Dragoons / Mounted Infantry', source: RATES },
  'light-artillery': { rateIn: 12, label: 'Light Artillery', source: RATES },
  'field-artillery-pack-transport': { rateIn: 8, label: 'Field Artillery / Pack Transport', source: RATES },
  'heavy-artillery-wheeled-transport': { rateIn: 4, label: 'Heavy Artillery / Wheeled Transport', source: RATES },
  commanders: { rateIn: 24, label: 'Commanders', source: RATES },
};

/** "A stand may move obliquely up to 45 left or right of its original facing without paying any additional costs" (Movement: Oblique Movement, p. 2). */
export const OBLIQUE_DEG = 45;
export const OBLIQUE_SOURCE = cite('Movement: Oblique Movement', 2);

/** A paid facing change (second change; poorly trained; any change in a charge) costs half the stand's movement (Movement: Facing; Charges, p. 2). */
export const PAID_FACING_CHANGE_FRACTION = 0.5;
export const FACING_SOURCE = cite('Movement: Facing', 2);
export const CHARGE_FACING_SOURCE = cite('Movement: Charges', 2);

/** Road march: movement tripled on a road, doubled cross-country (Movement: Road March, p. 2). */
export const ROAD_MARCH_ON_ROAD = 3;
export const ROAD_MARCH_CROSS_COUNTRY = 2;
export const ROAD_MARCH_SOURCE = cite('Movement: Road March', 2);

/** Out of command: "They may only move half of their total movement allowance" (Command and Control, p. 2). */
export const OUT_OF_COMMAND_MOVE_FRACTION = 0.5;
export const OUT_OF_COMMAND_SOURCE = cite('Command and Control', 2);

/** "Infantry stands (NOT detachments) and artillery stands may go stationary if they are in command" (Movement: Stationary, p. 2). */
export const STATIONARY_SOURCE = cite('Movement: Stationary', 2);
