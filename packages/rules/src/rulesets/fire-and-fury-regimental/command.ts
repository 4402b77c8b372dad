/**
 * Command radius (QRS II, Maneuver Table, Command Radius; Maneuver Die Roll Modifiers, Provisional Command):
 * 8" with a clear line of sight; 4" through dense woods, in twilight or fog, or when the leader is attached
 * (the table state cannot say a leader is dismounted). An artillery commander (every unit of his brigade is
 * guns) commands only guns, provisionally too.
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
import { closestPointsBetweenPolygons, polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { pointInPolygon, segmentTouchesPolygonBoundary } from '../../geometry/intersect.ts';
import { boxesGapIn, pointsBoundingBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import type { FfrContext, FfrUnitInfo } from './context.ts';
import { query } from '../../engine/incremental/query.ts';
import { COMMAND_RADIUS } from './tables/commandTable.ts';
import { DENSE_WOODS } from './tables/terrainClasses.ts';
import { inchesText } from './inchesText.ts';

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

export interface LeaderPlace {
  readonly commander: Commander;
  readonly polygon: readonly PointIn[];
  readonly box: BoundingBoxIn;
  readonly centre: PointIn;
  readonly attachedToUnitId?: string;
  /**
   * An artillery commander: every unit of his brigade on the table is artillery. He commands only guns
   * ("except for artillery commanders who can only command guns", Provisional Command).
   */
  readonly artilleryOnly: boolean;
}

/** The commander a unit's status says is attached to it (`status.attachedCommanderId`), if any. */
const attachedCommanderQuery = query('ffr/attached-commander', (ctx: FfrContext, unitId): string | undefined => ctx.t.unit(unitId)?.status?.attachedCommanderId);

/** Which unit each commander is attached to by the units' statuses, the last one winning. */
export const attachmentsQuery = query(
  'ffr/attachments',
  (ctx: FfrContext): [commanderId: string, unitId: string][] => {
    const out: [string, string][] = [];
    for (const id of ctx.t.unitIds()) {
      const c = ctx.t.get(attachedCommanderQuery, id);
      if (c) out.push([c, id]);
    }
    return out;
  },
  { equal: 'plain' },
);

/** Where each commander is: its own stand, else the reference stand of the unit it is attached to. */
export const leaderPlacesQuery = query(
  'ffr/leader-places',
  (ctx: FfrContext): LeaderPlace[] => {
    const attachedBy = new Map(ctx.t.get(attachmentsQuery));
    const armsOfBrigade = new Map<string, Set<string>>();
    for (const id of ctx.t.unitIds()) {
      const u = ctx.t.unit(id);
      if (!u?.brigadeId) continue;
      const key = `${u.side}\u0000${u.brigadeId}`;
      if (!armsOfBrigade.has(key)) armsOfBrigade.set(key, new Set());
      armsOfBrigade.get(key)!.add(u.arm);
    }
    const out: LeaderPlace[] = [];
    for (const c of ctx.t.commanders()) {
      const attachedToUnitId = c.attachedToUnitId ?? attachedBy.get(c.id);
      const stand = c.standId ? ctx.t.stand(c.standId) : undefined;
      const host = attachedToUnitId ? ctx.unit(attachedToUnitId) : undefined;
      const at = stand ?? host?.formation.reference;
      if (!at) continue;
      const polygon = standPolygon(at);
      const arms = armsOfBrigade.get(`${c.side}\u0000${c.brigadeId}`);
      const artilleryOnly = arms !== undefined && arms.size === 1 && arms.has('artillery');
      out.push({ commander: c, polygon, box: pointsBoundingBox(polygon), centre: standCenter(at), ...(attachedToUnitId ? { attachedToUnitId } : {}), artilleryOnly });
    }
    return out;
  },
  { equal: 'plain' },
);

/** One commander's place (undefined when he is nowhere on the table). */
export const leaderPlaceQuery = query('ffr/leader-place', (ctx: FfrContext, commanderId): LeaderPlace | undefined => ctx.t.get(leaderPlacesQuery).find((l) => l.commander.id === commanderId), {
  equal: 'plain',
});

function throughDenseWoods(ctx: FfrContext, a: PointIn, b: PointIn): boolean {
  const minX = Math.min(a.xIn, b.xIn), maxX = Math.max(a.xIn, b.xIn), minY = Math.min(a.yIn, b.yIn), maxY = Math.max(a.yIn, b.yIn);
  return ctx.areas().some(
    (ar) =>
      DENSE_WOODS.includes(ar.kind) &&
      // A line whose box misses the area's neither starts, ends nor passes in it.
      !(maxX < ar.box.minXIn || minX > ar.box.maxXIn || maxY < ar.box.minYIn || minY > ar.box.maxYIn) &&
      (pointInPolygon(a, ar.vertices) || pointInPolygon(b, ar.vertices) || segmentTouchesPolygonBoundary(a, b, ar.vertices)),
  );
}


