/**
 * Out of command (Command and Control, p. 2): stands "may NEVER move toward a visible enemy unit". The reach
 * of such a stand is cut: a direction that would bring its centre nearer to the centre of an enemy stand it
 * can see (the angle between them under 90°: a reading of "toward") goes nowhere. Visible: a clear line of
 * sight as fire traces it (from the stand's front to the enemy stand, terrain, hills and stands in the way).
 */
import type { PointIn } from '../../../model/units.ts';
import type { VbContext, VbStand, VbUnit } from '../context.ts';
import { sightScene, standSight } from '../fire/sight.ts';
import { REACH_BINS } from './movement.ts';

/** The centres of the enemy stands `s` can see, enemy units in the state's order. */
export function visibleEnemyCentres(ctx: VbContext, info: VbUnit, s: VbStand): PointIn[] {
  const out: PointIn[] = [];
  const scene = sightScene(ctx);
  for (const e of ctx.enemyTargets(info.unit.side)) {
    const enemy = ctx.units.get(e.id);
    if (!enemy) continue;
    for (const t of enemy.combatStands) if (standSight(ctx, s, t, false, false, scene).clear) out.push(t.center);
  }
  return out;
}

/**
 * The reach with every direction toward a visible enemy cut to the stand's centre (bin b of the reach points
 * along the stand's heading turned b steps counter-clockwise, as `standReach` lays them out). Returns the reach
 * itself when nothing is cut.
 */
export function cutTowardEnemies(s: VbStand, reach: readonly PointIn[], enemies: readonly PointIn[]): readonly PointIn[] {
  if (enemies.length === 0) return reach;
  const c = s.center;
  const h = (s.stand.pose.headingDeg * Math.PI) / 180;
  let cut: PointIn[] | undefined;
  for (let b = 0; b < REACH_BINS; b++) {
    const a = h + (b * 2 * Math.PI) / REACH_BINS;
    const dx = Math.cos(a);
    const dy = Math.sin(a);
    if (enemies.some((e) => dx * (e.xIn - c.xIn) + dy * (e.yIn - c.yIn) > 1e-9)) (cut ??= [...reach])[b] = { xIn: c.xIn, yIn: c.yIn };
  }
  return cut ?? reach;
}
