/**
 * What every rule area reads, as queries over the table (engine/incremental/): each unit as read (its fields
 * and markers, each stand's type from its role, its unit's troop type and its footprint), the commanders and
 * their stands, the stands in a box. The context (`VbContext`) is made once per engine from the reader: it
 * holds no per-state data, only getters that read the table through the reader or ask a query.
 */
import { appendAll } from '../../engine/appendAll.ts';
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import type { PointIn } from '../../model/units.ts';
import type { Commander, Stand, TableState, Unit } from '../../model/tableState.ts';
import { standCenter, standCorners } from '../../geometry/footprint.ts';
import { boundingBox, emptyBox, extendBox, offsetConvexPolygon, type BoundingBoxIn } from '../../geometry/polygon.ts';
import {
  ABILITIES_FIELD,
  MORALE_FIELD,
  PERMANENT_DISORDER_STATUS,
  ROAD_MARCH_STATUS,
  ROUTED_STATUS,
  SKIRMISH_STATUS,
  SP_LOST_STATUS,
  STATIONARY_STATUS,
  STRENGTH_FIELD,
  TROOP_TYPE_FIELD,
  HITS_THIS_PHASE_STATUS,
  NATIVE_STANDS_LOST_STATUS,
  BRIDGE_DISORDER_STATUS,
  WING_FIELD,
  ARMY_COMMANDER_BRIGADE,
  WING_COMMANDER_PREFIX,
  type Ability,
  type TroopType,
} from './declarations.ts';
import { FOOTPRINT_TOLERANCE_IN, STAND_SIZES, type StandType } from './tables/standTypes.ts';
import { AREA_KIND_CLASS } from './tables/terrain.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { sightBoxOf, type SightStand } from '../../geometry/lineOfSight.ts';
import { query } from '../../engine/incremental/query.ts';
import type { TableReader } from '../../engine/incremental/tableReader.ts';
import { queryContext } from '../../engine/incremental/runQueries.ts';

export type UnitCategory = 'infantry' | 'cavalry' | 'artillery' | 'transport';

export const TROOP_CATEGORY: Readonly<Record<TroopType, UnitCategory>> = {
  'slow-infantry': 'infantry',
  'fast-infantry': 'infantry',
  'light-cavalry': 'cavalry',
  'light-artillery': 'artillery',
  'field-artillery': 'artillery',
  'field-howitzer': 'artillery',
  'heavy-artillery': 'artillery',
  'pack-transport': 'transport',
  'wheeled-transport': 'transport',
};

/** A stand type of the Stand Size table, or transport (the supplement gives no transport base). */
export type VbStandType = StandType | 'transport';

export interface VbStand {
  readonly stand: Stand;
  readonly type: VbStandType;
  /** True when the base is the printed size of its type (within FOOTPRINT_TOLERANCE_IN). */
  readonly footprintOk: boolean;
  readonly corners: readonly PointIn[];
  readonly center: PointIn;
  readonly box: BoundingBoxIn;
  readonly side: string;
  /** Owning unit, or undefined for a superior commander's own stand. */
  readonly unitId?: string;
  /** Owning commander (a commanders[] entry), for a superior commander's stand. */
  readonly commanderId?: string;
  /**
   * Its centre is in a forest, thicket or swamp, where non-skirmish stands "may not go stationary or recover
   * from disorder" (Terrain Effects, p. 3).
   */
  readonly inForest: boolean;
  /** The stand as line of sight reads it (geometry/lineOfSight.ts). */
  readonly sightStand: SightStand;
  /** The base's diagonal, inches (`Math.hypot` of its width and depth). */
  readonly diagonalIn: number;
}

