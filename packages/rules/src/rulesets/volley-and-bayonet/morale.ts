/**
 * Morale state and thresholds (Morale, p. 4; Exhaustion, p. 7; Morale Collapse, p. 5): each brigade's
 * exhaustion level (the units' strength points x 40/50/60% by morale, summed), the strength points it has
 * lost, the collapse roll once exhausted, and each unit's morale check number. Also the artillery danger
 * zone (Morale, condition 2) and rallying routed stands (Rally, p. 4).
 */
import type { DiceBreakdown, EvaluationWarning, MoraleReading, MoraleThreshold, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import type { PointIn } from '../../model/units.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { polygonsOverlap } from '../../geometry/intersect.ts';
import { EXHAUSTION_ROUNDING_PARAM } from './declarations.ts';
import { weaponRow } from './combat.ts';
import { TOUCH_TOLERANCE_IN } from './command.ts';
import { boxesApart, superiorTo, type VbContext, type VbUnit } from './context.ts';
import { boundingBox } from '../../geometry/polygon.ts';
import { appendAll } from '../../engine/appendAll.ts';
import { DANGER_ZONE_HALF_WIDTH_IN, DANGER_ZONE_SOURCE, HIT_NUMBERS } from './tables/combat.ts';
import { COLLAPSE_SOURCE, EXHAUSTION_FRACTION_BY_MORALE, EXHAUSTION_SOURCE, MORALE_MODIFIERS, MORALE_SOURCE, RALLY_SOURCE } from './tables/morale.ts';

export interface BrigadeMorale {
  readonly brigadeId: string;
  /** Strength points lost at which the brigade is exhausted; undefined when a unit lacks its fields. */
  readonly levelSp?: number;
  readonly lostSp: number;
  readonly exhausted: boolean;
  /** Hits the brigade's units took this combat sub-phase. */
  readonly hitsThisPhase: number;
}

export function brigadeMorale(ctx: VbContext): { brigades: Map<string, BrigadeMorale>; warnings: EvaluationWarning[] } {
  const members = new Map<string, VbUnit[]>();
  for (const info of ctx.unitList) {
    const b = info.unit.brigadeId;
    if (b === undefined) continue;
    if (!members.has(b)) members.set(b, []);
    members.get(b)!.push(info);
  }
  const rounding = rulesetValue(EXHAUSTION_ROUNDING_PARAM, ctx.state.rulesetParameters);
  const brigades = new Map<string, BrigadeMorale>();
  const warnings: EvaluationWarning[] = [];
  members.forEach((units, brigadeId) => {
    let level: number | undefined = 0;
    let lost = 0;
    let hits = 0;
    for (const info of units) {
      lost += info.spLost;
      hits += info.hitsThisPhase;
      // The rating on the stand: a band's morale dropping with its losses does not move its brigade's level (a reading).
      const fraction = info.ratedMorale !== undefined ? EXHAUSTION_FRACTION_BY_MORALE[info.ratedMorale] : undefined;
      if (fraction === undefined || info.strengthPoints === undefined) {
        if (level !== undefined) {
          warnings.push({
            code: 'morale/no-exhaustion-rate',
            message: `Brigade ${brigadeId}: ${info.unit.name} has ${info.ratedMorale === undefined ? 'no morale' : `morale ${info.ratedMorale}, which the Exhaustion table does not list (4, 5, 6)`}${info.strengthPoints === undefined ? ' and no strength points' : ''}; the exhaustion level is not computed (${EXHAUSTION_SOURCE}).`,
            unitId: info.unit.id,
          });
        }
        level = undefined;
        continue;
      }
      if (level !== undefined) level += info.strengthPoints * fraction;
    }
    if (level !== undefined) {
      // Sums of 0.4/0.5/0.6 multiples carry float noise: settle to 1e-9 before rounding or comparing.
      level = Math.round(level * 1e9) / 1e9;
      if (rounding === 'down') level = Math.floor(level);
      else if (rounding === 'up') level = Math.ceil(level);
    }
    brigades.set(brigadeId, {
      brigadeId,
      ...(level !== undefined ? { levelSp: level } : {}),
      lostSp: lost,
      exhausted: level !== undefined && level > 0 && lost >= level,
      hitsThisPhase: hits,
    });
  });
  return { brigades, warnings };
}

/** The unit's modified morale for a check, with the standing modifiers only (situational ones are in charges). */
export function standingMorale(info: VbUnit, superiorAttached: boolean): { value: number; parts: string[] } | undefined {
  if (info.morale === undefined) return undefined;
  let value = info.morale;
  const parts = [info.ratedMorale !== info.morale ? `morale ${info.morale} (${info.ratedMorale}, less one per Native American stand lost)` : `morale ${info.morale}`];
  if (info.disordered) {
    value += MORALE_MODIFIERS.disordered.mod;
    parts.push(`${MORALE_MODIFIERS.disordered.mod} ${MORALE_MODIFIERS.disordered.label.toLowerCase()}`);
  }
  if (superiorAttached) {
    value += MORALE_MODIFIERS['superior-commander-attached'].mod;
    parts.push(`+1 ${MORALE_MODIFIERS['superior-commander-attached'].label.toLowerCase()}`);
  }
  return { value, parts };
}

export function moraleReading(ctx: VbContext, info: VbUnit, brigade: BrigadeMorale | undefined): MoraleReading {
  const superiorAttached = info.unit.status?.attachedCommanderId !== undefined || ctx.commanders.some((c) => c.commander.attachedToUnitId === info.unit.id);
  const word = info.routed ? 'routed' : info.permanentlyDisordered ? 'permanently disordered' : info.disordered ? 'disordered' : 'good order';
  const thresholds: MoraleThreshold[] = [];
  const check = standingMorale(info, superiorAttached);
  if (check) {
    thresholds.push({ label: `Morale check passes on a d6 of ${check.value} or less (${check.parts.join(', ')})`, at: check.value, reached: check.value < 1, source: MORALE_SOURCE });
  }
  if (brigade?.levelSp !== undefined) {
    thresholds.push({ label: `Brigade ${brigade.brigadeId} exhausted at ${brigade.levelSp} strength points lost`, at: brigade.levelSp, reached: brigade.exhausted, source: EXHAUSTION_SOURCE });
    if (brigade.exhausted) {
      thresholds.push({
        label: `Morale collapse unless a d6 beats the ${brigade.hitsThisPhase} hits taken this sub-phase`,
        at: brigade.hitsThisPhase + 1,
        reached: brigade.hitsThisPhase >= 6,
        source: COLLAPSE_SOURCE,
      });
    }
  }
  return {
    state: brigade?.exhausted ? `${word}, brigade exhausted` : word,
    counted: brigade ? { label: `strength points lost by brigade ${brigade.brigadeId}`, value: brigade.lostSp } : { label: 'strength points lost', value: info.spLost },
    thresholds,
  };
}

/** The danger zone of an unlimbered artillery stand: straight down the barrel to short range, 2" either side. */
export function dangerZone(corners: readonly PointIn[], headingDeg: number, shortRangeIn: number): PointIn[] {
  const [fl, fr] = corners;
  const h = (headingDeg * Math.PI) / 180;
  const fx = Math.cos(h), fy = Math.sin(h);
  const lx = -fy, ly = fx;
  const c = { xIn: (fl!.xIn + fr!.xIn) / 2, yIn: (fl!.yIn + fr!.yIn) / 2 };
  const w = DANGER_ZONE_HALF_WIDTH_IN;
  const p = (along: number, side: number): PointIn => ({ xIn: c.xIn + fx * along + lx * side, yIn: c.yIn + fy * along + ly * side });
  return [p(0, w), p(shortRangeIn, w), p(shortRangeIn, -w), p(0, -w)];
}

export interface DangerZones {
  readonly shapes: Shape[];
  readonly warnings: EvaluationWarning[];
}

/** The danger zones of every gun on the table (each unit's, `unitDangerZones`, in the state's order). */
export function dangerZones(ctx: VbContext): DangerZones {
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  for (const info of ctx.unitList) {
    const d = unitDangerZones(ctx, info);
    appendAll(shapes, d.shapes);
    appendAll(warnings, d.warnings);
  }
  return { shapes, warnings };
}

/**
 * The danger zones of one unit's guns, with the enemy units in each (in the state's order): only enemy
 * stands near a zone are read.
 */
export function unitDangerZones(ctx: VbContext, info: VbUnit): DangerZones {
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  if (info.roadMarch || info.routed) return { shapes, warnings };
  for (const s of info.combatStands) {
    if (s.type !== 'artillery') continue;
    const w = weaponRow(info, s);
    if (!w) continue;
    const zone = dangerZone(s.corners, s.stand.pose.headingDeg, HIT_NUMBERS[w].shortRangeIn);
    const zoneBox = boundingBox(zone);
    shapes.push({ kind: 'polygon', id: `fire/danger/${s.stand.id}`, layer: 'fire', style: 'warning', unitId: info.unit.id, side: info.unit.side, vertices: zone });
    // The enemy units with a stand near the zone, in the state's order.
    const near = new Set<string>();
    for (const t of ctx.enemyStandsNear(info.unit.side, zoneBox, 0)) if (t.unitId !== undefined) near.add(t.unitId);
    for (const id of near) {
      const e = ctx.units.get(id)!;
      // The overlap test first (most enemy units are far from a gun).
      if (e.combatStands.some((t) => !boxesApart(t.box, zoneBox, 0) && polygonsOverlap(t.corners, zone))) {
        warnings.push({
          code: 'morale/danger-zone',
          message: `${e.unit.name} is in the danger zone of ${info.unit.name} (${s.stand.id}: short range, within 2" of the line of the barrel): morale check (${DANGER_ZONE_SOURCE}).`,
          unitId: e.unit.id,
        });
      }
    }
  }
  return { shapes, warnings };
}

/** Rally (p. 4): a routed unit rallies in contact with a senior commander to whom it is subordinate; no roll. */
export function evaluateRally(ctx: VbContext, info: VbUnit): DiceBreakdown | Refusal {
  if (!info.routed) return { ok: false, reason: 'rally/not-routed', detail: `${info.unit.name} is not routed` };
  for (const c of ctx.commanders) {
    if (!c.stand || c.commander.side !== info.unit.side) continue;
    // "a senior commander to whom it is subordinate": its brigade's, its wing's or the army's.
    if (!superiorTo(c.commander, info)) continue;
    if (info.stands.some((s) => polygonToPolygonDistanceIn(s.corners, c.stand!.corners) <= TOUCH_TOLERANCE_IN)) {
      return {
        kind: 'modifier',
        baseDice: 0,
        modifiers: [{ label: `In contact with ${c.commander.name}: rallies without a roll; free facing change; the red marker stays`, dice: 0, source: RALLY_SOURCE }],
        dice: 0,
        limits: [],
      };
    }
  }
  return { ok: false, reason: 'rally/no-commander-in-contact', detail: `${info.unit.name}: no senior commander of its brigade touches it (unit commanders never rally; ${RALLY_SOURCE})` };
}
