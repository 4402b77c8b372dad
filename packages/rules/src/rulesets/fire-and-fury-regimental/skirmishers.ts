/**
 * Skirmisher detachments (QRS II, Skirmishers, an optional rule): a unit with the unit field `skirmishers` is
 * the detachment of a regiment, which is found as the nearest infantry unit of its side and brigade, not
 * itself skirmishers, with the same rating and weapon ("The skirmisher unit ratings are the same as the
 * ratings for the regiment"; reading, see the README). What the table shows is checked:
 * - limits (Deploying Skirmishers): "Less than half of a regiment's stands may be detached ... as few as two
 *   stands and a maximum of six ... A five-stand regiment is the smallest unit able to deploy skirmishers";
 *   skirmishers "may only deploy in extended line";
 * - movement restrictions: "The skirmisher formation only can maneuver in front of the regiment. The
 *   regiment's front is determined by drawing a straight line between the front corners of the formation. At
 *   least one of the regiment's stands must remain within 16" (400-yards) and in the retreat path of the
 *   skirmishers"; otherwise "the skirmishers must move to conform ... in their next maneuver check";
 * - rejoining: "at least one stand from each unit makes contact": the stands go back into the regiment;
 *   "reduced to one stand": they must full retreat broken and rejoin; a regiment with no stand left makes the
 *   skirmishers the regiment.
 * The answers are warnings on the detachment (codes `skirmishers/...`).
 */
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { query } from '../../engine/incremental/query.ts';
import type { FfrContext, FfrUnitInfo } from './context.ts';
import { qrs } from './tables/source.ts';

export const SKIRMISHERS_SOURCE = qrs('Skirmishers');
export const SKIRMISHERS_MIN_STANDS = 2;
export const SKIRMISHERS_MAX_STANDS = 6;
export const SKIRMISHERS_SMALLEST_REGIMENT = 5;
/** "within 16" (400-yards) and in the retreat path of the skirmishers" */
export const SKIRMISHERS_LEASH_IN = 16;
/** Contact for rejoining, inches (a camera's read of touching). */
export const SKIRMISHERS_CONTACT_IN = 0.2;

export interface SkirmisherReading {
  readonly regimentId?: string;
  readonly warnings: readonly (readonly [code: string, message: string])[];
}

/** The regiment a detachment belongs to (see the module comment), if any. */
function regimentOf(ctx: FfrContext, det: FfrUnitInfo): FfrUnitInfo | undefined {
  let best: { info: FfrUnitInfo; d: number } | undefined;
  for (const id of ctx.t.unitIds()) {
    if (id === det.unit.id) continue;
    const u = ctx.t.unit(id);
    if (!u || u.side !== det.unit.side || u.arm !== 'infantry' || u.brigadeId !== det.unit.brigadeId) continue;
    if (u.quality !== det.unit.quality || u.weapon !== det.unit.weapon || ctx.unitField(u, 'skirmishers') === true) continue;
    const info = ctx.unit(id);
    if (!info) continue;
    const d = Math.hypot(info.box.minXIn + info.box.maxXIn - det.box.minXIn - det.box.maxXIn, info.box.minYIn + info.box.maxYIn - det.box.minYIn - det.box.maxYIn) / 2;
    if (!best || d < best.d) best = { info, d };
  }
  return best?.info;
}