export interface VbUnit {
  readonly unit: Unit;
  readonly troopType?: TroopType;
  readonly category: UnitCategory;
  /** The morale number now: the rating, less one per stand a Native American band has lost (Native American Morale, p. 4). */
  readonly morale?: number;
  /** The rating on the stand (the band's starting morale), which sets the exhaustion level. */
  readonly ratedMorale?: number;
  readonly strengthPoints?: number;
  readonly abilities: ReadonlySet<Ability>;
  readonly stationary: boolean;
  readonly roadMarch: boolean;
  readonly skirmishOrder: boolean;
  /** Yellow marker (`status.disordered`), or always for militia (MIL: permanently disordered). */
  readonly disordered: boolean;
  readonly permanentlyDisordered: boolean;
  readonly routed: boolean;
  readonly poorlyTrained: boolean;
  /** The owner's option at bridges: disordered instead of half the move (status `bridge-disorder`). */
  readonly bridgeDisorders: boolean;
  /** The wing it was assigned to at the start of the game (unit field `wing`), if any. */
  readonly wing?: number;
  readonly spLost: number;
  readonly hitsThisPhase: number;
  readonly stands: readonly VbStand[];
  /** Stands that fight: not commanders, not road-march spacers. */
  readonly combatStands: readonly VbStand[];
  /** The box around the combat stands (empty, min above max, when there are none): a unit-wide reject. */
  readonly combatBox: BoundingBoxIn;
  readonly unitCommanders: readonly VbStand[];
  readonly spacers: readonly VbStand[];
}

export interface VbCommander {
  readonly commander: Commander;
  readonly stand?: VbStand;
}

/** The enemy units that can be targets (they have combat stands), as the loops over targets see them. */
export interface TargetUnits {
  /** Every one, in the state's order: id and name. */
  readonly all: readonly { readonly id: string; readonly name: string }[];
  /** The ids of those whose combat box comes within the gap asked about of the box asked about, in order. */
  readonly near: readonly string[];
}

/**
 * The rule set's context: made once per engine (`makeContext`), reading the table only through `t` and
 * the queries below. Everything derived that several pieces share is a query, asked through these getters.
 */
export interface VbContext {
  readonly t: TableReader<VbContext>;
  /** The table as the rules read it: each field read through the reader when asked (no stands or units). */
  readonly state: TableState;
  /** Each unit as read (a query per unit). */
  readonly units: ReadonlyMap<string, VbUnit>;
  /** Every unit, in the state's order (reads every unit: only for pieces about the whole table). */
  readonly unitList: readonly VbUnit[];
  readonly commanders: readonly VbCommander[];
  /** Every stand on the table (units' and commanders'), units in order then commanders (reads them all). */
  readonly allStands: readonly VbStand[];
  /** A unit's or a commander's stand by id. */
  readonly standById: { get(id: string): VbStand | undefined };
  /**
   * The units' and commanders' stands whose footprint box (centre plus half the diagonal) meets `box`, in the
   * state's order: a spatial read, a superset of the stands whose own box meets it (test each exactly).
   * `keep`, when given, culls the table's stands before they are read as the rules read them.
   */
  standsIn(box: BoundingBoxIn, keep?: (s: Stand) => boolean): VbStand[];
  /** The table's stands whose footprint box meets `box` (a spatial read, as `standsIn`), not yet read as the rules read them. */
  tableStandsIn(box: BoundingBoxIn): readonly Stand[];
  /** The table's stands near any of the segments (`TableReader.standsAlongAny`: 5 numbers each, inches). */
  tableStandsAlong(segmentsIn: readonly number[]): readonly Stand[];
  /** A table stand as the rules read it (undefined for a stand of no unit or commander). */
  vbStand(s: Stand): VbStand | undefined;
  /** The side of a table stand's unit, undefined for a commander's stand (or a stand of no unit). */
  unitSideOf(s: Stand): string | undefined;
  /** Where a stand comes in `allStands` (units in order, each unit's stands in order, then commanders). */
  contextOrder(s: VbStand): number;
  /** A unit's place in the state's order. */
  unitIndex(unitId: string): number;
  /**
   * The enemy units of `side` with combat stands, in the state's order, and those whose combat box comes
   * within `gapIn` of `box`.
   */
  targetsNear(side: string, box: BoundingBoxIn, gapIn: number): TargetUnits;
  /** The enemy units of `side` with combat stands, in the state's order: id and name. */
  enemyTargets(side: string): readonly { readonly id: string; readonly name: string }[];
  /**
   * The stands of other sides than `side` (units' in the state's order, each unit's in order, then the
   * commanders') whose boxes come within `gapIn` of `box`: read unit by unit (the units near, by their
   * boxes), not by a box of the table.
   */
  enemyStandsNear(side: string, box: BoundingBoxIn, gapIn: number): VbStand[];
  /** The unit commanders' stands of a side (every commander of a side commands its artillery). */
  unitCommandersOf(side: string): readonly VbStand[];
  /** A stand's base grown by `growIn` (where another base's centre may not go), with its box. */
  grown(s: VbStand, growIn: number): Blocker;
  /** The warnings of reading every unit (missing fields, odd bases), units in order (reads every unit). */
  readonly warnings: readonly EvaluationWarning[];
}

