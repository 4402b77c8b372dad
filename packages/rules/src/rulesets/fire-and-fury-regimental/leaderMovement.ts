/**
 * A leader's own move (QRS II, Figure 2 Movement Rate, the Leader rows; Player Turn Sequence, Maneuver Phase
 * step d, "Move detached leaders"): from his own stand a mounted leader goes 24" over open ground, 20" broken,
 * 12" rough, at the slowest ground crossed (Road Movement), never past an enemy stand, a river or the table
 * edge. A leader attached to a unit moves with it and has no reach of his own. The table state does not say a
 * leader is dismounted, so the mounted row is used; the Road column is not drawn for leaders.
 */
import type { Shape } from '../../engine/shapes.ts';
import type { FfrContext, PolygonBox } from './context.ts';
import { leaderPlaceQuery, type LeaderPlace } from './command.ts';
import { enemyStandsNear, reachPolygon } from './movement.ts';
import { query } from '../../engine/incremental/query.ts';
import { MOVEMENT_RATES } from './tables/movementRates.ts';

const LEADER_ROW = MOVEMENT_RATES['leader-mounted'];
const LEADER_RATES = { open: LEADER_ROW.open.full, broken: LEADER_ROW.broken.full, rough: LEADER_ROW.rough.full };
const LEADER_MOVE_MAX_IN = Math.max(LEADER_RATES.open, LEADER_RATES.broken, LEADER_RATES.rough);

/** The enemy stands within a leader's move of his place (undefined for a leader not on the table). */
export const leaderEnemyStandsQuery = query(
  'ffr/leader-enemy-stands',
  (ctx: FfrContext, commanderId): PolygonBox[] | undefined => {
    const place = ctx.t.get(leaderPlaceQuery, commanderId);
    return place ? enemyStandsNear(ctx, place.box, place.commander.side, LEADER_MOVE_MAX_IN) : undefined;
  },
  { equal: 'plain' },
);

/** The reach of a leader on his own stand, or undefined for one attached to a unit. */
export function leaderReach(ctx: FfrContext, place: LeaderPlace): Shape | undefined {
  const c = place.commander;
  if (place.attachedToUnitId !== undefined || c.standId === undefined) return undefined;
  const vertices = reachPolygon(ctx, ctx.t.get(leaderEnemyStandsQuery, c.id) ?? [], place.centre, LEADER_RATES);
  return { kind: 'polygon', id: `movement/leader/${c.id}/reach`, layer: 'movement', style: 'reach', side: c.side, vertices };
}
