/**
 * The Devil to Pay (2018), CHARGE: which enemies a unit may charge, what disorders the charge, and the melee
 * dice on both sides (formation, general and universal modifiers).
 */
import { chargeLedByCommanderDeclared, reinforcingDeclared } from './declarations.ts';
import type { ChargeRefusal, ChargeTargetOption, CombinedChargeReading, DiceBreakdown, DiceModifier } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Formation, Unit } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { headingToVector, normalizeDeg, vectorToHeadingDeg } from '../../geometry/angles.ts';
import { standFrontCenter } from '../../geometry/footprint.ts';
import { pointToPolygonDistanceIn } from '../../geometry/distance.ts';
import { pointInPolygon, polylineCrossesSegment, segmentIntersection, segmentPolygonCrossings } from '../../geometry/intersect.ts';
import { closestPointInArc } from '../../geometry/wedge.ts';
import { boxGapIn, grownBox, type DtpContext, type UnitInfo } from './context.ts';
import type { DtpFormationReading } from './formation.ts';
import { universalModifiers } from './universalModifiers.ts';
import {
  ATTACKING_HIGHER_GROUND_DICE,
  ATTACKING_OBSTACLE_DICE,
  CHARGE_ARC_HALF_DEG,
  CHARGE_ORDER_DICE,
  CHARGE_REACH_IN,
  DEFENSIVE_OBSTACLES,
  ENEMY_FLANKED_DICE,
  MELEE_FORMATION_SOURCE,
  MELEE_GENERAL_SOURCE,
  MOUNTED_MELEE_DICE,
  PRONE_MELEE_DICE,
  REINFORCE_REACH_IN,
  meleeFormationDice,
} from './tables/meleeTables.ts';
import { DISORDERS_CHARGE_AREA, DISORDERS_CHARGE_LINEAR } from './tables/movementTables.ts';
import { hypot2 } from '../../geometry/hypot.ts';
import { HIT_ON } from './tables/diceTables.ts';

/** One unit's part in a melee: everything its dice depend on. */
export interface MeleeParticipant {
  readonly unitId: string;
  readonly name: string;
  readonly formation: Formation;
  readonly isArtillery: boolean;
  /** Stands without hits that fight (Charge: Eligible Stands). */
  readonly eligibleStands: number;
  readonly mounted: boolean;
  readonly prone: boolean;
  readonly quality: Unit['quality'];
  readonly commanderAttached: boolean;
  /** The optional Trained and Veteran Troops rule is in play (`TableState.optionalRules`). */
  readonly trainedVeteran?: boolean;
  /** Attacker only: command stand fully behind the enemy's front line trace before the charge. */
  readonly enemyFlanked?: boolean;
  /** Attacker only: the defender holds a fence, wall, hasty works or entrenchment across the path. */
  readonly attackingObstacle?: string;
  /** Attacker only: the defender stands on higher ground. */
  readonly attackingHigherGround?: boolean;
}

/** Per-unit melee modifiers (formation, general, universal), not counting the once-only charge order. */
export function meleeUnitModifiers(p: MeleeParticipant): DiceModifier[] {
  const mods: DiceModifier[] = [];
  const who = p.name;
  const formationDice = meleeFormationDice(p.formation, p.isArtillery);
  if (formationDice !== 0) {
    const label = p.formation === 'disordered' && p.isArtillery ? 'disordered artillery' : p.formation;
    mods.push({ label: `${who}: ${label}`, dice: formationDice, source: p.formation === 'disordered' && p.isArtillery ? 'The Devil to Pay (2018), Armies, Artillery: Disordered Artillery' : MELEE_FORMATION_SOURCE });
  }
  if (p.mounted) mods.push({ label: `${who}: mounted`, dice: MOUNTED_MELEE_DICE, source: MELEE_GENERAL_SOURCE });
  if (p.enemyFlanked) mods.push({ label: `${who}: enemy flanked`, dice: ENEMY_FLANKED_DICE, source: MELEE_GENERAL_SOURCE });
  if (p.prone) mods.push({ label: `${who}: prone`, dice: PRONE_MELEE_DICE, source: `${MELEE_GENERAL_SOURCE}; Optional Rules: Going Prone` });
  if (p.attackingObstacle) mods.push({ label: `${who}: attacking ${p.attackingObstacle}`, dice: ATTACKING_OBSTACLE_DICE, source: MELEE_GENERAL_SOURCE });
  if (p.attackingHigherGround) mods.push({ label: `${who}: attacking higher ground`, dice: ATTACKING_HIGHER_GROUND_DICE, source: MELEE_GENERAL_SOURCE });
  for (const m of universalModifiers({ quality: p.quality }, p.commanderAttached, { roll: 'melee', trainedVeteran: p.trainedVeteran === true })) mods.push({ ...m, label: `${who}: ${m.label}` });
  return mods;
}

