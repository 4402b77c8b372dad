/**
 * The Devil to Pay command (Actions and Orders p. 3; Commanders p. 6; Brigades p. 15): orders per turn,
 * the commander's order radius, brigade formation chains, and attached commanders.
 */
import type { CommandReading, CommanderReading } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Commander, CommanderQuality, Unit } from '../../model/tableState.ts';
import { closestPointsBetweenPolygons, polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { boxGapExceeds, unitRollQuery, type DtpContext, type StandInfo, type UnitInfo } from './context.ts';
import { query } from '../../engine/incremental/query.ts';

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

/**
 * Each commander's orders per turn by quality (Commanders: Superb 3, Capable 2, Weak 1), by commander id.
 * Whether he is on the table does not matter: a commander off the table still holds his orders.
 */
export function commanderReadings(commanders: readonly Commander[]): Readonly<Record<string, CommanderReading>> {
  const out: Record<string, CommanderReading> = {};
  for (const c of commanders) {
    out[c.id] = { commanderId: c.id, ordersPerTurn: commanderOrdersPerTurn(c.quality), quality: c.quality, source: SRC_COMMANDER_ORDERS };
  }
  return out;
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
  readonly groupOf: Readonly<Record<string, readonly string[]>>;
  /** Unit id → commander id, for units the commander may order. */
  readonly inRange: Readonly<Record<string, string>>;
  readonly shapes: readonly Shape[];
}

/** Brigade ids in unit order, each with the ids of its units on the table (independent units left out). */
export const brigadesQuery = query(
  'dtp/brigades',
  (ctx: DtpContext): [string, string[]][] => {
    const byBrigade = new Map<string, string[]>();
    for (const id of ctx.t.unitIds()) {
      const roll = ctx.t.get(unitRollQuery, id);
      const b = roll.brigadeId;
      if (b === undefined || roll.independent || !roll.onTable) continue;
      if (!byBrigade.has(b)) byBrigade.set(b, []);
      byBrigade.get(b)!.push(id);
    }
    return [...byBrigade];
  },
  { equal: 'plain' },
);

/** Brigade ids in unit order, each with its units on the table (independent units left out). */
export function brigadesOf(ctx: DtpContext): Map<string, UnitInfo[]> {
  return new Map(ctx.t.get(brigadesQuery).map(([b, ids]) => [b, ids.map((id) => ctx.units.get(id)!)]));
}

/** The commander a unit is attached to, if any (null for none: plain data). */
const attachedOfUnit = query('dtp/attached-of-unit', (ctx: DtpContext, unitId): string | null => ctx.units.get(unitId)!.attachedCommanderId ?? null, { equal: 'plain' });

/** Commander id → the first unit (in state order) claiming him as attached. */
const attachedClaims = query(
  'dtp/attached-claims',
  (ctx: DtpContext): Record<string, string> => {
    const out: Record<string, string> = Object.create(null);
    for (const id of ctx.t.unitIds()) {
      const c = ctx.t.get(attachedOfUnit, id);
      if (c !== null && out[c] === undefined) out[c] = id;
    }
    return out;
  },
  { equal: 'plain' },
);

/** The command pass of one brigade (`evaluateBrigade`), by brigade id. */
export const brigadeQuery = query('dtp/brigade', (ctx: DtpContext, brigadeId): BrigadeCommand => {
  const entry = ctx.t.get(brigadesQuery).find(([b]) => b === brigadeId);
  return evaluateBrigade(ctx, brigadeId, (entry?.[1] ?? []).map((id) => ctx.units.get(id)!));
});

/** Which units of a brigade are in formation together and in their commander's order radius (no shapes). */
const brigadeMembershipQuery = query(
  'dtp/brigade-membership',
  (ctx: DtpContext, brigadeId): Omit<BrigadeCommand, 'shapes'> => {
    const { groupOf, inRange } = ctx.t.get(brigadeQuery, brigadeId);
    return { groupOf, inRange };
  },
  { equal: 'plain' },
);

/** A unit's command reading: from its brigade's pass when it is in one. */
export const commandReadingQuery = query(
  'dtp/command-reading',
  (ctx: DtpContext, unitId): CommandReading => {
    const info = ctx.units.get(unitId)!;
    const roll = ctx.t.get(unitRollQuery, unitId);
    const pass = roll.brigadeId !== undefined && !roll.independent && roll.onTable ? ctx.t.get(brigadeMembershipQuery, roll.brigadeId) : undefined;
    return commandReading(info, pass);
  },
  { equal: 'plain' },
);

/** The command links of every brigade, in brigade order. */
export const commandShapesQuery = query('dtp/command-shapes', (ctx: DtpContext): Shape[] => {
  const shapes: Shape[] = [];
  for (const [b] of ctx.t.get(brigadesQuery)) for (const sh of ctx.t.get(brigadeQuery, b).shapes) shapes.push(sh);
  return shapes;
});

/**
 * The command pass for one brigade. Depends on the brigade's units, its commander, and which unit claims
 * that commander as attached.
 */
export function evaluateBrigade(ctx: DtpContext, brigadeId: string, members: readonly UnitInfo[]): BrigadeCommand {
  const shapes: Shape[] = [];
  // No prototype: any unit id is a plain key.
  const groupOf: Record<string, string[]> = Object.create(null);
  const inRange: Record<string, string> = Object.create(null);
  const units: Node[] = members.map((info) => ({ id: info.unit.id, kind: 'unit', stands: info.stands, side: info.unit.side }));
  const ci = ctx.commanderOfBrigade(brigadeId);
  const nodes = [...units];
  const cmdStand = ci?.stand;
  const attachedTo = ci?.commander.attachedToUnitId ?? (ci ? ctx.t.get(attachedClaims)[ci.commander.id] : undefined);
  if (ci && cmdStand) {
    // Order radius: units within 1½" of the commander's stand; an attached commander only his own unit.
    for (const u of units) {
      const pair = closestPair([cmdStand], u.stands, attachedTo === u.id ? Infinity : ORDER_RADIUS_IN);
      if (pair && (attachedTo === undefined || attachedTo === u.id)) {
        inRange[u.id] = ci.commander.id;
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
  for (const g of groups.values()) if (g.length >= 2) for (const id of g) groupOf[id] = g;
  return { groupOf, inRange, shapes };
}

/** A unit's command reading from its brigade's pass (none for a unit outside every brigade formation). */
function commandReading(info: UnitInfo, pass: Omit<BrigadeCommand, 'shapes'> | undefined): CommandReading {
  const id = info.unit.id;
  const commanderInRangeId = pass?.inRange[id];
  return {
    brigadeFormationUnitIds: (pass?.groupOf[id] ?? []).filter((x) => x !== id),
    ...(commanderInRangeId !== undefined ? { commanderInRangeId } : {}),
    ...(info.attachedCommanderId !== undefined ? { attachedCommanderId: info.attachedCommanderId } : {}),
    ...(info.unit.status?.ordersLeft !== undefined ? { ordersLeft: info.unit.status.ordersLeft } : {}),
    // Reported only where an optional rule changes it, so tables without one read as before.
    ...(info.unit.sharpshooters ? { ordersPerTurn: unitOrdersPerTurn(info.unit) } : {}),
  };
}

/**
 * Command readings for every unit and the links to draw. Independent units are outside brigade formation
 * and cannot use commander orders (Actions and Orders). An attached commander orders only his unit and does
 * not chain others into formation (Attached Commander Benefits).
 */
export function evaluateCommand(ctx: DtpContext): CommandResult {
  const readings = new Map<string, CommandReading>();
  for (const id of ctx.t.unitIds()) readings.set(id, ctx.t.get(commandReadingQuery, id));
  return { readings, shapes: ctx.t.get(commandShapesQuery) };
}
