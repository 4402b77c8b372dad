/**
 * What every Devil to Pay part (formation, movement, fire, charge, rally, command) reads of the table, as
 * queries of the incremental engine (`engine/incremental/`): a stand's footprint and hits, a unit's stands
 * and box, its formation, area terrain and elevation, the sides and who is whose enemy, the commanders. The
 * context (`DtpContext`) is made once per engine: plain getters that read those queries through the
 * engine's reader (`ctx.t`), so whatever a part reads is recorded and nothing is kept here. A part that
 * looks at the units around a place asks `ctx.near(box, side)`: a spatial read of the units in the box, so a
 * unit moving elsewhere does not touch it.
 */
import type { PointIn } from '../../model/units.ts';
import type { AreaTerrain, Arm, Commander, SideId, Stand, TableState, Unit } from '../../model/tableState.ts';
import { standCorners, type StandCorners } from '../../geometry/footprint.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { emptyBox, extendBox, pointsBoundingBox } from '../../geometry/polygon.ts';
import type { SightStand } from '../../geometry/lineOfSight.ts';
import type { PreparedWedge, Wedge } from '../../geometry/wedge.ts';
import { query } from '../../engine/incremental/query.ts';
import type { TableReader } from '../../engine/incremental/tableReader.ts';
import { queryContext } from '../../engine/incremental/runQueries.ts';
import { recognizeFormation, type DtpFormationReading } from './formation.ts';
import { hypot2 } from '../../geometry/hypot.ts';

/** Axis-aligned bounding box, inches. */
export interface BoxIn {
  readonly minXIn: number;
  readonly minYIn: number;
  readonly maxXIn: number;
  readonly maxYIn: number;
}

export interface StandInfo {
  readonly stand: Stand;
  /** [frontLeft, frontRight, rearRight, rearLeft], inches. */
  readonly corners: StandCorners;
  readonly center: PointIn;
  readonly box: BoxIn;
  /** Hits on this stand (0 or 1 on the table). */
  readonly hits: number;
  /** The stand as sight lines see it (same corners), for fire's sight lines. */
  readonly sight: SightStand;
}

/** A stand's arc of fire for its unit's arm, with what the arc tests need prepared once (fireArc.ts). */
export interface StandArc {
  readonly arm: Arm;
  readonly wedge: Wedge;
  /** Bounding half-planes for a cheap reject (fire.ts `arcHalfPlanes`), when sound. */
  readonly planes: readonly number[] | undefined;
  readonly prepared: PreparedWedge;
  /** The stand's facing as a unit vector (headingToVector's numbers) and its front edge's place along it. */
  readonly facingX: number;
  readonly facingY: number;
  readonly frontAt: number;
}

export interface UnitInfo {
  readonly unit: Unit;
  /** The unit's stands that are on the table, in `unit.standIds` order. */
  readonly stands: readonly StandInfo[];
  /** The colour (command) stand: role 'command', else the first stand. Undefined for a unit with no stands. */
  readonly command: StandInfo | undefined;
  /** Bounding box of all the unit's stands. */
  readonly box: BoxIn;
  /** Commander attached to this unit (from the unit's status or the commander's `attachedToUnitId`). */
  readonly attachedCommanderId: string | undefined;
}

export interface CommanderInfo {
  readonly commander: Commander;
  /** The commander's own stand, if on the table. */
  readonly stand: StandInfo | undefined;
}

/** The table's globals, each read through the reader when asked. */
export interface TableGlobals {
  readonly terrain: TableState['terrain'];
  readonly table: TableState['table'];
  readonly optionalRules: TableState['optionalRules'];
  readonly commanders: TableState['commanders'];
}

