/**
 * Fire combat (Combat, Saves, p. 5): for a firing unit and each enemy unit, which of its stands may fire
 * (arc, range, line of sight, firing lanes), the dice (Attack Dice, normal or stationary), the hit number
 * (Hit Numbers by weapon and range band, sharpshooters one less) and the saves the target would roll.
 * The arc and the measuring point come from the base rules: parameters; without them no fire is offered.
 */
import type { DiceBreakdown, DiceModifier, EvaluationWarning, FireRefusal, FireTargetOption } from '../../../engine/evaluation.ts';
import type { Shape } from '../../../engine/shapes.ts';
import { missingParameterWarning, numberParameter, rulesetValue } from '../../../engine/rulesetFields.ts';
import type { PointIn } from '../../../model/units.ts';
import { pointToPolygonDistanceIn, polygonToPolygonDistanceIn } from '../../../geometry/distance.ts';
import { closestPointsFromFront, frontDistanceIn } from '../nearest.ts';
import { pointInPolygon } from '../../../geometry/intersect.ts';
import { polygonOverlapsPreparedWedge, prepareWedge, wedgePolygon, type PreparedWedge, type Wedge } from '../../../geometry/wedge.ts';
import { FIRE_ARC_PARAM, RANGE_FROM_PARAM, SAVE_PARAMS } from '../declarations.ts';
import { countsStationary, standDice, weaponRow } from '../combat.ts';
import { boxesApart, type TargetUnits, type VbContext, type VbStand, type VbUnit } from '../context.ts';
import { emptyBox, extendBox, type BoundingBoxIn } from '../../../geometry/polygon.ts';
import {
  ATTACK_DICE_SOURCE,
  FIRING_LANES_SOURCE,
  HIT_NUMBERS,
  HIT_NUMBERS_SOURCE,
  SAVE_LABELS,
  SAVES_SOURCE,
  SHARPSHOOTER_HIT_MOD,
  SHARPSHOOTER_SOURCE,
  type SaveCondition,
  type WeaponRow,
} from '../tables/combat.ts';
import { AREA_KIND_CLASS } from '../tables/terrain.ts';
import { isSkirmisher, sightPool, sightScene, standSight, type SightResult } from './sight.ts';
import { orderByKey } from '../../../geometry/sortSmall.ts';

export interface FireSettings {
  readonly arcCornerDeg: number;
  readonly measureFrom: 'front-edge' | 'front-centre';
}

/** The fire parameters, or the warnings naming the missing ones. */
export function fireSettings(ctx: VbContext): { settings?: FireSettings; warnings: EvaluationWarning[] } {
  const arc = numberParameter(ctx.state, FIRE_ARC_PARAM);
  const from = rulesetValue(RANGE_FROM_PARAM, ctx.state.rulesetParameters);
  const warnings: EvaluationWarning[] = [];
  if (arc === undefined) warnings.push(missingParameterWarning(FIRE_ARC_PARAM, 'Fire (every target, range and arc)'));
  if (from !== 'front-edge' && from !== 'front-centre') warnings.push(missingParameterWarning(RANGE_FROM_PARAM, 'Fire (every range and range band)'));
  if (warnings.length > 0) return { warnings };
  return { settings: { arcCornerDeg: arc!, measureFrom: from as FireSettings['measureFrom'] }, warnings };
}

/** The fire arc of a stand: rays from its front corners opening `arcCornerDeg` outward. */
export function fireArc(s: VbStand, arcCornerDeg: number): Wedge {
  const h = s.stand.pose.headingDeg;
  return { leftOrigin: s.corners[0]!, leftDirDeg: (h + arcCornerDeg) % 360, rightOrigin: s.corners[1]!, rightDirDeg: (h - arcCornerDeg + 360) % 360 };
}

function frontCentre(s: VbStand): PointIn {
  const [fl, fr] = s.corners;
  return { xIn: (fl!.xIn + fr!.xIn) / 2, yIn: (fl!.yIn + fr!.yIn) / 2 };
}

/** Range from the firer (front edge or its centre) to the nearest point of the target, and that point. */
export function fireRange(s: VbStand, t: VbStand, measureFrom: FireSettings['measureFrom']): { rangeIn: number; from: PointIn; to: PointIn } {
  if (measureFrom === 'front-centre') {
    const fc = frontCentre(s);
    const cp = closestPointsFromFront([fc], t.corners);
    return { rangeIn: pointToPolygonDistanceIn(fc, t.corners), from: fc, to: cp.onB };
  }
  const cp = closestPointsFromFront([s.corners[0]!, s.corners[1]!], t.corners);
  return { rangeIn: cp.distanceIn, from: cp.onA, to: cp.onB };
}

