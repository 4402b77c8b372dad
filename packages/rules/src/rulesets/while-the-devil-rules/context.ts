/**
 * Per-state facts every rule area reads: units with their troop type, stands, formation, frame and hull,
 * status and bases; enemies; leaders; the sight scene; parameter lookups that remember what was missing.
 */
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import { missingParameterWarning, numberParameter, rulesetValue, type RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import type { Commander, Stand, TableState, Unit } from '../../model/tableState.ts';
import { memoSlots, type MemoSlots } from '../../engine/ownedMemo.ts';
import type { PointIn } from '../../model/units.ts';
import { standCorners } from '../../geometry/footprint.ts';
import { meanHeadingDeg } from '../../geometry/frontLine.ts';
import { buildSightScene, sightBoxOf, type SightScene, type SightStand } from '../../geometry/lineOfSight.ts';
import { convexHull } from '../../geometry/polygon.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { BASE_SCALE, BASES_LOST_FIELD, LEADER_LOST_FIELD, STATUS_FIELD, TROOP_TYPE_FIELD } from './declarations.ts';
import { readFormation, type FormationResult } from './formation.ts';
import { HALF_SCALE_FACTOR } from './tables/baseSizes.ts';
import type { StatusLevel } from './tables/moraleTables.ts';
import { basesLostToDestroy } from './tables/moraleTables.ts';
import { troopType, type TroopType } from './tables/troopTypes.ts';
import { ENEMY_FRONT_ZONE_IN } from './tables/movementTables.ts';
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
  /** Game bases at the start: the starting-bases field, else 1 for a swarm, else `Unit.startingStands`, else the bases on the table. */
  readonly startingBases: number;
  readonly basesLost: number;
  /** Bases still counted: starting minus lost (bases stay on the table, losses are chits). */
  readonly basesNow: number;
  readonly status: StatusLevel;
  /** A leader who fell while attached to this unit: his rank, for the army's break point. */
  readonly leaderLost: 'wing' | 'army' | undefined;
  readonly acted: boolean;
  readonly attachedLeaderId: string | undefined;
  /** Convex hull of the outline and its 1" front zone: what an enemy may not enter (Movement). */
  readonly zoneHull: readonly PointIn[];
  /** The outline turned half round about the centre (centre − p): grows others' outlines by this unit's. */
  readonly reflectedHull: readonly PointIn[];
  /** What the parts derive from this unit's facts alone (charge's obstacles), kept on it for a session's reuse. */
  readonly memos: MemoSlots;
}

/** A parameter the output needed but the table does not give, with who needed it for what. */
export interface MissingParameter {
  readonly spec: RulesetFieldSpec;
  readonly needFor: string;
  readonly unitId: string | undefined;
}

export interface WtdrContext {
  readonly state: TableState;
  readonly units: ReadonlyMap<string, UnitInfo>;
  readonly standsById: ReadonlyMap<string, Stand>;
  readonly commanders: readonly Commander[];
  /**
   * Terrain for sight lines (areas, linear pieces, hills), without stands: fire tests other units' bases
   * itself (the 2" gap), so `lineOfSight` need not list the stands a line crosses. Built on first use.
   */
  readonly sight: SightScene;
  /** Every stand of the state prepared for sight-line tests, in state order; built on first use. */
  readonly sightStands: readonly SightStand[];
  /** Corners of every stand, by id. */
  readonly corners: ReadonlyMap<string, readonly PointIn[]>;
  /** A number parameter, or undefined with the request added to `missing.list`. */
  param(spec: RulesetFieldSpec, needFor: string, unitId?: string): number | undefined;
  /**
   * Where missing-parameter requests go: one list for a full evaluation, swapped per cached part by the
   * session (session.ts), so each part keeps the requests it made. `missingParameterWarnings` turns them
   * into warnings.
   */
  readonly missing: { list: MissingParameter[] };
  /** `engagedWith` answers, computed once per unit. */
  readonly engagedMemo: Map<string, readonly string[]>;
  /** `enemiesOf` answers, computed once per side. */
  readonly enemiesMemo: Map<string, readonly UnitInfo[]>;
  /** What the parts derive from this context (charge's obstacles), kept on it. */
  readonly memos: MemoSlots;
}