export interface DtpContext {
  /** The engine's reader: every read of the table goes through it. */
  readonly t: TableReader<DtpContext>;
  /** Terrain, table size, optional rules and commanders (each a read of that global). */
  readonly state: TableGlobals;
  readonly units: {
    get(unitId: string): UnitInfo | undefined;
    has(unitId: string): boolean;
    /** Every unit in state order (reads them all: for whole-table passes only). */
    values(): readonly UnitInfo[];
  };
  readonly stands: { get(standId: string): StandInfo | undefined };
  readonly commanders: { get(commanderId: string): CommanderInfo | undefined };
  /** Units per side, in state order (reads every unit of the side: prefer `near`). */
  readonly unitsBySide: { get(side: SideId): readonly UnitInfo[] | undefined };
  /** Every side present (units or commanders), in order of first appearance. */
  readonly sides: readonly SideId[];
  /** Units of every other side (reads every one of them: prefer `near`). */
  enemiesOf(unitId: string): readonly UnitInfo[];
  /** Ids of the units of every other side than `side`, in `enemiesOf` order, and whether each has stands on the table. */
  enemyIdsOf(side: SideId): EnemyRoll;
  /**
   * Every unit whose box (its stands' footprints) meets the box, in state order, the units of sides other
   * than `side` in `sides` order: filtered by side, the order of `unitsBySide` and `enemiesOf`. A spatial
   * read: only a unit moving in or out of the box touches the caller. A unit within d of a box meets the box
   * grown by d.
   */
  near(box: BoxIn, side: SideId): readonly UnitInfo[];
  /** Formation reading (with front rank, mounted, limbered). */
  formationOf(unitId: string): DtpFormationReading;
  /** Area terrain the unit is in: the one holding most of its stand centres ("Area Terrain", Fire p. 22). */
  areaOf(unitId: string): AreaTerrain | undefined;
  /** Elevation level of a point: the highest elevation containing it, 0 outside all. */
  elevationLevelAt(p: PointIn): number;
  /** Elevation level of a unit: the level most of its stand centres are on (ties go to the lower). */
  elevationOf(unitId: string): number;
  /** The brigade commander of a brigade id, if any. */
  commanderOfBrigade(brigadeId: string): CommanderInfo | undefined;
  /** Mounted cavalry (from the formation reading). */
  isMounted(unitId: string): boolean;
  /** Limbered artillery (from the formation reading). */
  isLimbered(unitId: string): boolean;
}

export interface EnemyRoll {
  readonly ids: readonly string[];
  readonly onTable: readonly boolean[];
}

/** Throws with an actionable message when a unit id is not in the state. */
function need<T>(v: T | undefined, id: string, what: string): T {
  if (v === undefined) throw new Error(`Devil to Pay context: no ${what} with id '${id}' in the table state`);
  return v;
}

const boxOfPoints = pointsBoundingBox;

/** Union of boxes; an empty list gives an inverted (empty) box. */
export function unionBoxes(boxes: readonly BoxIn[]): BoxIn {
  const acc = emptyBox();
  for (const b of boxes) extendBox(acc, b);
  return acc;
}

/** A box grown by `byIn` each way. */
export function grownBox(b: BoxIn, byIn: number): BoxIn {
  return { minXIn: b.minXIn - byIn, minYIn: b.minYIn - byIn, maxXIn: b.maxXIn + byIn, maxYIn: b.maxYIn + byIn };
}

/** Gap between two boxes, inches (0 when they overlap): a cheap lower bound on any distance between contents. */
export function boxGapIn(a: BoxIn, b: BoxIn): number {
  let dx = a.minXIn - b.maxXIn;
  const dx2 = b.minXIn - a.maxXIn;
  if (dx2 > dx) dx = dx2;
  let dy = a.minYIn - b.maxYIn;
  const dy2 = b.minYIn - a.maxYIn;
  if (dy2 > dy) dy = dy2;
  if (dx !== dx || dy !== dy) return NaN; // as Math.max/hypot would
  // Overlap on one axis: hypot(0, d) is exactly d, so skip the (slow) hypot.
  if (!(dx > 0)) return dy > 0 ? dy : 0;
  if (!(dy > 0)) return dx;
  return hypot2(dx, dy);
}

/**
 * `boxGapIn(a, b) > limitIn`, with the cheap per-axis test first (hypot is never below either axis gap).
 */
export function boxGapExceeds(a: BoxIn, b: BoxIn, limitIn: number): boolean {
  if (a.minXIn - b.maxXIn > limitIn || b.minXIn - a.maxXIn > limitIn || a.minYIn - b.maxYIn > limitIn || b.minYIn - a.maxYIn > limitIn) return true;
  return boxGapIn(a, b) > limitIn;
}

