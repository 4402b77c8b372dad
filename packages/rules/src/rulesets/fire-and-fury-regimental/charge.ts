/**
 * Charges (QRS II, Figure 4 Charge Table; Player Turn Sequence). A unit that rolls a Double Quick or Well
 * Handled effect may charge an enemy it can reach at its rate over the slowest ground on the way (Road
 * Movement's slowest-rate rule), straight ahead of its front, not through other enemy units. Each side's
 * Charge Table modifiers are listed; the charge is resolved on the difference of the two modified d10 rolls
 * (`netModifier` is the part of that difference the modifiers fix).
 */
import type { ChargeRefusal, ChargeTargetOption, DiceBreakdown, DiceModifier } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { PointIn } from '../../model/units.ts';
import { standFrontCenter } from '../../geometry/footprint.ts';
import { closestPointOnSegment, segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { pointInPolygon, segmentTouchesPolygonBoundary } from '../../geometry/intersect.ts';
import { cornersOf, type FfrContext, type FfrUnitInfo, type UnitBox } from './context.ts';
import type { Effectiveness } from './morale.ts';
import { enemyStandsNearQuery, movementRowFor, reachPolygon } from './movement.ts';
import { chargeSectorsFor } from './reachSectors.ts';
import { MOVEMENT_RATES, type MovementRow } from './tables/movementRates.ts';
import { pointsBoundingBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { CHARGE_BANDS, CHARGE_BANDS_SOURCE, CHARGE_DIE_SIDES, CHARGE_EFFECTIVENESS_MODIFIER, CHARGE_MODIFIERS, CHARGE_QUALITY_MODIFIER, OUTNUMBERED_MODIFIERS } from './tables/chargeTable.ts';
import { classRank, type TerrainClass } from './tables/terrainClasses.ts';
import { qrs } from './tables/source.ts';
import { EXTENDED_LINE_COUNT_SOURCE, chargedStandsCounted, troopStandCount } from './outnumbering.ts';
import { chargeModeModifier, chargeModeOf, chargeRateFactor, type ChargeMode } from './chargeMode.ts';
import { inchesText } from './inchesText.ts';

export interface FfrChargeOption extends ChargeTargetOption {
  /** Attacker's modifiers minus the defender's: add the attacker's d10 and subtract the defender's. */
  readonly netModifier: number;
  /** Rate the charge moves at and the slowest ground on the way. */
  readonly rateIn: number;
  readonly ground: TerrainClass;
  readonly resultSource: string;
  /**
   * Chance of each Charge Table result for the attacker's d10 + modifiers minus the defender's (all 100 die
   * pairs; a Desperate Struggle is rolled again with changed modifiers, so it is reported as itself).
   */
  readonly outcomes: readonly { readonly effect: string; readonly chance: number }[];
}

/** Chances of each result band for a net modifier difference, over the 100 pairs of d10 rolls. */
export function chargeOutcomes(netModifier: number): { effect: string; chance: number }[] {
  const counts = new Map<string, number>(CHARGE_BANDS.map((b) => [b.effect, 0]));
  for (let a = 1; a <= CHARGE_DIE_SIDES; a++) {
    for (let d = 1; d <= CHARGE_DIE_SIDES; d++) {
      const diff = a - d + netModifier;
      const band = CHARGE_BANDS.find((b) => diff >= b.min)!;
      counts.set(band.effect, counts.get(band.effect)! + 1);
    }
  }
  return CHARGE_BANDS.map((b) => ({ effect: b.effect, chance: counts.get(b.effect)! / (CHARGE_DIE_SIDES * CHARGE_DIE_SIDES) }));
}

/** What the charge reads of either side beyond its own facts. */
export interface SideFacts {
  /** Whether a leader is attached to the unit (its command). */
  readonly attachedLeader: (unitId: string) => boolean;
  readonly effectiveness: (unitId: string) => Effectiveness | undefined;
}


function mod(m: { label: string; value: number; source: string }, label = m.label): DiceModifier {
  return { label, dice: m.value, source: m.source };
}

/**
 * Modifiers every side has: rating, effectiveness, formation, disorder, leader, outnumbered. `charged` is
 * how many of the charged unit's stands count (outnumbering.ts) and which side it is.
 */
function sideModifiers(ctx: FfrContext, facts: SideFacts, me: FfrUnitInfo, them: FfrUnitInfo, charged: { counted: number; partial: boolean; isMe: boolean }): DiceModifier[] {
  const unit = me.unit;
  const out: DiceModifier[] = [];
  out.push({ label: `${unit.quality[0]!.toUpperCase()}${unit.quality.slice(1)} unit`, dice: CHARGE_QUALITY_MODIFIER[unit.quality], source: CHARGE_QUALITY_MODIFIER.source });
  const eff = facts.effectiveness(unit.id);
  if (eff) out.push({ label: `${eff[0]!.toUpperCase()}${eff.slice(1)} troops`, dice: CHARGE_EFFECTIVENESS_MODIFIER[eff], source: CHARGE_EFFECTIVENESS_MODIFIER.source });
  const f = me.formation;
  if (f.id === 'extended-line') out.push(mod(CHARGE_MODIFIERS.extendedLine));
  if (f.id === 'broken' || f.id === 'march-column' || f.limbered || ctx.statusField(unit, 'outflanked') === true) out.push(mod(CHARGE_MODIFIERS.outflankedBrokenMarchColumnOrLimbered));
  if (unit.status?.disordered === true || ctx.statusField(unit, 'silenced') === true) out.push(mod(CHARGE_MODIFIERS.disorderedOrSilenced));
  if (facts.attachedLeader(unit.id) || ctx.unitField(unit, 'braveColonel') === true) out.push(mod(CHARGE_MODIFIERS.attachedLeaderOrBraveColonel));
  const mine = charged.isMe ? charged.counted : troopStandCount(me);
  const theirs = charged.isMe ? troopStandCount(them) : charged.counted;
  const outnumbered = OUTNUMBERED_MODIFIERS.find((o) => theirs >= o.ratio * mine);
  if (outnumbered) {
    const why = charged.partial ? `; the extended line with intervals counts only its ${charged.counted} stand${charged.counted === 1 ? '' : 's'} in the path of the charge` : '';
    out.push({ label: `${outnumbered.label} (${theirs} stands to ${mine}${why})`, dice: outnumbered.value, source: charged.partial ? `${qrs('Figure 4, Charge Table, Die Roll Modifiers')}; ${EXTENDED_LINE_COUNT_SOURCE}` : qrs('Figure 4, Charge Table, Die Roll Modifiers') });
  }
  return out;
}

function breakdown(mods: DiceModifier[]): DiceBreakdown {
  return { kind: 'modifier', baseDice: 0, modifiers: mods, dice: mods.reduce((s, m) => s + m.dice, 0), limits: [] };
}

function nearestOn(p: PointIn, poly: readonly PointIn[]): PointIn {
  let best = poly[0]!;
  let d = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const q = closestPointOnSegment(p, poly[j]!, poly[i]!);
    const dq = Math.hypot(q.xIn - p.xIn, q.yIn - p.yIn);
    if (dq < d) {
      d = dq;
      best = q;
    }
  }
  return best;
}

/** What one unit charges with, worked out once before its targets; a refusal when it cannot charge at all. */
export type ChargeSetup =
  | { readonly refusal: readonly [string, string] }
  | {
      readonly refusal?: undefined;
      readonly row: MovementRow;
      readonly rates: Readonly<Record<'open' | 'broken' | 'rough', number>>;
      readonly maxRateIn: number;
      readonly heading: { readonly x: number; readonly y: number };
      readonly frontAlong: number;
      readonly fronts: readonly { readonly fl: PointIn; readonly fr: PointIn; readonly centre: PointIn; readonly box: BoundingBoxIn }[];
      /** Where the charge reach is drawn from: the middle stand of the front rank. */
      readonly origin: PointIn;
      readonly mounted: boolean;
      /** Declared cold steel or breakthrough charge (`status.rulesetStatus.chargeMode`). */
      readonly mode: ChargeMode;
      /** The refusal of a target beyond reach by the units' boxes, after its distance (made once per unit). */
      readonly beyondText: string;
    };

export function chargeSetup(info: FfrUnitInfo): ChargeSetup {
  const unit = info.unit;
  if (unit.arm === 'artillery') return { refusal: ['charge/guns', 'Guns do not charge; they defend with the Charge Table modifiers for guns.'] };
  if (info.formation.id === 'broken') return { refusal: ['charge/broken', 'A broken unit must rally before it can charge.'] };
  const choice = movementRowFor(info);
  if ('ok' in choice) return { refusal: ['charge/cannot-move', choice.detail ?? choice.reason] };
  if (choice.kind !== 'row') return { refusal: ['charge/cannot-move', 'This unit cannot move to charge.'] };
  const row = MOVEMENT_RATES[choice.id];
  const mode = chargeModeOf(unit.status?.rulesetStatus?.['chargeMode']);
  // A breakthrough charge is "a half-move at the double quick rate" (Charge Table Changes 22).
  const factor = chargeRateFactor(mode);
  const rates = { open: (row.open.doubleQuick ?? row.open.full) * factor, broken: (row.broken.doubleQuick ?? row.broken.full) * factor, rough: (row.rough.doubleQuick ?? row.rough.full) * factor };
  const f = info.formation;
  const front = info.frontRank;
  const h = headingToVector(f.headingDeg);
  let frontAlong = -Infinity;
  for (const s of front) {
    const c = cornersOf(info, s);
    frontAlong = Math.max(frontAlong, c[0]!.xIn * h.x + c[0]!.yIn * h.y, c[1]!.xIn * h.x + c[1]!.yIn * h.y);
  }
  const fronts = front.map((s) => {
    const [fl, fr] = cornersOf(info, s);
    return { fl: fl!, fr: fr!, centre: standFrontCenter(s), box: pointsBoundingBox([fl!, fr!]) };
  });
  const maxRateIn = Math.max(rates.open, rates.broken, rates.rough);
  return {
    row,
    rates,
    maxRateIn,
    heading: h,
    frontAlong,
    fronts,
    origin: standFrontCenter(front[Math.floor((front.length - 1) / 2)]!),
    mounted: unit.arm === 'cavalry' && !f.dismounted,
    mode,
    beyondText: `" away; ${row.label} moves at most ${maxRateIn}" (${row.source})`,
  };
}

function axisGapIn(a: BoundingBoxIn, b: BoundingBoxIn): number {
  return Math.max(b.minXIn - a.maxXIn, a.minXIn - b.maxXIn, b.minYIn - a.maxYIn, a.minYIn - b.maxYIn, 0);
}

/** One unit's charge at one enemy: the option or refusal, and its arrow. */
export function chargeAtTarget(
  ctx: FfrContext,
  facts: SideFacts,
  setup: ChargeSetup,
  info: FfrUnitInfo,
  target: FfrUnitInfo,
): { result: FfrChargeOption | ChargeRefusal; shape?: Shape } {
  const unit = info.unit;
  const far = chargeBeyondReach(setup, info, { id: target.unit.id, box: target.box });
  // A unit that cannot charge at all is refused there too (`far` is set whenever `setup.refusal` is).
  if (far || setup.refusal) return { result: far! };
  const { row, rates, fronts } = setup;
  if (fronts.length === 0) return { result: chargeRefusal(target.unit.id, 'charge/out-of-reach', 'no front rank') };
  let bestD = Infinity;
  let bestFront = fronts[0]!;
  let bestPoly = target.polygons[0]!;
  for (const f of fronts) {
    for (let k = 0; k < target.polygons.length; k++) {
      // A polygon whose box is no nearer than the best so far cannot be nearer itself.
      if (axisGapIn(f.box, target.polygonBoxes[k]!) >= bestD) continue;
      const poly = target.polygons[k]!;
      for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
        const d = segmentToSegmentDistanceIn(f.fl, f.fr, poly[j]!, poly[i]!);
        if (d < bestD) {
          bestD = d;
          bestFront = f;
          bestPoly = poly;
        }
      }
    }
  }
  const best = { from: bestFront.centre, to: nearestOn(bestFront.centre, bestPoly), d: bestD };
  const h = setup.heading;
  const ahead = target.polygons.some((poly) => poly.some((p) => p.xIn * h.x + p.yIn * h.y >= setup.frontAlong - 1e-6));
  if (!ahead) return { result: chargeRefusal(target.unit.id, 'charge/not-ahead', `${target.unit.name} is not in front of the charging unit's front line`) };
  // Slowest ground on the straight path.
  let ground: TerrainClass = ctx.classAt(best.from);
  const disorderedBy: string[] = [];
  for (const a of ctx.areas()) {
    if (a.cls === 'open') continue;
    if (segmentTouchesPolygonBoundary(best.from, best.to, a.vertices) || pointInPolygon(best.from, a.vertices) || pointInPolygon(best.to, a.vertices)) {
      if (classRank(a.cls) > classRank(ground)) ground = a.cls;
      if (a.cls === 'broken' || a.cls === 'rough') disorderedBy.push(`${a.kind} ${a.id}`);
    }
  }
  if (ground === 'impassable') return { result: chargeRefusal(target.unit.id, 'charge/impassable', 'impassable ground lies on the way') };
  const pathBox = pointsBoundingBox([best.from, best.to]);
  const blocker = pathBlocker(ctx, unit.side, target, best.from, best.to, pathBox);
  if (blocker) return { result: chargeRefusal(target.unit.id, 'charge/path-blocked', `${blocker.unit.name} stands in the way; a charge does not pass through an enemy unit`) };
  const rateIn = rates[ground];
  if (best.d > rateIn + 1e-9) {
    return { result: chargeRefusal(target.unit.id, 'charge/out-of-reach', `${inchesText(best.d)}" away; ${row.label} moves at most ${rateIn}" over ${ground} ground (${row.source})`) };
  }
  const charged = chargedStandsCounted(target, { left: fronts[0]!.fl, right: fronts[fronts.length - 1]!.fr }, setup.heading);
  const att = sideModifiers(ctx, facts, info, target, { ...charged, isMe: false });
  if (setup.mounted) {
    const m = ctx.unitField(unit, 'mountedInfantry') === true || ground === 'rough'
      ? CHARGE_MODIFIERS.cavalryChargeNone
      : ground === 'broken'
        ? CHARGE_MODIFIERS.cavalryChargeBroken
        : CHARGE_MODIFIERS.cavalryChargeOpen;
    att.push(mod(m));
  }
  const declared = chargeModeModifier(unit, setup.mode);
  if (declared.modifier) att.push(declared.modifier);
  // A declaration the unit may not make is shown at 0 with the reason, not silently dropped.
  if (declared.problem) att.push({ label: declared.problem, dice: 0, source: CHARGE_MODIFIERS.coldSteelOrBreakthrough.source });
  const def = sideModifiers(ctx, facts, target, info, { ...charged, isMe: true });
  const position = ctx.statusField(target.unit, 'position');
  if (position === 'favorable') def.push(mod(CHARGE_MODIFIERS.defendingFavorableGround));
  if (position === 'strong') def.push(mod(CHARGE_MODIFIERS.strongPositionOrFortified));
  if (target.unit.arm === 'artillery') def.push(mod(ctx.statusField(target.unit, 'supported') === true ? CHARGE_MODIFIERS.supportedGuns : CHARGE_MODIFIERS.unsupportedGuns));
  const attacker = breakdown(att);
  const defender = breakdown(def);
  disorderedBy.sort();
  const result: FfrChargeOption = {
    ok: true,
    targetUnitId: target.unit.id,
    distanceIn: best.d,
    attacker,
    defender,
    disorderedBy,
    enemyFlanked: ctx.statusField(target.unit, 'outflanked') === true,
    netModifier: attacker.dice - defender.dice,
    rateIn,
    ground,
    resultSource: CHARGE_BANDS_SOURCE,
    outcomes: chargeOutcomes(attacker.dice - defender.dice),
  };
  const shape: Shape = { kind: 'polyline', id: `charge/${unit.id}/${target.unit.id}`, layer: 'charge', style: 'charge', unitId: unit.id, side: unit.side, points: [best.from, best.to], arrow: true };
  return { result, shape };
}