export interface Blocker {
  readonly polygon: readonly PointIn[];
  readonly box: BoundingBoxIn;
  readonly unitId?: string;
}

function fits(stand: Stand, type: StandType): boolean {
  const s = STAND_SIZES[type];
  return Math.abs(stand.widthIn - s.widthIn) <= FOOTPRINT_TOLERANCE_IN && Math.abs(stand.depthIn - s.depthIn) <= FOOTPRINT_TOLERANCE_IN;
}

/**
 * A stand's type: its role first (commanders, spacers), then its unit's category and its footprint. Command
 * and detachment bases are both 1.5" square, and infantry and infantry skirmisher bases both 3 x 1.5": the
 * role ('command' = a unit commander) and the unit's skirmish-order marker tell them apart.
 */
export function classifyStand(stand: Stand, category: UnitCategory, skirmishOrder: boolean): { type: VbStandType; footprintOk: boolean } {
  const typed = (type: StandType): { type: VbStandType; footprintOk: boolean } => ({ type, footprintOk: fits(stand, type) });
  if (stand.role === 'commander' || stand.role === 'command') return typed('command');
  if (stand.role === 'limber') return typed('road-march-spacer');
  if (fits(stand, 'mounted-skirmisher') && category !== 'artillery') return typed('mounted-skirmisher');
  switch (category) {
    case 'artillery':
      return typed('artillery');
    case 'transport':
      return { type: 'transport', footprintOk: true };
    case 'cavalry':
      if (stand.role === 'dismounted' || fits(stand, 'detachment')) return typed('detachment');
      return typed('mounted');
    case 'infantry':
      if (stand.role === 'mounted') return typed('mounted');
      if (fits(stand, 'detachment')) return typed('detachment');
      return typed(skirmishOrder ? 'infantry-skirmisher' : 'infantry');
  }
}

interface Forest {
  readonly vertices: readonly PointIn[];
  readonly box: BoundingBoxIn;
}

/** The forests, thickets and swamps of the terrain, with their boxes. */
export const forestsQuery = query(
  'vb/forests',
  (ctx: VbContext): readonly Forest[] =>
    ctx.t.terrain().areas.filter((a) => AREA_KIND_CLASS[a.kind] === 'forest-thicket-swamp').map((a) => ({ vertices: a.vertices, box: boundingBox(a.vertices) })),
);

function vbStand(forests: readonly Forest[], stand: Stand, type: VbStandType, footprintOk: boolean, side: string, owner: { unitId?: string; commanderId?: string }): VbStand {
  const corners = standCorners(stand);
  const center = standCenter(stand);
  let inForest = false;
  for (const f of forests) {
    const b = f.box;
    if (center.xIn >= b.minXIn && center.xIn <= b.maxXIn && center.yIn >= b.minYIn && center.yIn <= b.maxYIn && pointInPolygon(center, f.vertices)) {
      inForest = true;
      break;
    }
  }
  // Written out, not spread: one object shape per owner kind (this runs for every stand of a full evaluation).
  const box = boundingBox(corners);
  const sightStand: SightStand = { id: stand.id, unitId: stand.unitId, corners, box: sightBoxOf(corners), cx: stand.pose.xIn, cy: stand.pose.yIn, radiusIn: Math.sqrt(stand.widthIn * stand.widthIn + stand.depthIn * stand.depthIn) / 2 };
  const diagonalIn = Math.hypot(stand.widthIn, stand.depthIn);
  if (owner.unitId !== undefined) return { stand, type, footprintOk, corners, center, box, side, unitId: owner.unitId, inForest, sightStand, diagonalIn };
  if (owner.commanderId !== undefined) return { stand, type, footprintOk, corners, center, box, side, commanderId: owner.commanderId, inForest, sightStand, diagonalIn };
  return { stand, type, footprintOk, corners, center, box, side, inForest, sightStand, diagonalIn };
}