/** Builds a stand's derived info. */
export function standInfoOf(stand: Stand, hits: number): StandInfo {
  const corners = standCorners(stand);
  const box = boxOfPoints(corners);
  const sight: SightStand = {
    id: stand.id,
    unitId: stand.unitId,
    corners,
    box: { minX: box.minXIn, minY: box.minYIn, maxX: box.maxXIn, maxY: box.maxYIn },
    cx: stand.pose.xIn,
    cy: stand.pose.yIn,
    radiusIn: Math.sqrt(stand.widthIn * stand.widthIn + stand.depthIn * stand.depthIn) / 2,
  };
  return { stand, corners, center: { xIn: stand.pose.xIn, yIn: stand.pose.yIn }, box, hits, sight };
}

/**
 * A polygon's bounding box for a cheap reject before `pointInPolygon` (undefined when a vertex is not a
 * finite number: then every point is tested). It gives exactly pointInPolygon's answer: a point above or
 * below the box has no edge straddling its row; one left or right of it by more than the slack has every
 * straddling edge's crossing on one side, and a closed polygon has an even number of them.
 */
type PolygonRejectBox = BoxIn;

/** Far beyond the rounding of pointInPolygon's edge crossing (coordinates of a few hundred inches). */
const REJECT_SLACK_IN = 1e-6;

function polygonRejectBox(vertices: readonly PointIn[]): PolygonRejectBox | undefined {
  for (const v of vertices) if (!Number.isFinite(v.xIn) || !Number.isFinite(v.yIn)) return undefined;
  return boxOfPoints(vertices);
}

/** False only when `pointInPolygon(p, polygon)` is false for the polygon whose reject box this is. */
function mayContain(box: PolygonRejectBox | undefined, p: PointIn): boolean {
  return box === undefined || !(p.yIn < box.minYIn || p.yIn > box.maxYIn || p.xIn < box.minXIn - REJECT_SLACK_IN || p.xIn > box.maxXIn + REJECT_SLACK_IN);
}

/** The reading for a unit with no stands on the table: nothing to recognise, nothing can act. */
function noStandsReading(unit: Unit): DtpFormationReading {
  return {
    formation: unit.status?.formation ?? 'unknown',
    confidence: unit.status?.formation ? 1 : 0,
    source: unit.status?.formation ? 'status' : 'geometry',
    mounted: false,
    dismounted: false,
    headingDeg: 0,
    referenceStandId: '',
    frontRankStandIds: [],
  };
}

// ---------------------------------------------------------------------------------------------------------
// The queries of the table's facts.

/** Unit id → the commander whose `attachedToUnitId` names it (a later commander wins). */
const attachedByCommander = query(
  'dtp/attached-by-commander',
  (ctx: DtpContext) => {
    const out: Record<string, string> = Object.create(null);
    for (const c of ctx.t.commanders()) if (c.attachedToUnitId) out[c.attachedToUnitId] = c.id;
    return out;
  },
  { equal: 'plain' },
);

/** A unit's stands on the table, box, command stand and attached commander. */
export const unitInfoQuery = query('dtp/unit', (ctx: DtpContext, unitId): UnitInfo | undefined => {
  const unit = ctx.t.unit(unitId);
  if (unit === undefined) return undefined;
  // Hits from the unit's status (a valid table lists hits only for a unit's own stands: parseTableState).
  const hits = unit.status?.hitsByStand;
  const own: StandInfo[] = [];
  // Each stand read by id: a stand changes this unit's info even when it names another unit.
  for (const id of unit.standIds) {
    const s = ctx.t.stand(id);
    if (s !== undefined) own.push(standInfoOf(s, hits !== undefined && Object.hasOwn(hits, id) ? hits[id]! : 0)); // a stand id without a stand is off the table
  }
  const command = own.find((s) => s.stand.role === 'command') ?? own[0];
  const attachedCommanderId = unit.status?.attachedCommanderId ?? ctx.t.get(attachedByCommander)[unit.id];
  return { unit, stands: own, command, box: unionBoxes(own.map((s) => s.box)), attachedCommanderId };
});

/** A unit's formation read from its stands (or its status). */
export const formationQuery = query(
  'dtp/formation',
  (ctx: DtpContext, unitId): DtpFormationReading => {
    const info = need(ctx.units.get(unitId), unitId, 'unit');
    return info.stands.length === 0 ? noStandsReading(info.unit) : recognizeFormation(info.unit, info.stands.map((s) => s.stand));
  },
  { equal: 'plain' },
);

