/**
 * Charges (While the Devil Rules, Combat: Charges): a unit may wheel, then must move directly forward until
 * some part of its front meets the target; the move may not cross another enemy's front within 1" nor pass
 * through any unit. Who may charge whom (artillery and march columns never; dragoons and forlorn hopes in
 * the open only at skirmishers or guns; light horse only at light troops or guns unless the target is taken
 * in flank or rear). Harquebusiers charging an undisordered enemy's front stop an inch short unless their
 * charging fire disorders it (`HARQUEBUSIERS_AT_UNDISORDERED_FRONT`): the stop is drawn. Reach comes from the app.
 */
import type { ChargeRefusal, ChargeTargetOption, DiceModifier } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import { query } from '../../engine/incremental/query.ts';
import type { PointIn } from '../../model/units.ts';
import { convexPolygonsMayOverlap } from '../../geometry/convexOverlap.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { rotateAround } from '../../geometry/vec.ts';
import { chargeSpec } from './declarations.ts';
import { movementOf } from './movement.ts';
import { engagedWith, frontZone, gapLowerBoundIn, type UnitInfo, type WtdrContext } from './context.ts';
import { along, aheadOf, clipConvex, frameOf, leftOfRay, rightOfRay } from './geom.ts';
import { modifierBreakdown, type ModifierFactor } from './modifiers.ts';
import { chargingFireLine, defensiveFireLine, passThroughFirers, passThroughLine } from './chargeFire.ts';
import { FORCE_RATIO_LABELS, forceRatio } from './tables/fireTables.ts';
import { ENEMY_FRONT_ZONE_IN } from './tables/movementTables.ts';
import { AREA_CLASSES } from './tables/terrainClasses.ts';
import type { TroopType } from './tables/troopTypes.ts';

const CHARGES = 'Combat (Charges and Melee): Charges';

/**
 * The guide says both "Hraquebusier units will not charge an undisordered enemy (the game app will tell you
 * when this is the case.)" and, of charging fire, "If the target is not disordered, Harquebusiers will refuse
 * to contact the enemy frontally, stopping an inch short of contact" (Charges; the Design Notes: "unwilling
 * to charge, unless their fire was effective"). Read as the second: the charge is open, the harquebusiers
 * fire before contact, and stop 1" short of the front unless that fire disordered the target. 'refuse' is the
 * first reading (no charge at an undisordered front).
 */
export const HARQUEBUSIERS_AT_UNDISORDERED_FRONT: 'stop-short' | 'refuse' = 'stop-short';
/** "stopping an inch short of contact" (Charges). */
export const HARQUEBUSIER_STOP_SHORT_IN = 1;
/** Wheel angles tried, degrees apart, up to 90° each way ("Wheels may only be made to a unit's front"). */
const WHEEL_STEP_DEG = 5;
const WHEEL_MAX_DEG = 90;

interface ChargePath {
  readonly wheelDeg: number;
  readonly wheelCostIn: number;
  readonly straightIn: number;
  /** Front edge after the wheel, left to right. */
  readonly edge: readonly [PointIn, PointIn];
  readonly headingDeg: number;
  /** Where the front first meets the target. */
  readonly contact: PointIn;
}

/**
 * Distance straight ahead from a front edge until it meets the target's outline (its bases' convex hull:
 * formations are solid blocks), with the first point met.
 */
function straightToContact(edge: readonly [PointIn, PointIn], headingDeg: number, target: UnitInfo): { d: number; at: PointIn } | undefined {
  const [a, b] = edge;
  const fr = frameOf(headingDeg);
  const base = along(fr, a);
  let best: { d: number; at: PointIn } | undefined;
  for (const p of clipConvex(target.hull, [aheadOf(a, headingDeg), rightOfRay(a, headingDeg), leftOfRay(b, headingDeg)])) {
    const d = along(fr, p) - base;
    if (!best || d < best.d) best = { d, at: p };
  }
  return best;
}

