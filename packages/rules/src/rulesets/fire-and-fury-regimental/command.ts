/**
 * Command radius (QRS II, Maneuver Table, Command Radius; Maneuver Die Roll Modifiers, Provisional Command):
 * 8" with a clear line of sight; 4" through dense woods, in twilight or fog, or when the leader is attached.
 * A unit within its own brigade leader's radius is in command; within another leader's of its side it is
 * under provisional command; outside every radius it is out of command.
 *
 * Leader ratings map from the table state's commander quality: superb = Gallant, capable = Able, weak = Poor.
 */
import type { CommandReading } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Commander } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { standCenter, standPolygon } from '../../geometry/footprint.ts';
import { closestPointsBetweenPolygons } from '../../geometry/distance.ts';
import { pointInPolygon, segmentTouchesPolygonBoundary } from '../../geometry/intersect.ts';
import { boxesGapIn, pointsBoundingBox } from '../../geometry/polygon.ts';
import type { FfrContext, FfrUnitInfo } from './context.ts';
import { COMMAND_RADIUS } from './tables/commandTable.ts';
import { DENSE_WOODS } from './tables/terrainClasses.ts';

export type CommandState = 'in-command' | 'provisional' | 'out-of-command';

export interface UnitCommand {
  readonly reading: CommandReading;
  readonly state: CommandState;
  /** The leader whose check the unit joins (own leader, else the nearest other), if any. */
  readonly leader?: Commander;
  readonly attachedLeader?: Commander;
  readonly why: string;
}

export type LeaderRating = 'gallant' | 'able' | 'poor';

export function leaderRating(c: Commander): LeaderRating {
  return c.quality === 'superb' ? 'gallant' : c.quality === 'weak' ? 'poor' : 'able';
}

interface LeaderPlace {
  readonly commander: Commander;
  readonly polygon: readonly PointIn[];
  readonly centre: PointIn;
  readonly attachedToUnitId?: string;
}

function leaderPlaces(ctx: FfrContext): LeaderPlace[] {
  const attachedBy = new Map<string, string>();
  for (const u of ctx.state.units) if (u.status?.attachedCommanderId) attachedBy.set(u.status.attachedCommanderId, u.id);
  const out: LeaderPlace[] = [];
  for (const c of ctx.commanders) {
    const attachedToUnitId = c.attachedToUnitId ?? attachedBy.get(c.id);
    const stand = c.standId ? ctx.standById.get(c.standId) : undefined;
    const host = attachedToUnitId ? ctx.units.get(attachedToUnitId) : undefined;
    const at = stand ?? host?.formation.reference;
    if (!at) continue;
    out.push({ commander: c, polygon: standPolygon(at), centre: standCenter(at), ...(attachedToUnitId ? { attachedToUnitId } : {}) });
  }
  return out;
}

function throughDenseWoods(ctx: FfrContext, a: PointIn, b: PointIn): boolean {
  return ctx.areas.some((ar) => DENSE_WOODS.includes(ar.kind) && (pointInPolygon(a, ar.vertices) || pointInPolygon(b, ar.vertices) || segmentTouchesPolygonBoundary(a, b, ar.vertices)));
}


export interface CommandResult {
  readonly byUnit: ReadonlyMap<string, UnitCommand>;
  readonly shapes: readonly Shape[];
}

export function evaluateCommand(ctx: FfrContext): CommandResult {
  const leaders = leaderPlaces(ctx);
  const twilight = ctx.param('visibility') === 'twilight-or-fog';
  const toCommandStand = ctx.param('command-radius-to') === 'command-stand';
  const byUnit = new Map<string, UnitCommand>();
  const shapes: Shape[] = [];
  for (const l of leaders) {
    const reduced = twilight || l.attachedToUnitId !== undefined;
    shapes.push({
      kind: 'circle',
      id: `command/radius/${l.commander.id}`,
      layer: 'command',
      style: 'link',
      side: l.commander.side,
      center: l.centre,
      radiusIn: reduced ? COMMAND_RADIUS.reducedIn : COMMAND_RADIUS.clearIn,
    });
  }
  for (const info of ctx.units.values()) {
    const unit = info.unit;
    const targets: readonly (readonly PointIn[])[] = toCommandStand ? [standPolygon(info.formation.reference)] : info.polygons;
    const attached = leaders.find((l) => l.attachedToUnitId === unit.id);
    type Hit = { l: LeaderPlace; d: number; radius: number; from: PointIn; to: PointIn };
    const hits: Hit[] = [];
    for (const l of leaders) {
      if (l.commander.side !== unit.side) continue;
      let best: Hit | undefined;
      const keep = l.attachedToUnitId === unit.id || (l.commander.brigadeId === unit.brigadeId && unit.brigadeId !== undefined);
      for (const poly of targets) {
        // Cheap lower bound first: most leader-stand pairs are far apart and need no exact distance.
        const lower = boxesGapIn(pointsBoundingBox(l.polygon), pointsBoundingBox(poly));
        if (best ? lower >= best.d : !keep && lower > COMMAND_RADIUS.clearIn) continue;
        const cp = closestPointsBetweenPolygons(l.polygon, poly);
        const d = l.attachedToUnitId === unit.id ? 0 : cp.distanceIn;
        const dense = throughDenseWoods(ctx, l.centre, cp.onB);
        const radius = twilight || dense || l.attachedToUnitId !== undefined ? COMMAND_RADIUS.reducedIn : COMMAND_RADIUS.clearIn;
        if (!best || d < best.d) best = { l, d, radius, from: cp.onA, to: cp.onB };
      }
      if (best) hits.push(best);
    }
    const own = hits.find((h) => h.l.commander.brigadeId === unit.brigadeId && unit.brigadeId !== undefined);
    const within = hits.filter((h) => h.d <= h.radius + 1e-9).sort((a, b) => a.d - b.d || (a.l.commander.id < b.l.commander.id ? -1 : 1));
    let state: CommandState;
    let chosen: Hit | undefined;
    let why: string;
    if (own && own.d <= own.radius + 1e-9) {
      state = 'in-command';
      chosen = own;
      why = `within ${own.radius}" of ${own.l.commander.name}`;
    } else if (within.length > 0) {
      state = 'provisional';
      chosen = within[0]!;
      why = `within ${chosen.radius}" of ${chosen.l.commander.name}, not its own leader`;
    } else {
      state = 'out-of-command';
      chosen = own;
      why = own ? `${own.d.toFixed(1)}" from ${own.l.commander.name}, radius ${own.radius}"` : 'no leader of its side within radius';
    }
    const reading: CommandReading = {
      brigadeFormationUnitIds: [],
      ...(state !== 'out-of-command' && chosen ? { commanderInRangeId: chosen.l.commander.id } : {}),
      ...(attached ? { attachedCommanderId: attached.commander.id } : {}),
      inCommand: state !== 'out-of-command',
      ...(chosen ? { commandRadiusIn: chosen.radius, commanderDistanceIn: chosen.d } : {}),
    };
    if (chosen) {
      shapes.push({
        kind: 'polyline',
        id: `command/link/${chosen.l.commander.id}/${unit.id}`,
        layer: 'command',
        style: state === 'out-of-command' ? 'link-broken' : 'link',
        unitId: unit.id,
        side: unit.side,
        points: [chosen.from, chosen.to],
      });
    }
    byUnit.set(unit.id, {
      reading,
      state,
      ...(state !== 'out-of-command' && chosen ? { leader: chosen.l.commander } : {}),
      ...(attached ? { attachedLeader: attached.commander } : {}),
      why,
    });
  }
  return { byUnit, shapes };
}