const bool = (u: Unit, spec: typeof STATIONARY_STATUS): boolean => rulesetValue(spec, u.status?.rulesetStatus) === true;
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** One unit read from the state, with the warnings its reading gave. */
export interface UnitReading {
  readonly info: VbUnit;
  readonly warnings: readonly EvaluationWarning[];
}

/** Reads one unit: its fields and markers, its stands' types and footprints. */
export function readUnit(forests: readonly Forest[], u: Unit, unitStands: readonly Stand[]): UnitReading {
  const warnings: EvaluationWarning[] = [];
  const troopType = rulesetValue(TROOP_TYPE_FIELD, u.rulesetFields) as TroopType | undefined;
  if (troopType === undefined) {
    warnings.push({ code: 'unit/no-troop-type', message: `${u.name}: no troop-type in rulesetFields; movement, fire and melee need it.`, unitId: u.id });
  }
  const category: UnitCategory = troopType ? TROOP_CATEGORY[troopType] : u.arm;
  const abilities = new Set((rulesetValue(ABILITIES_FIELD, u.rulesetFields) as readonly Ability[] | undefined) ?? []);
  const skirmishOrder = bool(u, SKIRMISH_STATUS);
  const militia = abilities.has('MIL');
  const permanentlyDisordered = militia || bool(u, PERMANENT_DISORDER_STATUS);
  const routed = bool(u, ROUTED_STATUS);
  const stands: VbStand[] = [];
  for (const s of unitStands) {
    const { type, footprintOk } = classifyStand(s, category, skirmishOrder);
    const vs = vbStand(forests, s, type, footprintOk, u.side, { unitId: u.id });
    if (!footprintOk && type !== 'transport') {
      const size = STAND_SIZES[type as StandType];
      warnings.push({
        code: 'stand/footprint',
        message: `${u.name}: stand ${s.id} is ${s.widthIn} x ${s.depthIn}", read as ${size.label} (${size.widthIn} x ${size.depthIn}", ${size.source}).`,
        unitId: u.id,
      });
    }
    stands.push(vs);
  }
  const combatStands = stands.filter((s) => s.type !== 'command' && s.type !== 'road-march-spacer');
  const rated = num(rulesetValue(MORALE_FIELD, u.rulesetFields));
  const combatBox = emptyBox();
  for (const s of combatStands) extendBox(combatBox, s.box);
  const info: VbUnit = {
    unit: u,
    ...(troopType !== undefined ? { troopType } : {}),
    category,
    ...(rated !== undefined ? { morale: rated - (abilities.has('NA') ? (num(rulesetValue(NATIVE_STANDS_LOST_STATUS, u.status?.rulesetStatus)) ?? 0) : 0), ratedMorale: rated } : {}),
    ...(num(rulesetValue(STRENGTH_FIELD, u.rulesetFields)) !== undefined ? { strengthPoints: num(rulesetValue(STRENGTH_FIELD, u.rulesetFields))! } : {}),
    abilities,
    stationary: bool(u, STATIONARY_STATUS),
    roadMarch: bool(u, ROAD_MARCH_STATUS) || stands.some((s) => s.type === 'road-march-spacer') || u.status?.limbered === true || u.status?.formation === 'march-column',
    skirmishOrder: skirmishOrder || stands.some((s) => s.type === 'mounted-skirmisher'),
    disordered: permanentlyDisordered || routed || u.status?.disordered === true,
    permanentlyDisordered,
    routed,
    poorlyTrained: militia || abilities.has('PT'),
    bridgeDisorders: bool(u, BRIDGE_DISORDER_STATUS),
    ...(num(rulesetValue(WING_FIELD, u.rulesetFields)) !== undefined ? { wing: num(rulesetValue(WING_FIELD, u.rulesetFields))! } : {}),
    spLost: num(rulesetValue(SP_LOST_STATUS, u.status?.rulesetStatus)) ?? 0,
    hitsThisPhase: num(rulesetValue(HITS_THIS_PHASE_STATUS, u.status?.rulesetStatus)) ?? 0,
    stands,
    combatStands,
    combatBox,
    unitCommanders: stands.filter((s) => s.type === 'command'),
    spacers: stands.filter((s) => s.type === 'road-march-spacer'),
  };
  return { info, warnings };
}

