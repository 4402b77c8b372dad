/**
 * The actions a unit may roll for now, read off its evaluation (The Devil to Pay (2018),
 * ../shared/rulebooks/devil-to-pay-2018.txt): a fire at each target its fire list allows after target
 * priority (Fire, p. 20-23).
 */
import type { Evaluation } from '../../../engine/evaluation.ts';
import type { PendingAction } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';

/** Every action the evaluation allows the unit, in the order fire, then the rest. */
export function offeredActions(_state: TableState, evaluation: Evaluation, unitId: string): PendingAction[] {
  const unit = evaluation.units[unitId];
  if (!unit) return [];
  const out: PendingAction[] = [];
  for (const option of unit.fire) {
    if (option.ok) out.push({ kind: 'fire', unitId, targetUnitId: option.targetUnitId });
  }
  return out;
}
