/**
 * Charges and melee (Movement: Charges, p. 2; Combat, Saves, Melee Results, p. 5; Morale, p. 4): which
 * stands may reach an enemy stand this turn (facing changed only at the start, costing half the move unless
 * the target lies within the free 45° oblique, then straight at it, paying terrain), the melee dice and hit
 * numbers of both sides with shock, and the morale check each side faces with every modifier named.
 */
import type { ChargeRefusal, ChargeTargetOption, DiceBreakdown, DiceModifier, EvaluationWarning } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import { appendAll } from '../../engine/appendAll.ts';
import { missingParameterWarning, numberParameter, rulesetValue } from '../../engine/rulesetFields.ts';
import type { PointIn } from '../../model/units.ts';
import { emptyBox, extendBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { angleDiffDeg, vectorToHeadingDeg } from '../../geometry/angles.ts';
import { polygonToPolygonDistanceIn, segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import { closestPointsFromFront } from './nearest.ts';
import { elevationLevelAt } from '../../geometry/lineOfSight.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { ARTILLERY_SUPPORT_PARAM, MOUNTED_MELEE_HIT_PARAM, ROUTED_GUNS_MOVE_PARAM, SAVE_PARAMS } from './declarations.ts';
import { countsStationary, standDice, weaponRow } from './combat.ts';
import { boxesApart, type Blocker, type TargetUnits, type VbContext, type VbStand, type VbUnit } from './context.ts';
import { walkCost } from './movement/costWalk.ts';
import { moverProfile, standRate, type StandRate } from './movement/standMovement.ts';
import { terrainNear, type VbTerrain } from './movement/terrainScene.ts';
import {
  ATTACK_DICE_SOURCE,
  FENCE_CHECK_POORLY_TRAINED_MOD,
  FENCE_CHECK_SOURCE,
  HIT_NUMBERS,
  NATIVE_AMERICAN_SOURCE,
  NATIVE_RIDDEN_DOWN_MOVE_IN,
  NO_COMBAT_VALUE_SOURCE,
  RETREAT_DISORDERS_FRIENDS_IN,
  ROUT_DISORDERS_FRIENDS_FRACTION,
  STREAM_ATTACK_SOURCE,
  LIGHT_DRAGOON_SHOCK_NOTE,
  MELEE_RESULTS_SOURCE,
  MELEE_RETREAT_MOVE_FRACTION,
  MELEE_ROUT_MOVE_FRACTION,
  MOUNTED_INFANTRY_DISORDERED_NOTE,
  NO_ELITES_TIE_MOD,
  ROUT_SP_LOSS_PER_STAND,
  SAVE_LABELS,
  SAVES_SOURCE,
  SHOCK_HIT_MOD,
  SHOCK_SOURCE,
  type SaveCondition,
} from './tables/combat.ts';
import { CHARGE_FACING_SOURCE, MOVEMENT_RATES_IN, OBLIQUE_DEG, OUT_OF_COMMAND_SOURCE, PAID_FACING_CHANGE_FRACTION } from './tables/movementRates.ts';
import { COLLAPSE_SOURCE, MORALE_MODIFIERS, MORALE_SOURCE, type MoraleCondition } from './tables/morale.ts';
import { LINEAR_KIND_CLASS } from './tables/terrain.ts';

export interface ChargeResult {
  readonly charge: (ChargeTargetOption | ChargeRefusal)[];
  readonly shapes: Shape[];
  readonly warnings: EvaluationWarning[];
}

/** Where the attacker strikes the target stand: 'front' within 45° of its facing, 'flank' to 135°, else 'rear' (a reading). */
export function attackAspect(target: VbStand, attackerCenter: PointIn): 'front' | 'flank' | 'rear' {
  const dir = vectorToHeadingDeg(attackerCenter.xIn - target.center.xIn, attackerCenter.yIn - target.center.yIn);
  const off = Math.abs(angleDiffDeg(dir, target.stand.pose.headingDeg));
  return off <= 45 + 1e-9 ? 'front' : off <= 135 + 1e-9 ? 'flank' : 'rear';
}

function mounted(s: VbStand): boolean {
  return s.type === 'mounted' || s.type === 'mounted-skirmisher';
}

/** A stand's melee hit number: its weapon's melee/short figure, or the mounted parameter. */
function meleeHitOn(ctx: VbContext, info: VbUnit, s: VbStand): number | undefined {
  if (mounted(s)) return numberParameter(ctx.state, MOUNTED_MELEE_HIT_PARAM);
  const w = weaponRow(info, s);
  return w ? HIT_NUMBERS[w].shortHitOn : undefined;
}

/** The morale after the Morale table's modifiers for these conditions. */
function modifiedMorale(morale: number, conds: readonly MoraleCondition[]): number {
  let v = morale;
  for (const c of conds) v += MORALE_MODIFIERS[c].mod;
  return v;
}

/**
 * How far a stand moves when it loses a melee or fails morale (Melee Results, p. 5; Morale, p. 4): a half turn
 * back ('retreat') or a full turn ('rout'), at its own rate; routed guns "abandon their weapons and move as
 * infantry", at the rate the parameter `routed-guns-move-as` names (slow infantry unless set).
 */
export function lossMoveIn(ctx: VbContext, info: VbUnit, s: VbStand, kind: 'retreat' | 'rout'): number | undefined {
  if (kind === 'rout' && s.type === 'artillery') {
    const as = rulesetValue(ROUTED_GUNS_MOVE_PARAM, ctx.state.rulesetParameters) === 'fast-infantry' ? 'fast-infantry' : 'slow-infantry';
    return MOVEMENT_RATES_IN[as].rateIn * MELEE_ROUT_MOVE_FRACTION;
  }
  const rate = standRate(ctx, info, s);
  if (!('rateIn' in rate)) return undefined;
  return rate.rateIn * (kind === 'rout' ? MELEE_ROUT_MOVE_FRACTION : MELEE_RETREAT_MOVE_FRACTION);
}

/** Whether a gun is "emplaced in works": a works line within half its depth (the reading of "in works" used for morale). */
function inWorksLine(ctx: VbContext, t: VbStand, keep: (kind: string) => boolean = () => true): boolean {
  return ctx.state.terrain.linear.some(
    (l) => keep(l.kind) && LINEAR_KIND_CLASS[l.kind] === 'works' && l.points.some((_, k) => k + 1 < l.points.length && polygonToPolygonDistanceIn([l.points[k]!, l.points[k + 1]!], t.corners) <= t.stand.depthIn / 2),
  );
}

/** What a side that loses the melee suffers, by the markers it has now (Melee Results, p. 5), in players' words. */
export function meleeLossText(ctx: VbContext, info: VbUnit, s: VbStand): string {
  const inch = (v: number | undefined): string => (v === undefined ? '' : ` (${v}")`);
  const rout = lossMoveIn(ctx, info, s, 'rout');
  if (info.routed) return `routs${inch(rout)} and is removed from play`;
  if (info.disordered) {
    return (
      `routs a full move to the rear${inch(rout)}, takes the ${info.permanentlyDisordered ? 'yellow' : 'red'} marker it lacks and loses ${ROUT_SP_LOSS_PER_STAND} SP per stand; ` +
      `disorders friendly stands it passes through in the first half of its move${rout === undefined ? '' : ` (${rout * ROUT_DISORDERS_FRIENDS_FRACTION}")`} (those already disordered rout ahead of it)` +
      (s.type === 'artillery' ? '; the guns are abandoned and it moves as infantry' : '')
    );
  }
  return (
    `is disordered and retreats a half move${inch(lossMoveIn(ctx, info, s, 'retreat'))} directly away, ignoring terrain; ` +
    `disorders friendly stands it passes through in its first ${RETREAT_DISORDERS_FRIENDS_IN}" (those already disordered retreat ahead of it)` +
    (s.type === 'artillery' ? (inWorksLine(ctx, s) ? '; emplaced in works, it abandons its guns' : '; it takes its guns with it') : '')
  );
}

/** The side's total in a tie roll-off before the die: its best modified morale, no elites 1 less (Melee Results, p. 5). */
export function tieBonus(info: VbUnit, conds: readonly MoraleCondition[]): number | undefined {
  if (info.morale === undefined) return undefined;
  return modifiedMorale(info.morale, conds) + (info.abilities.has('NE') ? NO_ELITES_TIE_MOD : 0);
}

/**
 * What Melee Results (p. 5) does for this side: its tie roll-off (a d6 plus its best modified morale, no
 * elites 1 less) and what befalls it if it loses, by the markers it has now (half move back disordered,
 * a rout of a full move with 1 SP lost per stand, or removal when already routed).
 */
function meleeResultLines(ctx: VbContext, side: string, info: VbUnit, s: VbStand, conds: readonly MoraleCondition[]): DiceModifier[] {
  const out: DiceModifier[] = [];
  const v = tieBonus(info, conds);
  if (v !== undefined) {
    out.push({ label: `${side} in a tie: a d6 + ${v} (best modified morale${info.abilities.has('NE') ? `, ${NO_ELITES_TIE_MOD} no elites (NE)` : ''}); the higher total wins`, dice: 0, source: MELEE_RESULTS_SOURCE });
  } else out.push({ label: `${side} in a tie: a d6 + its best modified morale (no morale rating)`, dice: 0, source: MELEE_RESULTS_SOURCE });
  out.push({ label: `${side} if it loses (fewer hits, or every SP engaged lost): ${meleeLossText(ctx, info, s)}`, dice: 0, source: MELEE_RESULTS_SOURCE });
  return out;
}

function moraleLine(side: string, morale: number | undefined, conds: readonly MoraleCondition[]): DiceModifier {
  if (morale === undefined) return { label: `${side} morale check: no morale rating`, dice: 0, source: MORALE_SOURCE };
  let v = morale;
  const parts = [`morale ${morale}`];
  for (const c of conds) {
    const m = MORALE_MODIFIERS[c];
    v += m.mod;
    parts.push(`${m.mod > 0 ? '+' : ''}${m.mod} ${m.label.toLowerCase()}`);
  }
  return { label: `${side} morale check: passes on a d6 of ${v} or less (${parts.join(', ')})`, dice: 0, source: MORALE_SOURCE };
}

function saveLines(ctx: VbContext, conds: readonly SaveCondition[], who: string): DiceModifier[] {
  return conds.map((c) => {
    const roll = numberParameter(ctx.state, SAVE_PARAMS[c]);
    return { label: `${who} saves: ${SAVE_LABELS[c]}${roll === undefined ? ` (save roll not entered: ${SAVE_PARAMS[c].id})` : `: saves on ${roll}+`}`, dice: 0, source: SAVES_SOURCE };
  });
}

/**
 * Whether a gun is supported: a friendly infantry, detachment or mounted stand (of any unit, not a gun,
 * commander or spacer) within `supportIn` of it, nearest point to nearest point (a reading; the distance is
 * the parameter `artillery-support-in`).
 */
export function artillerySupported(ctx: VbContext, gun: VbStand, supportIn: number): boolean {
  const b = gun.box;
  for (const s of ctx.standsIn({ minXIn: b.minXIn - supportIn, minYIn: b.minYIn - supportIn, maxXIn: b.maxXIn + supportIn, maxYIn: b.maxYIn + supportIn })) {
    if (s.side !== gun.side || s.unitId === undefined || s === gun) continue;
    if (s.type === 'artillery' || s.type === 'command' || s.type === 'road-march-spacer' || s.type === 'transport') continue;
    if (boxesApart(s.box, gun.box, supportIn)) continue;
    if (polygonToPolygonDistanceIn(s.corners, gun.corners) <= supportIn + 1e-9) return true;
  }
  return false;
}

interface Pair {
  readonly s: VbStand;
  readonly t: VbStand;
  readonly distanceIn: number;
  readonly to: PointIn;
  readonly from: PointIn;
  readonly disorderedBy: readonly string[];
  /** Streams crossed onto the target's bank (the attack is disordered). */
  readonly streams: readonly string[];
  /** Fences a mounted charger crosses (it checks for disorder unless already disordered). */
  readonly fences: readonly string[];
}

/** Whether some stand of `a` has its box within `gapIn` of some stand of `b`'s (a plain loop: it runs per unit and enemy unit). */
function anyBoxesWithin(a: readonly VbStand[], b: readonly VbStand[], gapIn: number): boolean {
  for (const x of a) for (const y of b) if (!boxesApart(y.box, x.box, gapIn)) return true;
  return false;
}

/**
 * The enemy bases (but the target unit's) that may stop charger `s`'s walk from its centre to `end`, grown
 * by half its depth (`blockersFor`'s blockers, those a walk on this path can meet: a base whose grown box
 * misses the path's box is skipped by the walk, and the walk's answer does not depend on their order): the
 * enemy units near the path, read unit by unit.
 */
function pathBlockers(ctx: VbContext, s: VbStand, side: string, targetUnitId: string, end: PointIn): Blocker[] {
  const grow = s.stand.depthIn / 2;
  const c = s.center;
  const box = { minXIn: Math.min(c.xIn, end.xIn), minYIn: Math.min(c.yIn, end.yIn), maxXIn: Math.max(c.xIn, end.xIn), maxYIn: Math.max(c.yIn, end.yIn) };
  const out: Blocker[] = [];
  for (const e of ctx.enemyStandsNear(side, box, grow)) {
    if (e.unitId === targetUnitId) continue;
    const g = ctx.grown(e, grow);
    // A base whose grown outline holds the centre does not block (the charger may move away from contact).
    if (pointInPolygon(c, g.polygon)) continue;
    out.push(g);
  }
  return out;
}

/** The box around the segment a-b. */
function segmentBox(a: PointIn, b: PointIn): BoundingBoxIn {
  return { minXIn: Math.min(a.xIn, b.xIn), minYIn: Math.min(a.yIn, b.yIn), maxXIn: Math.max(a.xIn, b.xIn), maxYIn: Math.max(a.yIn, b.yIn) };
}

/** Whether `p` is inside a town block (boxes first: most areas are far from it). */
function inTownBlock(terrain: VbTerrain, p: PointIn): boolean {
  for (const a of terrain.areas) {
    if (a.cls !== 'town-block' || p.xIn < a.box.minXIn || p.xIn > a.box.maxXIn || p.yIn < a.box.minYIn || p.yIn > a.box.maxYIn) continue;
    if (pointInPolygon(p, a.vertices)) return true;
  }
  return false;
}

/** What a unit's charges share over its targets: its stands that may charge, their moves, and why it may not. */
export interface ChargeSetup {
  readonly chargers: readonly VbStand[];
  readonly rates: readonly (StandRate | { missing: string })[];
  /** The longest charger's move, inches. */
  readonly reachIn: number;
  /** The box around the chargers. */
  readonly chargersBox: BoundingBoxIn;
  /** A unit-wide reason not to charge, given against each enemy unit near enough to matter. */
  readonly unitReason: { readonly reason: string; readonly detail: string } | undefined;
  /** The terrain near charger `i`, found on its first walk. */
  readonly nearOf: (i: number) => VbTerrain;
}

/** The unit's charge setup, or undefined when none of its stands has melee dice. */
export function chargeSetup(ctx: VbContext, terrain: VbTerrain, info: VbUnit, exhausted: (unitId: string) => boolean): ChargeSetup | undefined {
  const u = info.unit;
  const chargers = info.combatStands.filter((s) => standDice(ctx.state, info, s, 'melee') !== undefined);
  if (chargers.length === 0) return undefined;
  const rates = chargers.map((s) => standRate(ctx, info, s));
  const reachIn = Math.max(0, ...rates.map((r) => ('rateIn' in r ? r.rateIn : 0)));
  let unitReason: { reason: string; detail: string } | undefined;
  if (info.roadMarch) unitReason = { reason: 'charge/road-march', detail: 'in road march: no combat value (Movement: Road March, p. 2)' };
  else if (info.routed) unitReason = { reason: 'charge/routed', detail: 'routed (Morale, p. 4)' };
  else if (info.skirmishOrder) unitReason = { reason: 'charge/skirmishers', detail: 'skirmishers can NOT voluntarily enter into melee (Stand Types, p. 1)' };
  else if (exhausted(u.id)) unitReason = { reason: 'charge/brigade-exhausted', detail: `its brigade is exhausted: no moving into contact (${COLLAPSE_SOURCE})` };
  // Each charger's terrain, found on its first walk (most units have no enemy near).
  const chargerTerrain: (VbTerrain | undefined)[] = [];
  const nearOf = (i: number): VbTerrain => {
    const r = rates[i]!;
    return (chargerTerrain[i] ??= terrainNear(terrain, chargers[i]!.center, 'rateIn' in r ? r.rateIn + 2 : 0));
  };
  const chargersBox = emptyBox();
  for (const s of chargers) extendBox(chargersBox, s.box);
  return { chargers, rates, reachIn, chargersBox, unitReason, nearOf };
}

/**
 * One unit's charge at one enemy unit: the option or the refusal, its arrows, which parameters it missed.
 */
export interface ChargeAtUnit {
  readonly entry: ChargeTargetOption | ChargeRefusal;
  readonly shapes: readonly Shape[];
  readonly mountedHitMissing: boolean;
  readonly artillerySupportMissing: boolean;
  /** The melee as the resolution reads it (absent on a refusal). */
  readonly melee?: MeleeSetup;
}

/** One side of a melee, as plain data: what it rolls, its morale check and tie roll-off, the saves it takes. */
export interface MeleeSide {
  readonly unitId: string;
  /** Its stands in the melee (the chargers, or the stands struck). */
  readonly standIds: readonly string[];
  readonly dice: number;
  readonly hitOn?: number;
  /** The Morale table's conditions that apply to it in this melee. */
  readonly conds: readonly MoraleCondition[];
  /** Its modified morale: the check passes on a d6 of this or less (absent without a morale rating). */
  readonly checkOn?: number;
  /** Added to its die in a tie roll-off (best modified morale, no elites 1 less). */
  readonly tieBonus?: number;
  /** Save conditions against the other side's hits. */
  readonly saves: readonly SaveCondition[];
  /** The stand whose rate and type set its loss move (the nearest pair's). */
  readonly checkStandId: string;
}

export interface MeleeSetup {
  readonly attacker: MeleeSide;
  readonly defender: MeleeSide;
  readonly aspect: 'front' | 'flank' | 'rear';
  /** Streams crossed onto the defended bank: the attack is disordered (Streams, p. 3). */
  readonly streams: readonly string[];
  /** Fences mounted chargers cross. */
  readonly fences: readonly string[];
  /** The mounted stands that must check for disorder at a fence (none when the unit is already disordered). */
  readonly fenceCheckStandIds: readonly string[];
  readonly attackerMounted: boolean;
  /** A Native American band attacked by mounted troops: disordered, it is eliminated. */
  readonly nativeRidden: boolean;
  /** ... and it is disordered already: eliminated, no melee. */
  readonly nativeRiddenDown: boolean;
}

/** "Superior commander (not UC) attached to the unit" (Morale, p. 4): a commanders[] entry attached to it. */
export function superiorAttached(ctx: VbContext, info: VbUnit): boolean {
  return info.unit.status?.attachedCommanderId !== undefined || ctx.commanders.some((c) => c.commander.attachedToUnitId === info.unit.id);
}

const NO_SHAPES: readonly Shape[] = [];

/**
 * The charges of `info` at every enemy unit near enough to matter, in table order, with the unit's
 * missing-parameter warnings. `targets` (the enemy units, those near enough marked) and `pairAt` (the
 * charge at one of them, undefined when it is too far after all) may be given in place of
 * `chargeTargets` and `chargeAtUnit` (the queries give each its own piece).
 */
export function evaluateCharge(
  ctx: VbContext,
  terrain: VbTerrain,
  info: VbUnit,
  standInCommand: Pick<ReadonlyMap<string, boolean>, 'get'>,
  exhausted: (unitId: string) => boolean,
  targets?: (setup: ChargeSetup) => TargetUnits,
  pairAt: (setup: ChargeSetup, targetId: string) => ChargeAtUnit | undefined = (setup, targetId) => chargeAtUnit(ctx, terrain, setup, info, ctx.units.get(targetId)!, standInCommand, exhausted),
): ChargeResult {
  const u = info.unit;
  const charge: (ChargeTargetOption | ChargeRefusal)[] = [];
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  const setup = chargeSetup(ctx, terrain, info, exhausted);
  if (!setup) return { charge, shapes, warnings };
  let mountedHitMissing = false;
  let artillerySupportMissing = false;
  // The enemy units near enough to matter (a stand within the longest move and an inch of the chargers).
  for (const id of (targets ? targets(setup) : chargeTargets(ctx, info, setup)).near) {
    const p = pairAt(setup, id);
    if (!p) continue;
    charge.push(p.entry);
    if (p.shapes.length > 0) appendAll(shapes, p.shapes);
    if (p.mountedHitMissing) mountedHitMissing = true;
    if (p.artillerySupportMissing) artillerySupportMissing = true;
  }
  if (mountedHitMissing) warnings.push(missingParameterWarning(MOUNTED_MELEE_HIT_PARAM, `${u.name}: hit number of mounted stands in melee`, u.id));
  if (artillerySupportMissing) warnings.push(missingParameterWarning(ARTILLERY_SUPPORT_PARAM, `${u.name}: whether the guns it charges are supported`, u.id));
  return { charge, shapes, warnings };
}

/** The enemy units near enough to matter to a unit's charges: a combat stand within its longest move and an inch of the chargers' box. */
export function chargeTargets(ctx: VbContext, info: VbUnit, setup: ChargeSetup): TargetUnits {
  return ctx.targetsNear(info.unit.side, setup.chargersBox, setup.reachIn + 1);
}

/** The charge of `info` at the enemy unit `target`, or undefined when no charger comes near enough to matter. */
export function chargeAtUnit(
  ctx: VbContext,
  terrain: VbTerrain,
  setup: ChargeSetup,
  info: VbUnit,
  target: VbUnit,
  standInCommand: Pick<ReadonlyMap<string, boolean>, 'get'>,
  exhausted: (unitId: string) => boolean,
): ChargeAtUnit | undefined {
  const u = info.unit;
  const { chargers, rates, reachIn, chargersBox, unitReason, nearOf } = setup;
  // An enemy unit whose box is further than the reach from the chargers' is out of reach of every charger
  // (the boxes hold the stands), with no stand pair read.
  if (boxesApart(chargersBox, target.combatBox, reachIn + 1) || !anyBoxesWithin(target.combatStands, chargers, reachIn + 1)) return undefined;
  const refusal = (reason: string, detail: string): ChargeAtUnit => ({
    entry: { ok: false, reason, detail: `${target.unit.name}: ${detail}`, targetUnitId: target.unit.id },
    shapes: NO_SHAPES,
    mountedHitMissing: false,
    artillerySupportMissing: false,
  });
  if (unitReason) return refusal(unitReason.reason, unitReason.detail);
  let mountedHitMissing = false;
  let artillerySupportMissing = false;
  // Other enemy stands block the path; the target's own do not.
  const pairs: Pair[] = [];
  let failure: { reason: string; detail: string } | undefined;
  chargers.forEach((s, i) => {
    const rate = rates[i]!;
    if (!('rateIn' in rate)) return;
    if (standInCommand.get(s.stand.id) === false) {
      failure ??= { reason: 'charge/out-of-command', detail: `out of command: may never move toward a visible enemy (${OUT_OF_COMMAND_SOURCE})` };
      return;
    }
    // The target's stands nearest first (front edge to base, a cheap distance); the first one reachable
    // is the one this charger strikes.
    const fl = s.corners[0]!, fr = s.corners[1]!;
    const candidates: { t: VbStand; d: number }[] = [];
    for (const t of target.combatStands) {
      if (boxesApart(s.box, t.box, rate.rateIn)) continue;
      let d = Infinity;
      for (let k = 0, j = 3; k < 4; j = k++) d = Math.min(d, segmentToSegmentDistanceIn(fl, fr, t.corners[j]!, t.corners[k]!));
      if (d <= rate.rateIn + 1e-9) candidates.push({ t, d });
    }
    if (candidates.length === 0) {
      failure ??= { reason: 'charge/out-of-reach', detail: `beyond ${rate.rateIn}" of movement` };
      return;
    }
    candidates.sort((x, y) => x.d - y.d);
    let best: Pair | undefined;
    for (const { t } of candidates) {
      // Straight at the target: the front edge's nearest point to the target's nearest point.
      const cp = closestPointsFromFront([fl, fr], t.corners);
      const fc = cp.onA;
      const to = cp.onB;
      const d = cp.distanceIn;
      const dir = vectorToHeadingDeg(to.xIn - fc.xIn, to.yIn - fc.yIn);
      const turn = d > 1e-9 && Math.abs(angleDiffDeg(dir, s.stand.pose.headingDeg)) > OBLIQUE_DEG + 1e-9;
      const allowance = rate.rateIn * (turn ? 1 - PAID_FACING_CHANGE_FRACTION : 1);
      const end = { xIn: s.center.xIn + (to.xIn - fc.xIn), yIn: s.center.yIn + (to.yIn - fc.yIn) };
      // Other enemy bases block the path; the target's own do not.
      const walk = walkCost(nearOf(i), s.center, end, moverProfile(info, s, rate.rateIn), allowance, pathBlockers(ctx, s, u.side, target.unit.id, end));
      if (walk.reachedIn < d - 1e-6) {
        const why = walk.stoppedBy === 'enemy' ? 'charge/path-blocked' : walk.stoppedBy?.startsWith('impassable:') ? 'charge/impassable' : 'charge/out-of-reach';
        failure = { reason: why, detail: walk.stoppedBy === 'enemy' ? 'another enemy stand is in the way' : `${d.toFixed(1)}" away; terrain${turn ? ' and a facing change (half the move)' : ''} leave${turn ? '' : 's'} too little movement (${CHARGE_FACING_SOURCE})` };
        continue;
      }
      const disorderedBy = [...walk.disorderedBy];
      // Lines crossed on the way: a stream onto the defended far bank disorders the attack (Streams, p. 3);
      // a fence makes a mounted stand check for disorder (Fences and Hedges, p. 3), a roll, not a certainty.
      const streams: string[] = [];
      const fences: string[] = [];
      for (const l of terrain.lines) {
        const cls = l.cls;
        if (!(cls === 'stream' || (cls === 'fence-hedge' && mounted(s)))) continue;
        // A line whose box stays clear of the path's cannot meet it (the exact test below asks for 0).
        if (boxesApart(l.box, segmentBox(s.center, end), 1e-6)) continue;
        for (let k = 0; k + 1 < l.points.length; k++) {
          if (polygonToPolygonDistanceIn([s.center, end], [l.points[k]!, l.points[k + 1]!]) < 1e-9) {
            const into = cls === 'stream' ? streams : fences;
            if (!into.includes(l.id)) into.push(l.id);
            break;
          }
        }
      }
      for (const id of streams) if (!disorderedBy.includes(id)) disorderedBy.push(id);
      best = { s, t, distanceIn: d, to, from: fc, disorderedBy, streams, fences };
      break;
    }
    if (best) pairs.push(best);
  });
  if (pairs.length === 0) {
    const f = failure ?? { reason: 'charge/out-of-reach', detail: 'no stand can reach it' };
    return refusal(f.reason, f.detail);
  }
  // Attacker's melee dice and hit number (best: lowest) with shock; its morale check to close.
  const targetDisordered = target.disordered;
  const attMods: DiceModifier[] = [];
  let attBase = 0;
  let attHit: number | undefined;
  let shock = false;
  for (const p of pairs) {
    attBase += standDice(ctx.state, info, p.s, 'melee')!.normal;
    const h = meleeHitOn(ctx, info, p.s);
    if (h === undefined && mounted(p.s)) mountedHitMissing = true;
    if (h !== undefined) attHit = attHit === undefined ? h : Math.min(attHit, h);
    if (info.abilities.has('Sh') || (info.abilities.has('NA') && (info.morale ?? 0) >= 6) || (mounted(p.s) && info.category === 'cavalry' && targetDisordered)) shock = true;
  }
  if (shock && attHit !== undefined) {
    const before = attHit;
    attHit += SHOCK_HIT_MOD;
    const why = info.abilities.has('Sh') ? 'Shock (Sh)' : info.abilities.has('NA') ? 'Native Americans of morale 6-7 count as shock' : 'Light dragoons count as shock against disordered units';
    attMods.push({ label: `${why}: hit on ${attHit}+ instead of ${before}+`, dice: 0, source: info.abilities.has('Sh') ? SHOCK_SOURCE : info.abilities.has('NA') ? NATIVE_AMERICAN_SOURCE : LIGHT_DRAGOON_SHOCK_NOTE });
  }
  if (attHit === undefined) attMods.push({ label: `Mounted melee hit number not entered (${MOUNTED_MELEE_HIT_PARAM.id})`, dice: 0, source: MOUNTED_MELEE_HIT_PARAM.source });
  const first = pairs.reduce((a, b) => (b.distanceIn < a.distanceIn ? b : a));
  const aspect = attackAspect(first.t, first.s.center);
  const anyMounted = pairs.some((p) => mounted(p.s));
  const miDisordered = pairs.some((p) => mounted(p.s) && info.category === 'infantry');
  if (miDisordered) attMods.push({ label: 'Mounted infantry are always considered disordered in melee', dice: 0, source: MOUNTED_INFANTRY_DISORDERED_NOTE });
  const streams = [...new Set(pairs.flatMap((p) => p.streams))];
  if (streams.length > 0) attMods.push({ label: `Attacking across a stream (${streams.join(', ')}) onto a bank defended by ${target.unit.name}: considered disordered in this melee`, dice: 0, source: STREAM_ATTACK_SOURCE });
  // Fences: each non-disordered mounted stand crossing one checks before the morale test; disordered ones do not.
  const fenceCheckers = info.disordered ? [] : pairs.filter((p) => p.fences.length > 0).map((p) => p.s.stand.id);
  const fences = [...new Set(pairs.flatMap((p) => p.fences))];
  if (fences.length > 0) {
    attMods.push(
      info.disordered
        ? { label: `Crossing ${fences.join(', ')}: already disordered, no fence check`, dice: 0, source: FENCE_CHECK_SOURCE }
        : { label: `Crossing ${fences.join(', ')}: ${fenceCheckers.join(', ')} check${fenceCheckers.length === 1 ? 's' : ''} for disorder before the morale check: a d6${info.poorlyTrained ? ` +${FENCE_CHECK_POORLY_TRAINED_MOD} (poorly trained)` : ''} less than morale ${info.morale ?? '?'} avoids it`, dice: 0, source: FENCE_CHECK_SOURCE },
    );
  }
  const attackerDisordered = info.disordered || miDisordered || streams.length > 0;
  const attConds: MoraleCondition[] = [];
  if (superiorAttached(ctx, info)) attConds.push('superior-commander-attached');
  if (target.skirmishOrder) attConds.push('meleeing-skirmishers');
  if (aspect !== 'front') attConds.push('meleeing-flank-or-rear');
  if (target.roadMarch) attConds.push('attacking-road-march');
  if (attackerDisordered) attConds.push('disordered');
  if (anyMounted && !info.abilities.has('MC') && target.abilities.has('MC') && target.category === 'cavalry') attConds.push('cavalry-vs-heavier-cavalry');
  if (first.t.type === 'artillery' && aspect === 'front') attConds.push('meleeing-artillery-from-front');
  attMods.push(moraleLine('Attacker', info.morale, attConds));
  attMods.push(...meleeResultLines(ctx, 'Attacker', info, first.s, attConds));
  // Defender: the stands struck, with stationary dice if they hold it; in road march they have no combat value.
  const struck = [...new Set(pairs.map((p) => p.t))];
  let defBase = 0;
  let defBonus = 0;
  let defHit: number | undefined;
  const defMods: DiceModifier[] = [];
  // Native American Morale (p. 4): a disordered band attacked by mounted troops is eliminated, no melee fought.
  const ridden = target.abilities.has('NA') && anyMounted;
  const riddenDown = ridden && targetDisordered;
  if (target.roadMarch) defMods.push({ label: 'In road march: no combat value (no melee dice)', dice: 0, source: NO_COMBAT_VALUE_SOURCE });
  else if (riddenDown) {
    defMods.push({ label: `Disordered Native Americans attacked by mounted troops: eliminated and removed from play, no melee; the mounted troops may change facing and move up to ${NATIVE_RIDDEN_DOWN_MOVE_IN}" and are disordered at the end of that move`, dice: 0, source: NATIVE_AMERICAN_SOURCE });
  } else {
    for (const t of struck) {
      const d = standDice(ctx.state, target, t, 'melee');
      if (!d) continue;
      defBase += d.normal;
      if (countsStationary(target, t, standInCommand.get(t.stand.id) === true, exhausted(target.unit.id))) defBonus += d.stationary - d.normal;
      const h = meleeHitOn(ctx, target, t);
      if (h === undefined && mounted(t)) mountedHitMissing = true;
      if (h !== undefined) defHit = defHit === undefined ? h : Math.min(defHit, h);
    }
  }
  if (defBonus > 0) defMods.push({ label: 'Stationary', dice: defBonus, source: ATTACK_DICE_SOURCE });
  const defConds: MoraleCondition[] = [];
  const tLevel = elevationLevelAt(first.t.center, ctx.state.terrain);
  const aLevel = elevationLevelAt(first.s.center, ctx.state.terrain);
  if (countsStationary(target, first.t, standInCommand.get(first.t.stand.id) === true, exhausted(target.unit.id)) && tLevel > aLevel) defConds.push('stationary-higher-ground');
  if ((first.t.type === 'infantry' || first.t.type === 'detachment' || first.t.type === 'artillery') && inWorksLine(ctx, first.t)) defConds.push('defending-works');
  if (superiorAttached(ctx, target)) defConds.push('superior-commander-attached');
  if (target.disordered) defConds.push('disordered');
  if (first.t.type === 'artillery') {
    const supportIn = numberParameter(ctx.state, ARTILLERY_SUPPORT_PARAM);
    if (supportIn === undefined) artillerySupportMissing = true;
    else {
      if (!artillerySupported(ctx, first.t, supportIn)) defConds.push('unsupported-artillery-meleed');
    }
  }
  if ((first.t.type === 'infantry' || first.t.type === 'detachment' || first.t.type === 'infantry-skirmisher') && anyMounted) defConds.push('infantry-meleed-by-mounted');
  if (aspect === 'flank') defConds.push('meleed-from-flank');
  if (target.roadMarch) defConds.push('meleed-in-road-march');
  if (target.routed) defConds.push('meleed-while-routed');
  defMods.push(moraleLine('Defender', target.morale, defConds));
  if (ridden && !riddenDown) defMods.push({ label: `Native Americans attacked by mounted troops: failing the morale check disorders them, and so eliminates them (removed from play)`, dice: 0, source: NATIVE_AMERICAN_SOURCE });
  if (!riddenDown) defMods.push(...meleeResultLines(ctx, 'Defender', target, first.t, defConds));
  // Saves in melee (Saves, p. 5): buildings, works (not a sunken road against infantry), hits by disordered stands.
  const defSaves: SaveCondition[] = [];
  const tFoot = first.t.type === 'infantry' || first.t.type === 'detachment' || first.t.type === 'infantry-skirmisher';
  if (tFoot && inTownBlock(terrain, first.t.center)) defSaves.push('infantry-in-buildings');
  if (defConds.includes('defending-works')) {
    const onlySunken = !inWorksLine(ctx, first.t, (kind) => kind !== 'sunken-road');
    if (!(onlySunken && !anyMounted)) defSaves.push('in-works');
  }
  if (attackerDisordered) defSaves.push('hit-by-disordered');
  defMods.push(...saveLines(ctx, defSaves, 'Defender'));
  const attSaves: SaveCondition[] = target.disordered ? ['hit-by-disordered'] : [];
  attMods.push(...saveLines(ctx, attSaves, 'Attacker'));
  const attacker: DiceBreakdown = { kind: 'dice', ...(attHit !== undefined ? { hitOn: attHit } : {}), baseDice: attBase, modifiers: attMods, dice: attBase, limits: [] };
  const defender: DiceBreakdown = { kind: 'dice', ...(defHit !== undefined ? { hitOn: defHit } : {}), baseDice: defBase, modifiers: defMods, dice: defBase + defBonus, limits: [] };
  const disorderedBy = [...new Set(pairs.flatMap((p) => p.disorderedBy))];
  const entry: ChargeTargetOption = { ok: true, targetUnitId: target.unit.id, distanceIn: first.distanceIn, attacker, defender, disorderedBy, enemyFlanked: aspect !== 'front' };
  const shapes: Shape[] = pairs.map((p) => ({ kind: 'polyline', id: `charge/${u.id}/${target.unit.id}/${p.s.stand.id}`, layer: 'charge', style: 'charge', unitId: u.id, side: u.side, points: [p.from, p.to], arrow: true }));
  const side = (v: VbUnit, standIds: string[], dice: number, hitOn: number | undefined, conds: MoraleCondition[], saves: SaveCondition[], checkStand: VbStand): MeleeSide => ({
    unitId: v.unit.id,
    standIds,
    dice,
    ...(hitOn !== undefined ? { hitOn } : {}),
    conds,
    ...(v.morale !== undefined ? { checkOn: modifiedMorale(v.morale, conds), tieBonus: tieBonus(v, conds)! } : {}),
    saves,
    checkStandId: checkStand.stand.id,
  });
  const melee: MeleeSetup = {
    attacker: side(info, pairs.map((p) => p.s.stand.id), attacker.dice, attHit, attConds, attSaves, first.s),
    defender: side(target, struck.map((t) => t.stand.id), defender.dice, defHit, defConds, defSaves, first.t),
    aspect,
    streams,
    fences,
    fenceCheckStandIds: fenceCheckers,
    attackerMounted: anyMounted,
    nativeRidden: ridden,
    nativeRiddenDown: riddenDown,
  };
  return { entry, shapes, mountedHitMissing, artillerySupportMissing, melee };
}
