/**
 * The Devil to Pay Fire Modifiers (p. 22): formation modifiers as firer and as target, general modifiers
 * (obstacles, area terrain, prone, flanking fire), and the artillery limits on the dice (Armies, Artillery).
 * The obstacle and area rows are data in `../tables/fireTables.ts`.
 */
import type { DiceBreakdown, DiceModifier } from '../../../engine/evaluation.ts';
import type { AreaTerrainKind } from '../../../model/tableState.ts';
import type { SightReport } from '../../../geometry/lineOfSight.ts';
import { headingToVector } from '../../../geometry/angles.ts';
import { segmentToSegmentDistanceIn } from '../../../geometry/distance.ts';
import type { DtpContext, StandInfo, UnitInfo } from '../context.ts';
import { FIRE_AREA_DICE, FIRE_OBSTACLE_DICE } from '../tables/fireTables.ts';
import { HIT_ON } from '../tables/diceTables.ts';

const SRC_FORMATION = 'Fire Modifiers, 2. Formation Modifiers (p. 22)';
const SRC_GENERAL = 'Fire Modifiers, 3. General Modifiers (p. 22)';
const SRC_ARTILLERY = 'Armies, Artillery: Batteries and Sections (p. 13)';

/**
 * A firer this close to a fence or wall is "at" it and ignores its modifier (General Modifiers notes). Troops
 * stand beside linear terrain (Terrain, Linear Terrain); the inch allows for placement and camera error.
 */
export const AT_OBSTACLE_IN = 1;

/** Dice from modifiers after the battery floor / section cap (Armies, Artillery). */
export function applyLimits(firer: UnitInfo, base: number, modifiers: readonly DiceModifier[]): DiceBreakdown {
  const raw = base + modifiers.reduce((s, m) => s + m.dice, 0);
  let dice = Math.max(0, raw);
  const limits: DiceModifier[] = [];
  if (firer.unit.arm === 'artillery') {
    // A battery reduced to one stand becomes an independent section (Armies, Artillery).
    const section = firer.stands.length <= 1;
    if (!section && dice < 1) {
      // "Artillery batteries always fire with at least 1 Die (regardless of modifiers)."
      limits.push({ label: 'Battery always fires with at least 1 die', dice: 1 - dice, source: SRC_ARTILLERY });
      dice = 1;
    } else if (section && dice > 2) {
      // "An independent section may never fire with more than 2 dice (regardless of modifiers)."
      limits.push({ label: 'Independent section fires at most 2 dice', dice: 2 - dice, source: SRC_ARTILLERY });
      dice = 2;
    }
  }
  return { hitOn: HIT_ON, baseDice: base, modifiers, dice, limits };
}

/** Whether the firer's command stand is behind the target's front-line trace (Flanking Fire note). */
function isFlanking(ctx: DtpContext, firer: UnitInfo, target: UnitInfo): boolean {
  const cmd = firer.command;
  if (!cmd) return false;
  const reading = ctx.formationOf(target.unit.id);
  const f = headingToVector(reading.headingDeg);
  const front = new Set(reading.frontRankStandIds);
  let frontAhead = -Infinity;
  for (const s of target.stands) {
    if (!front.has(s.stand.id)) continue;
    const mid = { xIn: (s.corners[0].xIn + s.corners[1].xIn) / 2, yIn: (s.corners[0].yIn + s.corners[1].yIn) / 2 };
    frontAhead = Math.max(frontAhead, mid.xIn * f.x + mid.yIn * f.y);
  }
  if (frontAhead === -Infinity) return false;
  return cmd.center.xIn * f.x + cmd.center.yIn * f.y < frontAhead;
}

/** Formation modifier as firer (Formation Modifiers, "As Firer"): only Disordered, -2 Die. */
export function firerFormationModifier(ctx: DtpContext, firer: UnitInfo): DiceModifier | undefined {
  return ctx.formationOf(firer.unit.id).formation === 'disordered'
    ? { label: 'Firer disordered', dice: -2, source: SRC_FORMATION }
    : undefined;
}