/** The area the front sweeps: the wheel (as the triangle of the moving corner) and the straight run. */
function sweptAreas(start: readonly [PointIn, PointIn], path: ChargePath): PointIn[][] {
  const [a, b] = path.edge;
  const r = (path.headingDeg * Math.PI) / 180;
  const s = Math.max(0, path.straightIn - 0.01);
  const a2 = { xIn: a.xIn + Math.cos(r) * s, yIn: a.yIn + Math.sin(r) * s };
  const b2 = { xIn: b.xIn + Math.cos(r) * s, yIn: b.yIn + Math.sin(r) * s };
  const areas = [[a, b, b2, a2]];
  if (path.wheelDeg !== 0) areas.push([start[0], start[1], path.wheelDeg > 0 ? b : a, path.wheelDeg > 0 ? a : b]);
  return areas;
}

/** An obstacle to a charge's sweep: a unit's outline or its 1" front zone, with its box. */
interface Obstacle {
  readonly unitId: string;
  readonly side: string;
  /** True for a front zone, which blocks only the other side's charges. */
  readonly zone: boolean;
  readonly polygon: readonly PointIn[];
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

function obstacleOf(info: UnitInfo, polygon: readonly PointIn[], zone: boolean): Obstacle {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of polygon) {
    minX = Math.min(minX, p.xIn);
    minY = Math.min(minY, p.yIn);
    maxX = Math.max(maxX, p.xIn);
    maxY = Math.max(maxY, p.yIn);
  }
  return { unitId: info.unit.id, side: info.unit.side, zone, polygon, minX, minY, maxX, maxY };
}

/** A unit's outline and front zone as obstacles to a charge's sweep (units without bases and destroyed ones block nothing). */
const obstaclesOf = query(
  'wtdr/charge-obstacles',
  (ctx: WtdrContext, unitId: string): readonly Obstacle[] => {
    const other = ctx.units.get(unitId)!;
    if (other.stands.length === 0 || other.status === 'destroyed') return [];
    const zone = frontZone(other, ENEMY_FRONT_ZONE_IN);
    return zone.length > 0 ? [obstacleOf(other, other.hull, false), obstacleOf(other, zone, true)] : [obstacleOf(other, other.hull, false)];
  },
  { equal: 'plain' },
);

/** Whether the sweep meets another unit's outline or another enemy's front zone (not the attacker's, not the target's). */
function sweepBlocked(ctx: WtdrContext, area: readonly PointIn[], attacker: UnitInfo, targetId: string): boolean {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of area) {
    minX = Math.min(minX, p.xIn);
    minY = Math.min(minY, p.yIn);
    maxX = Math.max(maxX, p.xIn);
    maxY = Math.max(maxY, p.yIn);
  }
  const selfId = attacker.unit.id;
  const side = attacker.unit.side;
  // A unit's front zone reaches 1" beyond its bases: units whose box is further from the sweep cannot block it.
  const m = ENEMY_FRONT_ZONE_IN + 0.01;
  for (const unitId of ctx.t.unitsIn({ minXIn: minX - m, minYIn: minY - m, maxXIn: maxX + m, maxYIn: maxY + m })) {
    if (unitId === targetId || unitId === selfId) continue;
    for (const o of ctx.t.get(obstaclesOf, unitId)) {
      if (o.zone && o.side === side) continue;
      if (o.maxX < minX || o.minX > maxX || o.maxY < minY || o.minY > maxY) continue;
      if (convexPolygonsMayOverlap(area, o.polygon, -1e-6)) return true;
    }
  }
  return false;
}

