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
import { boundingBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { readFormation, type FfrFormation } from './formation.ts';
import { FFR_STATUS_FIELDS, FFR_UNIT_FIELDS, PARAM_BY_ID, terrainParamId } from './fields.ts';
import { DEFAULT_AREA_CLASS, classRank, type TerrainClass } from './tables/terrainClasses.ts';

export interface FfrUnitInfo {
  readonly unit: Unit;
  /** Stands on the table, in `unit.standIds` order. */
  readonly stands: readonly Stand[];
  readonly polygons: readonly (readonly PointIn[])[];
  readonly box: BoundingBoxIn;
  readonly formation: FfrFormation;
}

export interface ClassedArea {
  readonly id: string;
  readonly kind: AreaTerrainKind;
  readonly cls: TerrainClass;
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

export function buildContext(state: TableState): FfrContext {
  const standById = new Map(state.stands.map((s) => [s.id, s]));
  const param = (id: string) => {
    const spec = PARAM_BY_ID.get(id);
    if (!spec) throw new Error(`fire-and-fury-regimental: no parameter "${id}"`);
    return scalar(rulesetValue(spec, state.rulesetParameters));
  };
  const unitField = (unit: Unit, id: string) => scalar(rulesetValue(UNIT_FIELD.get(id)!, unit.rulesetFields));
  const statusField = (unit: Unit, id: string) => scalar(rulesetValue(STATUS_FIELD.get(id)!, unit.status?.rulesetStatus));
  const units = new Map<string, FfrUnitInfo>();
  for (const unit of state.units) {
    const stands = unit.standIds.map((id) => standById.get(id)).filter((s): s is Stand => s !== undefined);
    if (stands.length === 0) continue;
    const polygons = stands.map((s) => standPolygon(s));
    units.set(unit.id, {
      unit,
      stands,
      polygons,
      box: boundingBox(polygons.flat()),
      formation: readFormation(unit, stands, unitField(unit, 'extendedLineOnly') === true),
    });
  }
  const areas: ClassedArea[] = state.terrain.areas.map((a) => {
    const chosen = param(terrainParamId(a.kind));
    const cls = (typeof chosen === 'string' ? chosen : DEFAULT_AREA_CLASS[a.kind]) as TerrainClass;
    return { id: a.id, kind: a.kind, cls, vertices: a.vertices, box: boundingBox(a.vertices) };
  });
  const classAt = (p: PointIn): TerrainClass => {
    let worst: TerrainClass = 'open';
    for (const a of areas) {
      if (p.xIn < a.box.minXIn || p.xIn > a.box.maxXIn || p.yIn < a.box.minYIn || p.yIn > a.box.maxYIn) continue;
      if (classRank(a.cls) > classRank(worst) && pointInPolygon(p, a.vertices)) worst = a.cls;
    }
    return worst;
  };
  return {
    state,
    units,
    commanders: state.commanders,
    standById,
    areas,
    param,
    spec: (id) => PARAM_BY_ID.get(id)!,
    unitField,
    statusField,
    classAt,
  };
}

/** Collects warnings for one unit, each (code, parameter) once. */
export class WarningSink {
  private readonly seen = new Set<string>();
  readonly list: EvaluationWarning[] = [];
  constructor(private readonly unitId?: string) {}

  missing(spec: RulesetFieldSpec, needFor: string): void {
    const key = `parameter/missing|${spec.id}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(missingParameterWarning(spec, needFor, this.unitId));
  }

  add(code: string, message: string): void {
    const key = `${code}|${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ code, message, ...(this.unitId !== undefined ? { unitId: this.unitId } : {}) });
  }
}
