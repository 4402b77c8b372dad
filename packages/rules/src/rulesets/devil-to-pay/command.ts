/**
 * The Devil to Pay command (Actions and Orders p. 3; Commanders p. 6; Brigades p. 15): orders per turn,
 * the commander's order radius, brigade formation chains, and attached commanders.
 */
import type { CommandReading, CommanderReading } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Commander, CommanderQuality, Unit } from '../../model/tableState.ts';
import { closestPointsBetweenPolygons, polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { boxGapExceeds, type DtpContext, type StandInfo, type UnitInfo } from './context.ts';

/** A commander orders units of his brigade within 1½" of his stand (Commanders, Orders and Brigade Formation). */
export const ORDER_RADIUS_IN = 1.5;
/** Units of a brigade within 1½" of each other or the commander are in Brigade Formation (Commanders; Brigades). */
export const BRIGADE_LINK_IN = 1.5;
/** Orders per turn by commander quality: Superb 3, Capable 2, Weak 1 (Commanders, p. 6). */
export const COMMANDER_ORDERS: Readonly<Record<CommanderQuality, number>> = { superb: 3, capable: 2, weak: 1 };
/** Orders per turn: regiment or battery 2, independent 3 (Actions and Orders, p. 3). */
export const UNIT_ORDERS = { brigade: 2, independent: 3 } as const;

/** Sharpshooter units receive three orders instead of two (Optional Rules, Sharpshooters). */
export const SHARPSHOOTER_ORDERS = 3;

/** Orders a unit receives at each Reload (Turn Sequence 1a; Optional Rules, Sharpshooters). */
export function unitOrdersPerTurn(unit: Pick<Unit, 'independent' | 'brigadeId' | 'sharpshooters'>): number {
  if (unit.sharpshooters) return SHARPSHOOTER_ORDERS;
  return unit.independent || unit.brigadeId === undefined ? UNIT_ORDERS.independent : UNIT_ORDERS.brigade;
}

/** Orders a commander receives at each Reload (Turn Sequence 1a). */
export function commanderOrdersPerTurn(quality: CommanderQuality): number {
  return COMMANDER_ORDERS[quality];
}

const SRC_COMMANDER_ORDERS = 'Commanders, Orders and Brigade Formation (p. 6)';

/** The same list of commanders gives the same readings object (a session re-assembles often). Weak: no leak. */
const COMMANDER_READINGS = new WeakMap<readonly Commander[], Readonly<Record<string, CommanderReading>>>();

/**
 * Each commander's orders per turn by quality (Commanders: Superb 3, Capable 2, Weak 1), by commander id.
 * Whether he is on the table does not matter: a commander off the table still holds his orders.
 */
export function commanderReadings(commanders: readonly Commander[]): Readonly<Record<string, CommanderReading>> {
  let r = COMMANDER_READINGS.get(commanders);
  if (!r) {
    const out: Record<string, CommanderReading> = {};
    for (const c of commanders) {
      out[c.id] = { commanderId: c.id, ordersPerTurn: commanderOrdersPerTurn(c.quality), quality: c.quality, source: SRC_COMMANDER_ORDERS };
    }
    COMMANDER_READINGS.set(commanders, (r = out));
  }
  return r;
}

interface StandPair {
  readonly s: StandInfo;
  readonly t: StandInfo;
  readonly d: number;
}

/** Closest pair of stands between two sets within `limitIn` (edge to edge, box-pruned), or undefined. */
function closestPair(a: readonly StandInfo[], b: readonly StandInfo[], limitIn: number): StandPair | undefined {
  let best: StandPair | undefined;
  for (const s of a) {
    for (const t of b) {
      if (boxGapExceeds(s.box, t.box, limitIn)) continue;
      const d = polygonToPolygonDistanceIn(s.corners, t.corners);
      if (d <= limitIn && (!best || d < best.d)) best = { s, t, d };
    }
  }
  return best;
}

/** A link line between the closest points of a stand pair. */
function linkPoints(p: StandPair) {
  const cp = closestPointsBetweenPolygons(p.s.corners, p.t.corners);
  return [cp.onA, cp.onB];
}

export interface CommandResult {
  readonly readings: ReadonlyMap<string, CommandReading>;
  /** 'link' shapes: brigade formation links, commander order links, order radius circles. */
  readonly shapes: readonly Shape[];
}

interface Node {
  readonly id: string;
  readonly kind: 'unit' | 'commander';
  readonly stands: readonly StandInfo[];
  readonly side: string;
}

/** One brigade's part of the command pass: formation groups, units in the order radius, link shapes. */
export interface BrigadeCommand {
  /** Unit id → every unit id of its brigade formation (itself included), for groups of two or more. */
  readonly groupOf: ReadonlyMap<string, readonly string[]>;
  /** Unit id → commander id, for units the commander may order. */
  readonly inRange: ReadonlyMap<string, string>;
  readonly shapes: readonly Shape[];
}

/** Brigade ids in unit order, each with its units on the table (independent units left out). */
export function brigadesOf(ctx: DtpContext): Map<string, UnitInfo[]> {
  const byBrigade = new Map<string, UnitInfo[]>();
  for (const info of ctx.units.values()) {
    const b = info.unit.brigadeId;
    if (b === undefined || info.unit.independent || info.stands.length === 0) continue;
    if (!byBrigade.has(b)) byBrigade.set(b, []);
    byBrigade.get(b)!.push(info);
  }
  return byBrigade;
}

/**
 * The command pass for one brigade. Depends on the brigade's units, its commander, and which unit claims
 * that commander as attached.
 */
export function evaluateBrigade(ctx: DtpContext, brigadeId: string, members: readonly UnitInfo[]): BrigadeCommand {
  const shapes: Shape[] = [];
  const groupOf = new Map<string, string[]>();
  const inRange = new Map<string, string>();
  const units: Node[] = members.map((info) => ({ id: info.unit.id, kind: 'unit', stands: info.stands, side: info.unit.side }));
  const ci = ctx.commanderOfBrigade(brigadeId);
  const nodes = [...units];
  const cmdStand = ci?.stand;
  const attachedTo = ci?.commander.attachedToUnitId ?? [...ctx.units.values()].find((u) => u.attachedCommanderId === ci?.commander.id)?.unit.id;
  if (ci && cmdStand) {
    // Order radius: units within 1½" of the commander's stand; an attached commander only his own unit.
    for (const u of units) {
      const pair = closestPair([cmdStand], u.stands, attachedTo === u.id ? Infinity : ORDER_RADIUS_IN);
      if (pair && (attachedTo === undefined || attachedTo === u.id)) {
        inRange.set(u.id, ci.commander.id);
        shapes.push({ kind: 'polyline', id: `command/order/${ci.commander.id}/${u.id}`, layer: 'command', style: 'link', unitId: u.id, side: u.side, points: linkPoints(pair) });
      }
    }
    shapes.push({
      kind: 'circle',
      id: `command/radius/${ci.commander.id}`,
      layer: 'command',
      style: 'link',
      side: ci.commander.side,
      center: cmdStand.center,
      // Measured from the stand's edge: the round base's radius plus 1½".
      radiusIn: Math.max(cmdStand.stand.widthIn, cmdStand.stand.depthIn) / 2 + ORDER_RADIUS_IN,
    });
    if (attachedTo === undefined) nodes.push({ id: ci.commander.id, kind: 'commander', stands: [cmdStand], side: ci.commander.side });
  }
  // Union-find over 1½" links.
  const parent = nodes.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i]!, b = nodes[j]!;
      const pair = closestPair(a.stands, b.stands, BRIGADE_LINK_IN);
      if (!pair) continue;
      parent[find(i)] = find(j);
      // Commander links are drawn as order links above; unit-to-unit links here.
      if (a.kind === 'unit' && b.kind === 'unit') {
        shapes.push({ kind: 'polyline', id: `command/brigade/${a.id}/${b.id}`, layer: 'command', style: 'link', side: a.side, points: linkPoints(pair) });
      }
    }
  }
  const groups = new Map<number, string[]>();
  nodes.forEach((n, i) => {
    if (n.kind !== 'unit') return;
    const r = find(i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(n.id);
  });
  // "A brigade formation consists of at least two units from a brigade" (Brigades, Structure).
  for (const g of groups.values()) if (g.length >= 2) for (const id of g) groupOf.set(id, g);
  return { groupOf, inRange, shapes };
}