/** The terrain's elevation and area boxes for cheap rejects. */
const terrainBoxes = query('dtp/terrain-boxes', (ctx: DtpContext) => {
  const terrain = ctx.t.terrain();
  return {
    elevations: terrain.elevations,
    elevationBoxes: terrain.elevations.map((e) => polygonRejectBox(e.vertices)),
    areas: terrain.areas,
    areaBoxes: terrain.areas.map((a) => polygonRejectBox(a.vertices)),
  };
});

function elevationLevelAt(ctx: DtpContext, p: PointIn): number {
  const { elevations, elevationBoxes } = ctx.t.get(terrainBoxes);
  let level = 0;
  for (let i = 0; i < elevations.length; i++) {
    const e = elevations[i]!;
    if (e.level > level && mayContain(elevationBoxes[i], p) && pointInPolygon(p, e.vertices)) level = e.level;
  }
  return level;
}

/** The area terrain holding a strict majority of the unit's stand centres. */
const areaQuery = query('dtp/area', (ctx: DtpContext, unitId): AreaTerrain | undefined => {
  const info = need(ctx.units.get(unitId), unitId, 'unit');
  const { areas, areaBoxes } = ctx.t.get(terrainBoxes);
  for (let i = 0; i < areas.length; i++) {
    const area = areas[i]!;
    const box = areaBoxes[i];
    let inside = 0;
    for (const s of info.stands) if (mayContain(box, s.center) && pointInPolygon(s.center, area.vertices)) inside++;
    // "Most of its stands": a strict majority.
    if (inside * 2 > info.stands.length) return area;
  }
  return undefined;
});

/** The level most of the unit's stand centres are on (ties go to the lower). */
const elevationQuery = query(
  'dtp/elevation',
  (ctx: DtpContext, unitId): number => {
    const info = need(ctx.units.get(unitId), unitId, 'unit');
    const counts = new Map<number, number>();
    for (const s of info.stands) {
      const l = elevationLevelAt(ctx, s.center);
      counts.set(l, (counts.get(l) ?? 0) + 1);
    }
    let best = 0, bestCount = -1;
    for (const [l, c] of [...counts].sort((a, b) => a[0] - b[0])) {
      if (c > bestCount) {
        best = l;
        bestCount = c;
      }
    }
    return best;
  },
  { equal: 'plain' },
);

/**
 * What the whole-table lists need of a unit: its side, whether it has stands on the table, its brigade.
 */
export interface UnitRoll {
  readonly side: SideId;
  readonly onTable: boolean;
  readonly brigadeId: string | undefined;
  readonly independent: boolean;
}

export const unitRollQuery = query(
  'dtp/unit-roll',
  (ctx: DtpContext, unitId): UnitRoll => {
    const unit = ctx.t.unit(unitId)!;
    return { side: unit.side, onTable: unit.standIds.some((id) => ctx.t.stand(id) !== undefined), brigadeId: unit.brigadeId, independent: unit.independent === true };
  },
  { equal: 'plain' },
);

/** Every side present (units, then commanders), in order of first appearance. */
const sidesQuery = query(
  'dtp/sides',
  (ctx: DtpContext): SideId[] => {
    const sides: SideId[] = [];
    for (const id of ctx.t.unitIds()) {
      const side = ctx.t.get(unitRollQuery, id).side;
      if (!sides.includes(side)) sides.push(side);
    }
    for (const c of ctx.t.commanders()) if (!sides.includes(c.side)) sides.push(c.side);
    return sides;
  },
  { equal: 'plain' },
);

/** The enemies of a side, in `enemiesOf` order (sides in order, each in state order). */
const enemyRollQuery = query(
  'dtp/enemy-roll',
  (ctx: DtpContext, side): EnemyRoll => {
    const sides = ctx.t.get(sidesQuery);
    const ids: string[] = [];
    const onTable: boolean[] = [];
    for (const other of sides) {
      if (other === side) continue;
      for (const id of ctx.t.unitIds()) {
        const roll = ctx.t.get(unitRollQuery, id);
        if (roll.side !== other) continue;
        ids.push(id);
        onTable.push(roll.onTable);
      }
    }
    return { ids, onTable };
  },
  { equal: 'plain' },
);

