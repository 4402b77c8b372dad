/**
 * Musketry & Cannonade (QRS II, Musketry and Cannonade Table Changes; Weapons; Fire Combat Modifier;
 * Figure 3). Each firing stand in range, in its arc and with a line of sight adds its weapon's fire points
 * for its range band; the total (fractions rounded down) converts to a die roll modifier; named modifiers
 * are added, "half or more of the total fire points" deciding the ones that depend on the firing stands.
 * One ten-sided die plus the modifiers is read against the target's rating column (Figure 3).
 *
 * Ranges, fire points per band, the arc of fire, woods sight and the Figure 3 columns are parameters
 * (`fields.ts`): a missing one is a warning naming it, and the option says which values it lacked.
 */
import type { DiceBreakdown, DiceModifier, FireRefusal, FireTargetOption } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Stand } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { standCorners, standFrontCenter, standPolygon } from '../../geometry/footprint.ts';
import { pointsBoundingBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { closestPointOnSegment, polygonToPolygonDistanceIn, segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import { pointInPolygon, segmentTouchesPolygonBoundary } from '../../geometry/intersect.ts';
import { headingToVector, normalizeDeg } from '../../geometry/angles.ts';
import { buildSightScene, lineOfSight, sightBoxOf, type SightScene, type SightStand } from '../../geometry/lineOfSight.ts';
import { query } from '../../engine/incremental/query.ts';
import { polygonOverlapsWedge, wedgePolygon, type Wedge } from '../../geometry/wedge.ts';
import { qrs } from './tables/source.ts';
import { chargeModeFireBar, chargeModeOf } from './chargeMode.ts';
import { inchesText } from './inchesText.ts';
import { cornersOf, type FfrContext, type FfrUnitInfo, type UnitBox, type WarningSink } from './context.ts';
import type { Effectiveness } from './morale.ts';
import { BASIC_FIRE_MODIFIER_PARAMS, FIRE_ARC_PARAM, WOODS_SIGHT_PARAM, fireEffectParamId, firePointsParamId, weaponParamId } from './fields.ts';
import { FIRE_DIE_SIDES, FIRE_EFFECTS, FIRE_MODIFIERS, FIRE_POINTS_GIVEN, FALLEN_LEADER_WITHIN_IN, FIRE_POINTS_SOURCE, MASSED_TARGET_BEHIND_IN, WEAPON_BY_CODE, type WeaponDef } from './tables/fireTables.ts';

export interface FireEffectNeed {
  readonly effect: string;
  /** Lowest modified die result (Figure 3, the target's rating column, from the parameters). */
  readonly modifiedAtLeast: number;
  /** Natural d10 needed: 1 when any roll does it, null when no roll can. */
  readonly dieAtLeast: number | null;
}

/** A fire option with what Fire and Fury adds: the fire points, the effects' die numbers, the massed target. */
export interface FfrFireOption extends FireTargetOption {
  /** Fire points per band and their total (kind 'points'); `breakdown` is the die roll modifier (kind 'modifier'). */
  readonly firePoints: DiceBreakdown;
  readonly effects: readonly FireEffectNeed[];
  /** Units of the target's side within 2" behind it: they suffer the next lower effect (Figure 3, Massed Target). */
  readonly massedBehindUnitIds: readonly string[];
  /** "Fallen Leader check ... applies to the closest leader within 4" of the target" (Figure 3), if any. */
  readonly fallenLeaderCheckId?: string;
  /** Parameters the option needed but the table does not give; the totals leave their part out. */
  readonly missingParameters: readonly string[];
}

interface Band {
  readonly name: string;
  readonly maxIn: number | undefined;
  readonly points: number | undefined;
  readonly inId: string;
  readonly pointsId: string;
}

const WOODS = new Set(['open-woods', 'thick-woods', 'thicket']);

function bandsOf(ctx: FfrContext, w: WeaponDef): Band[] {
  const owner = w.sameAs ? WEAPON_BY_CODE.get(w.sameAs)! : w;
  const rangeOwner = owner.rangesFrom ? WEAPON_BY_CODE.get(owner.rangesFrom)! : owner;
  return owner.bands.map((name) => {
    const inId = weaponParamId(rangeOwner.code, name, 'in');
    const pointsId = weaponParamId(owner.code, name, 'points');
    const maxIn = ctx.param(inId);
    const points = ctx.param(pointsId);
    return { name, inId, pointsId, maxIn: typeof maxIn === 'number' ? maxIn : undefined, points: typeof points === 'number' ? points : undefined };
  });
}

/** A weapon's bands with their ranges and fire points from the parameters (key: the weapon's code). */
const fireBandsQuery = query('ffr/fire-bands', (ctx: FfrContext, code): Band[] => bandsOf(ctx, WEAPON_BY_CODE.get(code)!));

/** A firing stand's front edge, its box and its arc of fire, worked out once per unit. */
interface FiringStand {
  readonly stand: Stand;
  readonly fl: PointIn;
  readonly fr: PointIn;
  readonly edgeBox: BoundingBoxIn;
  readonly wedge?: Wedge;
}

/** Distance from a stand's front edge to the nearest point of a polygon, inches (0 in contact). */
function frontEdgeDistanceIn(s: FiringStand, polygon: readonly PointIn[]): number {
  let d = Infinity;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) d = Math.min(d, segmentToSegmentDistanceIn(s.fl, s.fr, polygon[j]!, polygon[i]!));
  if (pointInPolygon(s.fl, polygon)) d = 0;
  return d;
}

/** Largest axis gap between two boxes: never more than the distance between what they hold. */
function axisGapIn(a: BoundingBoxIn, b: BoundingBoxIn): number {
  return Math.max(b.minXIn - a.maxXIn, a.minXIn - b.maxXIn, b.minYIn - a.maxYIn, a.minYIn - b.maxYIn, 0);
}

function nearestPointOf(p: PointIn, polygon: readonly PointIn[]): PointIn {
  let best = polygon[0]!;
  let bestD = Infinity;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const q = closestPointOnSegment(p, polygon[j]!, polygon[i]!);
    const d = Math.hypot(q.xIn - p.xIn, q.yIn - p.yIn);
    if (d < bestD) {
      bestD = d;
      best = q;
    }
  }
  return best;
}