/** The label of the once-only charge order line in an attacker's breakdown. */
export const CHARGE_ORDER_LABEL = 'Charge order';

/**
 * Dice for one side of a melee: one die per eligible stand of every unit on that side, each unit's own
 * modifiers, and the charge order +1 once for the attacking side when the charge used an order (not when an
 * attached commander leads it). Never fewer than 0 dice.
 *
 * @example meleeDice([attackerA, attackerB], { chargeOrder: true }).dice
 */
export function meleeDice(side: readonly MeleeParticipant[], opts: { readonly chargeOrder: boolean }): DiceBreakdown {
  let baseDice = 0;
  const modifiers: DiceModifier[] = [];
  for (const p of side) {
    baseDice += p.eligibleStands;
    modifiers.push(...meleeUnitModifiers(p));
  }
  if (opts.chargeOrder && side.length > 0) {
    // General Modifiers note: "the Charge Order modifier is only applied once (regardless of the number of units engaged)".
    modifiers.push({ label: CHARGE_ORDER_LABEL, dice: CHARGE_ORDER_DICE, source: MELEE_GENERAL_SOURCE });
  }
  const raw = baseDice + modifiers.reduce((acc, m) => acc + m.dice, 0);
  const limits: DiceModifier[] = raw < 0 ? [{ label: 'No fewer than 0 dice', dice: -raw, source: 'dice cannot be negative' }] : [];
  return { hitOn: HIT_ON, baseDice, modifiers, dice: Math.max(0, raw), limits };
}

/** Stands that fight in a melee: on the table, no hit, not limbers or horse holders (Charge: Eligible Stands). */
export function eligibleMeleeStandIds(ctx: DtpContext, info: UnitInfo): string[] {
  const f = ctx.formationOf(info.unit.id);
  return info.stands
    .filter((s) => s.hits === 0 && s.stand.role !== 'limber' && s.stand.role !== 'commander' && !(f.dismounted && s.stand.role === 'mounted'))
    .map((s) => s.stand.id);
}

/** A unit's front centre and facing: mean of its front-rank stands' front-edge midpoints. */
export function unitFrontCenter(ctx: DtpContext, info: UnitInfo): { center: PointIn; headingDeg: number; frontLeft: PointIn; frontRight: PointIn } {
  const f = ctx.formationOf(info.unit.id);
  const front = f.frontRankStandIds.map((id) => ctx.stands.get(id)).filter((s) => s !== undefined);
  const stands = front.length > 0 ? front : info.stands;
  let x = 0;
  let y = 0;
  for (const s of stands) {
    const c = standFrontCenter(s.stand);
    x += c.xIn;
    y += c.yIn;
  }
  const center = { xIn: x / stands.length, yIn: y / stands.length };
  // Front corners: the extreme front-left/front-right corners across the front rank, along the facing's right vector.
  const v = headingToVector(f.headingDeg);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const s of stands) {
    for (const c of [s.corners[0], s.corners[1]]) {
      const u = (c.xIn - center.xIn) * v.y - (c.yIn - center.yIn) * v.x;
      lo = Math.min(lo, u);
      hi = Math.max(hi, u);
    }
  }
  const at = (u: number): PointIn => ({ xIn: center.xIn + u * v.y, yIn: center.yIn - u * v.x });
  return { center, headingDeg: f.headingDeg, frontLeft: at(lo), frontRight: at(hi) };
}