/** The cheapest wheel-then-straight path whose sweep crosses no other unit and no other enemy's 1" front zone. */
function bestPath(ctx: WtdrContext, info: UnitInfo, target: UnitInfo): { path?: ChargePath; sweep?: PointIn[][]; anyContact: boolean } {
  const f = info.frame;
  const fl = { xIn: info.box.front * f.fx - info.box.left * f.fy, yIn: info.box.front * f.fy + info.box.left * f.fx };
  const frr = { xIn: info.box.front * f.fx - info.box.right * f.fy, yIn: info.box.front * f.fy + info.box.right * f.fx };
  const start = [fl, frr] as const;
  const paths: ChargePath[] = [];
  for (let w = -WHEEL_MAX_DEG; w <= WHEEL_MAX_DEG; w += WHEEL_STEP_DEG) {
    // A left wheel (w > 0, counter-clockwise) pivots on the left front corner; a right wheel on the right.
    const pivot = w > 0 ? fl : frr;
    const edge = [w > 0 ? fl : rotateAround(fl, pivot, w), w > 0 ? rotateAround(frr, pivot, w) : frr] as const;
    const headingDeg = f.headingDeg + w;
    const hit = straightToContact(edge, headingDeg, target);
    if (!hit || hit.d < -1e-6) continue;
    const wheelCostIn = (info.frontageIn * Math.abs(w) * Math.PI) / 180;
    paths.push({ wheelDeg: w, wheelCostIn, straightIn: Math.max(0, hit.d), edge, headingDeg, contact: hit.at });
  }
  // Cheapest first (smaller wheel on a tie); the first whose sweep is clear is the answer.
  paths.sort((a, b) => a.wheelCostIn + a.straightIn - (b.wheelCostIn + b.straightIn) || Math.abs(a.wheelDeg) - Math.abs(b.wheelDeg) || a.wheelDeg - b.wheelDeg);
  for (const path of paths) {
    const sweep = sweptAreas(start, path);
    if (!sweep.some((area) => sweepBlocked(ctx, area, info, target.unit.id))) return { path, sweep, anyContact: true };
  }
  return { anyContact: paths.length > 0 };
}

/** Whether the contact point lies on the target's front edge (front corners count as front). */
function hitsFront(target: UnitInfo, contact: PointIn): boolean {
  if (target.type?.family === 'swarm') return true; // swarms have no flanks or rear
  return along(target.frame, contact) >= target.box.front - 0.05;
}

function inOpen(ctx: WtdrContext, info: UnitInfo): boolean {
  return !ctx.terrain.areas.some((a) => pointInPolygon(info.centre, a.vertices));
}

export interface ChargeResult {
  readonly charge: readonly (ChargeTargetOption | ChargeRefusal)[];
  readonly shapes: readonly Shape[];
}

/** What a unit's charges need before any target: nothing (no bases), a refusal for every enemy, or its reach. */
export type ChargePlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'refuse'; readonly reason: string; readonly detail: string }
  | { readonly kind: 'charge'; readonly type: TroopType; readonly reach: number | undefined; readonly reachMissing: string };

function refusePlan(reason: string, detail: string): ChargePlan {
  return { kind: 'refuse', reason, detail };
}

export function chargePlan(ctx: WtdrContext, info: UnitInfo): ChargePlan {
  const type = info.type;
  if (info.stands.length === 0) return { kind: 'none' };
  if (!type) return refusePlan('charge/no-troop-type', 'set rulesetFields["troop-type"]');
  if (info.status === 'destroyed') return refusePlan('charge/destroyed', 'the unit is destroyed');
  if (type.family === 'camp') return refusePlan('charge/camp', 'a baggage or camp does not charge (Army Morale)');
  if (type.family === 'artillery') return refusePlan('charge/artillery', `Artillery ... may not Charge (${CHARGES})`);
  if (info.formation.march) return refusePlan('charge/march-column', `units in "march" (column) formation may not Charge (${CHARGES})`);
  if (info.acted) return refusePlan('charge/already-acted', 'the unit has acted this turn (Turn Sequence)');
  const engaged = engagedWith(ctx, info);
  if (engaged.length > 0) return refusePlan('charge/in-combat', `in contact with ${engaged.join(', ')}: a Charge is made by a unit "not already engaged in a melee" (${CHARGES})`);
  const spec = chargeSpec(type.id);
  return { kind: 'charge', type, reach: ctx.param(spec, `Charge reach of ${type.label}`, info.unit.id), reachMissing: `enter "${spec.id}" from the app` };
}