/** `fireRange(s, t, measureFrom).rangeIn`, the same number, without the points (most pairs need none). */
function fireRangeIn(s: VbStand, t: VbStand, measureFrom: FireSettings['measureFrom']): number {
  if (measureFrom === 'front-centre') {
    const [fl, fr] = s.corners;
    FRONT_CENTRE.xIn = (fl!.xIn + fr!.xIn) / 2;
    FRONT_CENTRE.yIn = (fl!.yIn + fr!.yIn) / 2;
    return pointToPolygonDistanceIn(FRONT_CENTRE, t.corners);
  }
  return frontDistanceIn(s.corners[0]!, s.corners[1]!, t.corners, t.box);
}

/** Scratch front centre of `fireRangeIn`. */
const FRONT_CENTRE: { xIn: number; yIn: number } = { xIn: 0, yIn: 0 };

/**
 * One firer's target stands in arc and range (`fireAtUnit`, never re-entered): each stand's place in the
 * target's list and its range, as columns with a count, and `candidateOrder`, their order nearest first
 * (the first listed among equals: candidates are added in list order and `orderByKey` is stable).
 */
let candidateAt = new Int32Array(16);
let candidateRangeIn = new Float64Array(16);
let candidateOrder = new Int32Array(16);
let candidateCount = 0;

function addCandidate(ti: number, rangeIn: number): void {
  if (candidateCount === candidateAt.length) {
    const at = new Int32Array(2 * candidateAt.length);
    const range = new Float64Array(2 * candidateAt.length);
    at.set(candidateAt);
    range.set(candidateRangeIn);
    candidateAt = at;
    candidateRangeIn = range;
    candidateOrder = new Int32Array(2 * candidateOrder.length);
  }
  candidateAt[candidateCount] = ti;
  candidateRangeIn[candidateCount++] = rangeIn;
}

interface StandShot {
  readonly firer: VbStand;
  readonly target: VbStand;
  readonly rangeIn: number;
  readonly from: PointIn;
  readonly to: PointIn;
  readonly hitOn: number;
  readonly band: 'short' | 'long';
  readonly weapon: WeaponRow;
}

type Failure = 'out-of-arc' | 'out-of-range' | 'no-line-of-sight' | 'blocked-by-stands' | 'must-fire-at-skirmishers';
const FAILURE_ORDER: readonly Failure[] = ['out-of-arc', 'out-of-range', 'no-line-of-sight', 'blocked-by-stands', 'must-fire-at-skirmishers'];
/** Ranks in FAILURE_ORDER: a later failure outranks an earlier one. */
const OUT_OF_ARC = 0;
const OUT_OF_RANGE = 1;
const NO_LINE_OF_SIGHT = 2;
const BLOCKED_BY_STANDS = 3;
const MUST_FIRE_AT_SKIRMISHERS = 4;

/** Saves the target stand would roll against this fire (Saves, p. 5). */
export function fireSaves(ctx: VbContext, shooter: VbUnit, shot: StandShot): SaveCondition[] {
  const out: SaveCondition[] = [];
  const t = shot.target;
  const smallArms = !HIT_NUMBERS[shot.weapon].artillery;
  const foot = t.type === 'infantry' || t.type === 'detachment' || t.type === 'infantry-skirmisher';
  if (isSkirmisher(ctx, t)) out.push('skirmish-order');
  const areas = ctx.state.terrain.areas.filter((a) => pointInPolygon(t.center, a.vertices));
  if (foot && smallArms && areas.some((a) => a.kind === 'open-woods' || a.kind === 'thick-woods' || a.kind === 'thicket')) out.push('infantry-in-woods');
  if (foot && shot.weapon !== 'heavy-artillery' && areas.some((a) => AREA_KIND_CLASS[a.kind] === 'town-block')) out.push('infantry-in-buildings');
  // "In works": a works line touching the base or within half a base depth of it (a reading).
  if ((foot || t.type === 'artillery') && ctx.state.terrain.linear.some((l) => (l.kind === 'hasty-works' || l.kind === 'entrenchment') && l.points.some((_, i) => i + 1 < l.points.length && polygonToPolygonDistanceIn([l.points[i]!, l.points[i + 1]!], t.corners) <= t.stand.depthIn / 2))) {
    out.push('in-works');
  }
  if (t.type === 'artillery' && shot.band === 'long' && (shot.weapon === 'light-artillery' || shot.weapon === 'field-artillery')) out.push('artillery-long-range-light-field');
  if (shooter.disordered) out.push('hit-by-disordered');
  return out;
}