/** One unit as read, with its warnings (undefined for an id that is no unit). */
export const unitReadingQuery = query('vb/unit', (ctx: VbContext, unitId: string): UnitReading | undefined => {
  const u = ctx.t.unit(unitId);
  return u ? readUnit(ctx.t.get(forestsQuery), u, ctx.t.unitStands(unitId)) : undefined;
});

/** The commanders, each with his stand as read. */
export const commandersQuery = query('vb/commanders', (ctx: VbContext): readonly VbCommander[] => {
  const forests = ctx.t.get(forestsQuery);
  const out: VbCommander[] = [];
  for (const c of ctx.t.commanders()) {
    const s = c.standId !== undefined ? ctx.t.stand(c.standId) : undefined;
    out.push(s ? { commander: c, stand: vbStand(forests, s, 'command', fits(s, 'command'), c.side, { commanderId: c.id }) } : { commander: c });
  }
  return out;
});

/** Each unit id's place in the state's order. */
const unitIndexQuery = query('vb/unit-index', (ctx: VbContext): ReadonlyMap<string, number> => {
  const index = new Map<string, number>();
  ctx.t.unitIds().forEach((id, i) => index.set(id, i));
  return index;
});

/** The units of other sides than the key's with combat stands, in the state's order: id and name. */
const enemyTargetsQuery = query(
  'vb/enemy-targets',
  (ctx: VbContext, side: string): readonly { readonly id: string; readonly name: string }[] => {
    const out: { id: string; name: string }[] = [];
    for (const id of ctx.t.unitIds()) {
      const info = ctx.units.get(id);
      if (info && info.unit.side !== side && info.combatStands.length > 0) out.push({ id, name: info.unit.name });
    }
    return out;
  },
  { equal: 'plain' },
);

/** The grid the enemy units' boxes are rounded out to, inches (see `enemyBoxesQuery`). */
const TARGET_BOX_GRID_IN = 2;

/**
 * The boxes around the combat stands of the units of `enemyTargetsQuery`, in its order, rounded out to a
 * 2" grid. Plain: a small move leaves it as it was, so what reads it to find the units near a box
 * (`targetsNear`) is not run again; those test the near ones' own boxes.
 */
const enemyBoxesQuery = query(
  'vb/enemy-boxes',
  (ctx: VbContext, side: string): readonly BoundingBoxIn[] => {
    const g = TARGET_BOX_GRID_IN;
    return ctx.t.get(enemyTargetsQuery, side).map((e) => {
      const b = ctx.units.get(e.id)!.combatBox;
      return { minXIn: Math.floor(b.minXIn / g) * g, minYIn: Math.floor(b.minYIn / g) * g, maxXIn: Math.ceil(b.maxXIn / g) * g, maxYIn: Math.ceil(b.maxYIn / g) * g };
    });
  },
  { equal: 'plain' },
);

/**
 * The units of other sides than the key's with stands on the table, in the state's order: id and the box
 * around all their stands rounded out to the 2" grid (plain: a small move leaves it as it was).
 */
const enemyUnitsQuery = query(
  'vb/enemy-units',
  (ctx: VbContext, side: string): readonly { readonly id: string; readonly box: BoundingBoxIn }[] => {
    const g = TARGET_BOX_GRID_IN;
    const out: { id: string; box: BoundingBoxIn }[] = [];
    for (const id of ctx.t.unitIds()) {
      const info = ctx.units.get(id);
      if (!info || info.unit.side === side || info.stands.length === 0) continue;
      const b = emptyBox();
      for (const s of info.stands) extendBox(b, s.box);
      out.push({ id, box: { minXIn: Math.floor(b.minXIn / g) * g, minYIn: Math.floor(b.minYIn / g) * g, maxXIn: Math.ceil(b.maxXIn / g) * g, maxYIn: Math.ceil(b.maxYIn / g) * g } });
    }
    return out;
  },
  { equal: 'plain' },
);

