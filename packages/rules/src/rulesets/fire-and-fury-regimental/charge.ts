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
import { standCorners, standFrontCenter } from '../../geometry/footprint.ts';
import { closestPointOnSegment, segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import { frontRankStands } from '../../geometry/frontLine.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { pointInPolygon, segmentTouchesPolygonBoundary } from '../../geometry/intersect.ts';
import type { FfrContext, FfrUnitInfo } from './context.ts';
import type { UnitCommand } from './command.ts';
import type { Effectiveness } from './morale.ts';
import { movementRowFor, reachPolygon } from './movement.ts';
import { MOVEMENT_RATES } from './tables/movementRates.ts';
import { CHARGE_BANDS, CHARGE_BANDS_SOURCE, CHARGE_DIE_SIDES, CHARGE_EFFECTIVENESS_MODIFIER, CHARGE_MODIFIERS, CHARGE_QUALITY_MODIFIER, OUTNUMBERED_MODIFIERS } from './tables/chargeTable.ts';
import { classRank, type TerrainClass } from './tables/terrainClasses.ts';
import { qrs } from './tables/source.ts';

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

export interface SideFacts {
  readonly command: ReadonlyMap<string, UnitCommand>;
  readonly effectiveness: ReadonlyMap<string, Effectiveness | undefined>;
}

function troopStands(info: FfrUnitInfo): number {
  return info.stands.filter((s) => s.role !== 'limber' && s.role !== 'commander').length;
}

function mod(m: { label: string; value: number; source: string }, label = m.label): DiceModifier {
  return { label, dice: m.value, source: m.source };
}

/** Modifiers every side has: rating, effectiveness, formation, disorder, leader, outnumbered. */
function sideModifiers(ctx: FfrContext, facts: SideFacts, me: FfrUnitInfo, them: FfrUnitInfo): DiceModifier[] {
  const unit = me.unit;
  const out: DiceModifier[] = [];
  out.push({ label: `${unit.quality[0]!.toUpperCase()}${unit.quality.slice(1)} unit`, dice: CHARGE_QUALITY_MODIFIER[unit.quality], source: CHARGE_QUALITY_MODIFIER.source });
  const eff = facts.effectiveness.get(unit.id);
  if (eff) out.push({ label: `${eff[0]!.toUpperCase()}${eff.slice(1)} troops`, dice: CHARGE_EFFECTIVENESS_MODIFIER[eff], source: CHARGE_EFFECTIVENESS_MODIFIER.source });
  const f = me.formation;
  if (f.id === 'extended-line') out.push(mod(CHARGE_MODIFIERS.extendedLine));
  if (f.id === 'broken' || f.id === 'march-column' || f.limbered || ctx.statusField(unit, 'outflanked') === true) out.push(mod(CHARGE_MODIFIERS.outflankedBrokenMarchColumnOrLimbered));
  if (unit.status?.disordered === true || ctx.statusField(unit, 'silenced') === true) out.push(mod(CHARGE_MODIFIERS.disorderedOrSilenced));
  if (facts.command.get(unit.id)?.attachedLeader || ctx.unitField(unit, 'braveColonel') === true) out.push(mod(CHARGE_MODIFIERS.attachedLeaderOrBraveColonel));
  const mine = troopStands(me);
  const theirs = troopStands(them);
  const outnumbered = OUTNUMBERED_MODIFIERS.find((o) => theirs >= o.ratio * mine);
  if (outnumbered) out.push({ label: `${outnumbered.label} (${theirs} stands to ${mine})`, dice: outnumbered.value, source: qrs('Figure 4, Charge Table, Die Roll Modifiers') });
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

export function evaluateCharge(ctx: FfrContext, facts: SideFacts, info: FfrUnitInfo): { charge: (FfrChargeOption | ChargeRefusal)[]; shapes: Shape[] } {
  const unit = info.unit;
  const enemies = [...ctx.units.values()].filter((t) => t.unit.side !== unit.side).sort((a, b) => (a.unit.id < b.unit.id ? -1 : 1));
  const refuseAll = (reason: string, detail: string) => ({ charge: enemies.map((t): ChargeRefusal => ({ ok: false, reason, detail, targetUnitId: t.unit.id })), shapes: [] });
  if (unit.arm === 'artillery') return refuseAll('charge/guns', 'Guns do not charge; they defend with the Charge Table modifiers for guns.');
  if (info.formation.id === 'broken') return refuseAll('charge/broken', 'A broken unit must rally before it can charge.');
  const choice = movementRowFor(info);
  if ('ok' in choice) return refuseAll('charge/cannot-move', choice.detail ?? choice.reason);
  if (choice.kind !== 'row') return refuseAll('charge/cannot-move', 'This unit cannot move to charge.');
  const row = MOVEMENT_RATES[choice.id];
  const rateOf = (g: TerrainClass): number => {
    const cell = row[g === 'impassable' ? 'rough' : g];
    return cell.doubleQuick ?? cell.full;
  };
  const f = info.formation;
  const front = frontRankStands(f.stands, f.headingDeg);
  const h = headingToVector(f.headingDeg);
  let frontAlong = -Infinity;
  for (const s of front) for (const c of standCorners(s).slice(0, 2)) frontAlong = Math.max(frontAlong, c.xIn * h.x + c.yIn * h.y);
  const mounted = unit.arm === 'cavalry' && !f.dismounted;
  const charge: (FfrChargeOption | ChargeRefusal)[] = [];
  const shapes: Shape[] = [];
  const maxRateIn = Math.max(rateOf('open'), rateOf('broken'), rateOf('rough'));
  const fronts = front.map((s) => {
    const [fl, fr] = standCorners(s);
    return { fl: fl!, fr: fr!, centre: standFrontCenter(s) };
  });
  for (const target of enemies) {
    const gapIn = Math.max(target.box.minXIn - info.box.maxXIn, info.box.minXIn - target.box.maxXIn, target.box.minYIn - info.box.maxYIn, info.box.minYIn - target.box.maxYIn, 0);
    if (gapIn > maxRateIn) {
      charge.push({ ok: false, reason: 'charge/out-of-reach', detail: `more than ${gapIn.toFixed(1)}" away; ${row.label} moves at most ${maxRateIn}" (${row.source})`, targetUnitId: target.unit.id });
      continue;
    }
    let bestD = Infinity;
    let bestFront = fronts[0]!;
    let bestPoly = target.polygons[0]!;
    for (const f of fronts) {
      for (const poly of target.polygons) {
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
    const best: { from: PointIn; to: PointIn; d: number } | undefined = fronts.length > 0 ? { from: bestFront.centre, to: nearestOn(bestFront.centre, bestPoly), d: bestD } : undefined;
    if (!best) continue;
    const ahead = target.polygons.some((poly) => poly.some((p) => p.xIn * h.x + p.yIn * h.y >= frontAlong - 1e-6));
    if (!ahead) {
      charge.push({ ok: false, reason: 'charge/not-ahead', detail: `${target.unit.name} is not in front of the charging unit's front line`, targetUnitId: target.unit.id });
      continue;
    }
    // Slowest ground on the straight path.
    let ground: TerrainClass = ctx.classAt(best.from);
    const disorderedBy: string[] = [];
    for (const a of ctx.areas) {
      if (a.cls === 'open') continue;
      if (segmentTouchesPolygonBoundary(best.from, best.to, a.vertices) || pointInPolygon(best.from, a.vertices) || pointInPolygon(best.to, a.vertices)) {
        if (classRank(a.cls) > classRank(ground)) ground = a.cls;
        if (a.cls === 'broken' || a.cls === 'rough') disorderedBy.push(`${a.kind} ${a.id}`);
      }
    }
    if (ground === 'impassable') {
      charge.push({ ok: false, reason: 'charge/impassable', detail: 'impassable ground lies on the way', targetUnitId: target.unit.id });
      continue;
    }
    const blocker = enemies.find((o) => o !== target && o.polygons.some((poly) => segmentTouchesPolygonBoundary(best!.from, best!.to, poly)));
    if (blocker) {
      charge.push({ ok: false, reason: 'charge/path-blocked', detail: `${blocker.unit.name} stands in the way; a charge does not pass through an enemy unit`, targetUnitId: target.unit.id });
      continue;
    }
    const rateIn = rateOf(ground);
    if (best.d > rateIn + 1e-9) {
      charge.push({ ok: false, reason: 'charge/out-of-reach', detail: `${best.d.toFixed(1)}" away; ${row.label} moves at most ${rateIn}" over ${ground} ground (${row.source})`, targetUnitId: target.unit.id });
      continue;
    }
    const att = sideModifiers(ctx, facts, info, target);
    if (mounted) {
      const m = ctx.unitField(unit, 'mountedInfantry') === true || ground === 'rough'
        ? CHARGE_MODIFIERS.cavalryChargeNone
        : ground === 'broken'
          ? CHARGE_MODIFIERS.cavalryChargeBroken
          : CHARGE_MODIFIERS.cavalryChargeOpen;
      att.push(mod(m));
    }
    const def = sideModifiers(ctx, facts, target, info);
    const position = ctx.statusField(target.unit, 'position');
    if (position === 'favorable') def.push(mod(CHARGE_MODIFIERS.defendingFavorableGround));
    if (position === 'strong') def.push(mod(CHARGE_MODIFIERS.strongPositionOrFortified));
    if (target.unit.arm === 'artillery') def.push(mod(ctx.statusField(target.unit, 'supported') === true ? CHARGE_MODIFIERS.supportedGuns : CHARGE_MODIFIERS.unsupportedGuns));
    const attacker = breakdown(att);
    const defender = breakdown(def);
    disorderedBy.sort();
    charge.push({
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
    });
    shapes.push({ kind: 'polyline', id: `charge/${unit.id}/${target.unit.id}`, layer: 'charge', style: 'charge', unitId: unit.id, side: unit.side, points: [best.from, best.to], arrow: true });
  }
  if (charge.some((c) => c.ok)) {
    const origin = standFrontCenter(front[Math.floor((front.length - 1) / 2)]!);
    const vertices = reachPolygon(ctx, info, origin, { open: rateOf('open'), broken: rateOf('broken'), rough: rateOf('rough') });
    shapes.push({ kind: 'polygon', id: `charge/${unit.id}/reach`, layer: 'charge', style: 'charge', unitId: unit.id, side: unit.side, vertices });
  }
  return { charge, shapes };
}
