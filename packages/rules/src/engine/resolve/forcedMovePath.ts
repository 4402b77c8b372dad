/**
 * The straight path of a forced move (a retreat, a rout, a fall back, an advance), shared by every rule set:
 * from the unit's centre along a heading, stopped at the table edge. A rule set whose text bends the path
 * (around impassable terrain, toward its own edge) builds on it with its own legs.
 */
import type { PointIn } from '../../model/units.ts';
import type { TableState } from '../../model/tableState.ts';
import { headingToVector, vectorToHeadingDeg } from '../../geometry/angles.ts';
import { unitCentreIn } from '../../model/unitCentre.ts';

export { unitCentreIn };

export interface StraightPath {
  readonly path: readonly [PointIn, PointIn];
  /** Heading of the move, degrees counter-clockwise from +x. */
  readonly headingDeg: number;
  /** True when the full distance would take the unit past a table edge (the path stops there). */
  readonly leavesTable: boolean;
}

/** From `from`, `distanceIn` along `headingDeg`, stopped at the table edge. */
export function straightPath(state: TableState, from: PointIn, headingDeg: number, distanceIn: number): StraightPath {
  const v = headingToVector(headingDeg);
  let t = Math.max(0, distanceIn);
  // Largest step that stays on the table, per axis.
  if (v.x > 1e-12) t = Math.min(t, (state.table.widthIn - from.xIn) / v.x);
  if (v.x < -1e-12) t = Math.min(t, -from.xIn / v.x);
  if (v.y > 1e-12) t = Math.min(t, (state.table.depthIn - from.yIn) / v.y);
  if (v.y < -1e-12) t = Math.min(t, -from.yIn / v.y);
  t = Math.max(0, t);
  const to = { xIn: from.xIn + v.x * t, yIn: from.yIn + v.y * t };
  return { path: [from, to], headingDeg, leavesTable: t < distanceIn - 1e-9 };
}

/** From the unit's centre, `distanceIn` directly away from `awayFrom` (e.g. the enemy unit's centre). */
export function pathAwayFrom(state: TableState, unitId: string, awayFrom: PointIn, distanceIn: number): StraightPath | undefined {
  const from = unitCentreIn(state, unitId);
  if (!from) return undefined;
  const dx = from.xIn - awayFrom.xIn;
  const dy = from.yIn - awayFrom.yIn;
  const heading = dx === 0 && dy === 0 ? 270 : vectorToHeadingDeg(dx, dy);
  return straightPath(state, from, heading, distanceIn);
}
