/**
 * What every Fire and Fury outcome shares (QRS II, Fire Combat Effects, Inflicting Troop Casualties): stands
 * lost and when a unit leaves the game, the forced moves away from the enemy, and the bookkeeping of lost
 * stands and silenced or damaged guns in the unit's status.
 */
import type { ForcedMove, OutcomeEffect, StatusPatch } from '../../engine/resolve/resolution.ts';
import { pathAwayFrom, unitCentreIn } from '../../engine/resolve/forcedMovePath.ts';
import type { RulesetValue, TableState, Unit } from '../../model/tableState.ts';
import { qrs } from './tables/source.ts';

export const CASUALTIES_SOURCE = qrs('Fire Combat Effects, Inflicting Troop Casualties');

export function unitById(state: TableState, unitId: string): Unit {
  const unit = state.units.find((u) => u.id === unitId);
  if (!unit) throw new Error(`fire-and-fury-regimental: unit "${unitId}" is not on this table`);
  return unit;
}

/** Stands of the unit on the table that fight: troop stands, or a battery's gun stands (limbers left out). */
export function fightingStandsOnTable(state: TableState, unit: Unit): number {
  const ids = new Set(unit.standIds);
  let n = 0;
  for (const s of state.stands) {
    if (!ids.has(s.id) || s.role === 'limber') continue;
    if (unit.arm === 'artillery' && s.role !== 'gun' && state.stands.some((o) => ids.has(o.id) && o.role === 'gun')) continue;
    n++;
  }
  return n;
}

/**
 * The loss of `lost` stands: how many the unit has left, and whether it leaves the game ("When an infantry
 * or cavalry unit is reduced to a single stand, the unit is removed from the game immediately"; a battery
 * with no gun left is gone as well).
 */
export function standLoss(state: TableState, unit: Unit, lost: number): { lost: number; left: number; removed: boolean } {
  const have = fightingStandsOnTable(state, unit);
  const n = Math.min(lost, have);
  const left = have - n;
  const removed = n > 0 && (unit.arm === 'artillery' ? left === 0 : left <= 1);
  return { lost: n, left, removed };
}

/** The text of a loss, with the stands and removal: "loses 2 stands (4 left)". */
export function lossText(name: string, loss: { lost: number; left: number; removed: boolean }, what = 'stand'): string {
  if (loss.lost === 0) return '';
  const base = `${name} loses ${loss.lost} ${what}${loss.lost === 1 ? '' : 's'}`;
  if (loss.removed) return `${base} and is removed from the game (${loss.left} left; ${CASUALTIES_SOURCE})`;
  return `${base} (${loss.left} left; the owner chooses which, keeping the formation, the command and label stands last)`;
}

/** A status patch that keeps `standsLost` counting when the table counts it in the status. */
export function standsLostPatch(unit: Unit, lost: number): Record<string, RulesetValue | null> {
  const had = unit.status?.rulesetStatus?.['standsLost'];
  return typeof had === 'number' && lost > 0 ? { standsLost: had + lost } : {};
}

/** Add a count to a numeric ruleset status field (silenced or damaged gun stands), capped at `max`. */
export function countPatch(unit: Unit, field: string, add: number, max: number): number {
  const had = unit.status?.rulesetStatus?.[field];
  return Math.min(max, (typeof had === 'number' ? had : 0) + add);
}

/** A move `distanceIn` directly away from `enemy`'s centre, or undefined when either has no stands. */
export function moveAwayFrom(
  state: TableState,
  unitId: string,
  enemyId: string,
  kind: ForcedMove['kind'],
  distanceIn: number,
  text: string,
  source: string,
): ForcedMove | undefined {
  const from = unitCentreIn(state, enemyId);
  if (!from) return undefined;
  const p = pathAwayFrom(state, unitId, from, distanceIn);
  if (!p) return undefined;
  return { kind, distanceIn, path: p.path, leavesTable: p.leavesTable, text, source };
}

/** Join the parts of an effect's text that are not empty: "disordered; loses 1 stand (5 left)". */
export function joinText(parts: readonly (string | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join('; ');
}

/** An effect on a unit with only the fields that are set. */
export function unitEffect(
  unitId: string,
  text: string,
  source: string,
  more: { standsLost?: number; status?: StatusPatch; removed?: boolean; move?: ForcedMove | undefined },
): OutcomeEffect {
  const status = more.status && Object.keys(more.status).length > 0 ? more.status : undefined;
  return {
    unitId,
    text,
    source,
    ...(more.standsLost ? { standsLost: more.standsLost } : {}),
    ...(status ? { status } : {}),
    ...(more.removed ? { removed: true } : {}),
    ...(more.move ? { move: more.move } : {}),
  };
}