export const skirmishersQuery = query(
  'ffr/skirmishers',
  (ctx: FfrContext, unitId): SkirmisherReading => {
    const det = ctx.unit(unitId);
    if (!det || ctx.unitField(det.unit, 'skirmishers') !== true) return { warnings: [] };
    const reg = regimentOf(ctx, det);
    const w: [string, string][] = [];
    const name = det.unit.name;
    if (!reg) {
      // A regiment of the brigade with the same ratings but no stand left: "If all the stands in the regiment
      // are eliminated while its skirmishers are detached, the remaining skirmisher stands become the regiment".
      const gone = ctx.t.unitIds().some((id) => {
        const u = ctx.t.unit(id);
        return id !== unitId && u !== undefined && u.side === det.unit.side && u.brigadeId === det.unit.brigadeId && u.arm === 'infantry' && u.quality === det.unit.quality && u.weapon === det.unit.weapon && ctx.unitField(u, 'skirmishers') !== true && !ctx.unit(id);
      });
      if (gone) {
        w.push(['skirmishers/regiment-gone', `${name}: its regiment has no stand left, so the skirmisher stands become the regiment, a normal unit (remove the skirmisher marker, replace two stands with the command and label stands; it may stay in extended line) (${SKIRMISHERS_SOURCE}, Rejoining the Regiment).`]);
        return { warnings: w };
      }
      w.push(['skirmishers/no-regiment', `${name}: no regiment of its brigade with the same ratings on the table to screen (${SKIRMISHERS_SOURCE}).`]);
      return { warnings: w };
    }
    const n = det.formation.stands.length;
    const total = n + reg.formation.stands.length;
    if (n <= 1) {
      w.push(['skirmishers/one-stand', `${name} is reduced to one stand: it must full retreat broken and attempt to rejoin ${reg.unit.name} (${SKIRMISHERS_SOURCE}, Rejoining the Regiment).`]);
    } else if (total < SKIRMISHERS_SMALLEST_REGIMENT || n < SKIRMISHERS_MIN_STANDS || n > SKIRMISHERS_MAX_STANDS || n * 2 >= total) {
      w.push([
        'skirmishers/too-many-stands',
        `${name}: ${n} of ${reg.unit.name}'s ${total} stands detached; less than half, two to six, and only from a regiment of five stands or more may be detached (${SKIRMISHERS_SOURCE}, Deploying Skirmishers).`,
      ]);
    }
    if (det.formation.id !== 'extended-line') {
      w.push(['skirmishers/formation', `${name} is in ${det.formation.reading.name ?? det.formation.id}: skirmishers deploy only in extended line (${SKIRMISHERS_SOURCE}, Deploying Skirmishers).`]);
    }
    // Contact: the stands rejoin the regiment.
    const touching = det.polygons.some((p) => reg.polygons.some((q) => polygonToPolygonDistanceIn(p, q) <= SKIRMISHERS_CONTACT_IN));
    if (touching) {
      w.push(['skirmishers/rejoin', `${name} touches ${reg.unit.name}: the skirmisher stands are placed back into the regiment's formation with its status, extra stands in a broken formation close behind (${SKIRMISHERS_SOURCE}, Rejoining the Regiment).`]);
      return { regimentId: reg.unit.id, warnings: w };
    }
    // In front of the regiment: beyond the line through its front corners.
    const f = headingToVector(reg.formation.headingDeg);
    let front = -Infinity;
    for (const poly of reg.polygons) for (const p of poly) front = Math.max(front, p.xIn * f.x + p.yIn * f.y);
    const behind = det.polygons.some((poly) => poly.some((p) => p.xIn * f.x + p.yIn * f.y < front - 1e-6));
    if (behind) w.push(['skirmishers/not-in-front', `${name} is not wholly in front of ${reg.unit.name}'s front line: it must move to conform in its next maneuver check (${SKIRMISHERS_SOURCE}, Movement Restrictions).`]);
    // At least one regiment stand within 16" and in the skirmishers' retreat path (straight back, their frontage).
    const g = headingToVector(det.formation.headingDeg);
    const r = { x: g.y, y: -g.x };
    let lo = Infinity;
    let hi = -Infinity;
    let rear = Infinity;
    for (const poly of det.polygons) {
      for (const p of poly) {
        const a = p.xIn * r.x + p.yIn * r.y;
        lo = Math.min(lo, a);
        hi = Math.max(hi, a);
        rear = Math.min(rear, p.xIn * g.x + p.yIn * g.y);
      }
    }
    const leashed = reg.polygons.some((q) => {
      let qlo = Infinity;
      let qhi = -Infinity;
      let qfront = -Infinity;
      for (const p of q) {
        const a = p.xIn * r.x + p.yIn * r.y;
        qlo = Math.min(qlo, a);
        qhi = Math.max(qhi, a);
        qfront = Math.max(qfront, p.xIn * g.x + p.yIn * g.y);
      }
      const inPath = Math.min(qhi, hi) - Math.max(qlo, lo) > 1e-6 && qfront <= rear + 1e-6;
      return inPath && det.polygons.some((p) => polygonToPolygonDistanceIn(p, q) <= SKIRMISHERS_LEASH_IN + 1e-9);
    });
    if (!leashed) w.push(['skirmishers/out-of-reach', `no stand of ${reg.unit.name} is within ${SKIRMISHERS_LEASH_IN}" and in ${name}'s retreat path: the skirmishers must move to conform in their next maneuver check (${SKIRMISHERS_SOURCE}, Movement Restrictions).`]);
    return { regimentId: reg.unit.id, warnings: w };
  },
  { equal: 'plain' },
);
