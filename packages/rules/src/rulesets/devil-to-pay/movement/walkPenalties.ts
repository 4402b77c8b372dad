/**
 * The Devil to Pay (2018), MOVE: Terrain Penalties along one straight path. `walkPenalties` is the rule as
 * plain data in and out (the rulebook's fence example is a test); the reach walk (`reachWalk.ts`) takes the
 * same steps over its typed-array events.
 */

/** Something met on the way: pay `penaltyIn` to cross it, or stop there when `stop` is set. */
export interface PathEvent {
  /** Displacement of the unit when it meets the obstacle, inches. */
  readonly atIn: number;
  readonly penaltyIn: number;
  /** The unit may not cross (impassable terrain, enemy exclusion, table edge). */
  readonly stop?: boolean;
  readonly label: string;
}

export interface PathWalk {
  /** How far the unit gets, inches of displacement. */
  readonly reachIn: number;
  /** The obstacle it stopped at, if any. */
  readonly stoppedBy?: string;
  /** Penalties paid on the way, inches. */
  readonly paidIn: number;
}

/**
 * Walk a straight path paying penalties when obstacles are met (Move: Terrain Penalties): "When a unit moves
 * and does not have enough movement to overcome an obstacle it stops" at it.
 *
 * @param allowanceIn movement allowance, inches of path
 * @param events obstacles on the way (any order)
 * @param pathPerDisplacement inches of path used per inch of displacement (1 for a straight move; more
 *   when the path wheels)
 * @param maxDisplacementIn how far the path could go on open ground, inches (default allowance / ratio)
 * @example walkPenalties(12, [{ atIn: 10, penaltyIn: 3, label: 'fence' }]).reachIn // 10 (stops at the fence)
 */
export function walkPenalties(allowanceIn: number, events: readonly PathEvent[], pathPerDisplacement = 1, maxDisplacementIn?: number): PathWalk {
  const k = pathPerDisplacement;
  let budget = allowanceIn;
  let paid = 0;
  let limit = maxDisplacementIn ?? allowanceIn / k;
  const sorted = [...events].sort((a, b) => a.atIn - b.atIn);
  for (const e of sorted) {
    const at = Math.max(0, e.atIn);
    // Out of movement before reaching it (strictly: reaching it exactly with nothing left is stopping there).
    if (at * k >= budget || at >= limit) break;
    if (e.stop) return { reachIn: at, stoppedBy: e.label, paidIn: paid };
    if (budget - at * k < e.penaltyIn) return { reachIn: at, stoppedBy: e.label, paidIn: paid };
    budget -= e.penaltyIn;
    paid += e.penaltyIn;
  }
  limit = Math.min(limit, budget / k);
  return { reachIn: Math.max(0, limit), paidIn: paid };
}