/**
 * The first enemy unit (in id order) other than the target with a stand across the straight way from `from`
 * to `to` (whose box is `pathBox`), if any: only one with a stand near that box can be.
 */
function pathBlocker(ctx: FfrContext, side: string, target: FfrUnitInfo, from: PointIn, to: PointIn, pathBox: BoundingBoxIn): FfrUnitInfo | undefined {
  const m = 1e-5;
  const near = ctx.unitStandsIn({ minXIn: pathBox.minXIn - m, minYIn: pathBox.minYIn - m, maxXIn: pathBox.maxXIn + m, maxYIn: pathBox.maxYIn + m }, side, true);
  if (near.length === 0) return undefined;
  const units = [...new Set(near.map((r) => r.info))].sort((a, b) => (a.unit.id < b.unit.id ? -1 : 1));
  return units.find(
    (o) => o.unit.id !== target.unit.id && axisGapIn(o.box, pathBox) <= 1e-6 && o.polygons.some((poly, k) => axisGapIn(o.polygonBoxes[k]!, pathBox) <= 1e-6 && segmentTouchesPolygonBoundary(from, to, poly)),
  );
}

/**
 * The refusal of a charge the unit cannot make at all, or of a target whose box is farther from the unit's
 * than its fastest rate, else undefined: the first tests of `chargeAtTarget`, and the whole answer for those.
 */
