/**
 * Unit status and army morale (While the Devil Rules, Combat Effects and Rallying; Army Morale).
 */

export const STATUS_SOURCE = 'Combat Effects and Rallying';
export const ARMY_MORALE_SOURCE = 'Army Morale';

/** Status levels, best first: "OK ... Disordered ... Demoralized ... Destroyed". */
export const STATUS_LEVELS = ['ok', 'disordered', 'demoralized', 'destroyed'] as const;
export type StatusLevel = (typeof STATUS_LEVELS)[number];

/** "Any time a unit has lost a full half or more of its starting number of bases, it is immediately destroyed." */
export function basesLostToDestroy(startingBases: number): number {
  return Math.ceil(startingBases / 2);
}

/** Points toward the army's break point ("During play, a running total ... adding up the following"). */
export const BREAK_POINTS = {
  disorderedUnit: 1, // "For each disordered unit: 1 point"
  demoralizedUnit: 2, // "For each demoralized unit: 2 points"
  baseDestroyed: 3, // "For each base destroyed: 3 points"
  armyCommanderLost: 6, // "For a killed/captured Army Commander: 6 points"
  wingCommanderLost: 4, // "For a killed/captured Battle/Wing Commander: 4 points"
  campSacked: 6, // "For a sacked camp/bagge train: 6 points (suggested)"
} as const;

/** Army quality multiplies the base count: "higher quality ... 1.5 (rounded up), ... lower-quality force by .75 (rounded up)". */
export const ARMY_QUALITY_FACTOR = { typical: 1, higher: 1.5, lower: 0.75 } as const;
export type ArmyQuality = keyof typeof ARMY_QUALITY_FACTOR;

export function breakPoint(totalBases: number, quality: ArmyQuality): number {
  return Math.ceil(totalBases * ARMY_QUALITY_FACTOR[quality]);
}
