/**
 * Per-state facts every rule area reads: units with their stands and formation, sides, terrain classes
 * (parameters applied), parameter look-ups, and a warning collector that names each missing value once.
 */
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import { missingParameterWarning, rulesetValue, type RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import type { AreaTerrainKind, Commander, Stand, TableState, Unit } from '../../model/tableState.ts';
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

/** A commander's stand on the table, with its footprint and box. */
export interface CommanderStand {
  readonly commander: Commander;
  readonly polygon: readonly PointIn[];
  readonly box: BoundingBoxIn;
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

export interface FfrContext {
  readonly state: TableState;
  /** Units with at least one stand on the table, by id. */
  readonly units: ReadonlyMap<string, FfrUnitInfo>;
  readonly commanders: readonly Commander[];
  readonly standById: ReadonlyMap<string, Stand>;
  readonly areas: readonly ClassedArea[];
  /** Units with stands not of `side`, by id (the order every per-enemy list uses). */
  enemiesOf(side: string): readonly FfrUnitInfo[];
  /** Commanders whose own stand is on the table, in `commanders` order. */
  commanderStands(): readonly CommanderStand[];
  /** What `make` gives, made once per state under `key` (values every unit would work out alike). */
  memo<T>(key: string, make: () => T): T;
  /** A parameter's value (entered, or its default), or undefined. */
  param(id: string): number | string | boolean | undefined;
  spec(id: string): RulesetFieldSpec;
  /** A unit field's value or its default. */
  unitField(unit: Unit, id: string): number | string | boolean | undefined;
  statusField(unit: Unit, id: string): number | string | boolean | undefined;
  /** Ground class at a point: the worst class of the areas containing it, open outside every area. */
  classAt(p: PointIn): TerrainClass;
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
export function unitInfoOf(unit: Unit, standById: ReadonlyMap<string, Stand>): FfrUnitInfo | undefined {
  const stands = unit.standIds.map((id) => standById.get(id)).filter((s): s is Stand => s !== undefined);
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
 * once per state: this runs at every sampled point of a move.
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

/**
 * `reuseUnit` (a session's) may hand back the facts of an unchanged unit instead of working them out again;
 * it must return exactly what `unitInfoOf` would. `standsById`, when given, is the state's stands by id.
 */
export function buildContext(
  state: TableState,
  reuseUnit?: (unit: Unit) => FfrUnitInfo | undefined | null,
  standsById?: ReadonlyMap<string, Stand>,
): FfrContext {
  const standById = standsById ?? new Map(state.stands.map((s) => [s.id, s]));
  // Parameters are read per unit and per pair: each is worked out once per state.
  const paramCache = new Map<string, number | string | boolean | undefined>();
  const param = (id: string) => {
    if (paramCache.has(id)) return paramCache.get(id);
    const spec = PARAM_BY_ID.get(id);
    if (!spec) throw new Error(`fire-and-fury-regimental: no parameter "${id}"`);
    const v = scalar(rulesetValue(spec, state.rulesetParameters));
    paramCache.set(id, v);
    return v;
  };
  const unitField = (unit: Unit, id: string) => scalar(rulesetValue(UNIT_FIELD.get(id)!, unit.rulesetFields));
  const statusField = (unit: Unit, id: string) => scalar(rulesetValue(STATUS_FIELD.get(id)!, unit.status?.rulesetStatus));
  const units = new Map<string, FfrUnitInfo>();
  for (const unit of state.units) {
    // null from reuseUnit: known to have no stands on the table.
    const reused = reuseUnit?.(unit);
    const info = reused === null ? undefined : (reused ?? unitInfoOf(unit, standById));
    if (info) units.set(unit.id, info);
  }
  const memos = new Map<string, unknown>();
  const enemies = new Map<string, FfrUnitInfo[]>();
  const enemiesOf = (side: string): readonly FfrUnitInfo[] => {
    let list = enemies.get(side);
    if (!list) {
      list = [];
      for (const info of units.values()) if (info.unit.side !== side) list.push(info);
      list.sort((a, b) => (a.unit.id < b.unit.id ? -1 : 1));
      enemies.set(side, list);
    }
    return list;
  };
  let commanderStandList: CommanderStand[] | undefined;
  const commanderStands = (): readonly CommanderStand[] => {
    if (!commanderStandList) {
      commanderStandList = [];
      for (const c of state.commanders) {
        const stand = c.standId ? standById.get(c.standId) : undefined;
        if (!stand) continue;
        const polygon = standPolygon(stand);
        commanderStandList.push({ commander: c, polygon, box: pointsBoundingBox(polygon) });
      }
    }
    return commanderStandList;
  };
  const areas: ClassedArea[] = state.terrain.areas.map((a) => {
    const chosen = param(terrainParamId(a.kind));
    const cls = (typeof chosen === 'string' ? chosen : DEFAULT_AREA_CLASS[a.kind]) as TerrainClass;
    return { id: a.id, kind: a.kind, cls, rank: classRank(cls), vertices: a.vertices, box: boundingBox(a.vertices) };
  });
  const classAt = (p: PointIn): TerrainClass => worstClassAt(areas, p);
  return {
    state,
    units,
    commanders: state.commanders,
    standById,
    areas,
    enemiesOf,
    commanderStands,
    memo: <T>(key: string, make: () => T): T => {
      if (!memos.has(key)) memos.set(key, make());
      return memos.get(key) as T;
    },
    param,
    spec: (id) => PARAM_BY_ID.get(id)!,
    unitField,
    statusField,
    classAt,
  };
}

/** Collects warnings for one unit, each (code, parameter) once. */
export class WarningSink {
  /** Made on the first warning: a session keeps a sink per pair, and most pairs raise none. */
  private seen: Set<string> | undefined;
  readonly list: EvaluationWarning[] = [];
  /** The key each warning of `list` was told apart by, same order (a session replays them). */
  private readonly keys: string[] = [];
  constructor(private readonly unitId?: string) {}

  private push(key: string, warning: () => EvaluationWarning): void {
    this.seen ??= new Set<string>();
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(warning());
    this.keys.push(key);
  }

  missing(spec: RulesetFieldSpec, needFor: string): void {
    this.push(`parameter/missing|${spec.id}`, () => missingParameterWarning(spec, needFor, this.unitId));
  }

  add(code: string, message: string): void {
    this.push(`${code}|${message}`, () => ({ code, message, ...(this.unitId !== undefined ? { unitId: this.unitId } : {}) }));
  }

  /** Adds what another sink (of the same unit) collected, in its order, each key still once. */
  replay(from: WarningSink): void {
    for (let i = 0; i < from.list.length; i++) {
      const w = from.list[i]!;
      this.push(from.keys[i]!, () => w);
    }
  }
}