/** Units by side, in state order (for the whole-table passes). */
const sideIdsQuery = query(
  'dtp/side-units',
  (ctx: DtpContext, side): string[] => ctx.t.unitIds().filter((id) => ctx.t.get(unitRollQuery, id).side === side),
  { equal: 'plain' },
);

/** The commanders by id and the first commander of each brigade. */
const commandersQuery = query('dtp/commanders', (ctx: DtpContext) => {
  const byId = new Map<string, Commander>();
  const byBrigade = new Map<string, Commander>();
  for (const c of ctx.t.commanders()) {
    byId.set(c.id, c);
    if (!byBrigade.has(c.brigadeId)) byBrigade.set(c.brigadeId, c);
  }
  return { byId, byBrigade };
});

function commanderInfo(ctx: DtpContext, commander: Commander | undefined): CommanderInfo | undefined {
  if (commander === undefined) return undefined;
  return { commander, stand: commander.standId ? ctx.stands.get(commander.standId) : undefined };
}

/** The context of an engine: getters over the queries above, nothing kept. */
export function dtpContext(t: TableReader<DtpContext>): DtpContext {
  const infosOf = (ids: readonly string[]): UnitInfo[] => ids.map((id) => t.get(unitInfoQuery, id)!);
  const ctx: DtpContext = {
    t,
    state: {
      get terrain() {
        return t.terrain();
      },
      get table() {
        return t.table();
      },
      get optionalRules() {
        return t.optionalRules();
      },
      get commanders() {
        return t.commanders();
      },
    },
    units: {
      get: (id) => t.get(unitInfoQuery, id),
      has: (id) => t.unit(id) !== undefined,
      values: () => infosOf(t.unitIds()),
    },
    stands: {
      // A unit's stand from its unit's info; any other (a commander's, a stray one) made afresh, no hits.
      get: (id) => {
        const stand = t.stand(id);
        if (stand === undefined) return undefined;
        const info = t.get(unitInfoQuery, stand.unitId);
        if (info !== undefined) for (const s of info.stands) if (s.stand === stand) return s;
        return standInfoOf(stand, 0);
      },
    },
    commanders: { get: (id) => commanderInfo(ctx, t.get(commandersQuery).byId.get(id)) },
    unitsBySide: {
      get: (side) => (t.get(sidesQuery).includes(side) ? infosOf(t.get(sideIdsQuery, side)) : undefined),
    },
    get sides() {
      return t.get(sidesQuery);
    },
    enemiesOf: (unitId) => infosOf(t.get(enemyRollQuery, need(t.unit(unitId), unitId, 'unit').side).ids),
    enemyIdsOf: (side) => t.get(enemyRollQuery, side),
    near(box, side) {
      const infos = t.unitsIn(box).map((id) => t.get(unitInfoQuery, id)!);
      // Units of one side are in state order already; when units of two other sides or more are among
      // them, the sides follow in `sides` order (a stable sort of the state's order).
      let other: SideId | undefined;
      for (const u of infos) {
        const s = u.unit.side;
        if (s === side || s === other) continue;
        if (other === undefined) other = s;
        else {
          const sides = t.get(sidesQuery);
          return infos.sort((a, b) => sides.indexOf(a.unit.side) - sides.indexOf(b.unit.side));
        }
      }
      return infos;
    },
    formationOf: (unitId) => t.get(formationQuery, unitId),
    areaOf: (unitId) => t.get(areaQuery, unitId),
    elevationLevelAt: (p) => elevationLevelAt(ctx, p),
    elevationOf: (unitId) => t.get(elevationQuery, unitId),
    commanderOfBrigade: (brigadeId) => commanderInfo(ctx, t.get(commandersQuery).byBrigade.get(brigadeId)),
    isMounted: (unitId) => ctx.formationOf(unitId).mounted,
    isLimbered: (unitId) => ctx.formationOf(unitId).limbered === true,
  };
  return ctx;
}

const contextQuery = query('dtp/context', (ctx: DtpContext) => ctx);

/**
 * A context over one table state, outside any evaluation (tests and tools): the queries run on first use,
 * each once. Throws, when asked, for unit ids the state does not hold.
 */
export function buildContext(state: TableState): DtpContext {
  return queryContext({ context: dtpContext, root: contextQuery }, state);
}
