/**
 * The Devil to Pay RALLY (pp. 27-28): dice to remove hits, or why the unit must reform (or stand up) first.
 */
import type { DiceBreakdown, DiceModifier, Refusal } from '../../engine/evaluation.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { boxGapIn, grownBox, type DtpContext, type UnitInfo } from './context.ts';
import { universalModifiers } from './universalModifiers.ts';
import { HIT_ON } from './tables/diceTables.ts';

const SRC_RALLY = 'Rally (p. 28)';

/** "A regiment or battery rolls two D6" (Rally, p. 28; Quick Reference: 2 Die per Regiment). */
export const RALLY_BASE_DICE = 2;
/** Distance modifiers, only one applies (Rally, Distance): beyond 12" +1, beyond 24" +2. */
export const RALLY_DISTANCE_BANDS: readonly { readonly beyondIn: number; readonly dice: number }[] = [
  { beyondIn: 24, dice: 2 },
  { beyondIn: 12, dice: 1 },
];
/** Prone troops suffer -2 Die (Rally, Prone; Optional Rules, Going Prone). */
export const RALLY_PRONE_DICE = -2;

/** The reaches tried in turn for the nearest enemy, inches (beyond the last, every enemy is looked at). */
const NEAREST_SEARCH_IN = [6, 14, 26, 60];

/**
 * Edge-to-edge distance from the unit to the nearest enemy stand, inches; Infinity with no enemy on the
 * table. Looked for in growing boxes around the unit (a spatial read: enemies further than the nearest one
 * do not touch it): an enemy found within a reach is nearer than any enemy outside it. Box gaps prune
 * pairs that cannot beat the best so far.
 */
export function nearestEnemyDistanceIn(ctx: DtpContext, unitId: string): number {
  const me = ctx.units.get(unitId)!;
  if (me.stands.length > 0) {
    for (const reachIn of NEAREST_SEARCH_IN) {
      const best = nearestAmong(me, ctx.near(grownBox(me.box, reachIn), me.unit.side).filter((e) => e.unit.side !== me.unit.side));
      if (best <= reachIn) return best;
    }
  }
  return nearestAmong(me, ctx.enemiesOf(unitId));
}

function nearestAmong(me: UnitInfo, candidates: readonly UnitInfo[]): number {
  let best = Infinity;
  // Gaps computed once (not in the sort comparator); the sort is stable, so the order is the same.
  const enemies = candidates
    .filter((e) => e.stands.length > 0)
    .map((e) => ({ e, gap: boxGapIn(me.box, e.box) }))
    .sort((a, b) => a.gap - b.gap);
  for (const { e, gap } of enemies) {
    if (gap >= best) break;
    for (const s of me.stands) {
      for (const t of e.stands) {
        // hypot(dx, dy) >= max(dx, dy): either axis gap alone already prunes, without the hypot.
        const dx = Math.max(s.box.minXIn - t.box.maxXIn, t.box.minXIn - s.box.maxXIn);
        const dy = Math.max(s.box.minYIn - t.box.maxYIn, t.box.minYIn - s.box.maxYIn);
        if (dx >= best || dy >= best || boxGapIn(s.box, t.box) >= best) continue;
        const d = polygonToPolygonDistanceIn(s.corners, t.corners);
        if (d < best) best = d;
      }
    }
  }
  return best;
}

/**
 * Rally dice for one unit, or a refusal: a disordered unit must reform first, a prone disordered unit must
 * stand up first (Going Prone), a unit without hits has nothing to rally off.
 *
 * @param nearestEnemyIn edge-to-edge distance to the nearest enemy stand, inches (default: measured, and only
 *   when the unit can rally at all)
 * @example evaluateRally(ctx, 'crack-4-hits-18in-away') // 2 + 1 crack + 1 beyond 12" = 4 dice
 */
export function evaluateRally(ctx: DtpContext, unitId: string, nearestEnemyIn?: number): DiceBreakdown | Refusal {
  const info = ctx.units.get(unitId);
  if (!info) throw new Error(`evaluateRally: no unit with id '${unitId}' in the table state`);
  const status = info.unit.status;
  const disordered = status?.disordered === true || ctx.formationOf(unitId).formation === 'disordered';
  if (disordered && status?.prone) {
    return { ok: false, reason: 'rally/prone-must-stand-up', detail: 'A prone disordered unit must first stand up (a RALLY order), then reform (Optional Rules, Going Prone).' };
  }
  if (disordered) {
    return { ok: false, reason: 'rally/disordered-must-reform', detail: 'A disordered unit cannot rally off hits; it must first reform into line facing the nearest enemy (Rally, p. 28).' };
  }
  // Hits on stands still on the table: a stand with two hits is removed, and its hits with it.
  const hits = info.stands.reduce((s, st) => s + st.hits, 0);
  if (hits === 0) return { ok: false, reason: 'rally/no-hits', detail: 'The unit has no hits to rally off.' };

  // Measured only now: a refusal above never needs the (pairwise) distance.
  const nearestIn = nearestEnemyIn ?? nearestEnemyDistanceIn(ctx, unitId);
  const modifiers: DiceModifier[] = [];
  const band = RALLY_DISTANCE_BANDS.find((b) => nearestIn > b.beyondIn);
  if (band) {
    modifiers.push({
      label: Number.isFinite(nearestIn) ? `Beyond ${band.beyondIn}" of enemy (${nearestIn.toFixed(1)}")` : `Beyond ${band.beyondIn}" of enemy (none on the table)`,
      dice: band.dice,
      source: `${SRC_RALLY}: Distance, only one applies`,
    });
  }
  if (status?.prone) modifiers.push({ label: 'Prone', dice: RALLY_PRONE_DICE, source: `${SRC_RALLY}: Prone` });
  modifiers.push(...universalModifiers(info.unit, info.attachedCommanderId !== undefined));
  const raw = RALLY_BASE_DICE + modifiers.reduce((s, m) => s + m.dice, 0);
  const limits: DiceModifier[] = [];
  if (raw < 0) limits.push({ label: 'No dice: cannot rally', dice: -raw, source: `${SRC_RALLY}: Prone ("can make it impossible to rally")` });
  return { hitOn: HIT_ON, baseDice: RALLY_BASE_DICE, modifiers, dice: Math.max(0, raw), limits };
}