/** The save lines of a breakdown: each condition with its roll, or that the roll has not been entered. */
export function saveModifiers(ctx: VbContext, conditions: readonly SaveCondition[], missing: Set<SaveCondition>): DiceModifier[] {
  return conditions.map((c) => {
    const spec = SAVE_PARAMS[c];
    const roll = numberParameter(ctx.state, spec);
    if (roll === undefined) missing.add(c);
    return {
      label: `Target saves: ${SAVE_LABELS[c]}${roll === undefined ? ` (save roll not entered: ${spec.id})` : `: saves on ${roll}+`}`,
      dice: 0,
      source: SAVES_SOURCE,
    };
  });
}

export interface FireResult {
  readonly fire: (FireTargetOption | FireRefusal)[];
  readonly shapes: Shape[];
  readonly missingSaves: ReadonlySet<SaveCondition>;
}

/** A stand able to fire, with its weapon row and its arc. */
export interface Firer {
  readonly s: VbStand;
  readonly weapon: WeaponRow;
  readonly row: (typeof HIT_NUMBERS)[WeaponRow];
  readonly wedge: PreparedWedge;
  /** The arc drawn to the weapon's longest range. */
  readonly arc: readonly PointIn[];
}

/** The unit's firing stands (none in road march or routed; mounted stands do not fire) and their arcs. */
export function firersOf(ctx: VbContext, settings: FireSettings, info: VbUnit): Firer[] {
  // "While in road march, stands have no combat value"; mounted stands "may NOT fire while mounted".
  if (info.roadMarch || info.routed) return [];
  return info.combatStands.flatMap((s) => {
    const weapon = weaponRow(info, s);
    const dice = standDice(ctx.state, info, s, 'fire');
    if (!weapon || !dice) return [];
    const arc = fireArc(s, settings.arcCornerDeg);
    return [{ s, weapon, row: HIT_NUMBERS[weapon], wedge: prepareWedge(arc), arc: wedgePolygon(arc, HIT_NUMBERS[weapon].longRangeIn) }];
  });
}

/** What one unit's fire at one enemy unit gives: its options or refusal, their shapes, the screen if any. */
export interface FireAtUnit {
  readonly entries: readonly (FireTargetOption | FireRefusal)[];
  readonly shapes: readonly Shape[];
  /** The skirmishers small arms must fire at instead (a `fire/must-fire-at-skirmishers` refusal). */
  readonly screenUnitId?: string;
  readonly missingSaves: readonly SaveCondition[];
  /** The save conditions of each option among `entries` (refusals: none), in the same order. */
  readonly optionSaves?: readonly (readonly SaveCondition[])[];
}

/** Why no firing stand can fire at a unit, in words (only the text that is shown is built). */
function failureDetail(f: Failure, firers: readonly Firer[], screenUnitId: string | undefined): string {
  switch (f) {
    case 'out-of-arc':
      return 'no enemy stand of it is in any firing stand\'s arc';
    case 'out-of-range': {
      let maxRange = -Infinity;
      for (const fr of firers) if (fr.row.longRangeIn > maxRange) maxRange = fr.row.longRangeIn;
      return `beyond range (longest ${maxRange}")`;
    }
    case 'no-line-of-sight':
      return 'terrain or hills block every line of sight';
    case 'blocked-by-stands':
      return 'other stands are in the way';
    case 'must-fire-at-skirmishers':
      return `small arms must fire at the skirmishers in front (${screenUnitId ?? '?'}; ${FIRING_LANES_SOURCE})`;
  }
}

/** The box around a unit's firing stands and their longest range. */
export function firersReach(firers: readonly Firer[]): { readonly box: BoundingBoxIn; readonly longestIn: number } {
  const box = emptyBox();
  let longestIn = -Infinity;
  for (const f of firers) {
    extendBox(box, f.s.box);
    longestIn = Math.max(longestIn, f.row.longRangeIn);
  }
  return { box, longestIn };
}

