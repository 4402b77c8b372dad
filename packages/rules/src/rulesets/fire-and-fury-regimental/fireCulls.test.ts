/**
 * The box culls in front of Figure 3's massed target and fallen leader checks (fire.ts `massedLookBox`,
 * commander boxes) must never drop a unit or leader the rule itself would find. Seeded scenes put a target
 * at a random heading (in line, or broken with stands every way) with friends and leaders scattered around
 * it; the evaluation's answer is compared with the rule worked out by brute force over every unit and leader.
 */
import { describe, expect, it } from 'vitest';
import type { Stand, TableState } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { standPolygon } from '../../geometry/footprint.ts';
import { polygonToPolygonDistanceIn } from '../../geometry/distance.ts';
import { meanHeadingDeg } from '../../geometry/frontLine.ts';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import type { FfrFireOption } from './fire.ts';
import { inf, mapStands, table } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import { FALLEN_LEADER_WITHIN_IN, MASSED_TARGET_BEHIND_IN } from './tables/fireTables.ts';

/** A fixed linear congruential sequence in [0, 1): the same scenes every run. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function standsOf(s: TableState, unitId: string): Stand[] {
  const ids = s.units.find((u) => u.id === unitId)!.standIds;
  return ids.map((id) => s.stands.find((st) => st.id === id)!);
}

/** Figure 3's massed target, by brute force: a friend's stand corner up to 2" behind the target's rear, within its frontage widened by 2". */
function massedByRule(s: TableState, targetId: string): string[] {
  const target = standsOf(s, targetId);
  const f = headingToVector(meanHeadingDeg(target));
  const corners = target.flatMap((st) => [...standPolygon(st)]);
  const rear = Math.min(...corners.map((p) => p.xIn * f.x + p.yIn * f.y));
  const side = s.units.find((u) => u.id === targetId)!.side;
  return s.units
    .filter((u) => u.side === side && u.id !== targetId)
    .filter((u) =>
      standsOf(s, u.id).some((st) =>
        standPolygon(st).some((p: PointIn) => {
          const along = p.xIn * f.x + p.yIn * f.y;
          if (along > rear + 1e-9 || along < rear - MASSED_TARGET_BEHIND_IN) return false;
          return corners.some((q) => Math.abs((p.xIn - q.xIn) * f.y - (p.yIn - q.yIn) * f.x) <= MASSED_TARGET_BEHIND_IN);
        }),
      ),
    )
    .map((u) => u.id)
    .sort();
}

/** Figure 3's fallen leader, by brute force: the nearest leader of the target's side within 4" of any of its stands. */
function fallenByRule(s: TableState, targetId: string): string | undefined {
  const side = s.units.find((u) => u.id === targetId)!.side;
  const target = standsOf(s, targetId).map((st) => standPolygon(st));
  let best: { id: string; d: number } | undefined;
  for (const c of s.commanders) {
    if (c.side !== side || !c.standId) continue;
    const poly = standPolygon(s.stands.find((st) => st.id === c.standId)!);
    const d = Math.min(...target.map((tp) => polygonToPolygonDistanceIn(poly, tp)));
    if (d <= FALLEN_LEADER_WITHIN_IN + 1e-9 && (!best || d < best.d || (d === best.d && c.id < best.id))) best = { id: c.id, d };
  }
  return best?.id;
}

function scene(rand: () => number): TableState {
  const heading = rand() * 360;
  const centre = { xIn: 30 + rand() * 12, yIn: 20 + rand() * 8 };
  const h = headingToVector(heading);
  // The firer stands 6" in front of the target, facing it, so the target is in range and arc.
  const firer = inf('u', 'a', { xIn: centre.xIn + h.x * 7, yIn: centre.yIn + h.y * 7 }, (heading + 180) % 360, { stands: 4, files: 4 });
  const target = inf('t', 'b', centre, heading, { stands: 4, files: 4 });
  const friends = Array.from({ length: 5 }, (_, i) =>
    inf(`f${i}`, 'b', { xIn: centre.xIn + (rand() - 0.5) * 16, yIn: centre.yIn + (rand() - 0.5) * 16 }, rand() * 360, { stands: 1 + Math.floor(rand() * 3), files: 1 + Math.floor(rand() * 2) }),
  );
  const leaders = Array.from({ length: 4 }, (_, i) => ({
    id: `l${i}`,
    name: `l${i}`,
    side: 'b',
    brigadeId: 'x',
    quality: 'capable' as const,
    at: { xIn: centre.xIn + (rand() - 0.5) * 14, yIn: centre.yIn + (rand() - 0.5) * 14 },
    headingDeg: rand() * 360,
  }));
  let s = table([firer, target, ...friends], { commanders: leaders });
  // Now and then a broken target: its stands turned every way, so its frontage is no tidy box.
  if (rand() < 0.4) s = mapStands(s, 't', (st) => ({ ...st, pose: { ...st.pose, headingDeg: (st.pose.headingDeg + rand() * 120 - 60 + 360) % 360 } }));
  return s;
}

describe('fire culls (Figure 3, Massed Target and Fallen Leader)', () => {
  it('find every massed friend and the fallen leader the rule finds, over seeded scenes', () => {
    const rand = lcg(12345);
    let options = 0;
    let massedSeen = 0;
    let leadersSeen = 0;
    for (let i = 0; i < 150; i++) {
      const s = scene(rand);
      const option = evaluateFireAndFuryRegimental(s).units['u']!.fire.find((f) => f.targetUnitId === 't');
      if (!option?.ok) continue;
      options++;
      const o = option as FfrFireOption;
      const massed = massedByRule(s, 't');
      const fallen = fallenByRule(s, 't');
      expect(o.massedBehindUnitIds, `scene ${i}`).toEqual(massed);
      expect(o.fallenLeaderCheckId, `scene ${i}`).toBe(fallen);
      if (massed.length > 0) massedSeen++;
      if (fallen !== undefined) leadersSeen++;
    }
    // The scenes must exercise both answers, or the comparison proves nothing.
    expect(options).toBeGreaterThan(50);
    expect(massedSeen).toBeGreaterThan(5);
    expect(leadersSeen).toBeGreaterThan(5);
  });
});
