/**
 * Which row of the Attack Dice and Hit Numbers tables (Combat, p. 5) a stand uses, and its dice.
 */
import { rulesetValue } from '../../engine/rulesetFields.ts';
import type { TableState } from '../../model/tableState.ts';
import { PT_STATIONARY_PARAM } from './declarations.ts';
import type { VbStand, VbUnit } from './context.ts';
import { ATTACK_DICE, type AttackRow, type WeaponRow } from './tables/combat.ts';

export function attackRow(info: VbUnit, s: VbStand): AttackRow | undefined {
  switch (s.type) {
    case 'infantry':
      return info.poorlyTrained ? 'poorly-trained-infantry' : 'regular-infantry';
    case 'detachment':
    case 'infantry-skirmisher':
      // An infantry skirmisher is a detachment on a skirmisher sabot (Movement: Skirmishers, p. 2).
      return 'infantry-detachments';
    case 'artillery':
      return 'artillery';
    case 'mounted':
    case 'mounted-skirmisher':
      return info.category === 'cavalry' ? 'mounted-light-dragoon' : 'mounted-infantry';
    default:
      return undefined;
  }
}

export function weaponRow(info: VbUnit, s: VbStand): WeaponRow | undefined {
  if (s.type === 'artillery') {
    switch (info.troopType) {
      case 'light-artillery':
        return 'light-artillery';
      case 'field-artillery':
        return 'field-artillery';
      case 'field-howitzer':
        return 'field-howitzers';
      case 'heavy-artillery':
        return 'heavy-artillery';
      default:
        return undefined;
    }
  }
  if (s.type === 'infantry' || s.type === 'detachment' || s.type === 'infantry-skirmisher') {
    if (info.abilities.has('NA')) return 'native-americans';
    return info.abilities.has('R') ? 'rifle' : 'musket';
  }
  return undefined;
}

export interface StandDice {
  readonly normal: number;
  /** Dice when stationary (equal to `normal` when the row has no stationary figure). */
  readonly stationary: number;
}

/** A stand's fire or melee dice from its Attack Dice row; undefined when the row prints none ("-"). */
export function standDice(state: TableState, info: VbUnit, s: VbStand, kind: 'fire' | 'melee'): StandDice | undefined {
  const rowId = attackRow(info, s);
  if (!rowId) return undefined;
  const row = ATTACK_DICE[rowId];
  const normal = kind === 'fire' ? row.fire : row.melee;
  if (normal === undefined) return undefined;
  let stationary = kind === 'fire' ? row.stationaryFire : row.stationaryMelee;
  if (rowId === 'poorly-trained-infantry' && rulesetValue(PT_STATIONARY_PARAM, state.rulesetParameters) === 'regular') {
    stationary = kind === 'fire' ? ATTACK_DICE['regular-infantry'].stationaryFire : ATTACK_DICE['regular-infantry'].stationaryMelee;
  }
  return { normal, stationary: stationary ?? normal };
}

/**
 * Stationary counts for infantry (not detachments) and artillery in command (Movement: Stationary, p. 2),
 * never in an exhausted brigade (Morale Collapse, p. 5) nor in a forest, thicket or swamp (Terrain Effects).
 */
export function countsStationary(info: VbUnit, s: VbStand, inCommand: boolean, brigadeExhausted: boolean): boolean {
  return info.stationary && inCommand && !brigadeExhausted && !s.inForest && (s.type === 'infantry' || s.type === 'artillery');
}