/** Enemy Flanked (General Modifiers): the attacker's command stand lies fully behind the target's front line trace. */
export function isEnemyFlanked(ctx: DtpContext, attacker: UnitInfo, target: UnitInfo): boolean {
  const cmd = attacker.command;
  if (!cmd) return false;
  const front = unitFrontCenter(ctx, target);
  const v = headingToVector(front.headingDeg);
  return cmd.corners.every((c) => (c.xIn - front.center.xIn) * v.x + (c.yIn - front.center.yIn) * v.y < 0);
}

/** How close to the defender an obstacle must be for it to be "held" (house reading: within 2"). */
const OBSTACLE_HELD_IN = 2;

function participant(ctx: DtpContext, info: UnitInfo, reading: DtpFormationReading, extra: Partial<MeleeParticipant> = {}): MeleeParticipant {
  return {
    unitId: info.unit.id,
    name: info.unit.name,
    formation: reading.formation,
    isArtillery: info.unit.arm === 'artillery',
    eligibleStands: eligibleMeleeStandIds(ctx, info).length,
    mounted: reading.mounted,
    prone: info.unit.status?.prone === true,
    quality: info.unit.quality,
    commanderAttached: info.attachedCommanderId !== undefined,
    ...(ctx.state.optionalRules?.includes('trained-veteran') ? { trainedVeteran: true } : {}),
    ...extra,
  };
}

/** The melee participant for a unit as it stands now (defender side, or a reinforcement). */
export function meleeParticipantOf(ctx: DtpContext, unitId: string): MeleeParticipant {
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`meleeParticipantOf: no unit '${unitId}' in the table state`);
  return participant(ctx, info, ctx.formationOf(unitId));
}

export interface ChargeOptionsParams {
  /**
   * The charge uses an order (+1 Die); false when an attached commander leads it (no bonus). Default: true
   * unless the unit's status declares it led by its attached commander (`chargeLedByCommander`,
   * declarations.ts) and a commander is attached.
   */
  readonly chargeOrder?: boolean;
  /** Also report enemies in arc out to this distance as 'charge/target-out-of-reach', inches. Default 12. */
  readonly reportOutOfReachWithinIn?: number;
}

/** A charge option with who could reinforce the defence (Charge: Reinforce a Defense). */
export interface DtpChargeTargetOption extends ChargeTargetOption {
  /**
   * Units of the defender's side that have this attacker within 6" and 45° of their front centre; when one
   * of them has a `reinforcing` declaration (declarations.ts), only those declared reinforcing.
   */
  readonly reinforcerIds: readonly string[];
  /** Present when the defender's side declared who reinforces (then `reinforcerIds` are the declared ones). */
  readonly reinforcementDeclared?: true;
  /** Defender dice if every one of `reinforcerIds` joins (present only when there is at least one). */
  readonly reinforcedDefender?: DiceBreakdown;
}

export interface ChargeOptionsResult {
  readonly charge: readonly (DtpChargeTargetOption | ChargeRefusal)[];
  readonly shapes: readonly Shape[];
}

function segmentTouchesPolygon(a: PointIn, b: PointIn, polygon: readonly PointIn[]): boolean {
  return segmentPolygonCrossings(a, b, polygon).length > 0 || pointInPolygon(a, polygon) || pointInPolygon(b, polygon);
}

/**
 * Charge options for one unit: every enemy within 6" of its front centre and within 45° of it may be
 * charged (terrain does not shorten the 6"); enemies nearer than 6" but outside the arc, and enemies in the
 * arc out to `reportOutOfReachWithinIn`, come back as refusals. Each target carries the attacker's and the
 * defender's melee dice (defender not reinforced), what disorders the charge, and the flank bonus.
 *
 * @param ctx the per-state context
 * @param unitId the charging unit
 * @returns charge options and refusals, plus shapes on the 'charge' layer
 */
