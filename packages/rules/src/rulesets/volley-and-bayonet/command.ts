/**
 * Command and Control (pp. 1-2): a stand is in command when, at the start of the turn, it is within 6" of a
 * superior commander (its brigade's commander, or one attached to its unit) or 3" of its own unit's Unit
 * Commander; command spreads to every stand of the unit touching an in-command stand, directly or through
 * other stands of the unit; any artillery stand is in command within range of any commander of its side.
 * Distances are nearest point to nearest point of the two bases (the plain reading of "within").
 */
import type { CommandReading, EvaluationWarning } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import { appendAll } from '../../engine/appendAll.ts';
import type { PointIn } from '../../model/units.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { boxesGapIn, offsetConvexPolygon } from '../../geometry/polygon.ts';
import { boxesApart, superiorTo, type VbContext, type VbStand, type VbUnit } from './context.ts';
import { COMMAND_SOURCE, SUPERIOR_COMMAND_RADIUS_IN, UNIT_COMMANDER_RADIUS_IN } from './tables/morale.ts';

/** Stands closer than this count as touching (tracked bases never quite meet; not a rule). */
export const TOUCH_TOLERANCE_IN = 0.1;

interface Giver {
  /** Commander id (superior) or the unit commander's stand id. */
  readonly id: string;
  readonly stand: VbStand;
  readonly radiusIn: number;
  readonly superior: boolean;
}

export interface CommandResult {
  readonly readings: ReadonlyMap<string, CommandReading>;
  /** Stand id → in command at the start of the turn. */
  readonly standInCommand: ReadonlyMap<string, boolean>;
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
}

/** Who may put the unit's stands in command, and at what radius. */
export function commandGivers(ctx: VbContext, info: VbUnit): Giver[] {
  const givers: Giver[] = [];
  const u = info.unit;
  const artillery = info.category === 'artillery';
  for (const c of ctx.commanders) {
    if (!c.stand || c.commander.side !== u.side) continue;
    const superior = artillery || superiorTo(c.commander, info);
    if (superior) givers.push({ id: c.commander.id, stand: c.stand, radiusIn: SUPERIOR_COMMAND_RADIUS_IN, superior: true });
  }
  // "A unit commander can never be used to put stands of other formations into command", except for
  // artillery, which any commander of its side commands within his range.
  const unitCommanders = artillery ? ctx.unitCommandersOf(u.side) : info.unitCommanders;
  for (const s of unitCommanders) givers.push({ id: s.stand.id, stand: s, radiusIn: UNIT_COMMANDER_RADIUS_IN, superior: false });
  return givers;
}

function polyline(id: string, unitId: string, side: string, style: 'link' | 'link-broken', a: PointIn, b: PointIn): Shape {
  return { kind: 'polyline', id, layer: 'command', style, unitId, side, points: [a, b] };
}

/** One unit's command: its reading, each stand in or out, its zones and links, its warning. */
export interface UnitCommand {
  readonly reading: CommandReading;
  /** Stand id and whether it is in command, the unit's combat stands then its unit commanders. */
  readonly standFlags: readonly (readonly [string, boolean])[];
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
}

/** The superior commanders' zones (drawn once, before the units' own shapes). */
export function commanderZones(ctx: VbContext): Shape[] {
  const shapes: Shape[] = [];
  for (const c of ctx.commanders) {
    if (!c.stand) continue;
    shapes.push({ kind: 'polygon', id: `command/zone/${c.commander.id}`, layer: 'command', style: 'link', side: c.commander.side, vertices: offsetConvexPolygon(c.stand.corners, SUPERIOR_COMMAND_RADIUS_IN) });
  }
  return shapes;
}