/** The arc of fire from a stand's front corners `fl`, `fr`, ± `halfDeg` about its heading. */
function arcWedge(s: Stand, fl: PointIn, fr: PointIn, halfDeg: number): Wedge {
  return { leftOrigin: fl, leftDirDeg: normalizeDeg(s.pose.headingDeg + halfDeg), rightOrigin: fr, rightDirDeg: normalizeDeg(s.pose.headingDeg - halfDeg) };
}

/** Fire points → die roll modifier (Changes 16 above 7 points, parameters at 7 or less and for +3/+4). */
export function pointsModifier(param: (id: string) => unknown, points: number, need: (id: string) => void): number | undefined {
  if (points <= 0) return undefined;
  if (points >= 25) return 5;
  if (points >= 12) {
    if (points < 13) return 2;
    const p3 = param('fire-points-plus3-at');
    if (typeof p3 !== 'number') return need('fire-points-plus3-at'), undefined;
    if (points < p3) return 2;
    if (points < 14) return 3;
    const p4 = param('fire-points-plus4-at');
    if (typeof p4 !== 'number') return need('fire-points-plus4-at'), undefined;
    return points >= p4 ? 4 : 3;
  }
  for (const g of FIRE_POINTS_GIVEN) if (points >= g.atLeast) return g.modifier;
  const v = param(firePointsParamId(points));
  if (typeof v !== 'number') return need(firePointsParamId(points)), undefined;
  return v;
}

export interface FireInputs {
  /** A unit's fresh / worn / spent, when known. */
  readonly effectiveness: (unitId: string) => Effectiveness | undefined;
}

/** The terrain of the table prepared for sight lines (no stands: a pair adds those between its units). */
export const sightTerrainQuery = query('ffr/sight-terrain', (ctx: FfrContext): SightScene => buildSightScene({ terrain: ctx.terrain(), stands: [] }));

/**
 * The sight scene for lines between two units: the terrain, and the stands of other units (and commanders)
 * in the box of both units, where every such line lies, in the state's order.
 */