export function chargeBeyondReach(setup: ChargeSetup, info: FfrUnitInfo, target: UnitBox): ChargeRefusal | undefined {
  if (setup.refusal) return chargeRefusal(target.id, setup.refusal[0], setup.refusal[1]);
  const gapIn = axisGapIn(info.box, target.box);
  if (gapIn <= setup.maxRateIn) return undefined;
  return chargeRefusal(target.id, 'charge/out-of-reach', 'more than ' + inchesText(gapIn) + setup.beyondText);
}

// Module level, not a closure per pair: the dev loader names every inner function, at a cost per call.
function chargeRefusal(targetId: string, reason: string, detail: string): ChargeRefusal {
  return { ok: false, reason, detail, targetUnitId: targetId };
}

/**
 * The charge reach drawn when some charge is possible: the straight moves at the charge rates within 45° of
 * the front ("A charging unit may oblique only at the beginning of its charge", Oblique).
 */
export function chargeReachShape(ctx: FfrContext, info: FfrUnitInfo, setup: ChargeSetup): Shape | undefined {
  if (setup.refusal) return undefined;
  const unit = info.unit;
  const vertices = reachPolygon(ctx, ctx.t.get(enemyStandsNearQuery, unit.id), setup.origin, setup.rates, chargeSectorsFor(info));
  return { kind: 'polygon', id: `charge/${unit.id}/reach`, layer: 'charge', style: 'charge', unitId: unit.id, side: unit.side, vertices };
}