function statusOf(unit: Unit, destroyed: boolean): StatusLevel {
  if (destroyed) return 'destroyed';
  const v = rulesetValue(STATUS_FIELD, unit.status?.rulesetStatus);
  if (v === 'disordered' || v === 'demoralized') return v;
  // The table state's own disorder flag (status tokens) reads as Disordered when no rule-set status is set.
  return unit.status?.disordered === true ? 'disordered' : 'ok';
}

function leaderLostOf(unit: Unit): 'wing' | 'army' | undefined {
  const v = rulesetValue(LEADER_LOST_FIELD, unit.status?.rulesetStatus);
  return v === 'wing' || v === 'army' ? v : undefined;
}

/** Hooks a session passes to reuse what an earlier state computed (session.ts). */
export interface ContextReuse {
  /** The corners of a stand, if the same stand was seen before. */
  corners?(stand: Stand): readonly PointIn[] | undefined;
  /** The earlier facts for a unit whose fields and stands are the same, if any. */
  unit?(unit: Unit, stands: readonly Stand[]): UnitInfo | undefined;
}

export function buildContext(state: TableState, reuse: ContextReuse = {}): WtdrContext {
  const standsById = new Map<string, Stand>();
  const corners = new Map<string, readonly PointIn[]>();
  for (const s of state.stands) {
    standsById.set(s.id, s);
    corners.set(s.id, reuse.corners?.(s) ?? standCorners(s));
  }
  const scale = rulesetValue(BASE_SCALE, state.rulesetParameters) === 'half' ? HALF_SCALE_FACTOR : 1;
  const units = new Map<string, UnitInfo>();
  for (const unit of state.units) {
    const stands: Stand[] = [];
    for (const id of unit.standIds) {
      const s = standsById.get(id);
      if (s !== undefined) stands.push(s);
    }
    const reused = reuse.unit?.(unit, stands);
    if (reused) {
      units.set(unit.id, reused);
      continue;
    }
    const typeId = rulesetValue(TROOP_TYPE_FIELD, unit.rulesetFields);
    const type = troopType(typeof typeId === 'string' ? typeId : undefined);
    const formation = readFormation(type, stands, scale, unit.status?.formation);
    const frame = frameOf(meanHeadingDeg(stands));
    const pts: PointIn[] = [];
    for (const s of stands) for (const p of corners.get(s.id)!) pts.push(p);
    const box = pts.length > 0 ? frameBox(frame, pts) : { front: 0, rear: 0, left: 0, right: 0 };
    const started = unit.rulesetFields?.['starting-bases'];
    // The field, else one for a swarm, else the army file's stands (a unit taken off the table keeps its
    // bases for the break point), else the bases on the table.
    const startingBases = typeof started === 'number' ? started : type?.family === 'swarm' ? 1 : (unit.startingStands ?? Math.max(1, stands.length));
    const lostValue = rulesetValue(BASES_LOST_FIELD, unit.status?.rulesetStatus);
    const basesLost = typeof lostValue === 'number' ? lostValue : 0;
    const destroyed = basesLost >= basesLostToDestroy(startingBases);
    const hull = pts.length > 0 ? convexHull(pts) : [];
    const centre = fromFrame(frame, (box.front + box.rear) / 2, (box.left + box.right) / 2);
    const zone = frontZone({ type, stands, box, frame }, ENEMY_FRONT_ZONE_IN);
    let radiusIn = 0;
    for (const p of hull) radiusIn = Math.max(radiusIn, Math.hypot(p.xIn - centre.xIn, p.yIn - centre.yIn));
    units.set(unit.id, {
      unit,
      type,
      stands,
      formation,
      frame,
      box,
      hull,
      centre,
      radiusIn,
      frontageIn: box.left - box.right,
      startingBases,
      basesLost,
      basesNow: Math.max(0, startingBases - basesLost),
      status: statusOf(unit, destroyed),
      leaderLost: leaderLostOf(unit),
      acted: unit.status?.rulesetStatus?.['acted'] === true,
      attachedLeaderId: unit.status?.attachedCommanderId ?? state.commanders.find((c) => c.attachedToUnitId === unit.id)?.id,
      zoneHull: zone.length > 0 ? convexHull([...hull, ...zone]) : hull,
      reflectedHull: hull.map((p) => ({ xIn: centre.xIn - p.xIn, yIn: centre.yIn - p.yIn })),
      memos: memoSlots(),
    });
  }
  const missing = { list: [] as MissingParameter[] };
  let sight: SightScene | undefined;
  let sightStands: SightStand[] | undefined;
  return {
    state,
    units,
    standsById,
    commanders: state.commanders,
    get sight() {
      return (sight ??= buildSightScene({ terrain: state.terrain, stands: [] }));
    },
    get sightStands() {
      return (sightStands ??= state.stands.map((st): SightStand => {
        const c = corners.get(st.id)!;
        return { id: st.id, unitId: st.unitId, corners: c, box: sightBoxOf(c), cx: st.pose.xIn, cy: st.pose.yIn, radiusIn: Math.sqrt(st.widthIn * st.widthIn + st.depthIn * st.depthIn) / 2 };
      }));
    },
    corners,
    missing,
    engagedMemo: new Map(),
    enemiesMemo: new Map(),
    memos: memoSlots(),
    param(spec, needFor, unitId) {
      const v = numberParameter(state, spec);
      if (v === undefined) missing.list.push({ spec, needFor, unitId });
      return v;
    },
  };
}

