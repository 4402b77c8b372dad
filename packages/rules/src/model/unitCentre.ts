/**
 * Where a unit is, as one point: the centre of its stands on the table. No imports beyond the model's types,
 * so the views use it (`@muster/rules/unitCentre`) without bundling the engine.
 */
import type { TableState } from './tableState.ts';
import type { PointIn } from './units.ts';

/** Centre of the unit's stands on the table, or undefined when it has none there (or no such unit). */
export function unitCentreIn(state: TableState, unitId: string): PointIn | undefined {
  const unit = state.units.find((u) => u.id === unitId);
  if (!unit) return undefined;
  let x = 0;
  let y = 0;
  let n = 0;
  for (const standId of unit.standIds) {
    const stand = state.stands.find((s) => s.id === standId);
    if (!stand) continue;
    x += stand.pose.xIn;
    y += stand.pose.yIn;
    n++;
  }
  return n === 0 ? undefined : { xIn: x / n, yIn: y / n };
}