function corridorScene(ctx: FfrContext, info: FfrUnitInfo, target: FfrUnitInfo): SightScene {
  const a = info.box;
  const b = target.box;
  const box = { minXIn: Math.min(a.minXIn, b.minXIn), minYIn: Math.min(a.minYIn, b.minYIn), maxXIn: Math.max(a.maxXIn, b.maxXIn), maxYIn: Math.max(a.maxYIn, b.maxYIn) };
  const stands: SightStand[] = [];
  for (const s of ctx.t.standsIn(box)) {
    // The firer's and the target's own stands never block (`ignoreUnitIds` below).
    if (s.unitId === info.unit.id || s.unitId === target.unit.id) continue;
    const corners = standCorners(s);
    stands.push({ id: s.id, unitId: s.unitId, corners, box: sightBoxOf(corners), cx: s.pose.xIn, cy: s.pose.yIn, radiusIn: Math.sqrt(s.widthIn * s.widthIn + s.depthIn * s.depthIn) / 2 });
  }
  return { ...ctx.t.get(sightTerrainQuery), stands };
}

/** What one unit fires with, worked out once before its targets. */
export interface FireSetup {
  readonly weapon: WeaponDef;
  readonly bands: readonly Band[];
  /** Bands with a range, nearest first, none beyond a band not entered. */
  readonly usable: readonly Band[];
  readonly firstMissing?: Band;
  readonly reachIn: number;
  readonly halfDeg: number | undefined;
  readonly woodsIn: number | string | boolean | undefined;
  readonly firers: readonly FiringStand[];
  readonly cannot?: readonly [string, string];
  /** The refusal of a target beyond reach by the units' boxes, after its distance (made once per unit). */
  readonly beyondText: string;
}

/**
 * The firing unit's weapon bands, arc and firing stands, with their warnings; undefined when it fires at
 * nothing (no known weapon, or no band with a range).
 */
export function fireSetup(ctx: FfrContext, info: FfrUnitInfo, sink: WarningSink): FireSetup | undefined {
  const unit = info.unit;
  const weapon = WEAPON_BY_CODE.get(unit.weapon);
  if (!weapon) {
    sink.add('fire/unknown-weapon', `${unit.name}: weapon "${unit.weapon}" is not a Regimental Fire and Fury weapon (${[...WEAPON_BY_CODE.keys()].join(', ')}); no fire evaluated.`);
    return undefined;
  }
  const bands = ctx.t.get(fireBandsQuery, weapon.code);
  const known = bands.filter((b) => b.maxIn !== undefined && b.maxIn > 0);
  const firstMissing = bands.find((b) => b.maxIn === undefined);
  // The farthest this weapon certainly reaches; a missing band beyond it leaves farther targets unknown.
  const reachIn = known.reduce((m, b) => Math.max(m, b.maxIn!), 0);
  if (firstMissing) sink.missing(ctx.spec(firstMissing.inId), `Fire range of ${weapon.label}`);
  if (known.length === 0) return undefined;
  const missingAt = firstMissing ? bands.indexOf(firstMissing) : Infinity;
  const usable = known.filter((b) => bands.indexOf(b) <= missingAt);

  const halfDeg = ctx.param(FIRE_ARC_PARAM.id);
  if (typeof halfDeg !== 'number') sink.missing(FIRE_ARC_PARAM, 'Arc of fire (targets listed with the arc unchecked)');
  const woodsIn = ctx.param(WOODS_SIGHT_PARAM.id);
  const formation = info.formation;
  const columnar = formation.id === 'march-column' || formation.id === 'field-column';
  const firers = (columnar ? info.frontRank : formation.stands).map((stand): FiringStand => {
    const [fl, fr] = cornersOf(info, stand) as [PointIn, PointIn];
    return { stand, fl, fr, edgeBox: pointsBoundingBox([fl, fr]), ...(typeof halfDeg === 'number' ? { wedge: arcWedge(stand, fl, fr, halfDeg) } : {}) };
  });
  const cannot: readonly [string, string] | undefined = formation.limbered
    ? ['fire/limbered', `limbered guns unlimber before they fire (${qrs('Gun Maneuvers, Unlimber and fire')})`]
    : ctx.statusField(unit, 'silenced') === true
      ? ['fire/silenced', `silenced guns rally with a Well Handled effect before they fire (${qrs('Gun Maneuver Changes 12')})`]
      : chargeModeFireBar(unit, chargeModeOf(ctx.statusField(unit, 'chargeMode')));
  const beyondText = firstMissing ? `more than ${reachIn}" away; ${weapon.label}'s farther bands need ${firstMissing.inId}` : `" away, beyond ${weapon.label}'s ${reachIn}"`;
  return { weapon, bands, usable, ...(firstMissing ? { firstMissing } : {}), reachIn, halfDeg: typeof halfDeg === 'number' ? halfDeg : undefined, woodsIn, firers, ...(cannot ? { cannot } : {}), beyondText };
}

