/**
 * The facts every rule area reads, as queries over the table reader: a unit with its stands, footprints and
 * formation; the units on the table and their sides; terrain classes (parameters applied); parameters; the
 * commanders' stands. The context (`makeContext`) is the plain helpers over them, and the warning collector
 * that names each missing value once.
 */
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import { missingParameterWarning, rulesetValue, type RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import type { AreaTerrainKind, Commander, Stand, TableState, Terrain, Unit } from '../../model/tableState.ts';
import { query } from '../../engine/incremental/query.ts';
import type { TableReader } from '../../engine/incremental/tableReader.ts';
import type { PointIn } from '../../model/units.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { standPolygon } from '../../geometry/footprint.ts';
import { boundingBox, pointsBoundingBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { readFormation, type FfrFormation } from './formation.ts';
import { frontRankStands } from '../../geometry/frontLine.ts';
import { FFR_STATUS_FIELDS, FFR_UNIT_FIELDS, PARAM_BY_ID, terrainParamId } from './fields.ts';
import { DEFAULT_AREA_CLASS, classRank, type TerrainClass } from './tables/terrainClasses.ts';

export interface FfrUnitInfo {
  readonly unit: Unit;
  /** Stands on the table, in `unit.standIds` order. */
  readonly stands: readonly Stand[];
  readonly polygons: readonly (readonly PointIn[])[];
  /** Bounding box of each polygon (with the polygon), same order: the cheap test before exact geometry. */
  readonly polygonBoxes: readonly PolygonBox[];
  readonly box: BoundingBoxIn;
  readonly formation: FfrFormation;
  /** The front rank of the fighting stands (`frontRankStands`): columns fire and charge with it. */
  readonly frontRank: readonly Stand[];
}

/** A polygon's bounding box, carrying the polygon (made once per unit, handed to the per-ray culls as is). */
export interface PolygonBox extends BoundingBoxIn {
  readonly polygon: readonly PointIn[];
}

export interface ClassedArea {
  readonly id: string;
  readonly kind: AreaTerrainKind;
  readonly cls: TerrainClass;
  /** `classRank(cls)`, worked out once: ground is looked up at many points. */
  readonly rank: number;
  readonly vertices: readonly PointIn[];
  readonly box: BoundingBoxIn;
}

/** A unit's id and box (the box of its stands' corners). */
export interface UnitBox {
  readonly id: string;
  readonly box: BoundingBoxIn;
}

/** A stand of a unit, with the unit's facts and the stand's place in them (its polygon and box). */
export interface UnitStandRef {
  readonly info: FfrUnitInfo;
  /** Index into `info.stands`, `info.polygons` and `info.polygonBoxes`. */
  readonly k: number;
}

/** A commander's stand found in a box: the commander(s) whose stand it is. */
export interface CommanderStandRef {
  readonly commanders: readonly Commander[];
  readonly stand: Stand;
}

/**
 * What every rule area reads the table through: the reader (`t`) and plain helpers over it. Made once per
 * engine; everything derived from the table is a query (below), so the engine knows what each piece read.
 */
export interface FfrContext {
  readonly t: TableReader<FfrContext>;
  /** A unit's facts, undefined for a unit with no stands on the table (or no such unit). */
  unit(id: string): FfrUnitInfo | undefined;
  /**
   * The units with stands on the table not of `side`, with their boxes, in id order (the order every
   * per-enemy list uses).
   */
  enemyBoxesOf(side: string): readonly UnitBox[];
  /**
   * Stands of units with stands on the table whose footprint box (centre plus half the diagonal each way)
   * meets `box`, with their unit's facts: those of another side than `side` (`enemies: true`) or of `side`
   * itself, in the state's order of stands.
   */
  unitStandsIn(box: BoundingBoxIn, side: string, enemies: boolean): UnitStandRef[];
  /** Commanders' stands whose footprint meets `box` (in the state's order of stands). */
  commanderStandsIn(box: BoundingBoxIn): CommanderStandRef[];
  /** A parameter's value (entered, or its default), or undefined. */
  param(id: string): number | string | boolean | undefined;
  spec(id: string): RulesetFieldSpec;
  /** A unit field's value or its default. */
  unitField(unit: Unit, id: string): number | string | boolean | undefined;
  statusField(unit: Unit, id: string): number | string | boolean | undefined;
  /** Area terrain with its class after the parameters. */
  areas(): readonly ClassedArea[];
  /** Ground class at a point: the worst class of the areas containing it, open outside every area. */
  classAt(p: PointIn): TerrainClass;
  terrain(): Terrain;
  table(): TableState['table'];
}

const UNIT_FIELD = new Map(FFR_UNIT_FIELDS.map((f) => [f.id, f]));
const STATUS_FIELD = new Map(FFR_STATUS_FIELDS.map((f) => [f.id, f]));

function scalar(v: unknown): number | string | boolean | undefined {
  return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? v : undefined;
}

/**
 * The corners of one of the unit's stands (front-left, front-right, rear-right, rear-left: `standCorners`), from
 * the footprints worked out once per unit.
 */
export function cornersOf(info: FfrUnitInfo, stand: Stand): readonly PointIn[] {
  const i = info.stands.indexOf(stand);
  return i >= 0 ? info.polygons[i]! : standPolygon(stand);
}

/** The facts of one unit from its stands on the table (undefined without any). */
export function unitInfoOf(unit: Unit, stands: readonly Stand[]): FfrUnitInfo | undefined {
  if (stands.length === 0) return undefined;
  const polygons = stands.map((s) => standPolygon(s));
  let minXIn = Infinity, minYIn = Infinity, maxXIn = -Infinity, maxYIn = -Infinity;
  const polygonBoxes = polygons.map((polygon): PolygonBox => {
    const b = pointsBoundingBox(polygon);
    minXIn = Math.min(minXIn, b.minXIn);
    minYIn = Math.min(minYIn, b.minYIn);
    maxXIn = Math.max(maxXIn, b.maxXIn);
    maxYIn = Math.max(maxYIn, b.maxYIn);
    return { minXIn: b.minXIn, minYIn: b.minYIn, maxXIn: b.maxXIn, maxYIn: b.maxYIn, polygon };
  });
  const extendedLineOnly = scalar(rulesetValue(UNIT_FIELD.get('extendedLineOnly')!, unit.rulesetFields)) === true;
  const formation = readFormation(unit, stands, extendedLineOnly);
  return {
    unit,
    stands,
    polygons,
    polygonBoxes,
    // The union of the stands' boxes is the box of all their corners.
    box: { minXIn, minYIn, maxXIn, maxYIn },
    formation,
    frontRank: frontRankStands(formation.stands, formation.headingDeg),
  };
}

/**
 * The worst ground class at `p` among `areas` (open where none holds it). The areas' ranks are worked out
 * with the areas: this runs at every sampled point of a move.
 */
export function worstClassAt(areas: readonly ClassedArea[], p: PointIn): TerrainClass {
  let worst: TerrainClass = 'open';
  let worstRank = 0;
  for (const a of areas) {
    if (p.xIn < a.box.minXIn || p.xIn > a.box.maxXIn || p.yIn < a.box.minYIn || p.yIn > a.box.maxYIn) continue;
    if (a.rank > worstRank && pointInPolygon(p, a.vertices)) {
      worst = a.cls;
      worstRank = a.rank;
    }
  }
  return worst;
}

// The table's facts as queries: each piece is worked out once and again only when what it read changes.

/** A unit's facts from its own fields and stands. */
export const unitInfoQuery = query('ffr/unit', (ctx: FfrContext, unitId): FfrUnitInfo | undefined => {
  const unit = ctx.t.unit(unitId);
  return unit ? unitInfoOf(unit, ctx.t.unitStands(unitId)) : undefined;
});

/** A unit's side, when it has stands on the table. */
const sideOnTableQuery = query('ffr/side-on-table', (ctx: FfrContext, unitId): string | undefined => {
  const unit = ctx.t.unit(unitId);
  return unit && ctx.t.unitStands(unitId).length > 0 ? unit.side : undefined;
});

/** Each unit with stands on the table and its side, in the state's order. */
export const rosterQuery = query(
  'ffr/roster',
  (ctx: FfrContext): { id: string; side: string }[] => {
    const out: { id: string; side: string }[] = [];
    for (const id of ctx.t.unitIds()) {
      const side = ctx.t.get(sideOnTableQuery, id);
      if (side !== undefined) out.push({ id, side });
    }
    return out;
  },
  { equal: 'plain' },
);

/** The units (with stands on the table) not of the side `key`, in id order. */
export const enemyIdsQuery = query(
  'ffr/enemies',
  (ctx: FfrContext, side): string[] => {
    const ids: string[] = [];
    for (const u of ctx.t.get(rosterQuery)) if (u.side !== side) ids.push(u.id);
    return ids.sort((a, b) => (a < b ? -1 : 1));
  },
  { equal: 'plain' },
);

/** The units (with stands on the table) not of the side `key`, in id order, with their boxes. */
export const enemyBoxesQuery = query(
  'ffr/enemy-boxes',
  (ctx: FfrContext, side): UnitBox[] => ctx.t.get(enemyIdsQuery, side).map((id) => ({ id, box: ctx.t.get(unitInfoQuery, id)!.box })),
  { equal: 'plain' },
);

/** Every parameter's value (entered, or its default). */
export const parametersQuery = query('ffr/parameters', (ctx: FfrContext): ReadonlyMap<string, number | string | boolean | undefined> => {
  const values = ctx.t.rulesetParameters();
  const out = new Map<string, number | string | boolean | undefined>();
  for (const [id, spec] of PARAM_BY_ID) out.set(id, scalar(rulesetValue(spec, values)));
  return out;
});

/** Area terrain classed by the parameters. */
export const areasQuery = query('ffr/areas', (ctx: FfrContext): ClassedArea[] =>
  ctx.t.terrain().areas.map((a) => {
    const chosen = ctx.param(terrainParamId(a.kind));
    const cls = (typeof chosen === 'string' ? chosen : DEFAULT_AREA_CLASS[a.kind]) as TerrainClass;
    return { id: a.id, kind: a.kind, cls, rank: classRank(cls), vertices: a.vertices, box: boundingBox(a.vertices) };
  }),
);

/** Which commanders stand on each stand id. */
export const commandersByStandQuery = query('ffr/commanders-by-stand', (ctx: FfrContext): ReadonlyMap<string, readonly Commander[]> => {
  const out = new Map<string, Commander[]>();
  for (const c of ctx.t.commanders()) {
    if (!c.standId) continue;
    const list = out.get(c.standId);
    if (list) list.push(c);
    else out.set(c.standId, [c]);
  }
  return out;
});

/** The context over a reader: plain helpers, every table fact read through `t`. */
export function makeContext(t: TableReader<FfrContext>): FfrContext {
  const ctx: FfrContext = {
    t,
    unit: (id) => t.get(unitInfoQuery, id),
    enemyBoxesOf: (side) => t.get(enemyBoxesQuery, side),
    unitStandsIn: (box, side, enemies) => {
      const out: UnitStandRef[] = [];
      // A unit's stands mostly come together in the state's order: its facts are read once per run of them.
      let unitId: string | undefined;
      let info: FfrUnitInfo | undefined;
      for (const s of t.standsIn(box)) {
        if (s.unitId !== unitId) {
          unitId = s.unitId;
          info = t.get(unitInfoQuery, unitId);
        }
        if (!info || (info.unit.side !== side) !== enemies) continue;
        // By id: a unit unchanged since an earlier state keeps that state's stand objects.
        let k = info.stands.indexOf(s);
        if (k < 0) k = info.stands.findIndex((x) => x.id === s.id);
        if (k >= 0) out.push({ info, k });
      }
      return out;
    },
    commanderStandsIn: (box) => {
      const out: CommanderStandRef[] = [];
      const byStand = t.get(commandersByStandQuery);
      for (const s of t.standsIn(box)) {
        const commanders = byStand.get(s.id);
        if (commanders) out.push({ commanders, stand: s });
      }
      return out;
    },
    param: (id) => {
      const values = t.get(parametersQuery);
      if (!values.has(id)) throw new Error(`fire-and-fury-regimental: no parameter "${id}"`);
      return values.get(id);
    },
    spec: (id) => PARAM_BY_ID.get(id)!,
    unitField: (unit, id) => scalar(rulesetValue(UNIT_FIELD.get(id)!, unit.rulesetFields)),
    statusField: (unit, id) => scalar(rulesetValue(STATUS_FIELD.get(id)!, unit.status?.rulesetStatus)),
    areas: () => t.get(areasQuery),
    classAt: (p) => worstClassAt(t.get(areasQuery), p),
    terrain: () => t.terrain(),
    table: () => t.table(),
  };
  return ctx;
}

/** A warning with the key it is told apart by (a code and its text, or a missing parameter's id). */
export interface KeyedWarning {
  readonly key: string;
  readonly warning: EvaluationWarning;
}

/** Collects warnings for one unit, each (code, parameter) once. */
export class WarningSink {
  private readonly seen = new Set<string>();
  readonly list: EvaluationWarning[] = [];
  /** Each warning of `list` with its key, same order: pieces hand these on as plain data. */
  readonly keyed: KeyedWarning[] = [];
  constructor(private readonly unitId?: string) {}

  private push(key: string, warning: () => EvaluationWarning): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const w = warning();
    this.list.push(w);
    this.keyed.push({ key, warning: w });
  }

  missing(spec: RulesetFieldSpec, needFor: string): void {
    this.push(`parameter/missing|${spec.id}`, () => missingParameterWarning(spec, needFor, this.unitId));
  }

  add(code: string, message: string): void {
    this.push(`${code}|${message}`, () => ({ code, message, ...(this.unitId !== undefined ? { unitId: this.unitId } : {}) }));
  }

  /** Adds warnings another piece of the same unit collected, in their order, each key still once. */
  addAll(from: readonly KeyedWarning[]): void {
    for (const { key, warning } of from) this.push(key, () => warning);
  }
}
