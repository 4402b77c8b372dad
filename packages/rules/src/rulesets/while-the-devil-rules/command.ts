/**
 * Leaders and command (While the Devil Rules, Leaders and Command Control): a unit of a Leader's wing is
 * in command within 12" measured from any part of the Leader's base to any part of any base of the unit;
 * the army commander (`brigadeId` `army`) commands every unit of his side ("a Leader who has command of that
 * unit (their battle or army commander)", Actions);
 * a Leader moves 24"; per Initiative a Leader has the app's 1-4 activations plus his bonus (or minus his
 * penalty), read here from the commander's quality through the leader-bonus parameters.
 */
import type { CommandReading } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import { ARMY_COMMANDER_BRIGADE, type Commander } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { closestPointsBetweenPolygons } from '../../geometry/distance.ts';
import { offsetConvexPolygon } from '../../geometry/polygon.ts';
import { standCorners } from '../../geometry/footprint.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import { LEADER_BONUS } from './declarations.ts';
import type { UnitInfo, WtdrContext } from './context.ts';
import { LEADER_MOVE_IN, LEADER_MOVE_SOURCE } from './tables/movementTables.ts';

const COMMAND = 'Leaders and Command Control';
/** "Leaders have a command radius of 12 inches" (Leaders and Command Control). */
export const COMMAND_RADIUS_IN = 12;
/** The app's Command button gives "a number of activations (from 1 to 4)" (Turn Sequence). */
export const APP_ACTIVATIONS = [1, 4] as const;

/** The leader's bonus (activations) for his quality, from the parameters (defaults: +1, 0, -1). */
export function leaderBonus(ctx: WtdrContext, c: Commander): number {
  const v = rulesetValue(LEADER_BONUS[c.quality], ctx.parameters);
  return typeof v === 'number' ? v : 0;
}

/** The leaders' own shapes (radius, move, activations) and outlines: they depend on no unit. */
export interface LeaderParts {
  readonly polygons: ReadonlyMap<string, readonly PointIn[]>;
  readonly shapes: readonly Shape[];
}

export function leaderParts(ctx: WtdrContext): LeaderParts {
  const shapes: Shape[] = [];
  const polygons = new Map<string, readonly PointIn[]>();
  for (const c of ctx.commanders) {
    const stand = c.standId !== undefined ? ctx.t.stand(c.standId) : undefined;
    if (!stand) continue;
    const poly = standCorners(stand);
    polygons.set(c.id, poly);
    const bonus = leaderBonus(ctx, c);
    const lo = Math.max(0, APP_ACTIVATIONS[0] + bonus);
    const hi = Math.max(0, APP_ACTIVATIONS[1] + bonus);
    shapes.push({ id: `wtdr/leader/${c.id}/radius`, kind: 'polygon', layer: 'command', style: 'link', side: c.side, vertices: offsetConvexPolygon(poly, COMMAND_RADIUS_IN, 4) });
    shapes.push({ id: `wtdr/leader/${c.id}/move`, kind: 'circle', layer: 'movement', style: 'reach', side: c.side, center: { xIn: stand.pose.xIn, yIn: stand.pose.yIn }, radiusIn: LEADER_MOVE_IN });
    shapes.push({
      id: `wtdr/leader/${c.id}/label`,
      kind: 'label',
      layer: 'labels',
      style: 'label',
      side: c.side,
      at: { xIn: stand.pose.xIn, yIn: stand.pose.yIn - stand.depthIn },
      text: `${c.name}: ${lo}-${hi} activations (app 1-4 ${bonus >= 0 ? '+' : '−'}${Math.abs(bonus)}); move ${LEADER_MOVE_IN}" (${LEADER_MOVE_SOURCE})`,
    });
  }
  return { polygons, shapes };
}

/** Whether `c` commands the unit: the leader of its wing (its brigade), or its side's army commander. */
function commandsUnit(c: Commander, side: string, brigadeId: string | undefined): boolean {
  return c.side === side && (c.brigadeId === ARMY_COMMANDER_BRIGADE || (brigadeId !== undefined && c.brigadeId === brigadeId));
}

/**
 * One unit's command reading and its link to the nearest leader who commands it: its wing's or the army's
 * (depends on the unit and the leaders).
 */
export function unitCommand(ctx: WtdrContext, info: UnitInfo, leaders: LeaderParts): { reading: CommandReading; shape?: Shape } {
  const u = info.unit;
  const attached = info.attachedLeaderId;
  let best: { c: Commander; d: number; a: PointIn; b: PointIn } | undefined;
  for (const c of ctx.commanders) {
    if (!commandsUnit(c, u.side, u.brigadeId)) continue;
    const poly = leaders.polygons.get(c.id);
    if (!poly) continue;
    for (const s of info.stands) {
      const cp = closestPointsBetweenPolygons(poly, info.corners[s.id]!);
      if (!best || cp.distanceIn < best.d) best = { c, d: cp.distanceIn, a: cp.onA, b: cp.onB };
    }
  }
  const inCommand = best !== undefined && best.d <= COMMAND_RADIUS_IN + 1e-9;
  const reading: CommandReading = {
    brigadeFormationUnitIds: [],
    ...(inCommand ? { commanderInRangeId: best!.c.id } : {}),
    ...(attached !== undefined ? { attachedCommanderId: attached } : {}),
    inCommand,
    commandRadiusIn: COMMAND_RADIUS_IN,
    ...(best ? { commanderDistanceIn: best.d } : {}),
  };
  if (!best) return { reading };
  return { reading, shape: { id: `wtdr/${u.id}/command/${best.c.id}`, kind: 'polyline', layer: 'command', style: inCommand ? 'link' : 'link-broken', unitId: u.id, side: u.side, points: [best.a, best.b] } };
}

export const COMMAND_SOURCE = COMMAND;
