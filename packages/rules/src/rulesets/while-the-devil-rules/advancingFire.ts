/** Advancing Fire (Fire: Advancing Fire): which fire options may be made as an advancing fire. */
import type { DiceModifier } from '../../engine/evaluation.ts';
import type { UnitInfo } from './context.ts';
import { fireWeapon } from './fireWeapon.ts';
import type { TroopTypeId } from './tables/troopTypes.ts';

const ADVANCING = 'Fire (Advancing Fire)';
/** Types that may make an Advancing Fire (Fire: Advancing Fire); reiters and levy only when they may fire at all. */
const ADVANCING_FIRE: ReadonlySet<TroopTypeId> = new Set(['commanded-shot', 'streltsy', 'levy', 'forlorn-hope', 'dragoons', 'harquebusier', 'reiter', 'light-horse']);

/** The Advancing Fire line for a fire option, for the types that may make one. */
export function advancingFireLine(firer: UnitInfo): DiceModifier | undefined {
  const t = firer.type;
  if (!t || !ADVANCING_FIRE.has(t.id) || fireWeapon(firer) === null) return undefined;
  return { label: 'Advancing Fire allowed: range taken before moving, move directly toward the target, fire must stay allowed all the way; the app gives the distance moved', dice: 0, source: ADVANCING };
}
