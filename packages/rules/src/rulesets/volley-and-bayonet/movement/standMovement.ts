/**
 * What one stand may move: its rate (Movement table, p. 2), the mover class terrain prices it as, and how
 * command, road march and poor training change the allowance.
 */
import { numberParameter } from '../../../engine/rulesetFields.ts';
import { DISMOUNTED_MOVE_PARAM } from '../declarations.ts';
import type { VbContext, VbStand, VbUnit } from '../context.ts';
import { MOVEMENT_RATES_IN } from '../tables/movementRates.ts';
import type { Mover } from '../tables/terrain.ts';
import type { MoverProfile } from './costWalk.ts';

export interface StandRate {
  readonly rateIn: number;
  readonly label: string;
  readonly source: string;
}

/** The stand's rate, or a reason it has none ('no-troop-type', 'parameter:<id>', 'spacer'). */
export function standRate(ctx: VbContext, info: VbUnit, s: VbStand): StandRate | { missing: string } {
  switch (s.type) {
    case 'command':
      return MOVEMENT_RATES_IN['commanders'];
    case 'road-march-spacer':
      return { missing: 'spacer' };
    case 'mounted':
    case 'mounted-skirmisher':
      return MOVEMENT_RATES_IN['light-dragoons-mounted-infantry'];
    case 'transport':
      return info.troopType === 'pack-transport' ? MOVEMENT_RATES_IN['field-artillery-pack-transport'] : MOVEMENT_RATES_IN['heavy-artillery-wheeled-transport'];
    case 'artillery':
      if (info.troopType === 'light-artillery') return MOVEMENT_RATES_IN['light-artillery'];
      if (info.troopType === 'field-artillery' || info.troopType === 'field-howitzer') return MOVEMENT_RATES_IN['field-artillery-pack-transport'];
      if (info.troopType === 'heavy-artillery') return MOVEMENT_RATES_IN['heavy-artillery-wheeled-transport'];
      return { missing: 'no-troop-type' };
    default:
      if (info.troopType === 'slow-infantry') return MOVEMENT_RATES_IN['slow-infantry'];
      if (info.troopType === 'fast-infantry') return MOVEMENT_RATES_IN['fast-infantry'];
      if (info.category === 'cavalry') {
        const v = numberParameter(ctx.state, DISMOUNTED_MOVE_PARAM);
        return v === undefined ? { missing: `parameter:${DISMOUNTED_MOVE_PARAM.id}` } : { rateIn: v, label: 'Dismounted cavalry (parameter)', source: DISMOUNTED_MOVE_PARAM.source };
      }
      return { missing: 'no-troop-type' };
  }
}

export function moverOf(info: VbUnit, s: VbStand): Mover {
  switch (s.type) {
    case 'command':
      return 'commander';
    case 'infantry-skirmisher':
      return 'skirmisher';
    case 'mounted':
    case 'mounted-skirmisher':
      return 'mounted';
    case 'artillery':
      return 'artillery';
    case 'transport':
      return info.troopType === 'pack-transport' ? 'pack' : 'wheeled';
    default:
      return 'infantry';
  }
}

export function moverProfile(info: VbUnit, s: VbStand, moveIn: number): MoverProfile {
  const mover = moverOf(info, s);
  const free = s.type === 'command' || s.type === 'infantry-skirmisher' || s.type === 'mounted-skirmisher';
  return {
    mover,
    slowInfantry: info.troopType === 'slow-infantry',
    hills: free ? 'free' : mover === 'artillery' || mover === 'pack' || mover === 'wheeled' ? 'artillery' : 'two-contours',
    moveIn,
    roadMarch: info.roadMarch,
    ...(info.bridgeDisorders ? { bridgeDisorders: true } : {}),
  };
}