/** The unit commanders' stands of a side, units in order. */
const sideUnitCommandersQuery = query(
  'vb/side-unit-commanders',
  (ctx: VbContext, side: string): readonly VbStand[] => {
    const out: VbStand[] = [];
    for (const id of ctx.t.unitIds()) {
      const info = ctx.units.get(id);
      if (info && info.unit.side === side) for (const s of info.unitCommanders) out.push(s);
    }
    return out;
  },
  { equal: 'plain' },
);

/** `ctx.units`: each unit by id through its query, and every unit in the state's order. */
class UnitsView implements ReadonlyMap<string, VbUnit> {
  readonly #ctx: () => VbContext;
  constructor(ctx: () => VbContext) {
    this.#ctx = ctx;
  }
  get(id: string): VbUnit | undefined {
    return this.#ctx().t.get(unitReadingQuery, id)?.info;
  }
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }
  get size(): number {
    return this.#ctx().t.unitIds().length;
  }
  entries(): MapIterator<[string, VbUnit]> {
    return this.#ctx().t.unitIds().map((id): [string, VbUnit] => [id, this.get(id)!]).values();
  }
  keys(): MapIterator<string> {
    return this.#ctx().t.unitIds().values();
  }
  values(): MapIterator<VbUnit> {
    return this.list().values();
  }
  /** Every unit, in the state's order. */
  list(): VbUnit[] {
    return this.#ctx().t.unitIds().map((id) => this.get(id)!);
  }
  [Symbol.iterator](): MapIterator<[string, VbUnit]> {
    return this.entries();
  }
  forEach(f: (value: VbUnit, key: string, map: ReadonlyMap<string, VbUnit>) => void): void {
    for (const [k, v] of this.entries()) f(v, k, this);
  }
}

/** The table's fields the rules read, each through the reader when asked (a view, not a copy). */
function stateView(t: TableReader<VbContext>): TableState {
  return {
    get table() {
      return t.table();
    },
    get terrain() {
      return t.terrain();
    },
    get commanders() {
      return t.commanders();
    },
    get rulesetParameters() {
      return t.rulesetParameters();
    },
    get optionalRules() {
      return t.optionalRules();
    },
    get stands() {
      return t.allStands();
    },
    get units() {
      return t.unitIds().map((id) => t.unit(id)!);
    },
  } as unknown as TableState;
}