/** One target's answer and the arrow for an option. */
export interface ChargePair {
  readonly entry: ChargeTargetOption | ChargeRefusal;
  readonly shape?: Shape;
  /** Where a charge that must stop short ends: its front edge there. */
  readonly stopShape?: Shape;
  /** Where the target may evade to. */
  readonly evadeShape?: Shape;
}

/**
 * "Charges may not involve a change of formation of any type on the part of the charging unit. Unit depth and
 * frontage must remain the same as at the start of the move ... The exception to this rules is for Irregular
 * Light Horse, Dragoons, and Forlorn Hopes, which may adjust their formation as desired" (Charges).
 */
function formationLine(info: UnitInfo): DiceModifier {
  const family = info.type?.family;
  if (family === 'swarm' || family === 'light-horse') return { label: `${info.unit.name} may adjust its formation as desired during the charge`, dice: 0, source: CHARGES };
  const depthIn = info.box.front - info.box.rear;
  return { label: `no change of formation during the charge: frontage ${info.frontageIn.toFixed(1)}" and depth ${depthIn.toFixed(1)}" stay as at the start`, dice: 0, source: CHARGES };
}

/**
 * "When Charged, Forlorn Hopes, Dragoons, and Irregular Light Horse may attempt to evade the Charge ... performed
 * like any other movement, including paying for the initial facing change" (Charges): where the target may
 * go, its own movement reach. Not when it has acted ("evade moves will use the evading unit's action") nor in
 * an ongoing combat ("neither evasion nor defensive Fire are allowed", Ongoing Combats).
 */
function evasion(ctx: WtdrContext, chargerId: string, target: UnitInfo): { line: DiceModifier; shape?: Shape } | undefined {
  const family = target.type?.family;
  if (family !== 'swarm' && family !== 'light-horse') return undefined;
  const name = target.unit.name;
  if (target.acted) return { line: { label: `${name} has acted: no evasion (evading uses its action)`, dice: 0, source: CHARGES } };
  if (engagedWith(ctx, target).length > 0) return { line: { label: `${name} is in an ongoing combat: no evasion (Ongoing Combats)`, dice: 0, source: CHARGES } };
  const move = ctx.t.get(movementOf, target.unit.id).movement;
  if (!move.ok) return { line: { label: `${name} may evade instead of firing (uses its action); its evade reach needs its movement: ${move.detail ?? move.reason}`, dice: 0, source: CHARGES } };
  return {
    line: { label: `${name} may evade instead of firing (uses its action): any move within its ${move.allowanceIn}" reach, facing change paid (drawn); the charger may then use its remaining move to reach it`, dice: 0, source: CHARGES },
    shape: { id: `wtdr/${chargerId}/charge/${target.unit.id}/evade`, kind: 'polygon', layer: 'charge', style: 'reach', unitId: target.unit.id, side: target.unit.side, vertices: move.reach },
  };
}

function farDetail(reachIn: number, wholeInches: number): string {
  return `over ${wholeInches}" away; reach ${reachIn}"`;
}

function refusal(targetUnitId: string, reason: string, detail: string): ChargePair {
  return { entry: { ok: false, reason, detail, targetUnitId } };
}