/** One unit's fire at one enemy unit: the option or the refusal, and its arrow. */
export function fireAtTarget(
  ctx: FfrContext,
  inputs: FireInputs,
  setup: FireSetup,
  info: FfrUnitInfo,
  target: FfrUnitInfo,
  sink: WarningSink,
): { result: FfrFireOption | FireRefusal; shape?: Shape } {
  const unit = info.unit;
  const { weapon, firstMissing, reachIn, halfDeg, woodsIn } = setup;
  const far = fireBeyondReach(setup, info, { id: target.unit.id, box: target.box });
  if (far) return { result: far };
  if (setup.cannot) return { result: fireRefusal(target.unit.id, setup.cannot[0], setup.cannot[1]) };
  let sight: SightScene | undefined;
  type Eligible = { stand: Stand; rangeIn: number; band: Band; to: PointIn };
  const eligible: Eligible[] = [];
  let nearestIn = Infinity;
  let why: [string, string] | undefined;
  for (const s of setup.firers) {
    let rangeIn = Infinity;
    let nearestPoly = target.polygons[0]!;
    for (let k = 0; k < target.polygons.length; k++) {
      // A polygon whose box is no nearer than the best so far cannot be nearer itself.
      if (axisGapIn(s.edgeBox, target.polygonBoxes[k]!) >= rangeIn) continue;
      const poly = target.polygons[k]!;
      const d = frontEdgeDistanceIn(s, poly);
      if (d < rangeIn) {
        rangeIn = d;
        nearestPoly = poly;
      }
    }
    nearestIn = Math.min(nearestIn, rangeIn);
    const band = setup.usable.find((b) => rangeIn <= b.maxIn! + 1e-9);
    if (!band) {
      why ??= ['fire/out-of-range', `${inchesText(rangeIn)}" is beyond ${weapon.label}'s ${reachIn}"${firstMissing ? ` known bands (${firstMissing.inId} not entered)` : ''}`];
      continue;
    }
    if (s.wedge && !target.polygons.some((p) => polygonOverlapsWedge(s.wedge!, p))) {
      why ??= ['fire/out-of-arc', `no part of ${target.unit.name} is within ${halfDeg}° of straight ahead of the firing stands`];
      continue;
    }
    const from = standFrontCenter(s.stand);
    const to = nearestPointOf(from, nearestPoly);
    const report = lineOfSight((sight ??= corridorScene(ctx, info, target)), from, to, { ignoreUnitIds: [unit.id, target.unit.id] });
    if (report.stands.length > 0) {
      why ??= ['fire/no-line-of-sight', `stands of ${report.stands[0]!.unitId} are in the way`];
      continue;
    }
    if (report.elevation.maxLevelBetween > Math.max(report.elevation.fromLevel, report.elevation.toLevel)) {
      why ??= ['fire/no-line-of-sight', 'higher ground is in the way'];
      continue;
    }
    const inWoods = report.areas.filter((a) => WOODS.has(a.kind)).reduce((sum, a) => sum + a.lengthInsideIn, 0);
    if (inWoods > 1e-6) {
      if (typeof woodsIn !== 'number') sink.missing(WOODS_SIGHT_PARAM, 'Line of sight through woods (woods not checked)');
      else if (inWoods > woodsIn + 1e-9) {
        why ??= ['fire/no-line-of-sight', `${inchesText(inWoods)}" of woods in the way (sight ${woodsIn}")`];
        continue;
      }
    }
    eligible.push({ stand: s.stand, rangeIn, band, to });
  }
  // Silenced gun stands do not fire (Figure 3: "1 gun stand silenced"; Gun Maneuver Changes 12). Which stands
  // are silenced is the owner's to mark; reading: the farthest from this target are left out.
  const silencedStands = unit.arm === 'artillery' ? ctx.statusField(unit, 'silencedGunStands') : undefined;
  if (typeof silencedStands === 'number' && silencedStands > 0 && eligible.length > 0) {
    const farthest = [...eligible].sort((a, b) => b.rangeIn - a.rangeIn || (a.stand.id < b.stand.id ? -1 : 1));
    const drop = new Set(farthest.slice(0, silencedStands).map((e) => e.stand.id));
    const kept = eligible.filter((e) => !drop.has(e.stand.id));
    if (kept.length === 0) return { result: fireRefusal(target.unit.id, 'fire/silenced', `${silencedStands} gun stand${silencedStands === 1 ? ' is' : 's are'} silenced (${qrs('Figure 3, Effects; Gun Maneuver Changes 12')})`) };
    eligible.length = 0;
    eligible.push(...kept);
  }
  if (eligible.length === 0) {
    const [reason, detail] = why ?? ['fire/out-of-range', `${inchesText(nearestIn)}" is beyond ${weapon.label}'s ${reachIn}"`];
    return { result: fireRefusal(target.unit.id, firstMissing && reason === 'fire/out-of-range' ? 'fire/range-unknown' : reason, detail) };
  }
  const result = fireOption(ctx, inputs, info, target, weapon, eligible, sink);
  const closest = eligible.reduce((a, b) => (b.rangeIn < a.rangeIn ? b : a));
  const shape: Shape = {
    kind: 'polyline',
    id: `fire/${unit.id}/${target.unit.id}`,
    layer: 'fire',
    style: 'target',
    unitId: unit.id,
    side: unit.side,
    points: [standFrontCenter(closest.stand), closest.to],
    arrow: true,
  };
  return { result, shape };
}