/** Each leader's command radius circle. */
export function commandCircles(ctx: FfrContext, leaders: readonly LeaderPlace[]): Shape[] {
  const twilight = ctx.param('visibility') === 'twilight-or-fog';
  return leaders.map((l): Shape => {
    const reduced = twilight || l.attachedToUnitId !== undefined;
    return {
      kind: 'circle',
      id: `command/radius/${l.commander.id}`,
      layer: 'command',
      style: 'link',
      side: l.commander.side,
      center: l.centre,
      radiusIn: reduced ? COMMAND_RADIUS.reducedIn : COMMAND_RADIUS.clearIn,
    };
  });
}

/** A leader's nearest approach to a unit: the distance, the radius that applies there, and the points. */
interface Hit {
  readonly l: LeaderPlace;
  readonly d: number;
  readonly radius: number;
  readonly from: PointIn;
  readonly to: PointIn;
}

/**
 * Where leader `l` comes nearest to the unit's stands (`targets`, with their boxes), if it can matter: its own
 * brigade's or attached leader always, another leader only within the 8" radius.
 */
function leaderHit(ctx: FfrContext, l: LeaderPlace, unit: FfrUnitInfo['unit'], targets: readonly (readonly PointIn[])[], targetBoxes: readonly BoundingBoxIn[], twilight: boolean): Hit | undefined {
  let best: Hit | undefined;
  const keep = l.attachedToUnitId === unit.id || (l.commander.brigadeId === unit.brigadeId && unit.brigadeId !== undefined);
  for (let k = 0; k < targets.length; k++) {
    // Cheap lower bound first: most leader-stand pairs are far apart and need no exact distance.
    const lower = boxesGapIn(l.box, targetBoxes[k]!);
    if (best ? lower >= best.d : !keep && lower > COMMAND_RADIUS.clearIn) continue;
    const poly = targets[k]!;
    // The exact distance, which makes no points, first: another brigade's leader counts only within the
    // radius, and a stand no nearer than the best so far is not chosen (a hair of slack for rounding).
    if (l.attachedToUnitId !== unit.id) {
      const exactIn = polygonToPolygonDistanceIn(l.polygon, poly);
      if ((!keep && exactIn > COMMAND_RADIUS.clearIn + 1e-6) || (best && exactIn > best.d + 1e-6)) continue;
    }
    const cp = closestPointsBetweenPolygons(l.polygon, poly);
    const d = l.attachedToUnitId === unit.id ? 0 : cp.distanceIn;
    const dense = throughDenseWoods(ctx, l.centre, cp.onB);
    const radius = twilight || dense || l.attachedToUnitId !== undefined ? COMMAND_RADIUS.reducedIn : COMMAND_RADIUS.clearIn;
    if (!best || d < best.d) best = { l, d, radius, from: cp.onA, to: cp.onB };
  }
  return best;
}

/** Largest gap between two units still "contiguous" in a line of march, inches (a camera's read of touching). */
export const LINE_OF_MARCH_GAP_IN = 0.5;

/** Units that march in a line of march: march columns and limbered guns (reading, see the README). */
function marching(info: FfrUnitInfo): boolean {
  return info.formation.id === 'march-column' || (info.unit.arm === 'artillery' && info.formation.limbered);
}

/** The marching units of the same side whose stands touch this marching unit's (within `LINE_OF_MARCH_GAP_IN`). */
export const marchNeighboursQuery = query(
  'ffr/march-neighbours',
  (ctx: FfrContext, unitId): string[] => {
    const info = ctx.unit(unitId);
    if (!info || !marching(info)) return [];
    const m = LINE_OF_MARCH_GAP_IN + 1e-6;
    const box = { minXIn: info.box.minXIn - m, minYIn: info.box.minYIn - m, maxXIn: info.box.maxXIn + m, maxYIn: info.box.maxYIn + m };
    const out = new Set<string>();
    for (const { info: other, k } of ctx.unitStandsIn(box, info.unit.side, false)) {
      if (other.unit.id === unitId || out.has(other.unit.id) || !marching(other)) continue;
      const poly = other.polygons[k]!;
      if (info.polygons.some((p) => polygonToPolygonDistanceIn(p, poly) <= LINE_OF_MARCH_GAP_IN + 1e-9)) out.add(other.unit.id);
    }
    return [...out].sort();
  },
  { equal: 'plain' },
);

/** The contiguous line of march the unit is part of (its own id included), empty when it does not march. */
function lineOfMarch(ctx: FfrContext, unitId: string): Set<string> {
  const line = new Set<string>();
  const todo = [unitId];
  while (todo.length > 0) {
    const id = todo.pop()!;
    const next = ctx.t.get(marchNeighboursQuery, id);
    if (id === unitId && next.length === 0) return line;
    line.add(id);
    for (const n of next) if (!line.has(n)) todo.push(n);
  }
  return line;
}