export function chargeAtTarget(ctx: WtdrContext, info: UnitInfo, plan: ChargePlan & { kind: 'charge' }, target: UnitInfo): ChargePair {
  const { type, reach } = plan;
  const id = info.unit.id;
  const tid = target.unit.id;
  const tFamily = target.type?.family;
  const lightTarget = tFamily === 'swarm' || tFamily === 'artillery';
  if (type.family === 'swarm' && inOpen(ctx, info) && !lightTarget) {
    return refusal(tid, 'charge/skirmishers-in-open', `Dragoons or Forlorn Hopes in the open charge only Dragoons, Forlorn Hopes or Artillery (${CHARGES})`);
  }
  // No path is shorter than the gap between the outlines: far targets need no path search.
  if (reach === undefined) {
    return refusal(tid, 'charge/reach-not-entered', plan.reachMissing);
  }
  const gapIn = gapLowerBoundIn(info, target) > reach ? gapLowerBoundIn(info, target) : polygonToPolygonDistanceIn(info.hull, target.hull);
  if (gapIn > reach + 1e-9) {
    return refusal(tid, 'charge/out-of-reach', farDetail(reach, Math.floor(gapIn)));
  }
  // Sweep obstacles: every other unit's outline and every other enemy's 1" front zone (the target's are skipped).
  const found = bestPath(ctx, info, target);
  if (!found.path) {
    if (found.anyContact) return refusal(tid, 'charge/path-blocked', `every wheel-then-straight path crosses another unit or another enemy's front within 1" (${CHARGES})`);
    return refusal(tid, 'charge/not-ahead', `no wheel of up to 90° brings the front straight onto the target (${CHARGES})`);
  }
  const path = found.path;
  const distanceIn = path.wheelCostIn + path.straightIn;
  const flanked = !hitsFront(target, path.contact);
  // "... unless the Target of the Charge is already engaged in an ongoing combat or is being charged in
  // the flank or rear" (Charges).
  if (type.family === 'light-horse' && !(tFamily === 'light-horse' || lightTarget) && !flanked && engagedWith(ctx, target).length === 0) {
    return refusal(tid, 'charge/light-horse-target', `Irregular Light Horse charge only light horse, skirmishers or guns unless the target is already in an ongoing combat or in flank or rear (${CHARGES})`);
  }
  const stopsShort = type.id === 'harquebusier' && target.status === 'ok' && !flanked;
  if (stopsShort && HARQUEBUSIERS_AT_UNDISORDERED_FRONT === 'refuse') {
    return refusal(tid, 'charge/harquebusiers-refuse', `Harquebusiers will not charge an undisordered enemy's front (${CHARGES})`);
  }
  if (distanceIn > reach + 1e-9) {
    return refusal(tid, 'charge/out-of-reach', `path ${distanceIn.toFixed(1)}" (wheel ${path.wheelCostIn.toFixed(1)}" + ${path.straightIn.toFixed(1)}"); reach ${reach}"`);
  }
  const evade = evasion(ctx, id, target);
  const ratio = forceRatio(info.basesNow, target.basesNow);
  const attackerFactors: ModifierFactor[] = [
    { id: 'melee-actor-charging', label: 'Actor is Charging', section: CHARGES },
    { id: `melee-${ratio}`, label: `${FORCE_RATIO_LABELS[ratio]} (${info.basesNow} v ${target.basesNow} bases, all bases count)`, section: 'Combat: Melee' },
  ];
  if (flanked) attackerFactors.push({ id: 'melee-flank-or-rear', label: 'Target taken in Flank/Rear', section: 'Combat: Melee' });
  if (info.attachedLeaderId !== undefined) attackerFactors.push({ id: 'melee-leader-with-actor', label: 'Leader with Actor', section: 'Leaders and Command Control' });
  if (info.status !== 'ok') attackerFactors.push({ id: 'melee-actor-disordered', label: 'Actor is Disordered/Demoralized', section: 'Actions (Melee)' });
  const defenderFactors: ModifierFactor[] = [];
  if (target.attachedLeaderId !== undefined) defenderFactors.push({ id: 'melee-leader-with-actor', label: 'Leader with Target', section: 'Leaders and Command Control' });
  if (target.status !== 'ok') defenderFactors.push({ id: 'melee-actor-disordered', label: 'Target is Disordered/Demoralized', section: 'Actions (Melee)' });
  // The app's Cover/Ground for the melee: the rough or very rough ground where the fronts meet.
  const disorderedBy = ctx.terrain.areas
    .filter((a) => pointInPolygon(path.contact, a.vertices))
    .map((a) => `${AREA_CLASSES[a.kind].movement} ground: ${a.kind} (${a.id})`);
  const entry: ChargeTargetOption = {
    ok: true,
    targetUnitId: tid,
    distanceIn,
    attacker: {
      ...modifierBreakdown(ctx, attackerFactors, `Charge of ${info.unit.name}`, id),
      limits: [
        ...chargeFireLines(ctx, info, target, !flanked, found.sweep!),
        formationLine(info),
        {
          label: `on contact the front wheels left or right to maximise contact, "but must always wheel to the front of the Target if possible"${flanked ? '' : ' (here the front)'}`,
          dice: 0,
          source: CHARGES,
        },
        ...(evade ? [evade.line] : []),
        ...(stopsShort ? [{ label: `${target.unit.name} is not disordered: unless the charging fire disorders it, the harquebusiers refuse frontal contact and stop ${HARQUEBUSIER_STOP_SHORT_IN}" short (drawn), no melee`, dice: 0, source: CHARGES }] : []),
      ],
    },
    defender: modifierBreakdown(ctx, defenderFactors, `Defence of ${target.unit.name}`, tid),
    disorderedBy,
    enemyFlanked: flanked,
  };
  const mid = { xIn: (path.edge[0].xIn + path.edge[1].xIn) / 2, yIn: (path.edge[0].yIn + path.edge[1].yIn) / 2 };
  const r = (path.headingDeg * Math.PI) / 180;
  const end = { xIn: mid.xIn + Math.cos(r) * path.straightIn, yIn: mid.yIn + Math.sin(r) * path.straightIn };
  const startMid = { xIn: info.centre.xIn + (info.box.front - (info.box.front + info.box.rear) / 2) * info.frame.fx, yIn: info.centre.yIn + (info.box.front - (info.box.front + info.box.rear) / 2) * info.frame.fy };
  const shape: Shape = { id: `wtdr/${id}/charge/${tid}`, kind: 'polyline', layer: 'charge', style: 'charge', unitId: id, side: info.unit.side, points: [startMid, mid, end], arrow: true };
  if (!stopsShort) return { entry, shape, ...(evade?.shape ? { evadeShape: evade.shape } : {}) };
  // The front edge an inch short of contact, where the harquebusiers halt if their fire does not disorder.
  const back = Math.max(0, path.straightIn - HARQUEBUSIER_STOP_SHORT_IN);
  const stopEdge = path.edge.map((p) => ({ xIn: p.xIn + Math.cos(r) * back, yIn: p.yIn + Math.sin(r) * back }));
  return { entry, shape, ...(evade?.shape ? { evadeShape: evade.shape } : {}), stopShape: { id: `wtdr/${id}/charge/${tid}/stop-short`, kind: 'polyline', layer: 'charge', style: 'blocked', unitId: id, side: info.unit.side, points: stopEdge } };
}