/**
 * The refusal of a target whose box is farther from the firer's than the weapon reaches (most enemies on a
 * big table), else undefined: the first test of `fireAtTarget`, and the whole answer for those targets.
 */
export function fireBeyondReach(setup: FireSetup, info: FfrUnitInfo, target: UnitBox): FireRefusal | undefined {
  const gapIn = axisGapIn(info.box, target.box);
  if (gapIn <= setup.reachIn) return undefined;
  return setup.firstMissing
    ? fireRefusal(target.id, 'fire/range-unknown', setup.beyondText)
    : fireRefusal(target.id, 'fire/out-of-range', 'more than ' + inchesText(gapIn) + setup.beyondText);
}

// Module level, not a closure per pair: the dev loader names every inner function, at a cost per call.
function fireRefusal(targetId: string, reason: string, detail: string): FireRefusal {
  return { ok: false, reason, detail, targetUnitId: targetId };
}

/** The unit's arc of fire out to its weapon's reach (when the arc is known). */
export function fireArcShape(info: FfrUnitInfo, setup: FireSetup): Shape | undefined {
  const { halfDeg, reachIn } = setup;
  const { unit, formation } = info;
  if (halfDeg === undefined || formation.stands.length === 0) return undefined;
  const front = info.frontRank;
  const [fl] = cornersOf(info, front[0]!);
  const [, fr] = cornersOf(info, front[front.length - 1]!);
  return {
    kind: 'polygon',
    id: `fire/${unit.id}/arc`,
    layer: 'fire',
    style: unit.arm === 'artillery' ? 'arc-artillery' : 'arc',
    unitId: unit.id,
    side: unit.side,
    vertices: wedgePolygon({ leftOrigin: fl!, leftDirDeg: normalizeDeg(formation.headingDeg + halfDeg), rightOrigin: fr!, rightDirDeg: normalizeDeg(formation.headingDeg - halfDeg) }, reachIn),
  };
}

