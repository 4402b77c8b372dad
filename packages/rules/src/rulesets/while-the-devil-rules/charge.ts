/**
 * Charges (While the Devil Rules, Combat: Charges): a unit may wheel, then must move directly forward until
 * some part of its front meets the target; the move may not cross another enemy's front within 1" nor pass
 * through any unit. Who may charge whom (artillery and march columns never; dragoons and forlorn hopes in
 * the open only at skirmishers or guns; light horse only at light troops or guns unless the target is taken
 * in flank or rear; harquebusiers not at an undisordered enemy's front). Reach comes from the app.
 */
import type { ChargeRefusal, ChargeTargetOption } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import { convexPolygonsMayOverlap } from '../../geometry/convexOverlap.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { rotateAround } from '../../geometry/vec.ts';
import { chargeSpec } from './declarations.ts';
import { enemiesOf, engagedWith, frontZone, gapLowerBoundIn, type UnitInfo, type WtdrContext } from './context.ts';
import { along, aheadOf, clipConvex, frameOf, leftOfRay, rightOfRay } from './geom.ts';
import { modifierBreakdown, type ModifierFactor } from './modifiers.ts';
import { FORCE_RATIO_LABELS, forceRatio } from './tables/fireTables.ts';
import { ENEMY_FRONT_ZONE_IN } from './tables/movementTables.ts';
import { AREA_CLASSES } from './tables/terrainClasses.ts';

const CHARGES = 'Combat (Charges and Melee): Charges';
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

/** An obstacle to a charge's sweep: another unit's outline or another enemy's 1" front zone, with its box. */
interface Obstacle {
  readonly unitId: string;
  readonly polygon: readonly PointIn[];
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

function obstacleOf(unitId: string, polygon: readonly PointIn[]): Obstacle {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of polygon) {
    minX = Math.min(minX, p.xIn);
    minY = Math.min(minY, p.yIn);
    maxX = Math.max(maxX, p.xIn);
    maxY = Math.max(maxY, p.yIn);
  }
  return { unitId, polygon, minX, minY, maxX, maxY };
}

function sweepBlocked(area: readonly PointIn[], obstacles: readonly Obstacle[], targetId: string): boolean {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of area) {
    minX = Math.min(minX, p.xIn);
    minY = Math.min(minY, p.yIn);
    maxX = Math.max(maxX, p.xIn);
    maxY = Math.max(maxY, p.yIn);
  }
  for (const o of obstacles) {
    if (o.unitId === targetId || o.maxX < minX || o.minX > maxX || o.maxY < minY || o.minY > maxY) continue;
    if (convexPolygonsMayOverlap(area, o.polygon, -1e-6)) return true;
  }
  return false;
}

/** The cheapest wheel-then-straight path whose sweep crosses no other unit and no other enemy's 1" front zone. */
function bestPath(ctx: WtdrContext, info: UnitInfo, target: UnitInfo, obstacles: readonly Obstacle[]): { path?: ChargePath; anyContact: boolean } {
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
    if (!sweptAreas(start, path).some((area) => sweepBlocked(area, obstacles, target.unit.id))) return { path, anyContact: true };
  }
  return { anyContact: paths.length > 0 };
}

/** Whether the contact point lies on the target's front edge (front corners count as front). */
function hitsFront(target: UnitInfo, contact: PointIn): boolean {
  if (target.type?.family === 'swarm') return true; // swarms have no flanks or rear
  return along(target.frame, contact) >= target.box.front - 0.05;
}

function inOpen(ctx: WtdrContext, info: UnitInfo): boolean {
  return !ctx.state.terrain.areas.some((a) => pointInPolygon(info.centre, a.vertices));
}

export interface ChargeResult {
  readonly charge: readonly (ChargeTargetOption | ChargeRefusal)[];
  readonly shapes: readonly Shape[];
}