/**
 * Command readings for every unit and the links to draw. Independent units are outside brigade formation
 * and cannot use commander orders (Actions and Orders). An attached commander orders only his unit and does
 * not chain others into formation (Attached Commander Benefits).
 *
 * @param brigade computes one brigade (a session passes a cached version)
 * @param readingsFor the units to build readings for, asked once every brigade pass is done (a session's:
 *   the units that changed and those of brigades computed again, the others reading as before); every unit
 *   when not given. `readings` holds only the readings built (walking every unit, and a map of them all,
 *   per update were a measurable share of a session's time and allocation on a big table).
 */
export function evaluateCommand(
  ctx: DtpContext,
  brigade: (brigadeId: string, members: readonly UnitInfo[]) => BrigadeCommand = (b, m) => evaluateBrigade(ctx, b, m),
  readingsFor?: () => Iterable<UnitInfo>,
): CommandResult {
  const shapes: Shape[] = [];
  const passes: BrigadeCommand[] = [];
  // forEach, not for-of with destructuring: no [key, value] array per entry on every session update.
  brigadesOf(ctx).forEach((members, brigadeId) => {
    const r = brigade(brigadeId, members);
    passes.push(r);
    for (const sh of r.shapes) shapes.push(sh);
  });
  // The brigades' groups and commanders in range by unit, merged on the first reading built (a session
  // keeps nearly every reading: then no unit's entries are copied).
  let groupOf: Map<string, readonly string[]> | undefined;
  let inRange: Map<string, string> | undefined;
  const readings = new Map<string, CommandReading>();
  for (const info of readingsFor ? readingsFor() : ctx.units.values()) {
    const id = info.unit.id;
    if (groupOf === undefined || inRange === undefined) {
      const g = (groupOf = new Map());
      const r = (inRange = new Map());
      for (const pass of passes) {
        pass.groupOf.forEach((v, k) => g.set(k, v));
        pass.inRange.forEach((v, k) => r.set(k, v));
      }
    }
    const reading: CommandReading = {
      brigadeFormationUnitIds: (groupOf.get(id) ?? []).filter((x) => x !== id),
      ...(inRange.has(id) ? { commanderInRangeId: inRange.get(id)! } : {}),
      ...(info.attachedCommanderId !== undefined ? { attachedCommanderId: info.attachedCommanderId } : {}),
      ...(info.unit.status?.ordersLeft !== undefined ? { ordersLeft: info.unit.status.ordersLeft } : {}),
      // Reported only where an optional rule changes it, so tables without one read as before.
      ...(info.unit.sharpshooters ? { ordersPerTurn: unitOrdersPerTurn(info.unit) } : {}),
    };
    readings.set(id, reading);
  }
  return { readings, shapes };
}