function fireOption(
  ctx: FfrContext,
  inputs: FireInputs,
  info: FfrUnitInfo,
  target: FfrUnitInfo,
  weapon: WeaponDef,
  eligible: readonly { stand: Stand; rangeIn: number; band: Band }[],
  sink: WarningSink,
): FfrFireOption {
  const unit = info.unit;
  const missing = new Set<string>();
  const need = (id: string, why: string) => {
    missing.add(id);
    sink.missing(ctx.spec(id), why);
  };
  // Fire points, grouped by band.
  const pointMods: DiceModifier[] = [];
  let raw = 0;
  for (const band of new Set(eligible.map((e) => e.band))) {
    const n = eligible.filter((e) => e.band === band).length;
    if (band.points === undefined) {
      need(band.pointsId, `Fire points of ${weapon.label}`);
      continue;
    }
    raw += n * band.points;
    pointMods.push({ label: `${n} stand${n === 1 ? '' : 's'} ${weapon.code} at ${band.name} range (to ${band.maxIn}"), ${band.points} each`, dice: n * band.points, source: band.points === undefined ? '' : pointsSource(weapon, band) });
  }
  const total = Math.floor(raw + 1e-9);
  const firePoints: DiceBreakdown = {
    kind: 'points',
    baseDice: 0,
    modifiers: pointMods,
    dice: total,
    limits: total !== raw ? [{ label: 'Round fractions down', dice: total - raw, source: FIRE_POINTS_SOURCE }] : [],
  };

  const mods: DiceModifier[] = [];
  const pm = pointsModifier((id) => ctx.param(id), total, (id) => need(id, 'Fire die modifier from fire points'));
  if (pm !== undefined) mods.push({ label: `${total} fire point${total === 1 ? '' : 's'}`, dice: pm, source: pm !== undefined && total >= 8 ? FIRE_POINTS_SOURCE : 'Regimental Fire and Fury rulebook, Musketry & Cannonade Table (parameter)' });
  // Every firing stand is of this one unit, so "half or more of the fire points" is the whole unit's rating.
  if (unit.quality === 'green') mods.push({ label: FIRE_MODIFIERS.green.label, dice: FIRE_MODIFIERS.green.value, source: FIRE_MODIFIERS.green.source });
  if (unit.sharpshooters) mods.push({ label: FIRE_MODIFIERS.sharpshooters.label, dice: FIRE_MODIFIERS.sharpshooters.value, source: FIRE_MODIFIERS.sharpshooters.source });
  const abatis = ctx.terrain().linear.filter((l) => l.kind === 'abatis');
  const crossing = abatis.some((l) => target.polygons.some((poly) => l.points.some((_, k) => k + 1 < l.points.length && crossesPolygon(l.points[k]!, l.points[k + 1]!, poly))));
  if (crossing) mods.push({ label: FIRE_MODIFIERS.abatis.label, dice: FIRE_MODIFIERS.abatis.value, source: FIRE_MODIFIERS.abatis.source });
  const basic = (key: keyof typeof BASIC_FIRE_MODIFIER_PARAMS, holds: boolean) => {
    if (!holds) return;
    const spec = BASIC_FIRE_MODIFIER_PARAMS[key];
    const v = ctx.param(spec.id);
    if (typeof v !== 'number') return need(spec.id, spec.label);
    mods.push({ label: spec.label.replace('Fire die modifier: ', ''), dice: v, source: `${ctx.spec(spec.id).source} (parameter)` });
  };
  const eff = inputs.effectiveness(unit.id);
  basic('firerDisordered', unit.status?.disordered === true);
  basic('firerWorn', eff === 'worn');
  basic('firerSpent', eff === 'spent');
  const cover = ctx.statusField(target.unit, 'cover');
  basic('targetPartialCover', cover === 'partial');
  basic('targetFullCover', cover === 'full');
  const dieModifier = mods.reduce((s, m) => s + m.dice, 0);

  const effects: FireEffectNeed[] = [];
  for (const effect of FIRE_EFFECTS) {
    const id = fireEffectParamId(target.unit.quality, effect);
    const at = ctx.param(id);
    if (typeof at !== 'number') {
      need(id, `Fire effects against ${target.unit.quality} targets (Figure 3)`);
      continue;
    }
    const die = at - dieModifier;
    effects.push({ effect, modifiedAtLeast: at, dieAtLeast: die > FIRE_DIE_SIDES ? null : Math.max(1, die) });
  }

  const closest = eligible.reduce((a, b) => (b.rangeIn < a.rangeIn ? b : a));
  return {
    ok: true,
    targetUnitId: target.unit.id,
    eligibleStandIds: eligible.map((e) => e.stand.id),
    rangeIn: closest.rangeIn,
    band: `${closest.band.name} ${closest.band.maxIn}"`,
    breakdown: { kind: 'modifier', baseDice: 0, modifiers: mods, dice: dieModifier, limits: [] },
    priority: false,
    firePoints,
    effects,
    massedBehindUnitIds: massedBehind(ctx, target),
    ...fallenLeader(ctx, target),
    missingParameters: [...missing].sort(),
  };
}

function pointsSource(weapon: WeaponDef, band: Band): string {
  const owner = weapon.sameAs ? WEAPON_BY_CODE.get(weapon.sameAs)! : weapon;
  const given = owner.given?.[`${band.name}-points`];
  return given ? given.source : `Regimental Fire and Fury rulebook, Weapons (parameter ${band.pointsId})`;
}

function crossesPolygon(a: PointIn, b: PointIn, poly: readonly PointIn[]): boolean {
  return segmentTouchesPolygonBoundary(a, b, poly) || pointInPolygon(a, poly);
}

