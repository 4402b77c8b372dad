/**
 * What every rule area reads: the table through the engine's reader (`ctx.t`), each unit's facts (troop
 * type, stands, formation, frame and outline, status and bases: the `unitInfo` query), the units of other
 * sides, who is in contact with whom, the terrain's sight scene, and parameter lookups that report what
 * was missing. Made once per engine: it holds no table state of its own.
 */
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import { missingParameterWarning, rulesetValue, type RulesetFieldSpec } from '../../engine/rulesetFields.ts';
import { query } from '../../engine/incremental/query.ts';
import { accumulator, type TableReader } from '../../engine/incremental/tableReader.ts';
import type { Commander, RulesetValues, Stand, TableState, Terrain, Unit } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { standCorners } from '../../geometry/footprint.ts';
import { meanHeadingDeg } from '../../geometry/frontLine.ts';
import { buildSightScene, type SightScene } from '../../geometry/lineOfSight.ts';
import { convexHull, type BoundingBoxIn } from '../../geometry/polygon.ts';
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
  /** Corners of each of its stands, by stand id. */
  readonly corners: Readonly<Record<string, readonly PointIn[]>>;
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
}

/** A parameter the output needed but the table does not give, with who needed it for what. */
export interface MissingParameter {
  readonly spec: RulesetFieldSpec;
  readonly needFor: string;
  readonly unitId: string | undefined;
}

/** Where parameter lookups report what the table lacks (collected into warnings by the evaluation). */
export const MISSING_PARAMETERS = accumulator<MissingParameter>('wtdr/missing-parameter');

/** The units of the table, by id, as their facts. */
export interface UnitsView {
  get(id: string): UnitInfo | undefined;
  has(id: string): boolean;
  /** Ids in the state's order. */
  keys(): readonly string[];
  /** Every unit's facts in the state's order (reads every unit). */
  values(): UnitInfo[];
}