/** What fire the charge meets or makes before contact, in the order the guide takes it (Charges). */
function chargeFireLines(ctx: WtdrContext, info: UnitInfo, target: UnitInfo, frontal: boolean, sweep: readonly (readonly PointIn[])[]): DiceModifier[] {
  const lines = [defensiveFireLine(ctx, target, frontal), passThroughLine(passThroughFirers(ctx, info, target.unit.id, sweep))];
  const own = chargingFireLine(info);
  if (own) lines.push(own);
  return lines;
}

/** The unit's charge list from its plan and per-target answers (in enemy order). */
export function chargeResult(plan: ChargePlan, enemyIds: readonly string[], pairs: readonly ChargePair[]): ChargeResult {
  if (plan.kind === 'none') return { charge: [], shapes: [] };
  if (plan.kind === 'refuse') return { charge: enemyIds.map((targetUnitId) => ({ ok: false, reason: plan.reason, detail: plan.detail, targetUnitId })), shapes: [] };
  const shapes: Shape[] = [];
  for (const p of pairs) {
    if (p.shape) shapes.push(p.shape);
    if (p.stopShape) shapes.push(p.stopShape);
    if (p.evadeShape) shapes.push(p.evadeShape);
  }
  return { charge: pairs.map((p) => p.entry), shapes };
}