export function evaluateCharge(ctx: WtdrContext, info: UnitInfo): ChargeResult {
  const type = info.type;
  const id = info.unit.id;
  const enemies = enemiesOf(ctx, info);
  const refuseAll = (reason: string, detail: string): ChargeResult => ({ charge: enemies.map((e) => ({ ok: false, reason, detail, targetUnitId: e.unit.id })), shapes: [] });
  if (info.stands.length === 0) return { charge: [], shapes: [] };
  if (!type) return refuseAll('charge/no-troop-type', 'set rulesetFields["troop-type"]');
  if (info.status === 'destroyed') return refuseAll('charge/destroyed', 'the unit is destroyed');
  if (type.family === 'artillery') return refuseAll('charge/artillery', `Artillery ... may not Charge (${CHARGES})`);
  if (info.formation.march) return refuseAll('charge/march-column', `units in "march" (column) formation may not Charge (${CHARGES})`);
  if (info.acted) return refuseAll('charge/already-acted', 'the unit has acted this turn (Turn Sequence)');
  const engaged = engagedWith(ctx, info);
  if (engaged.length > 0) return refuseAll('charge/in-combat', `in contact with ${engaged.join(', ')}: a Charge is made by a unit "not already engaged in a melee" (${CHARGES})`);
  const reach = ctx.param(chargeSpec(type.id), `Charge reach of ${type.label}`, id);

  const charge: (ChargeTargetOption | ChargeRefusal)[] = [];
  const shapes: Shape[] = [];
  // Sweep obstacles: every other unit's outline and every other enemy's 1" front zone (the target's are skipped per target).
  const obstacles: Obstacle[] = [];
  for (const other of ctx.units.values()) {
    if (other === info || other.stands.length === 0 || other.status === 'destroyed') continue;
    obstacles.push(obstacleOf(other.unit.id, other.hull));
    if (other.unit.side !== info.unit.side) {
      const zone = frontZone(other, ENEMY_FRONT_ZONE_IN);
      if (zone.length > 0) obstacles.push(obstacleOf(other.unit.id, zone));
    }
  }
  for (const target of enemies) {
    const tid = target.unit.id;
    const refuse = (reason: string, detail: string): void => void charge.push({ ok: false, reason, detail, targetUnitId: tid });
    const tFamily = target.type?.family;
    const lightTarget = tFamily === 'swarm' || tFamily === 'artillery';
    if (type.family === 'swarm' && inOpen(ctx, info) && !lightTarget) {
      refuse('charge/skirmishers-in-open', `Dragoons or Forlorn Hopes in the open charge only Dragoons, Forlorn Hopes or Artillery (${CHARGES})`);
      continue;
    }
    // No path is shorter than the gap between the outlines: far targets need no path search.
    if (reach === undefined) {
      refuse('charge/reach-not-entered', `enter "${chargeSpec(type.id).id}" from the app`);
      continue;
    }
    const gapIn = gapLowerBoundIn(info, target) > reach ? gapLowerBoundIn(info, target) : polygonToPolygonDistanceIn(info.hull, target.hull);
    if (gapIn > reach + 1e-9) {
      refuse('charge/out-of-reach', `over ${Math.floor(gapIn)}" away; reach ${reach}"`);
      continue;
    }
    const found = bestPath(ctx, info, target, obstacles);
    if (!found.path) {
      if (found.anyContact) refuse('charge/path-blocked', `every wheel-then-straight path crosses another unit or another enemy's front within 1" (${CHARGES})`);
      else refuse('charge/not-ahead', `no wheel of up to 90° brings the front straight onto the target (${CHARGES})`);
      continue;
    }
    const path = found.path;
    const distanceIn = path.wheelCostIn + path.straightIn;
    const flanked = !hitsFront(target, path.contact);
    if (type.family === 'light-horse' && !(tFamily === 'light-horse' || lightTarget) && !flanked) {
      refuse('charge/light-horse-target', `Irregular Light Horse charge only light horse, skirmishers or guns unless in flank or rear (${CHARGES})`);
      continue;
    }
    if (type.id === 'harquebusier' && target.status === 'ok' && !flanked) {
      refuse('charge/harquebusiers-refuse', `Harquebusiers will not charge an undisordered enemy's front (${CHARGES})`);
      continue;
    }
    if (distanceIn > reach + 1e-9) {
      refuse('charge/out-of-reach', `path ${distanceIn.toFixed(1)}" (wheel ${path.wheelCostIn.toFixed(1)}" + ${path.straightIn.toFixed(1)}"); reach ${reach}"`);
      continue;
    }
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
    const disorderedBy = ctx.state.terrain.areas
      .filter((a) => pointInPolygon(path.contact, a.vertices))
      .map((a) => `${AREA_CLASSES[a.kind].movement} ground: ${a.kind} (${a.id})`);
    charge.push({
      ok: true,
      targetUnitId: tid,
      distanceIn,
      attacker: modifierBreakdown(ctx, attackerFactors, `Charge of ${info.unit.name}`, id),
      defender: modifierBreakdown(ctx, defenderFactors, `Defence of ${target.unit.name}`, tid),
      disorderedBy,
      enemyFlanked: flanked,
    });
    const mid = { xIn: (path.edge[0].xIn + path.edge[1].xIn) / 2, yIn: (path.edge[0].yIn + path.edge[1].yIn) / 2 };
    const r = (path.headingDeg * Math.PI) / 180;
    const end = { xIn: mid.xIn + Math.cos(r) * path.straightIn, yIn: mid.yIn + Math.sin(r) * path.straightIn };
    const startMid = { xIn: info.centre.xIn + (info.box.front - (info.box.front + info.box.rear) / 2) * info.frame.fx, yIn: info.centre.yIn + (info.box.front - (info.box.front + info.box.rear) / 2) * info.frame.fy };
    shapes.push({ id: `wtdr/${id}/charge/${tid}`, kind: 'polyline', layer: 'charge', style: 'charge', unitId: id, side: info.unit.side, points: [startMid, mid, end], arrow: true });
  }
  return { charge, shapes };
}
