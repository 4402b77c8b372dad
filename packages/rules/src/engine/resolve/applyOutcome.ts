/**
 * Making an outcome's status changes on the table state, in one step. Only statuses: stands lost and
 * forced moves are done by hand on the table (the outcome names them), and the camera sees them.
 */
import type { RulesetValue, TableState, UnitStatus } from '../../model/tableState.ts';
import type { Outcome, StatusPatch } from './resolution.ts';

type Mutable<T> = { -readonly [K in keyof T]?: T[K] };

function mergeRecord<V>(
  current: Readonly<Record<string, V>> | undefined,
  patch: Readonly<Record<string, V | null>>,
): Readonly<Record<string, V>> | undefined {
  const merged: Record<string, V> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

const SCALAR_FIELDS = ['disordered', 'prone', 'formation', 'limbered', 'dismounted', 'ordersLeft', 'attachedCommanderId'] as const;

/** `status` with `patch` applied (see `StatusPatch`); fields cleared to nothing are left out. */
export function applyStatusPatch(status: UnitStatus | undefined, patch: StatusPatch): UnitStatus {
  const next: Mutable<UnitStatus> = { ...(status ?? {}) };
  for (const field of SCALAR_FIELDS) {
    if (!(field in patch)) continue;
    const value = patch[field];
    if (value === null || value === undefined) delete next[field];
    else (next as Record<string, unknown>)[field] = value;
  }
  if (patch.hitsByStand) {
    const hits = mergeRecord<number>(status?.hitsByStand, patch.hitsByStand);
    if (hits) next.hitsByStand = hits;
    else delete next.hitsByStand;
  }
  if (patch.rulesetStatus) {
    const own = mergeRecord<RulesetValue>(status?.rulesetStatus, patch.rulesetStatus);
    if (own) next.rulesetStatus = own;
    else delete next.rulesetStatus;
  }
  return next as UnitStatus;
}

/**
 * The state after the outcome's status changes, every unit's patches in the order of `outcome.effects`.
 * Units no effect names keep their objects (the engine sees them unchanged). Throws for an effect that names
 * a unit not on the table.
 */
export function applyOutcome(state: TableState, outcome: Outcome): TableState {
  const patches = new Map<string, StatusPatch[]>();
  for (const effect of outcome.effects) {
    if (!effect.unitId || !effect.status) continue;
    const list = patches.get(effect.unitId) ?? [];
    list.push(effect.status);
    patches.set(effect.unitId, list);
  }
  for (const unitId of patches.keys()) {
    if (!state.units.some((u) => u.id === unitId)) throw new Error(`applyOutcome: unit "${unitId}" is not on this table`);
  }
  if (patches.size === 0) return state;
  return {
    ...state,
    units: state.units.map((unit) => {
      const list = patches.get(unit.id);
      if (!list) return unit;
      return { ...unit, status: list.reduce<UnitStatus | undefined>((s, p) => applyStatusPatch(s, p), unit.status) };
    }),
  };
}

/** Every status change of the outcome as one patch per unit id, for a service to log as one action. */
export function statusChangesOf(state: TableState, outcome: Outcome): Record<string, UnitStatus> {
  const after = applyOutcome(state, outcome);
  const changed: Record<string, UnitStatus> = {};
  for (const effect of outcome.effects) {
    if (!effect.unitId || !effect.status) continue;
    const unit = after.units.find((u) => u.id === effect.unitId);
    changed[effect.unitId] = unit?.status ?? {};
  }
  return changed;
}