/** The rule set's context over a reader (made once per engine). */
export function makeContext(t: TableReader<VbContext>): VbContext {
  const units = new UnitsView(() => ctx);
  const unitOf = (s: Stand): VbStand | undefined => {
    const info = units.get(s.unitId);
    if (info) for (const v of info.stands) if (v.stand.id === s.id) return v;
    for (const c of t.get(commandersQuery)) if (c.stand?.stand.id === s.id) return c.stand;
    return undefined;
  };
  const ctx: VbContext = {
    t,
    state: stateView(t),
    units,
    get unitList() {
      return units.list();
    },
    get commanders() {
      return t.get(commandersQuery);
    },
    get allStands() {
      const out: VbStand[] = [];
      for (const info of units.list()) appendAll(out, info.stands);
      for (const c of t.get(commandersQuery)) if (c.stand) out.push(c.stand);
      return out;
    },
    standById: {
      get: (id) => {
        const s = t.stand(id);
        return s ? unitOf(s) : undefined;
      },
    },
    tableStandsIn: (box) => t.standsIn(box),
    tableStandsAlong: (segmentsIn) => t.standsAlongAny(segmentsIn),
    vbStand: unitOf,
    unitSideOf: (s) => t.unit(s.unitId)?.side,
    standsIn(box, keep) {
      const out: VbStand[] = [];
      // A unit's stands mostly come together in the state's order: its reading is asked once per run.
      let lastId: string | undefined;
      let last: VbUnit | undefined;
      for (const s of t.standsIn(box)) {
        if (keep && !keep(s)) continue;
        if (s.unitId !== lastId) (lastId = s.unitId), (last = units.get(s.unitId));
        let v: VbStand | undefined;
        if (last) for (const x of last.stands) if (x.stand.id === s.id) (v = x);
        if (!v) v = unitOf(s);
        if (v) out.push(v);
      }
      return out;
    },
    contextOrder(s) {
      const index = t.get(unitIndexQuery);
      if (s.unitId !== undefined) {
        const info = units.get(s.unitId)!;
        return index.get(s.unitId)! * 4096 + info.stands.findIndex((v) => v.stand.id === s.stand.id);
      }
      return index.size * 4096 + t.get(commandersQuery).findIndex((c) => c.stand?.stand.id === s.stand.id);
    },
    unitIndex: (unitId) => t.get(unitIndexQuery).get(unitId) ?? -1,
    enemyTargets: (side) => t.get(enemyTargetsQuery, side),
    targetsNear(side, box, gapIn) {
      const boxes = t.get(enemyBoxesQuery, side);
      const all = t.get(enemyTargetsQuery, side);
      const near: string[] = [];
      for (let i = 0; i < all.length; i++) {
        // The rounded box first (it holds the unit's own), then the unit's own.
        if (boxesApart(boxes[i]!, box, gapIn)) continue;
        const info = units.get(all[i]!.id);
        if (info && !boxesApart(info.combatBox, box, gapIn)) near.push(all[i]!.id);
      }
      return { all, near };
    },
    enemyStandsNear(side, box, gapIn) {
      const out: VbStand[] = [];
      for (const e of t.get(enemyUnitsQuery, side)) {
        if (boxesApart(e.box, box, gapIn)) continue;
        for (const s of units.get(e.id)!.stands) if (!boxesApart(s.box, box, gapIn)) out.push(s);
      }
      for (const c of t.get(commandersQuery)) if (c.stand && c.stand.side !== side && !boxesApart(c.stand.box, box, gapIn)) out.push(c.stand);
      return out;
    },
    unitCommandersOf: (side) => t.get(sideUnitCommandersQuery, side),
    grown: (s, growIn) => t.get(grownQuery, `${s.stand.id}\n${growIn}`) ?? grownBase(s, growIn),
    get warnings() {
      const out: EvaluationWarning[] = [];
      for (const id of t.unitIds()) appendAll(out, t.get(unitReadingQuery, id)!.warnings);
      return out;
    },
  };
  return ctx;
}

/** The context of one state, for tests and one-off reads: its queries run on first ask, nothing kept. */
export function buildContext(state: TableState): VbContext {
  return queryContext({ context: makeContext, root: query('vb/context', (ctx: VbContext) => ctx) }, state);
}

/** A stand's base grown by `growIn`. */
function grownBase(s: VbStand, growIn: number): Blocker {
  const polygon = offsetConvexPolygon(s.corners, growIn, 2);
  return { polygon, box: boundingBox(polygon), ...(s.unitId !== undefined ? { unitId: s.unitId } : {}) };
}

/** A stand's base grown by a size (key: stand id, a newline, the size): shared by every walk that meets it. */
const grownQuery = query('vb/grown', (ctx: VbContext, key: string): Blocker | undefined => {
  const at = key.indexOf('\n');
  const s = ctx.standById.get(key.slice(0, at));
  return s ? grownBase(s, Number(key.slice(at + 1))) : undefined;
});

/**
 * Whether superior commander `c` is superior to the unit (Command and Control, p. 1): its brigade's
 * commander, a commander attached to it, the Army Commander of its side (`brigadeId` "army") or the Wing
 * Commander of its wing (`brigadeId` "wing-<n>" for units whose `wing` is n).
 */
export function superiorTo(c: Commander, info: VbUnit): boolean {
  const u = info.unit;
  if (c.side !== u.side) return false;
  if (u.brigadeId !== undefined && c.brigadeId === u.brigadeId) return true;
  if (c.attachedToUnitId === u.id || u.status?.attachedCommanderId === c.id) return true;
  if (c.brigadeId === ARMY_COMMANDER_BRIGADE) return true;
  return info.wing !== undefined && c.brigadeId === `${WING_COMMANDER_PREFIX}${info.wing}`;
}

/** True when two boxes are more than `gapIn` apart on either axis (a cheap reject before exact distances). */
export function boxesApart(a: BoundingBoxIn, b: BoundingBoxIn, gapIn: number): boolean {
  return a.minXIn - b.maxXIn > gapIn || b.minXIn - a.maxXIn > gapIn || a.minYIn - b.maxYIn > gapIn || b.minYIn - a.maxYIn > gapIn;
}