export function chargeOptions(ctx: DtpContext, unitId: string, params: ChargeOptionsParams = {}): ChargeOptionsResult {
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`chargeOptions: no unit '${unitId}' in the table state`);
  if (info.stands.length === 0) return { charge: [], shapes: [] };
  const reading = ctx.formationOf(unitId);
  const reportIn = params.reportOutOfReachWithinIn ?? 12;
  // Attached Commander Benefits: a charge the attached commander leads spends no order and gets no bonus.
  const chargeOrder = params.chargeOrder ?? !(chargeLedByCommanderDeclared(info.unit) && info.attachedCommanderId !== undefined);
  const front = unitFrontCenter(ctx, info);
  const side = info.unit.side;
  const charge: (DtpChargeTargetOption | ChargeRefusal)[] = [];
  const shapes: Shape[] = [
    {
      id: `${unitId}/charge/arc`,
      kind: 'sector',
      layer: 'charge',
      style: 'charge',
      unitId,
      side,
      center: front.center,
      radiusIn: CHARGE_REACH_IN,
      startDeg: normalizeDeg(front.headingDeg - CHARGE_ARC_HALF_DEG),
      endDeg: normalizeDeg(front.headingDeg + CHARGE_ARC_HALF_DEG),
    },
  ];
  const prone = info.unit.status?.prone === true;

  // An enemy none of whose stands comes within the reported distance of the front centre gives nothing:
  // only units with a stand in that box are looked at.
  const c = front.center;
  const lookIn = reportIn + 0.01;
  for (const enemy of ctx.near({ minXIn: c.xIn - lookIn, minYIn: c.yIn - lookIn, maxXIn: c.xIn + lookIn, maxYIn: c.yIn + lookIn }, side)) {
    if (enemy.unit.side === side || enemy.stands.length === 0) continue;
    if (boxGapIn(info.box, enemy.box) > reportIn + 1) continue;
    let nearestIn = Number.POSITIVE_INFINITY;
    let inArc: PointIn | undefined;
    let inArcIn = Number.POSITIVE_INFINITY;
    for (const s of enemy.stands) {
      nearestIn = Math.min(nearestIn, pointToPolygonDistanceIn(front.center, s.corners));
      const p = closestPointInArc(front.center, front.headingDeg, CHARGE_ARC_HALF_DEG, s.corners);
      if (p) {
        const d = hypot2(p.xIn - front.center.xIn, p.yIn - front.center.yIn);
        if (d < inArcIn) {
          inArcIn = d;
          inArc = p;
        }
      }
    }
    const targetUnitId = enemy.unit.id;
    if (!inArc || inArcIn > CHARGE_REACH_IN) {
      if (nearestIn <= CHARGE_REACH_IN && !(inArc && inArcIn <= CHARGE_REACH_IN)) {
        charge.push({ ok: false, targetUnitId, reason: 'charge/target-out-of-arc', detail: `Target is ${nearestIn.toFixed(1)}" away but not within 45° of the front centre (Charge: Charge Move)` });
      } else if (inArc && inArcIn <= reportIn) {
        charge.push({ ok: false, targetUnitId, reason: 'charge/target-out-of-reach', detail: `Target is ${inArcIn.toFixed(1)}" from the front centre; a charge reaches 6" (Charge: Charge Move)` });
      }
      continue;
    }
    if (prone) {
      // Movement table: Prone N/A; standing up needs a RALLY order (Formation Change notes).
      charge.push({ ok: false, targetUnitId, reason: 'charge/prone', detail: 'Prone units cannot move or charge; stand up on a RALLY order first (Optional Rules: Going Prone)' });
      continue;
    }
    const target = inArc;
    // The charge path: the front edge carried to the target, sampled at the centre and both ends.
    const dx = target.xIn - front.center.xIn;
    const dy = target.yIn - front.center.yIn;
    const paths: [PointIn, PointIn][] = [
      [front.center, target],
      [front.frontLeft, { xIn: front.frontLeft.xIn + dx, yIn: front.frontLeft.yIn + dy }],
      [front.frontRight, { xIn: front.frontRight.xIn + dx, yIn: front.frontRight.yIn + dy }],
    ];
    // Terrain, Linear terrain exceptions: "One cannot move through an enemy troop formation." Another enemy
    // unit on the straight charge path refuses the charge (no route around it is sought).
    const blocker = enemyOnPath(ctx, info, enemy, paths);
    if (blocker) {
      charge.push({
        ok: false,
        targetUnitId,
        reason: 'charge/path-through-enemy',
        detail: `${blocker.unit.name} (${blocker.unit.id}) stands on the charge path; one cannot move through an enemy troop formation (${SRC_THROUGH_ENEMY})`,
      });
      continue;
    }
    const disorderedBy: string[] = [];
    let attackingObstacle: string | undefined;
    for (const line of ctx.state.terrain.linear) {
      const crosses = paths.some(([a, b]) => polylineCrossesSegment(line.points, a, b));
      if (!crosses) continue;
      // Terrain tables: "* Disorders charging units" (abatis, chevaux-de-frise).
      if (DISORDERS_CHARGE_LINEAR.has(line.kind)) disorderedBy.push(`${line.kind} '${line.id}'`);
      if (DEFENSIVE_OBSTACLES.has(line.kind) && attackingObstacle === undefined) {
        // The defender holds the obstacle when it crosses the centre path close to the target.
        for (let i = 0; i + 1 < line.points.length; i++) {
          const hit = segmentIntersection(front.center, target, line.points[i]!, line.points[i + 1]!);
          if (hit && enemy.stands.some((s) => pointToPolygonDistanceIn(hit.point, s.corners) <= OBSTACLE_HELD_IN)) {
            attackingObstacle = line.kind.replace('-', ' ');
            break;
          }
        }
      }
    }
    for (const area of ctx.state.terrain.areas) {
      // Terrain tables: "* Disorders charging units" (thicket, city).
      if (DISORDERS_CHARGE_AREA.has(area.kind) && paths.some(([a, b]) => segmentTouchesPolygon(a, b, area.vertices))) {
        disorderedBy.push(`${area.kind} '${area.id}'`);
      }
    }
    // Charge: Charge Move: friendly units in the path disorder the charging regiment.
    for (const friend of ctx.near(grownBox(info.box, CHARGE_REACH_IN + 1), side)) {
      if (friend.unit.side !== side || friend.unit.id === unitId || friend.stands.length === 0) continue;
      if (boxGapIn(friend.box, info.box) > CHARGE_REACH_IN + 1) continue;
      if (friend.stands.some((s) => paths.some(([a, b]) => segmentTouchesPolygon(a, b, s.corners)))) {
        disorderedBy.push(`friendly unit '${friend.unit.id}'`);
      }
    }
    const enemyFlanked = isEnemyFlanked(ctx, info, enemy);
    const higher = ctx.elevationOf(enemy.unit.id) > ctx.elevationOf(unitId);
    // Charge Move: these "disorder charging regiments prior to melee": the attacker fights disordered (-2 Die
    // in place of its formation's modifier, Melee Modifiers: Formation).
    const disorderedFormation = disorderedBy.length > 0 ? { formation: 'disordered' as const } : {};
    const attacker = meleeDice(
      [participant(ctx, info, reading, { enemyFlanked, ...(attackingObstacle ? { attackingObstacle } : {}), attackingHigherGround: higher, ...disorderedFormation })],
      { chargeOrder },
    );
    const defender = meleeDice([meleeParticipantOf(ctx, enemy.unit.id)], { chargeOrder: false });
    // Reinforce a Defense: friends of the target with the attacker within 6" and 45° of their front centre.
    const possible: UnitInfo[] = [];
    for (const friend of ctx.near(grownBox(info.box, REINFORCE_REACH_IN + 1), enemy.unit.side)) {
      if (friend.unit.side !== enemy.unit.side || friend.unit.id === targetUnitId || friend.stands.length === 0 || boxGapIn(friend.box, info.box) > REINFORCE_REACH_IN + 1) continue;
      if (canReinforce(ctx, friend.unit.id, unitId)) possible.push(friend);
    }
    // Once the defender's side has declared for one of them, only the units declared reinforcing join.
    const declared = possible.some((f) => reinforcingDeclared(f.unit) !== undefined);
    const reinforcerIds = (declared ? possible.filter((f) => reinforcingDeclared(f.unit) === true) : possible).map((f) => f.unit.id);
    const reinforcedDefender =
      reinforcerIds.length > 0 ? meleeDice([enemy.unit.id, ...reinforcerIds].map((id) => meleeParticipantOf(ctx, id)), { chargeOrder: false }) : undefined;
    charge.push({
      ok: true,
      targetUnitId,
      distanceIn: Math.round(inArcIn * 100) / 100,
      attacker,
      defender,
      disorderedBy,
      enemyFlanked,
      reinforcerIds,
      ...(declared ? { reinforcementDeclared: true as const } : {}),
      ...(reinforcedDefender ? { reinforcedDefender } : {}),
    });
    shapes.push({ id: `${unitId}/charge/${targetUnitId}`, kind: 'polyline', layer: 'charge', style: 'charge', unitId, side, points: [front.center, target], arrow: true });
  }
  return { charge, shapes };
}