function beyondReach(reach: { readonly box: BoundingBoxIn; readonly longestIn: number }, target: VbUnit): boolean {
  return boxesApart(reach.box, target.combatBox, reach.longestIn);
}

/** Shared empty lists of a refusal (never pushed to). */
const NO_SHAPES: readonly Shape[] = [];
const NO_SAVES: readonly SaveCondition[] = [];

/**
 * The "out of range" answer at an enemy unit (named `name`) for firers whose longest range is `longestIn`:
 * the same plain data for every firing unit that far away.
 */
function outOfRangeAt(targetId: string, name: string, longestIn: number): FireAtUnit {
  const detail = `${name}: beyond range (longest ${longestIn}")`;
  return { entries: [{ ok: false, reason: 'fire/out-of-range', detail, targetUnitId: targetId }], shapes: NO_SHAPES, missingSaves: NO_SAVES };
}

function unionBox(a: BoundingBoxIn, b: BoundingBoxIn): BoundingBoxIn {
  return { minXIn: Math.min(a.minXIn, b.minXIn), minYIn: Math.min(a.minYIn, b.minYIn), maxXIn: Math.max(a.maxXIn, b.maxXIn), maxYIn: Math.max(a.maxYIn, b.maxYIn) };
}

/** Fire of `info`'s `firers` at the enemy unit `target` (which has combat stands). */
export function fireAtUnit(
  ctx: VbContext,
  settings: FireSettings,
  info: VbUnit,
  firers: readonly Firer[],
  target: VbUnit,
  standInCommand: Pick<ReadonlyMap<string, boolean>, 'get'>,
  exhausted: (unitId: string) => boolean,
  pool?: () => readonly VbStand[],
): FireAtUnit {
  // Most enemy units are beyond every firer's range on an axis: then every stand pair is (the boxes hold
  // the stands, so each pair is at least as far apart), and the answer is "out of range" with no pair read.
  const reach = firersReach(firers);
  if (beyondReach(reach, target)) return outOfRangeAt(target.unit.id, target.unit.name, reach.longestIn);
  const u = info.unit;
  const tStands = target.combatStands;
  let shots: StandShot[] | undefined;
  // The latest failure in FAILURE_ORDER met so far (-1: none): a plain number, no closure per call.
  let failureRank = -1;
  let screenUnitId: string | undefined;
  // The first screening unit met, in firer then target-stand order (the order the stands are listed).
  let screenKey = Infinity;
  // The sight scene, made on the first line traced (most pairs trace none).
  let scene: ReturnType<typeof sightScene> | undefined;
  for (let fi = 0; fi < firers.length; fi++) {
    const f = firers[fi]!;
    candidateCount = 0;
    for (let ti = 0; ti < tStands.length; ti++) {
      const t = tStands[ti]!;
      if (boxesApart(f.s.box, t.box, f.row.longRangeIn)) {
        if (failureRank < OUT_OF_RANGE) failureRank = OUT_OF_RANGE;
        continue;
      }
      if (!polygonOverlapsPreparedWedge(f.wedge, t.corners)) {
        if (failureRank < OUT_OF_ARC) failureRank = OUT_OF_ARC;
        continue;
      }
      const rangeIn = fireRangeIn(f.s, t, settings.measureFrom);
      if (rangeIn > f.row.longRangeIn + 1e-9) {
        if (failureRank < OUT_OF_RANGE) failureRank = OUT_OF_RANGE;
        continue;
      }
      addCandidate(ti, rangeIn);
    }
    if (candidateCount === 0) continue;
    // The nearest target stand in sight (the first listed among equals): nearest first, stop at the first seen.
    orderByKey(candidateRangeIn, candidateCount, candidateOrder);
    let best: StandShot | undefined;
    for (let k = 0; k < candidateCount; k++) {
      const ti = candidateAt[candidateOrder[k]!]!;
      const t = tStands[ti]!;
      // A gun's blocked line needs its reason only while it could still be the one reported: no shot at this
      // unit yet, and no reason met that a gun's cannot outrank (a gun's highest is blocked by stands).
      const reasonNeeded = !f.row.artillery || (shots === undefined && failureRank < BLOCKED_BY_STANDS);
      const sight: SightResult = standSight(ctx, f.s, t, f.row.artillery, reasonNeeded, (scene ??= sightScene(ctx, unionBox(reach.box, target.combatBox), pool)));
      if (!sight.clear) {
        if (sight.blockedBy === 'skirmishers') {
          const key = fi * tStands.length + ti;
          if (sight.screenUnitId !== undefined && key < screenKey) (screenKey = key), (screenUnitId = sight.screenUnitId);
          if (failureRank < MUST_FIRE_AT_SKIRMISHERS) failureRank = MUST_FIRE_AT_SKIRMISHERS;
        } else {
          const rank = sight.blockedBy === 'stands' ? BLOCKED_BY_STANDS : NO_LINE_OF_SIGHT;
          if (failureRank < rank) failureRank = rank;
        }
        continue;
      }
      const r = fireRange(f.s, t, settings.measureFrom);
      const short = r.rangeIn <= f.row.shortRangeIn + 1e-9;
      best = { firer: f.s, target: t, ...r, hitOn: short ? f.row.shortHitOn : f.row.longHitOn, band: short ? 'short' : 'long', weapon: f.weapon };
      break;
    }
    if (best) (shots ??= []).push(best);
  }
  const fire: (FireTargetOption | FireRefusal)[] = [];
  const shapes: Shape[] = [];
  const screened: string[] = [];
  if (!shots) {
    const f: Failure = failureRank >= 0 ? FAILURE_ORDER[failureRank]! : 'out-of-range';
    if (f === 'must-fire-at-skirmishers' && screenUnitId) screened.push(screenUnitId);
    fire.push({ ok: false, reason: `fire/${f}`, detail: `${target.unit.name}: ${failureDetail(f, firers, screenUnitId)}`, targetUnitId: target.unit.id });
    return { entries: fire, shapes, ...(screened[0] !== undefined ? { screenUnitId: screened[0] } : {}), missingSaves: NO_SAVES };
  }
  const missing = new Set<SaveCondition>();
  const optionSaves: SaveCondition[][] = [];
  // One option per range band (hit number): stands at different bands roll at different numbers.
  const groups = new Map<string, StandShot[]>();
  for (const s of shots) {
    const key = `${s.weapon}|${s.band}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(s);
  }
  for (const group of [...groups.values()].sort((a, b) => a[0]!.hitOn - b[0]!.hitOn)) {
    const first = group[0]!;
    const row = HIT_NUMBERS[first.weapon];
    const modifiers: DiceModifier[] = [];
    let base = 0;
    let bonus = 0;
    let stationaryStands = 0;
    for (const shot of group) {
      const d = standDice(ctx.state, info, shot.firer, 'fire')!;
      base += d.normal;
      if (countsStationary(info, shot.firer, standInCommand.get(shot.firer.stand.id) === true, exhausted(u.id)) && d.stationary > d.normal) {
        bonus += d.stationary - d.normal;
        stationaryStands++;
      }
    }
    if (bonus > 0) modifiers.push({ label: `Stationary (${stationaryStands} stand${stationaryStands > 1 ? 's' : ''})`, dice: bonus, source: ATTACK_DICE_SOURCE });
    let hitOn = first.hitOn;
    if (info.abilities.has('SS')) {
      hitOn += SHARPSHOOTER_HIT_MOD;
      modifiers.push({ label: `Sharpshooters (SS): hit on ${hitOn}+ instead of ${first.hitOn}+`, dice: 0, source: SHARPSHOOTER_SOURCE });
    }
    const saves = new Set<SaveCondition>();
    for (const shot of group) for (const c of fireSaves(ctx, info, shot)) saves.add(c);
    modifiers.push(...saveModifiers(ctx, [...saves], missing));
    optionSaves.push([...saves]);
    const breakdown: DiceBreakdown = {
      kind: 'dice',
      hitOn,
      baseDice: base,
      modifiers,
      dice: base + bonus,
      limits: [],
    };
    const rangeIn = Math.min(...group.map((g) => g.rangeIn));
    const option: FireTargetOption = {
      ok: true,
      targetUnitId: target.unit.id,
      eligibleStandIds: group.map((g) => g.firer.stand.id),
      rangeIn,
      band: `${first.band === 'short' ? 'short' : 'long'} ${first.band === 'short' ? row.shortRangeIn : row.longRangeIn}" (${row.label}; ${HIT_NUMBERS_SOURCE})`,
      breakdown,
      priority: false,
    };
    fire.push(option);
    const near = group.reduce((a, b) => (b.rangeIn < a.rangeIn ? b : a));
    shapes.push({
      kind: 'polyline',
      id: `fire/target/${u.id}/${target.unit.id}/${first.weapon}-${first.band}`,
      layer: 'fire',
      style: 'target',
      unitId: u.id,
      side: u.side,
      points: [near.from, near.to],
      arrow: true,
    });
  }
  return { entries: fire, shapes, ...(screened[0] !== undefined ? { screenUnitId: screened[0] } : {}), missingSaves: [...missing], optionSaves };
}