export interface WtdrContext {
  /** The table, read through the engine (every read is recorded for the piece being worked out). */
  readonly t: TableReader<WtdrContext>;
  readonly units: UnitsView;
  readonly terrain: Terrain;
  readonly table: TableState['table'];
  readonly parameters: RulesetValues | undefined;
  readonly commanders: readonly Commander[];
  /** Terrain for sight lines (areas, linear pieces, hills), without stands: fire tests other units' bases itself. */
  readonly sight: SightScene;
  /** A number parameter, or undefined with the request reported (`MISSING_PARAMETERS`). */
  param(spec: RulesetFieldSpec, needFor: string, unitId?: string): number | undefined;
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

/** A unit's facts: its bases, troop type, formation, frame, outline and status. */
export const unitInfo = query(
  'wtdr/unit',
  (ctx: WtdrContext, unitId: string): UnitInfo | undefined => {
    const unit = ctx.t.unit(unitId);
    if (!unit) return undefined;
    const stands = ctx.t.unitStands(unitId);
    const corners: Record<string, readonly PointIn[]> = {};
    for (const s of stands) corners[s.id] = standCorners(s);
    const scale = rulesetValue(BASE_SCALE, ctx.parameters) === 'half' ? HALF_SCALE_FACTOR : 1;
    const typeId = rulesetValue(TROOP_TYPE_FIELD, unit.rulesetFields);
    const type = troopType(typeof typeId === 'string' ? typeId : undefined);
    const formation = readFormation(type, stands, scale, unit.status?.formation);
    const frame = frameOf(meanHeadingDeg(stands));
    const pts: PointIn[] = [];
    for (const s of stands) for (const p of corners[s.id]!) pts.push(p);
    const box = pts.length > 0 ? frameBox(frame, pts) : { front: 0, rear: 0, left: 0, right: 0 };
    const started = unit.rulesetFields?.['starting-bases'];
    // The field, else one for a swarm, else the army file's stands (a unit taken off the table keeps its
    // bases for the break point), else the bases on the table.
    // A camp "generally as a single base" (Army Morale).
    const startingBases = typeof started === 'number' ? started : type?.family === 'swarm' || type?.family === 'camp' ? 1 : (unit.startingStands ?? Math.max(1, stands.length));
    const lostValue = rulesetValue(BASES_LOST_FIELD, unit.status?.rulesetStatus);
    const basesLost = typeof lostValue === 'number' ? lostValue : 0;
    const destroyed = basesLost >= basesLostToDestroy(startingBases);
    const hull = pts.length > 0 ? convexHull(pts) : [];
    const centre = fromFrame(frame, (box.front + box.rear) / 2, (box.left + box.right) / 2);
    const zone = frontZone({ type, stands, box, frame }, ENEMY_FRONT_ZONE_IN);
    let radiusIn = 0;
    for (const p of hull) radiusIn = Math.max(radiusIn, Math.hypot(p.xIn - centre.xIn, p.yIn - centre.yIn));
    const attachedLeaderId = unit.status?.attachedCommanderId ?? ctx.commanders.find((c) => c.attachedToUnitId === unit.id)?.id;
    return {
      unit,
      type,
      stands,
      corners,
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
      attachedLeaderId,
      zoneHull: zone.length > 0 ? convexHull([...hull, ...zone]) : hull,
      reflectedHull: hull.map((p) => ({ xIn: centre.xIn - p.xIn, yIn: centre.yIn - p.yIn })),
    };
  },
  { equal: 'plain' },
);

/** The terrain's sight scene (no stands). */
const sightScene = query('wtdr/sight-scene', (ctx: WtdrContext) => buildSightScene({ terrain: ctx.terrain, stands: [] }));

/** The context the engine hands every query. */
export function wtdrContext(t: TableReader<WtdrContext>): WtdrContext {
  const units: UnitsView = {
    get: (id) => t.get(unitInfo, id),
    has: (id) => t.unit(id) !== undefined,
    keys: () => t.unitIds(),
    values: () => t.unitIds().map((id) => t.get(unitInfo, id)!),
  };
  const ctx: WtdrContext = {
    t,
    units,
    get terrain() {
      return t.terrain();
    },
    get table() {
      return t.table();
    },
    get parameters() {
      return t.rulesetParameters();
    },
    get commanders() {
      return t.commanders();
    },
    get sight() {
      return t.get(sightScene);
    },
    param(spec, needFor, unitId) {
      const v = rulesetValue(spec, t.rulesetParameters());
      if (typeof v === 'number') return v;
      t.report(MISSING_PARAMETERS, { spec, needFor, unitId });
      return undefined;
    },
  };
  return ctx;
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

/** Ids of the units not of `side` on the table and not destroyed, in state order. */
const enemyIds = query(
  'wtdr/enemies',
  (ctx: WtdrContext, side: string): readonly string[] => ctx.units.values().filter((u) => u.unit.side !== side && u.stands.length > 0 && u.status !== 'destroyed').map((u) => u.unit.id),
  { equal: 'plain' },
);

/** Units of other sides on the table and not destroyed, in state order. */
export function enemiesOf(ctx: WtdrContext, info: UnitInfo): readonly UnitInfo[] {
  return ctx.t.get(enemyIds, info.unit.side).map((id) => ctx.units.get(id)!);
}

/** Ids of the units of other sides on the table and not destroyed, in state order (without reading them). */
export function enemyIdsOf(ctx: WtdrContext, side: string): readonly string[] {
  return ctx.t.get(enemyIds, side);
}

/** The box of a list of points grown by `byIn`, inches. */
export function grownBox(points: readonly PointIn[], byIn: number): BoundingBoxIn {
  let minXIn = Infinity, minYIn = Infinity, maxXIn = -Infinity, maxYIn = -Infinity;
  for (const p of points) {
    if (p.xIn < minXIn) minXIn = p.xIn;
    if (p.yIn < minYIn) minYIn = p.yIn;
    if (p.xIn > maxXIn) maxXIn = p.xIn;
    if (p.yIn > maxYIn) maxYIn = p.yIn;
  }
  return { minXIn: minXIn - byIn, minYIn: minYIn - byIn, maxXIn: maxXIn + byIn, maxYIn: maxYIn + byIn };
}

/**
 * Units of other sides on the table and not destroyed whose outline (and anything within `reachIn` of it)
 * may come within `reachIn` of the box of `points`, in state order: the only enemies a rule looking that
 * far from those points can meet.
 */
export function enemiesNear(ctx: WtdrContext, side: string, points: readonly PointIn[], reachIn: number): UnitInfo[] {
  const out: UnitInfo[] = [];
  for (const id of ctx.t.unitsIn(grownBox(points, reachIn))) {
    const u = ctx.units.get(id)!;
    if (u.unit.side !== side && u.status !== 'destroyed') out.push(u);
  }
  return out;
}

/** The largest outline radius of any unit on the table, inches (how far a unit's centre may lie from its bases). */
const largestRadius = query('wtdr/largest-radius', (ctx: WtdrContext): number => {
  let largest = 0;
  for (const u of ctx.units.values()) if (u.radiusIn > largest) largest = u.radiusIn;
  return largest;
});

export function largestRadiusIn(ctx: WtdrContext): number {
  return ctx.t.get(largestRadius);
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
const engaged = query(
  'wtdr/engaged',
  (ctx: WtdrContext, unitId: string): readonly string[] => {
    const info = ctx.units.get(unitId)!;
    const out: string[] = [];
    // A camp is sacked, not fought (Combat Effects and Rallying): contact with one is no combat.
    if (info.stands.length === 0 || info.status === 'destroyed' || info.type?.family === 'camp') return out;
    for (const e of enemiesNear(ctx, info.unit.side, info.hull, CONTACT_IN)) {
      if (e.type?.family === 'camp') continue;
      if (gapLowerBoundIn(info, e) > CONTACT_IN) continue;
      if (polygonToPolygonDistanceIn(info.hull, e.hull) > CONTACT_IN) continue;
      const touchesFront = (a: UnitInfo, b: UnitInfo): boolean => {
        const zone = frontZone(a, CONTACT_IN);
        return zone.length === 0 || polygonToPolygonDistanceIn(zone, b.hull) <= 1e-9;
      };
      if (touchesFront(info, e) || touchesFront(e, info)) out.push(e.unit.id);
    }
    return out;
  },
  { equal: 'plain' },
);

export function engagedWith(ctx: WtdrContext, info: UnitInfo): readonly string[] {
  return ctx.t.get(engaged, info.unit.id);
}

/**
 * Friendly units in base contact with the unit (on the table, not destroyed), in state order: the
 * units that may support it in a melee (Combat: Melee, "Supporting units include:"; see melee.ts).
 */
const touchingFriends = query(
  'wtdr/touching-friends',
  (ctx: WtdrContext, unitId: string): readonly string[] => {
    const info = ctx.units.get(unitId)!;
    const out: string[] = [];
    if (info.stands.length === 0 || info.status === 'destroyed') return out;
    for (const id of ctx.t.unitsIn(grownBox(info.hull, CONTACT_IN))) {
      const f = ctx.units.get(id)!;
      if (id === unitId || f.unit.side !== info.unit.side || f.status === 'destroyed' || f.stands.length === 0) continue;
      if (gapLowerBoundIn(info, f) > CONTACT_IN) continue;
      if (polygonToPolygonDistanceIn(info.hull, f.hull) <= CONTACT_IN) out.push(id);
    }
    return out;
  },
  { equal: 'plain' },
);

export function touchingFriendsOf(ctx: WtdrContext, info: UnitInfo): readonly string[] {
  return ctx.t.get(touchingFriends, info.unit.id);
}

/** The front zone of a unit: its front edge pushed `depthIn` forward (nothing for swarms, which have no front). */
export function frontZone(info: Pick<UnitInfo, 'type' | 'stands' | 'box' | 'frame'>, depthIn: number): PointIn[] {
  if (info.type?.family === 'swarm' || info.type?.family === 'camp' || info.stands.length === 0) return [];
  const { front, left, right } = info.box;
  return [fromFrame(info.frame, front, left), fromFrame(info.frame, front + depthIn, left), fromFrame(info.frame, front + depthIn, right), fromFrame(info.frame, front, right)];
}