const SRC_THROUGH_ENEMY = 'Terrain, Linear terrain exceptions: Enemy troop formations';

/**
 * The refusals `chargeOptions` gives before it lays out a charge path: each comes from the charging unit
 * and that one enemy alone (its place against the unit's front, or the unit lying prone).
 */
const REFUSED_BEFORE_PATH: ReadonlySet<string> = new Set(['charge/target-out-of-arc', 'charge/target-out-of-reach', 'charge/prone']);

/**
 * Whether `chargeOptions` read no unit of the charging unit's own side for this result: no option got as
 * far as a charge path (only there are friends read: in the path, and the target's reinforcers' view of
 * the attacker): the friends' box is read only then, so a friend moving does not touch such a result.
 */
export function chargeReadOnlyEnemies(result: ChargeOptionsResult): boolean {
  for (const o of result.charge) if (o.ok || !REFUSED_BEFORE_PATH.has(o.reason)) return false;
  return true;
}

/**
 * How far short of the target each path is tested for other enemies, inches: a unit standing against the
 * target's flank touches the path's very end without being in the way.
 */
const PATH_END_CLEARANCE_IN = 0.5;

/** Another enemy unit (not the target) whose stands meet one of the charge paths, short of their ends. */
function enemyOnPath(ctx: DtpContext, attacker: UnitInfo, target: UnitInfo, paths: readonly (readonly [PointIn, PointIn])[]): UnitInfo | undefined {
  let shortened: [PointIn, PointIn][] | undefined;
  for (const other of ctx.near(grownBox(attacker.box, CHARGE_REACH_IN + 1), attacker.unit.side)) {
    if (other.unit.side === attacker.unit.side || other.unit.id === target.unit.id || other.stands.length === 0 || boxGapIn(other.box, attacker.box) > CHARGE_REACH_IN + 1) continue;
    shortened ??= paths.map(([a, b]): [PointIn, PointIn] => {
      const len = hypot2(b.xIn - a.xIn, b.yIn - a.yIn);
      const k = len > PATH_END_CLEARANCE_IN ? (len - PATH_END_CLEARANCE_IN) / len : 0;
      return [a, { xIn: a.xIn + (b.xIn - a.xIn) * k, yIn: a.yIn + (b.yIn - a.yIn) * k }];
    });
    if (other.stands.some((st) => shortened!.some(([a, b]) => segmentTouchesPolygon(a, b, st.corners)))) return other;
  }
  return undefined;
}