/**
 * The (firing stand, target stand) pairs of `firers` at `target` a sight line may be traced between: the
 * target stand in the firer's arc and range (as `fireAtUnit` picks its candidates).
 */
export function sightPairs(settings: FireSettings, firers: readonly Firer[], target: VbUnit): [VbStand, VbStand][] {
  const out: [VbStand, VbStand][] = [];
  if (beyondReach(firersReach(firers), target)) return out;
  for (const f of firers) {
    for (const t of target.combatStands) {
      if (boxesApart(f.s.box, t.box, f.row.longRangeIn) || !polygonOverlapsPreparedWedge(f.wedge, t.corners)) continue;
      if (fireRangeIn(f.s, t, settings.measureFrom) > f.row.longRangeIn + 1e-9) continue;
      out.push([f.s, t]);
    }
  }
  return out;
}

/** The stands that may stand in the way of `firers`' lines at `target` (see `sightPool`). */
export function fireSightPool(ctx: VbContext, settings: FireSettings, firers: readonly Firer[], target: VbUnit): VbStand[] {
  return sightPool(ctx, sightPairs(settings, firers, target));
}

/** Every fire option and refusal of one unit against every enemy unit. */
export function evaluateFire(
  ctx: VbContext,
  settings: FireSettings,
  info: VbUnit,
  standInCommand: Pick<ReadonlyMap<string, boolean>, 'get'>,
  exhausted: (unitId: string) => boolean,
  atUnit: (firers: readonly Firer[], targetId: string) => FireAtUnit = (firers, targetId) => fireAtUnit(ctx, settings, info, firers, ctx.units.get(targetId)!, standInCommand, exhausted),
  firers: readonly Firer[] = firersOf(ctx, settings, info),
  targets?: TargetUnits,
): FireResult {
  const u = info.unit;
  const shapes: Shape[] = [];
  const missingSaves = new Set<SaveCondition>();
  const fire: (FireTargetOption | FireRefusal)[] = [];
  if (firers.length === 0) return { fire, shapes, missingSaves };
  for (const f of firers) {
    shapes.push({
      kind: 'polygon',
      id: `fire/arc/${f.s.stand.id}`,
      layer: 'fire',
      style: f.row.artillery ? 'arc-artillery' : 'arc',
      unitId: u.id,
      side: u.side,
      vertices: f.arc,
    });
  }
  const screened: string[] = [];
  const reach = firersReach(firers);
  // Every enemy unit with combat stands, in the state's order; only those with a stand near are read.
  const { all, near } = targets ?? ctx.targetsNear(u.side, reach.box, reach.longestIn);
  for (const { id, name } of all) {
    // Beyond every firer's range by the boxes (most enemy units): `fireAtUnit`'s answer, without the call.
    if (!near.includes(id)) {
      fire.push(outOfRangeAt(id, name, reach.longestIn).entries[0]!);
      continue;
    }
    const r = atUnit(firers, id);
    fire.push(...r.entries);
    shapes.push(...r.shapes);
    if (r.screenUnitId !== undefined) screened.push(r.screenUnitId);
    for (const c of r.missingSaves) missingSaves.add(c);
  }
  // Small arms screened by skirmishers must fire at them (Firing lanes): those options are the priority.
  if (screened.length > 0) {
    for (let i = 0; i < fire.length; i++) {
      const o = fire[i]!;
      if (o.ok && screened.includes(o.targetUnitId)) {
        fire[i] = { ...o, priority: true };
        const sh = shapes.findIndex((s) => s.id.startsWith(`fire/target/${u.id}/${o.targetUnitId}/`));
        if (sh >= 0) shapes[sh] = { ...shapes[sh]!, style: 'target-priority' };
      }
    }
  }
  return { fire, shapes, missingSaves };
}