export function unitCommand(ctx: VbContext, info: VbUnit): UnitCommand {
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  const standFlags: [string, boolean][] = [];
  const u = info.unit;
  for (const s of info.unitCommanders) {
    shapes.push({ kind: 'polygon', id: `command/uc-zone/${s.stand.id}`, layer: 'command', style: 'link', unitId: u.id, side: u.side, vertices: offsetConvexPolygon(s.corners, UNIT_COMMANDER_RADIUS_IN) });
  }
  const givers = commandGivers(ctx, info);
  const stands = info.combatStands;
  const inCmd = new Array<boolean>(stands.length).fill(false);
  let best: { giver: Giver; d: number; inRange: boolean } | undefined;
  // The superior commander who puts a stand of it in command, nearest first (for `commanderInRangeId`).
  let superiorInRange: { id: string; d: number } | undefined;
  for (let i = 0; i < stands.length; i++) {
    const s = stands[i]!;
    // The giver that counts: the nearest one in range, else the nearest one at all.
    let nearest: { giver: Giver; d: number; inRange: boolean } | undefined;
    for (const g of givers) {
      // A giver whose box is out of its radius is out of range; it can only count as the nearest out of
      // range, so once one is found it is measured only if its box is nearer (boxes bound the distance).
      if (nearest) {
        const gapIn = boxesGapIn(s.box, g.stand.box) - 1e-9;
        if (gapIn > g.radiusIn + 1e-9 && (nearest.inRange || gapIn >= nearest.d)) continue;
      }
      const d = polygonToPolygonDistanceIn(s.corners, g.stand.corners);
      const inRange = d <= g.radiusIn + 1e-9;
      if (inRange) inCmd[i] = true;
      if (inRange && g.superior && (!superiorInRange || d < superiorInRange.d)) superiorInRange = { id: g.id, d };
      const better = !nearest || (inRange && !nearest.inRange) || (inRange === nearest.inRange && d < nearest.d);
      if (better) nearest = { giver: g, d, inRange };
    }
    if (nearest && (!best || (nearest.inRange && !best.inRange) || (nearest.inRange === best.inRange && nearest.d < best.d))) best = nearest;
    if (inCmd[i] && nearest) shapes.push(polyline(`command/link/${s.stand.id}`, u.id, u.side, 'link', nearest.giver.stand.center, s.center));
  }
  // Spread through touching stands of the unit (a flood fill over the touch graph).
  const queue: number[] = [];
  for (let i = 0; i < inCmd.length; i++) if (inCmd[i]) queue.push(i);
  while (queue.length > 0) {
    const i = queue.pop()!;
    for (let j = 0; j < stands.length; j++) {
      const t = stands[j]!;
      if (inCmd[j] || boxesApart(stands[i]!.box, t.box, TOUCH_TOLERANCE_IN)) continue;
      if (polygonToPolygonDistanceIn(stands[i]!.corners, t.corners) <= TOUCH_TOLERANCE_IN) {
        inCmd[j] = true;
        queue.push(j);
        shapes.push(polyline(`command/chain/${t.stand.id}`, u.id, u.side, 'link', stands[i]!.center, t.center));
      }
    }
  }
  const out: string[] = [];
  for (let i = 0; i < stands.length; i++) {
    const s = stands[i]!;
    standFlags.push([s.stand.id, inCmd[i]!]);
    if (!inCmd[i]) {
      out.push(s.stand.id);
      let nearest: Giver | undefined;
      let nd = Infinity;
      for (const g of givers) {
        if (boxesGapIn(s.box, g.stand.box) - 1e-9 >= nd) continue;
        const d = polygonToPolygonDistanceIn(s.corners, g.stand.corners);
        if (d < nd) (nd = d), (nearest = g);
      }
      if (nearest) shapes.push(polyline(`command/broken/${s.stand.id}`, u.id, u.side, 'link-broken', nearest.stand.center, s.center));
    }
  }
  for (const s of info.unitCommanders) standFlags.push([s.stand.id, true]);
  const inCommand = stands.length > 0 && out.length === 0;
  if (stands.length > 0 && out.length > 0) {
    warnings.push({
      code: 'command/out-of-command',
      message: `${u.name}: ${out.length === stands.length ? 'out of command' : `stands ${out.join(', ')} out of command`}: half movement, disordered if they move, never toward a visible enemy, no recovery from disorder, cannot go stationary (${COMMAND_SOURCE.replace('(p. 1)', '(p. 2)')}).`,
      unitId: u.id,
    });
  }
  const b = best as { giver: Giver; d: number; inRange: boolean } | undefined;
  const reading: CommandReading = {
    brigadeFormationUnitIds: [],
    ...(superiorInRange ? { commanderInRangeId: (superiorInRange as { id: string }).id } : {}),
    ...(u.status?.attachedCommanderId !== undefined ? { attachedCommanderId: u.status.attachedCommanderId } : {}),
    inCommand,
    ...(b ? { commandRadiusIn: b.giver.radiusIn, commanderDistanceIn: b.d } : {}),
  };
  return { reading, standFlags, shapes, warnings };
}

/** Command for every unit: `unitCommand` for each, put together (commander zones first). */
export function evaluateCommand(ctx: VbContext, perUnit: (info: VbUnit) => UnitCommand = (info) => unitCommand(ctx, info)): CommandResult {
  const readings = new Map<string, CommandReading>();
  const standInCommand = new Map<string, boolean>();
  const shapes: Shape[] = commanderZones(ctx);
  const warnings: EvaluationWarning[] = [];
  for (const info of ctx.unitList) {
    const c = perUnit(info);
    appendAll(shapes, c.shapes);
    appendAll(warnings, c.warnings);
    // An index loop: no iterator or destructuring per stand (this runs for every stand on every update).
    const flags = c.standFlags;
    for (let i = 0; i < flags.length; i++) standInCommand.set(flags[i]![0], flags[i]![1]);
    readings.set(info.unit.id, c.reading);
  }
  return { readings, standInCommand, shapes, warnings };
}