const SRC_COMBINED = 'The Devil to Pay (2018), Charge: Melee Modifiers, 2. General Modifiers (note: the Charge Order modifier is only applied once); Charge: Melee, Example 3';

/**
 * The attacking side when every unit that may charge one target does (Melee Modifiers note; Melee Example
 * 3): each option's breakdown without its charge order line, summed, and the charge order once (when any
 * option had it), never below 0 dice. Only targets with two or more attackers; targets and attackers in
 * the order given (table order). A unit's own melee modifiers do not depend on who else charges, so this is
 * exactly `meleeDice` over all the attackers.
 */
export function combinedCharges(units: readonly { readonly unitId: string; readonly charge: readonly (ChargeTargetOption | ChargeRefusal)[] }[]): CombinedChargeReading[] {
  const byTarget = new Map<string, { attackerUnitIds: string[]; options: DtpChargeTargetOption[] }>();
  for (const u of units) {
    for (const o of u.charge) {
      if (!o.ok) continue;
      let g = byTarget.get(o.targetUnitId);
      if (!g) byTarget.set(o.targetUnitId, (g = { attackerUnitIds: [], options: [] }));
      g.attackerUnitIds.push(u.unitId);
      g.options.push(o as DtpChargeTargetOption);
    }
  }
  const out: CombinedChargeReading[] = [];
  // Targets in the order given; a target not among `units` after them, in the order first charged.
  const order = units.map((u) => u.unitId).filter((id) => byTarget.has(id));
  for (const id of byTarget.keys()) if (!order.includes(id)) order.push(id);
  for (const targetUnitId of order) {
    const g = byTarget.get(targetUnitId)!;
    if (g.options.length < 2) continue;
    let baseDice = 0;
    let chargeOrder: DiceModifier | undefined;
    const modifiers: DiceModifier[] = [];
    const reinforcers = new Set<string>();
    for (const o of g.options) {
      baseDice += o.attacker.baseDice;
      for (const m of o.attacker.modifiers) {
        if (m.label === CHARGE_ORDER_LABEL) chargeOrder ??= m;
        else modifiers.push(m);
      }
      for (const r of o.reinforcerIds ?? []) reinforcers.add(r);
    }
    if (chargeOrder) modifiers.push(chargeOrder);
    const raw = baseDice + modifiers.reduce((acc, m) => acc + m.dice, 0);
    const limits: DiceModifier[] = raw < 0 ? [{ label: 'No fewer than 0 dice', dice: -raw, source: 'dice cannot be negative' }] : [];
    const reinforcerIds = [...reinforcers];
    const full = reinforcerIds.length > 0 ? g.options.find((o) => (o.reinforcerIds ?? []).length === reinforcerIds.length && o.reinforcedDefender) : undefined;
    out.push({
      targetUnitId,
      attackerUnitIds: g.attackerUnitIds,
      attacker: { hitOn: HIT_ON, baseDice, modifiers, dice: Math.max(0, raw), limits },
      defender: g.options[0]!.defender,
      reinforcerIds,
      ...(full?.reinforcedDefender ? { reinforcedDefender: full.reinforcedDefender } : {}),
      source: SRC_COMBINED,
    });
  }
  return out;
}