/** The closest leader of the target's side within 4" of it (Figure 3, Fallen Leader). */
function fallenLeader(ctx: FfrContext, target: FfrUnitInfo): { fallenLeaderCheckId?: string } {
  let best: { id: string; d: number } | undefined;
  // Only a leader's stand within 4" of the target's box can be within 4" of the target.
  const within = FALLEN_LEADER_WITHIN_IN + 1e-6;
  const near = { minXIn: target.box.minXIn - within, minYIn: target.box.minYIn - within, maxXIn: target.box.maxXIn + within, maxYIn: target.box.maxYIn + within };
  for (const { commanders, stand } of ctx.commanderStandsIn(near)) {
    const polygon = standPolygon(stand);
    const box = pointsBoundingBox(polygon);
    if (axisGapIn(box, target.box) > FALLEN_LEADER_WITHIN_IN + 1e-9) continue;
    for (const c of commanders) {
      if (c.side !== target.unit.side) continue;
      let d = Infinity;
      for (let k = 0; k < target.polygons.length; k++) {
        if (axisGapIn(box, target.polygonBoxes[k]!) > FALLEN_LEADER_WITHIN_IN + 1e-9) continue;
        d = Math.min(d, polygonToPolygonDistanceIn(polygon, target.polygons[k]!));
      }
      if (d <= FALLEN_LEADER_WITHIN_IN + 1e-9 && (!best || d < best.d || (d === best.d && c.id < best.id))) best = { id: c.id, d };
    }
  }
  return best ? { fallenLeaderCheckId: best.id } : {};
}

/**
 * Where a stand of the target's friends must have a corner to count as massed behind it (see
 * `massedBehind`): up to 2" behind its rear, across its frontage widened by 2" each way, as a box.
 */
function massedLookBox(target: FfrUnitInfo): BoundingBoxIn {
  const f = headingToVector(target.formation.headingDeg);
  // Along the facing a = p·f, across it l = p·(f.y, -f.x); back to the table: p = a f + l (f.y, -f.x).
  let rear = Infinity;
  let minL = Infinity;
  let maxL = -Infinity;
  for (const poly of target.polygons) {
    for (const p of poly) {
      rear = Math.min(rear, p.xIn * f.x + p.yIn * f.y);
      const l = p.xIn * f.y - p.yIn * f.x;
      minL = Math.min(minL, l);
      maxL = Math.max(maxL, l);
    }
  }
  const corners: PointIn[] = [];
  for (const a of [rear - MASSED_TARGET_BEHIND_IN, rear]) {
    for (const l of [minL - MASSED_TARGET_BEHIND_IN, maxL + MASSED_TARGET_BEHIND_IN]) corners.push({ xIn: a * f.x + l * f.y, yIn: a * f.y - l * f.x });
  }
  const box = pointsBoundingBox(corners);
  // Rounding slack: the test below compares with 1e-9 to spare.
  return { minXIn: box.minXIn - 1e-6, minYIn: box.minYIn - 1e-6, maxXIn: box.maxXIn + 1e-6, maxYIn: box.maxYIn + 1e-6 };
}

/** Units of the target's side with a stand within 2" behind the target's rear (Figure 3, Massed Target). */
function massedBehind(ctx: FfrContext, target: FfrUnitInfo): string[] {
  const f = headingToVector(target.formation.headingDeg);
  let rear = Infinity;
  for (const poly of target.polygons) for (const p of poly) rear = Math.min(rear, p.xIn * f.x + p.yIn * f.y);
  const look = massedLookBox(target);
  const out: string[] = [];
  // Only a unit with a stand in the look box can have a corner there.
  const seen = new Set<string>();
  for (const { info: other } of ctx.unitStandsIn(look, target.unit.side, false)) {
    if (seen.has(other.unit.id)) continue;
    seen.add(other.unit.id);
    if (other.unit.id === target.unit.id || axisGapIn(look, other.box) > 0) continue;
    const behind = other.polygons.some((poly) =>
      poly.some((p) => {
        const along = p.xIn * f.x + p.yIn * f.y;
        if (along > rear + 1e-9 || along < rear - MASSED_TARGET_BEHIND_IN) return false;
        // Within the target's frontage, widened by 2".
        return target.polygons.some((tp) => tp.some((q) => Math.abs((p.xIn - q.xIn) * f.y - (p.yIn - q.yIn) * f.x) <= MASSED_TARGET_BEHIND_IN));
      }),
    );
    if (behind) out.push(other.unit.id);
  }
  return out.sort();
}