/** Formation modifier as target (Formation Modifiers, "As Target"; Disordered Artillery). */
export function targetFormationModifier(ctx: DtpContext, target: UnitInfo): DiceModifier | undefined {
  const r = ctx.formationOf(target.unit.id);
  if (target.unit.arm === 'artillery') {
    // Limbered +2, unlimbered -1; disordered artillery by whether it is limbered (Disordered Artillery).
    return r.limbered || r.formation === 'limbered'
      ? { label: 'Target limbered artillery', dice: 2, source: SRC_FORMATION }
      : { label: 'Target unlimbered artillery', dice: -1, source: SRC_FORMATION };
  }
  switch (r.formation) {
    case 'loose-order':
      return { label: 'Target in loose order', dice: -1, source: SRC_FORMATION };
    case 'attack-column':
      return { label: 'Target in attack column', dice: 2, source: SRC_FORMATION };
    case 'march-column':
      return { label: 'Target in march column', dice: 2, source: SRC_FORMATION };
    default:
      return undefined;
  }
}

/** General modifiers (p. 22), each specific modifier counted once for firer or target. */
export function generalModifiers(
  ctx: DtpContext,
  firer: UnitInfo,
  target: UnitInfo,
  eligible: readonly StandInfo[],
  rangeReport: Pick<SightReport, 'linear'>,
): DiceModifier[] {
  const out: DiceModifier[] = [];
  // Obstacles: highest only; none for an obstacle the firer is at.
  let best: { dice: number; label: string } | undefined;
  for (const crossing of rangeReport.linear) {
    const cover = FIRE_OBSTACLE_DICE[crossing.kind];
    if (!cover) continue;
    const line = ctx.state.terrain.linear.find((l) => l.id === crossing.id)!;
    const firerAtIt = eligible.some((s) => {
      const a = s.corners[0], b = s.corners[1];
      const aMinX = Math.min(a.xIn, b.xIn), aMaxX = Math.max(a.xIn, b.xIn), aMinY = Math.min(a.yIn, b.yIn), aMaxY = Math.max(a.yIn, b.yIn);
      for (let i = 0; i + 1 < line.points.length; i++) {
        const p = line.points[i]!, q = line.points[i + 1]!;
        // Segments whose boxes are more than the inch apart are further apart than that: skip the exact test.
        if (Math.min(p.xIn, q.xIn) - aMaxX > AT_OBSTACLE_IN || aMinX - Math.max(p.xIn, q.xIn) > AT_OBSTACLE_IN) continue;
        if (Math.min(p.yIn, q.yIn) - aMaxY > AT_OBSTACLE_IN || aMinY - Math.max(p.yIn, q.yIn) > AT_OBSTACLE_IN) continue;
        if (segmentToSegmentDistanceIn(a, b, p, q) <= AT_OBSTACLE_IN) return true;
      }
      return false;
    });
    if (firerAtIt) continue;
    if (!best || cover.dice < best.dice) best = cover;
  }
  if (best) out.push({ label: best.label, dice: best.dice, source: `${SRC_GENERAL}: obstacles, highest only` });

  // Area terrain: fully in or out by most stands; applied when either is in it, never twice.
  const kinds: AreaTerrainKind[] = [];
  for (const u of [firer, target]) {
    const a = ctx.areaOf(u.unit.id);
    if (a && !kinds.includes(a.kind)) kinds.push(a.kind);
  }
  for (const k of kinds) {
    const m = FIRE_AREA_DICE[k];
    if (m) out.push({ label: m.label, dice: m.dice, source: `${SRC_GENERAL}: area terrain, counted once` });
  }

  // Prone: -2 as firer or target, counted once (Quick Reference: specific modifiers only once).
  if (firer.unit.status?.prone || target.unit.status?.prone) {
    const who = firer.unit.status?.prone && target.unit.status?.prone ? 'Firer and target prone' : firer.unit.status?.prone ? 'Firer prone' : 'Target prone';
    out.push({ label: who, dice: -2, source: `${SRC_GENERAL}; Optional Rules, Going Prone` });
  }

  // Flanking fire +2, not against march column, attack column or limbered artillery.
  const tf = ctx.formationOf(target.unit.id);
  const exempt = tf.formation === 'march-column' || tf.formation === 'attack-column' || tf.formation === 'limbered' || tf.limbered === true;
  if (!exempt && isFlanking(ctx, firer, target)) {
    out.push({ label: 'Flanking fire', dice: 2, source: `${SRC_GENERAL}: Flanking Fire` });
  }
  return out;
}