/**
 * Reinforce a Defense: a unit may reinforce when the charging enemy is within 6" and 45° of its front centre.
 *
 * @returns true when `reinforcerId` may reinforce against `attackerId`
 */
export function canReinforce(ctx: DtpContext, reinforcerId: string, attackerId: string): boolean {
  const info = ctx.units.get(reinforcerId);
  const attacker = ctx.units.get(attackerId);
  if (!info || !attacker) throw new Error(`canReinforce: unknown unit '${info ? attackerId : reinforcerId}'`);
  if (info.stands.length === 0 || attacker.stands.length === 0) return false;
  const front = unitFrontCenter(ctx, info);
  return attacker.stands.some((s) => {
    const p = closestPointInArc(front.center, front.headingDeg, CHARGE_ARC_HALF_DEG, s.corners);
    return p !== undefined && hypot2(p.xIn - front.center.xIn, p.yIn - front.center.yIn) <= REINFORCE_REACH_IN;
  });
}

/** Facing from a point toward another, degrees; exported for skedaddle's "facing the enemy". */
export function facingToward(from: PointIn, to: PointIn): number {
  return vectorToHeadingDeg(to.xIn - from.xIn, to.yIn - from.yIn);
}

export interface MeleeOutcome {
  readonly winner: 'attacker' | 'defender';
  /** The losing side skedaddles (Charge: Melee: "Each unit that lost immediately skedaddles"). */
  readonly skedaddles: 'attacker' | 'defender';
  /** The winner is disordered (Charge: Melee). */
  readonly winnerDisordered: true;
  /** A winning attacker may occupy the defender's position. */
  readonly attackerMayOccupy: boolean;
}

/**
 * Who won a melee from the hits each side suffered: fewer hits suffered wins, the defender wins ties
 * (Charge: Melee; quick reference: Charge Outcome).
 *
 * @param attackerHitsTaken hits the attacking side suffered
 * @param defenderHitsTaken hits the defending side suffered
 * @throws when a hit count is negative or not an integer
 */
export function meleeOutcome(attackerHitsTaken: number, defenderHitsTaken: number): MeleeOutcome {
  for (const n of [attackerHitsTaken, defenderHitsTaken]) {
    if (!Number.isInteger(n) || n < 0) throw new Error(`meleeOutcome: hit counts must be whole numbers >= 0, got ${n}`);
  }
  const attackerWins = attackerHitsTaken < defenderHitsTaken;
  return {
    winner: attackerWins ? 'attacker' : 'defender',
    skedaddles: attackerWins ? 'defender' : 'attacker',
    winnerDisordered: true,
    attackerMayOccupy: attackerWins,
  };
}
