/**
 * Unit Status after a roll (While the Devil Rules, Combat Effects and Rallying): status levels lost walk a
 * unit down OK → Disordered → Demoralized, then cost a base each ("When a Demoralized unit loses a Status
 * Level, it loses a base"); a unit that has lost "a full half or more of its starting number of bases" is
 * destroyed. A Regroup raises the status by one or two levels. Pure arithmetic on plain values.
 */
import { basesLostToDestroy, STATUS_SOURCE } from './tables/moraleTables.ts';

export type LiveStatus = 'ok' | 'disordered' | 'demoralized';

export interface UnitCondition {
  readonly status: LiveStatus;
  readonly basesLost: number;
  readonly startingBases: number;
}

export interface AfterLoss extends UnitCondition {
  readonly destroyed: boolean;
  /** Bases lost by this loss (not before). */
  readonly newBasesLost: number;
}

/**
 * `levels` status levels lost ("A unit must first be Disordered, and then Demoralized before additional base
 * losses are inflicted"), or 'destroyed' (automatic destruction: every base counted as lost, Army Morale).
 */
export function loseLevels(unit: UnitCondition, levels: number | 'destroyed'): AfterLoss {
  if (levels === 'destroyed') {
    return { ...unit, status: 'demoralized', basesLost: unit.startingBases, destroyed: true, newBasesLost: unit.startingBases - unit.basesLost };
  }
  let status = unit.status;
  let basesLost = unit.basesLost;
  for (let i = 0; i < levels; i++) {
    if (status === 'ok') status = 'disordered';
    else if (status === 'disordered') status = 'demoralized';
    else basesLost++;
  }
  const destroyed = basesLost >= basesLostToDestroy(unit.startingBases);
  return { ...unit, status, basesLost, destroyed, newBasesLost: basesLost - unit.basesLost };
}

/** Regroup: "raise the Status Level of a unit by one ... or by two"; never above OK, bases never return. */
export function regroupLevels(status: LiveStatus, levels: 1 | 2): LiveStatus {
  const order: LiveStatus[] = ['ok', 'disordered', 'demoralized'];
  return order[Math.max(0, order.indexOf(status) - levels)]!;
}

/** The guide's words for a status change, e.g. "becomes Disordered", "loses 1 base and is destroyed". */
export function lossText(name: string, before: UnitCondition, after: AfterLoss): string {
  const parts: string[] = [];
  if (after.status !== before.status) parts.push(`becomes ${after.status === 'disordered' ? 'Disordered' : 'Demoralized'}`);
  if (after.newBasesLost > 0) parts.push(`loses ${after.newBasesLost} base${after.newBasesLost === 1 ? '' : 's'} (${after.basesLost} of ${after.startingBases} lost)`);
  if (after.destroyed) parts.push(`is destroyed (a full half or more of its ${after.startingBases} starting bases lost; ${STATUS_SOURCE})`);
  if (parts.length === 0) parts.push('is unchanged');
  return `${name} ${parts.join(', ')}`;
}