/**
 * One `parameter/missing` warning per parameter, sorted by parameter id, naming the request of the unit
 * with the smallest id (then the first `needFor` in text order): the same whatever order the units are
 * listed or evaluated in.
 */
export function missingParameterWarnings(lists: Iterable<readonly MissingParameter[]>): EvaluationWarning[] {
  const first = new Map<string, MissingParameter>();
  const before = (a: MissingParameter, b: MissingParameter): boolean => {
    const ua = a.unitId ?? '';
    const ub = b.unitId ?? '';
    return ua < ub || (ua === ub && a.needFor < b.needFor);
  };
  for (const list of lists) {
    for (const m of list) {
      const known = first.get(m.spec.id);
      if (!known || before(m, known)) first.set(m.spec.id, m);
    }
  }
  return [...first.keys()].sort().map((id) => {
    const m = first.get(id)!;
    return missingParameterWarning(m.spec, m.needFor, m.unitId);
  });
}

/** Units of other sides on the table and not destroyed, in state order. */
export function enemiesOf(ctx: WtdrContext, info: UnitInfo): readonly UnitInfo[] {
  const side = info.unit.side;
  let out = ctx.enemiesMemo.get(side);
  if (!out) {
    const list: UnitInfo[] = [];
    for (const u of ctx.units.values()) if (u.unit.side !== side && u.stands.length > 0 && u.status !== 'destroyed') list.push(u);
    ctx.enemiesMemo.set(side, (out = list));
  }
  return out;
}

/** A lower bound of the gap between two units' outlines, inches (centre distance less both radii). */
export function gapLowerBoundIn(a: UnitInfo, b: UnitInfo): number {
  return Math.hypot(a.centre.xIn - b.centre.xIn, a.centre.yIn - b.centre.yIn) - a.radiusIn - b.radiusIn;
}

/** Bases closer than this touch, inches (placement slack, not a rule). */
export const CONTACT_IN = 0.1;
/**
 * How far from a front corner a contact still counts as on the front ("Front corners are only considered to
 * be a part of the unit's front facing", Combat: Melee), inches: placement slack, well over `CONTACT_IN`.
 */
export const FRONT_CORNER_SLACK_IN = 0.25;

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
export function frontZone(info: Pick<UnitInfo, 'type' | 'stands' | 'box' | 'frame'>, depthIn: number): PointIn[] {
  if (info.type?.family === 'swarm' || info.stands.length === 0) return [];
  const { front, left, right } = info.box;
  return [fromFrame(info.frame, front, left), fromFrame(info.frame, front + depthIn, left), fromFrame(info.frame, front + depthIn, right), fromFrame(info.frame, front, right)];
}
