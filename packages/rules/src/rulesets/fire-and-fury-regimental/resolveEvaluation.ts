/**
 * The evaluation the after-the-roll part reads (the modifiers and options the players saw before rolling),
 * worked out from the same state each time: no cache, as in every rule folder.
 */
import type { TableState } from '../../model/tableState.ts';
import type { UnitEvaluation } from '../../engine/evaluation.ts';
import { evaluateFireAndFuryRegimental, type FfrUnitEvaluation } from './evaluate.ts';
import { PARAM_BY_ID, weaponParamId } from './fields.ts';
import { WEAPON_BY_CODE } from './tables/fireTables.ts';
import { MOVEMENT_RATES } from './tables/movementRates.ts';
import type { Unit } from '../../model/tableState.ts';

export function evaluationOf(state: TableState): { units: Readonly<Record<string, UnitEvaluation>> } {
  return evaluateFireAndFuryRegimental(state);
}

export function unitEvaluationOf(state: TableState, unitId: string): FfrUnitEvaluation | undefined {
  return evaluateFireAndFuryRegimental(state).units[unitId] as FfrUnitEvaluation | undefined;
}

/** A parameter's value on this table, else its default. */
export function paramOf(state: TableState, id: string): unknown {
  return state.rulesetParameters?.[id] ?? PARAM_BY_ID.get(id)?.default;
}

/**
 * The close range of a unit's weapon (small arms' close band, guns' canister band), inches, and the
 * parameter it comes from; undefined inches when the parameter is not entered.
 */
export function closeRangeOf(state: TableState, unit: Unit): { inches?: number; paramId: string } {
  const w = WEAPON_BY_CODE.get(unit.weapon);
  if (!w) return { paramId: `weapon-${unit.weapon.toLowerCase()}-close-in` };
  const owner = w.sameAs ? WEAPON_BY_CODE.get(w.sameAs)! : w;
  const rangeOwner = owner.rangesFrom ? WEAPON_BY_CODE.get(owner.rangesFrom)! : owner;
  const id = weaponParamId(rangeOwner.code, owner.bands[0]!, 'in');
  const v = paramOf(state, id);
  return typeof v === 'number' ? { inches: v, paramId: id } : { paramId: id };
}

/**
 * A full retreat's distance (Figure 2): troops at the broken row's open-ground rate ("full retreat broken",
 * "retreats the full move rate for broken"), guns limbered at their row's full move.
 */
export function fullRetreatIn(unit: Unit): { inches: number; row: string } {
  if (unit.arm === 'artillery') {
    const row = MOVEMENT_RATES[unit.horseArtillery ? 'artillery-horse-gun' : 'artillery-field-gun'];
    return { inches: row.open.full, row: row.label };
  }
  const row = MOVEMENT_RATES[unit.arm === 'cavalry' ? 'cavalry-broken' : 'infantry-broken'];
  return { inches: row.open.full, row: row.label };
}
