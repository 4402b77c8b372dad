/**
 * A leader's own move (QRS II, Figure 2 Movement Rate, the Leader rows; Player Turn Sequence, Maneuver Phase
 * step d, "Move detached leaders"): from his own stand a mounted leader goes 24" over open ground, 20" broken,
 * 12" rough, at the slowest ground crossed (Road Movement), never past an enemy stand, a river or the table
 * edge. A leader attached to a unit moves with it and has no reach of his own. The table state does not say a
 * leader is dismounted, so the mounted row is used; the Road column is not drawn for leaders.
 */
import type { Shape } from '../../engine/shapes.ts';
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import type { FfrContext } from './context.ts';
import type { LeaderPlace } from './command.ts';
import { lookBoxOf, reachPolygon } from './movement.ts';
import { MOVEMENT_RATES } from './tables/movementRates.ts';

const LEADER_ROW = MOVEMENT_RATES['leader-mounted'];
const LEADER_RATES = { open: LEADER_ROW.open.full, broken: LEADER_ROW.broken.full, rough: LEADER_ROW.rough.full };
const LEADER_MOVE_MAX_IN = Math.max(LEADER_RATES.open, LEADER_RATES.broken, LEADER_RATES.rough);

export interface LeaderReach {
  readonly shape: Shape;
  /** The leader's box grown by his longest move: only an enemy there can change the reach. */
  readonly lookBox: BoundingBoxIn;
}

/** The reach of a leader on his own stand, or undefined for one attached to a unit. */
export function leaderReach(ctx: FfrContext, place: LeaderPlace): LeaderReach | undefined {
  const c = place.commander;
  if (place.attachedToUnitId !== undefined || c.standId === undefined) return undefined;
  const vertices = reachPolygon(ctx, c.side, place.centre, LEADER_RATES);
  return {
    shape: { kind: 'polygon', id: `movement/leader/${c.id}/reach`, layer: 'movement', style: 'reach', side: c.side, vertices },
    lookBox: lookBoxOf(place.box, LEADER_MOVE_MAX_IN),
  };
}