/** One unit's command: its state, the leader it answers to and the link drawn to it. Reads the unit and the leaders only. */
export function unitCommand(ctx: FfrContext, leaders: readonly LeaderPlace[], info: FfrUnitInfo): { command: UnitCommand; link?: Shape } {
  const twilight = ctx.param('visibility') === 'twilight-or-fog';
  const toCommandStand = ctx.param('command-radius-to') === 'command-stand';
  const unit = info.unit;
  const targets: readonly (readonly PointIn[])[] = toCommandStand ? [standPolygon(info.formation.reference)] : info.polygons;
  const targetBoxes = toCommandStand ? [pointsBoundingBox(targets[0]!)] : info.polygonBoxes;
  const attached = leaders.find((l) => l.attachedToUnitId === unit.id);
  const hits: Hit[] = [];
  const brigade = unit.brigadeId;
  // The unit's own brigade leaders first: within the radius of one, the other leaders are never looked at.
  for (const l of leaders) {
    if (l.commander.side !== unit.side || brigade === undefined || l.commander.brigadeId !== brigade) continue;
    const h = leaderHit(ctx, l, unit, targets, targetBoxes, twilight);
    if (h) hits.push(h);
  }
  const own = hits[0];
  if (!own || own.d > own.radius + 1e-9) {
    for (const l of leaders) {
      if (l.commander.side !== unit.side || (brigade !== undefined && l.commander.brigadeId === brigade)) continue;
      // "artillery commanders ... can only command guns" (Provisional Command).
      if (l.artilleryOnly && unit.arm !== 'artillery') continue;
      const h = leaderHit(ctx, l, unit, targets, targetBoxes, twilight);
      if (h) hits.push(h);
    }
  }
  const within = hits.filter((h) => h.d <= h.radius + 1e-9).sort((a, b) => a.d - b.d || (a.l.commander.id < b.l.commander.id ? -1 : 1));
  // "Attached to a contiguous line of march" (Command Radius): a leader attached to a unit of the unit's
  // line of march commands it wherever it is in the line.
  const line = lineOfMarch(ctx, unit.id);
  const byLine: Hit[] = [];
  if (line.size > 1) {
    const to = standCenter(info.formation.reference);
    for (const l of leaders) {
      if (l.commander.side !== unit.side || l.attachedToUnitId === undefined || l.attachedToUnitId === unit.id || !line.has(l.attachedToUnitId)) continue;
      if (l.artilleryOnly && unit.arm !== 'artillery' && l.commander.brigadeId !== brigade) continue;
      byLine.push({ l, d: 0, radius: COMMAND_RADIUS.reducedIn, from: l.centre, to });
    }
    byLine.sort((a, b) => (a.l.commander.id < b.l.commander.id ? -1 : 1));
  }
  const ownByLine = byLine.find((h) => brigade !== undefined && h.l.commander.brigadeId === brigade);
  let state: CommandState;
  let chosen: Hit | undefined;
  let why: string;
  if (own && own.d <= own.radius + 1e-9) {
    state = 'in-command';
    chosen = own;
    why = `within ${own.radius}" of ${own.l.commander.name}`;
  } else if (ownByLine) {
    state = 'in-command';
    chosen = ownByLine;
    why = `${ownByLine.l.commander.name} is attached to its contiguous line of march`;
  } else if (within.length === 0 && byLine.length > 0) {
    state = 'provisional';
    chosen = byLine[0]!;
    why = `${chosen.l.commander.name}, not its own leader, is attached to its contiguous line of march`;
  } else if (within.length > 0) {
    state = 'provisional';
    chosen = within[0]!;
    why = `within ${chosen.radius}" of ${chosen.l.commander.name}, not its own leader`;
  } else {
    state = 'out-of-command';
    chosen = own;
    why = own ? `${inchesText(own.d)}" from ${own.l.commander.name}, radius ${own.radius}"` : 'no leader of its side within radius';
  }
  const reading: CommandReading = {
    brigadeFormationUnitIds: [],
    ...(state !== 'out-of-command' && chosen ? { commanderInRangeId: chosen.l.commander.id } : {}),
    ...(attached ? { attachedCommanderId: attached.commander.id } : {}),
    inCommand: state !== 'out-of-command',
    ...(chosen ? { commandRadiusIn: chosen.radius, commanderDistanceIn: chosen.d } : {}),
  };
  const link: Shape | undefined = chosen
    ? {
        kind: 'polyline',
        id: `command/link/${chosen.l.commander.id}/${unit.id}`,
        layer: 'command',
        style: state === 'out-of-command' ? 'link-broken' : 'link',
        unitId: unit.id,
        side: unit.side,
        points: [chosen.from, chosen.to],
      }
    : undefined;
  const command: UnitCommand = {
    reading,
    state,
    ...(state !== 'out-of-command' && chosen ? { leader: chosen.l.commander } : {}),
    ...(attached ? { attachedLeader: attached.commander } : {}),
    why,
  };
  return link ? { command, link } : { command };
}
