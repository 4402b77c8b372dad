/**
 * The actions a unit may roll for now, read off its evaluation (The Devil to Pay (2018),
 * ../shared/rulebooks/devil-to-pay-2018.txt): a fire at each target its fire list allows after target
 * priority (Fire, p. 20-23); a skedaddle for any unit with stands on the table (Skedaddle: "a unit may
 * skedaddle" during any action phase, no order needed).
 */
import type { Evaluation } from '../../../engine/evaluation.ts';
import type { PendingAction } from '../../../engine/resolve/resolution.ts';
import type { TableState } from '../../../model/tableState.ts';

/** Every action the evaluation allows the unit, in the order fire, then the rest. */
export function offeredActions(state: TableState, evaluation: Evaluation, unitId: string): PendingAction[] {
  const unit = evaluation.units[unitId];
  if (!unit) return [];
  const out: PendingAction[] = [];
  for (const option of unit.fire) {
    if (option.ok) out.push({ kind: 'fire', unitId, targetUnitId: option.targetUnitId });
  }
  const unitOnTable = state.units.find((u) => u.id === unitId)?.standIds.some((id) => state.stands.some((s) => s.id === id)) === true;
  if (unitOnTable) out.push({ kind: 'skedaddle', unitId });
  return out;
}
