/**
 * Out of command (Command and Control, p. 2): stands "may NEVER move toward a visible enemy unit". The reach
 * of such a stand is cut: a direction that would bring its centre nearer to the centre of an enemy stand it
 * can see (the angle between them under 90°: a reading of "toward") goes nowhere. Visible: a clear line of
 * sight as fire traces it (from the stand's front to the enemy stand, terrain, hills and stands in the way).
 */
import type { PointIn } from '../../../model/units.ts';
import type { VbContext, VbStand, VbUnit } from '../context.ts';
import { sightScene, standSight } from '../fire/sight.ts';
import { REACH_BINS } from './reachBins.ts';

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

/** The directions (bits of a mask, bin b = bit b) from `s` that point toward `to` (under 90°). */
function binsToward(s: VbStand, to: PointIn): number {
  const h = (s.stand.pose.headingDeg * Math.PI) / 180;
  const ex = to.xIn - s.center.xIn, ey = to.yIn - s.center.yIn;
  let mask = 0;
  for (let b = 0; b < REACH_BINS; b++) {
    const a = h + (b * 2 * Math.PI) / REACH_BINS;
    if (Math.cos(a) * ex + Math.sin(a) * ey > 1e-9) mask |= 1 << b;
  }
  return mask >>> 0;
}

/**
 * The directions of `s`'s reach cut by one enemy unit: those toward a stand of it that `s` can see. A stand
 * that would cut nothing new is not traced. A mask: one answer per stand and enemy unit, so an enemy moving
 * about changes the movement only when it changes which directions are cut.
 */
export function binsCutByEnemy(ctx: VbContext, s: VbStand, enemy: VbUnit): number {
  let mask = 0;
  let scene: ReturnType<typeof sightScene> | undefined;
  for (const t of enemy.combatStands) {
    const bins = binsToward(s, t.center);
    if ((bins & ~mask) === 0) continue;
    if (standSight(ctx, s, t, false, false, (scene ??= sightScene(ctx))).clear) mask = (mask | bins) >>> 0;
  }
  return mask;
}

/** Every enemy's cut directions together (`binsCutByEnemy` over the enemy units, in the state's order). */
export function binsCutByEnemies(ctx: VbContext, info: VbUnit, s: VbStand): number {
  let mask = 0;
  for (const e of ctx.enemyTargets(info.unit.side)) {
    const enemy = ctx.units.get(e.id);
    if (enemy) mask = (mask | binsCutByEnemy(ctx, s, enemy)) >>> 0;
  }
  return mask;
}

/** The reach with the directions of `mask` cut to the stand's centre (the reach itself for none). */
export function cutBins(s: VbStand, reach: readonly PointIn[], mask: number): readonly PointIn[] {
  if (mask === 0) return reach;
  const cut = [...reach];
  for (let b = 0; b < REACH_BINS; b++) if (mask & (1 << b)) cut[b] = { xIn: s.center.xIn, yIn: s.center.yIn };
  return cut;
}
