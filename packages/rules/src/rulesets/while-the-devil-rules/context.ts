/**
 * Per-state facts every rule area reads: units with their troop type, stands, formation, frame and hull,
 * status and bases; enemies; leaders; the sight scene; parameter lookups that remember what was missing.
 */
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import { missingParameterWarning, numberParameter, rulesetValue, type RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import type { Commander, Stand, TableState, Unit } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { standCorners } from '../../geometry/footprint.ts';
import { meanHeadingDeg } from '../../geometry/frontLine.ts';
import { buildSightScene, type SightScene } from '../../geometry/lineOfSight.ts';
import { convexHull } from '../../geometry/polygon.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { BASE_SCALE, BASES_LOST_FIELD, STATUS_FIELD, TROOP_TYPE_FIELD } from './declarations.ts';
import { readFormation, type FormationResult } from './formation.ts';
import { HALF_SCALE_FACTOR } from './tables/baseSizes.ts';
import type { StatusLevel } from './tables/moraleTables.ts';
import { basesLostToDestroy } from './tables/moraleTables.ts';
import { troopType, type TroopType } from './tables/troopTypes.ts';
import { frameBox, frameOf, fromFrame, type FrameBox, type UnitFrame } from './geom.ts';

export interface UnitInfo {
  readonly unit: Unit;
  readonly type: TroopType | undefined;
  readonly stands: readonly Stand[];
  readonly formation: FormationResult;
  readonly frame: UnitFrame;
  /** Extent of all the unit's bases in its frame. */
  readonly box: FrameBox;
  /** Convex hull of every base corner (the unit's outline). */
  readonly hull: readonly PointIn[];
  /** Centre of the unit's box (the point movement reach is drawn for). */
  readonly centre: PointIn;
  /** Distance from the centre to the furthest hull point: a cheap bound for far-apart units. */
  readonly radiusIn: number;
  readonly frontageIn: number;
  /** Game bases at the start: the starting-bases field, else 1 for a swarm, else the bases on the table. */
  readonly startingBases: number;
  readonly basesLost: number;
  /** Bases still counted: starting minus lost (bases stay on the table, losses are chits). */
  readonly basesNow: number;
  readonly status: StatusLevel;
  readonly acted: boolean;
  readonly attachedLeaderId: string | undefined;
}

export interface WtdrContext {
  readonly state: TableState;
  readonly units: ReadonlyMap<string, UnitInfo>;
  readonly standsById: ReadonlyMap<string, Stand>;
  readonly commanders: readonly Commander[];
  readonly sight: SightScene;
  /** Corners of every stand, by id. */
  readonly corners: ReadonlyMap<string, readonly PointIn[]>;
  /** A number parameter, or undefined with a warning recorded (once per parameter). */
  param(spec: RulesetFieldSpec, needFor: string, unitId?: string): number | undefined;
  /** Warnings recorded while evaluating (missing parameters). */
  readonly warnings: EvaluationWarning[];
  /** `engagedWith` answers, computed once per unit. */
  readonly engagedMemo: Map<string, readonly string[]>;
}

function statusOf(unit: Unit, destroyed: boolean): StatusLevel {
  if (destroyed) return 'destroyed';
  const v = rulesetValue(STATUS_FIELD, unit.status?.rulesetStatus);
  if (v === 'disordered' || v === 'demoralized') return v;
  // The table state's own disorder flag (status tokens) reads as Disordered when no rule-set status is set.
  return unit.status?.disordered === true ? 'disordered' : 'ok';
}

export function buildContext(state: TableState): WtdrContext {
  const standsById = new Map(state.stands.map((s) => [s.id, s]));
  const corners = new Map(state.stands.map((s) => [s.id, standCorners(s) as readonly PointIn[]]));
  const scale = rulesetValue(BASE_SCALE, state.rulesetParameters) === 'half' ? HALF_SCALE_FACTOR : 1;
  const units = new Map<string, UnitInfo>();
  for (const unit of state.units) {
    const stands = unit.standIds.map((id) => standsById.get(id)).filter((s): s is Stand => s !== undefined);
    const typeId = rulesetValue(TROOP_TYPE_FIELD, unit.rulesetFields);
    const type = troopType(typeof typeId === 'string' ? typeId : undefined);
    const formation = readFormation(type, stands, scale, unit.status?.formation);
    const frame = frameOf(meanHeadingDeg(stands));
    const pts = stands.flatMap((s) => corners.get(s.id)!);
    const box = pts.length > 0 ? frameBox(frame, pts) : { front: 0, rear: 0, left: 0, right: 0 };
    const started = unit.rulesetFields?.['starting-bases'];
    const startingBases = typeof started === 'number' ? started : type?.family === 'swarm' ? 1 : Math.max(1, stands.length);
    const lostValue = rulesetValue(BASES_LOST_FIELD, unit.status?.rulesetStatus);
    const basesLost = typeof lostValue === 'number' ? lostValue : 0;
    const destroyed = basesLost >= basesLostToDestroy(startingBases);
    const hull = pts.length > 0 ? convexHull(pts) : [];
    const centre = fromFrame(frame, (box.front + box.rear) / 2, (box.left + box.right) / 2);
    units.set(unit.id, {
      unit,
      type,
      stands,
      formation,
      frame,
      box,
      hull,
      centre,
      radiusIn: hull.reduce((m, p) => Math.max(m, Math.hypot(p.xIn - centre.xIn, p.yIn - centre.yIn)), 0),
      frontageIn: box.left - box.right,
      startingBases,
      basesLost,
      basesNow: Math.max(0, startingBases - basesLost),
      status: statusOf(unit, destroyed),
      acted: unit.status?.rulesetStatus?.['acted'] === true,
      attachedLeaderId: unit.status?.attachedCommanderId ?? state.commanders.find((c) => c.attachedToUnitId === unit.id)?.id,
    });
  }
  const warnings: EvaluationWarning[] = [];
  const missing = new Set<string>();
  return {
    state,
    units,
    standsById,
    commanders: state.commanders,
    sight: buildSightScene(state),
    corners,
    warnings,
    engagedMemo: new Map(),
    param(spec, needFor, unitId) {
      const v = numberParameter(state, spec);
      if (v === undefined && !missing.has(spec.id)) {
        missing.add(spec.id);
        warnings.push(missingParameterWarning(spec, needFor, unitId));
      }
      return v;
    },
  };
}

/** Units of other sides, in state order. */
export function enemiesOf(ctx: WtdrContext, info: UnitInfo): UnitInfo[] {
  const out: UnitInfo[] = [];
  for (const u of ctx.units.values()) if (u.unit.side !== info.unit.side && u.stands.length > 0 && u.status !== 'destroyed') out.push(u);
  return out;
}

/** A lower bound of the gap between two units' outlines, inches (centre distance less both radii). */
export function gapLowerBoundIn(a: UnitInfo, b: UnitInfo): number {
  return Math.hypot(a.centre.xIn - b.centre.xIn, a.centre.yIn - b.centre.yIn) - a.radiusIn - b.radiusIn;
}

/** Bases closer than this touch, inches (placement slack, not a rule). */
export const CONTACT_IN = 0.1;

/**
 * Enemies in contact with the unit in an ongoing combat: "any part of the front of either unit is in
 * contact with the enemy" (Combat: Melee). Swarms count all round (no flanks or rear).
 */
export function engagedWith(ctx: WtdrContext, info: UnitInfo): readonly string[] {
  const known = ctx.engagedMemo.get(info.unit.id);
  if (known) return known;
  const out: string[] = [];
  ctx.engagedMemo.set(info.unit.id, out);
  if (info.stands.length === 0 || info.status === 'destroyed') return out;
  for (const e of enemiesOf(ctx, info)) {
    if (gapLowerBoundIn(info, e) > CONTACT_IN) continue;
    if (polygonToPolygonDistanceIn(info.hull, e.hull) > CONTACT_IN) continue;
    const touchesFront = (a: UnitInfo, b: UnitInfo): boolean => {
      const zone = frontZone(a, CONTACT_IN);
      return zone.length === 0 || polygonToPolygonDistanceIn(zone, b.hull) <= 1e-9;
    };
    if (touchesFront(info, e) || touchesFront(e, info)) out.push(e.unit.id);
  }
  return out;
}

/** The front zone of a unit: its front edge pushed `depthIn` forward (nothing for swarms, which have no front). */
export function frontZone(info: UnitInfo, depthIn: number): PointIn[] {
  if (info.type?.family === 'swarm' || info.stands.length === 0) return [];
  const { front, left, right } = info.box;
  return [fromFrame(info.frame, front, left), fromFrame(info.frame, front + depthIn, left), fromFrame(info.frame, front + depthIn, right), fromFrame(info.frame, front, right)];
}
