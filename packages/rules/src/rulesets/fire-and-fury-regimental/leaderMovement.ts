/**
 * A leader's own move (QRS II, Figure 2 Movement Rate, the Leader rows; Player Turn Sequence, Maneuver Phase
 * step d, "Move detached leaders"): from his own stand a mounted leader goes 24" over open ground, 20" broken,
 * 12" rough, at the slowest ground crossed (Road Movement), never past an enemy stand, a river or the table
 * edge. A leader attached to a unit moves with it and has no reach of his own. The table state cannot say a
 * leader is dismounted (a commander's stand has the role 'commander' only), so the Mounted row is used. A
 * leader touching a road also gets the road reach, his open-ground rate x1.5 on a good road ("x1.5 for
 * leaders", Road Movement), and one who reaches a road during his move goes on along it.
 */
import type { Shape } from '../../engine/shapes.ts';
import type { FfrContext, PolygonBox } from './context.ts';
import { leaderPlaceQuery, type LeaderPlace } from './command.ts';
import { enemyStandsNear, reachPolygon, roadEntryReach, roadRateFor, roadReach, touchedRoadIds } from './movement.ts';
import { query } from '../../engine/incremental/query.ts';
import { MOVEMENT_RATES, ROAD_BONUS, type MovementRow } from './tables/movementRates.ts';
import { pointsBoundingBox } from '../../geometry/polygon.ts';

const rowRates = (row: MovementRow) => ({ open: row.open.full, broken: row.broken.full, rough: row.rough.full });
/** The farthest a leader moves in one maneuver, mounted on a good road: what his enemy look-up must cover. */
const LEADER_MOVE_MAX_IN = MOVEMENT_RATES['leader-mounted'].open.full * ROAD_BONUS.leaders;

/** The enemy stands within a leader's move of his place (undefined for a leader not on the table). */
export const leaderEnemyStandsQuery = query(
  'ffr/leader-enemy-stands',
  (ctx: FfrContext, commanderId): PolygonBox[] | undefined => {
    const place = ctx.t.get(leaderPlaceQuery, commanderId);
    return place ? enemyStandsNear(ctx, place.box, place.commander.side, LEADER_MOVE_MAX_IN) : undefined;
  },
  { equal: 'plain' },
);

/** A leader's own reach and, touching a road, his road reach (none for one attached to a unit). */
export function leaderShapes(ctx: FfrContext, place: LeaderPlace): Shape[] {
  const c = place.commander;
  if (place.attachedToUnitId !== undefined || c.standId === undefined) return [];
  const row = MOVEMENT_RATES['leader-mounted'];
  const vertices = reachPolygon(ctx, ctx.t.get(leaderEnemyStandsQuery, c.id) ?? [], place.centre, rowRates(row));
  const out: Shape[] = [{ kind: 'polygon', id: `movement/leader/${c.id}/reach`, layer: 'movement', style: 'reach', side: c.side, vertices }];
  if (ctx.terrain().roads.length === 0) return out;
  const road = roadRateFor(ctx, 'leader', row);
  const mover = { centre: place.centre, box: place.box, polygons: [place.polygon], polygonBoxes: [pointsBoundingBox(place.polygon)] };
  const touched = touchedRoadIds(ctx, mover);
  roadReach(ctx, mover, road.inches, touched).forEach((points, i) => {
    out.push({ kind: 'polyline', id: `movement/leader/${c.id}/road/${i}`, layer: 'movement', style: 'reach-road', side: c.side, points });
  });
  // "A march column, limbered battery, or leader also can begin moving on a road if it later makes contact with the road."
  if (road.bonus > 1) {
    roadEntryReach(ctx, mover, rowRates(row), road.bonus, touched).forEach((points, i) => {
      out.push({ kind: 'polyline', id: `movement/leader/${c.id}/road-entry/${i}`, layer: 'movement', style: 'reach-road', side: c.side, points });
    });
  }
  return out;
}
