/**
 * The Devil to Pay (2018), MOVE: what a unit's move can meet within its reach box, as keys
 * (`obstacleKeys.ts`): linear terrain (a penalty, or a stop where artillery and mounted cavalry cannot
 * cross or the terrain is impassable), area terrain (a penalty on entering, or at once when already inside),
 * friendly units (passage of lines, -3") and enemy units grown by 1" (a stop); and for each direction which
 * keys can matter.
 */
import type { PointIn } from '../../../model/units.ts';
import { hypot2 } from '../../../geometry/hypot.ts';
import { pointInPolygon } from '../../../geometry/intersect.ts';
import type { BoxIn, DtpContext, UnitInfo } from '../context.ts';
import { BLOCKS_ARTILLERY_AND_MOUNTED, PASSAGE_OF_LINES_PENALTY_IN } from '../tables/movementTables.ts';
import { boxesOfList, boxMeets, contextCache, groupsOfList, inBox, unitGroup } from './obstacleBuffer.ts';
import * as keys from './obstacleKeys.ts';
import { KEY_AREA, KEY_ENEMY, KEY_FRIEND, KEY_LINEAR, pushKey, pushStartArea, resetBins, resetKeys, usePieces } from './obstacleKeys.ts';
import * as openReachModule from './openReach.ts';
import type { OpenReach } from './openReach.ts';
import { OUTLINE } from './unitOutline.ts';

// This module's own constants for the bin loops (see reachWalk.ts on module variables).
const { BIN_DEG, REACH_BINS } = openReachModule;

/** A point object for pointInPolygon, overwritten per test. */
const PROBE = { xIn: 0, yIn: 0 };

/**
 * Terrain, friends and enemies within the reach box as keys (with their groups of pieces) in the scratch
 * arrays of `obstacleKeys.ts`, and which direction bins each group can matter for. Returns how many keys
 * there are.
 */
export function collectObstacles(
  ctx: DtpContext,
  info: UnitInfo,
  unitId: string,
  reachBox: BoxIn,
  cannotCrossObstacles: boolean,
  ref: PointIn,
  unitRadiusIn: number,
  maxOpenIn: number,
  headingDeg: number,
  open: OpenReach,
): number {
  const cache = contextCache(ctx);
  const minX = reachBox.minXIn;
  const minY = reachBox.minYIn;
  const maxX = reachBox.maxXIn;
  const maxY = reachBox.maxYIn;
  resetKeys();
  for (const l of cache.linear) {
    if (!boxMeets(l.box, minX, minY, maxX, maxY)) continue;
    const penalty = l.penaltyIn;
    const stop = penalty === undefined || (cannotCrossObstacles && BLOCKS_ARTILLERY_AND_MOUNTED.has(l.feature.kind));
    pushKey(l.group, penalty ?? 0, stop, 0, KEY_LINEAR, l.feature);
  }
  for (const a of cache.areas) {
    if (!boxMeets(a.box, minX, minY, maxX, maxY)) continue;
    const vertices = a.feature.vertices;
    if (inBox(ref.xIn, ref.yIn, a.box) && pointInPolygon(ref, vertices)) {
      // Starting inside area terrain: the penalty is met at once.
      pushStartArea(a.penaltyIn, a.feature);
      continue;
    }
    // Outline points already inside (part of the unit is in it): met at once when moving from them. Only
    // the corners (even bits) ever lead a ray, so the edge midpoints are not tested.
    let insideMask = 0;
    for (let i = 0; i < 8; i += 2) {
      PROBE.xIn = OUTLINE[2 * i]!;
      PROBE.yIn = OUTLINE[2 * i + 1]!;
      if (inBox(PROBE.xIn, PROBE.yIn, a.box) && pointInPolygon(PROBE, vertices)) insideMask |= 1 << i;
    }
    pushKey(a.group, a.penaltyIn, false, insideMask, KEY_AREA, a.feature);
  }
  const unit = info.unit;
  const friends = ctx.unitsBySide.get(unit.side);
  if (friends !== undefined) {
    const groups = groupsOfList(cache.friendGroups, friends);
    const fb = boxesOfList(cache, friends);
    for (let i = 0; i < friends.length; i++) {
      // boxMeets on the list's packed boxes first: most of a big table is nowhere near.
      if (fb[4 * i + 2]! < minX || fb[4 * i]! > maxX || fb[4 * i + 3]! < minY || fb[4 * i + 1]! > maxY) continue;
      const friend = friends[i]!;
      if (friend === info || friend.stands.length === 0) continue;
      const g = groups[i] ?? (groups[i] = unitGroup(cache, friend, false));
      pushKey(g, PASSAGE_OF_LINES_PENALTY_IN, false, 0, KEY_FRIEND, friend);
    }
  }
  const enemies = ctx.enemiesOf(unitId);
  const enemyGroups = groupsOfList(cache.enemyGroups, enemies);
  const eb = boxesOfList(cache, enemies);
  for (let i = 0; i < enemies.length; i++) {
    if (eb[4 * i + 2]! < minX || eb[4 * i]! > maxX || eb[4 * i + 3]! < minY || eb[4 * i + 1]! > maxY) continue;
    const enemy = enemies[i]!;
    if (enemy.stands.length === 0) continue;
    const g = enemyGroups[i] ?? (enemyGroups[i] = unitGroup(cache, enemy, true));
    pushKey(g, 0, true, 0, KEY_ENEMY, enemy);
  }

  // Which directions each group can matter for: its disc grown by the unit's radius, seen from the
  // reference point (a ray from any outline point is a ray from the reference point shifted by at most that).
  const headingRad = (headingDeg * Math.PI) / 180;
  const radiusIn = open.radiusIn;
  const nKeys = keys.keyCount;
  usePieces(cache.buf);
  resetBins(nKeys);
  const { keyGroup, binGroups, binCount, binCapacity } = keys;
  const cap = binCapacity;
  for (let gi = 0; gi < nKeys; gi++) {
    const g = keyGroup[gi]!;
    if (g.n === 0) continue;
    const ox = g.cx - ref.xIn;
    const oy = g.cy - ref.yIn;
    const grown = g.r + unitRadiusIn;
    const dist = hypot2(ox, oy);
    if (dist - grown > maxOpenIn + 0.01) continue;
    if (dist <= grown) {
      for (let b = 0; b < REACH_BINS; b++) if (radiusIn[b]! > 1e-9) binGroups[b * cap + binCount[b]!++] = gi;
      continue;
    }
    const centreDeg = ((Math.atan2(oy, ox) - headingRad) * 180) / Math.PI;
    const halfDeg = (Math.asin(grown / dist) * 180) / Math.PI + BIN_DEG / 2;
    const lo = Math.floor((centreDeg - halfDeg) / BIN_DEG);
    const hi = Math.ceil((centreDeg + halfDeg) / BIN_DEG);
    for (let b = lo; b <= hi && b < lo + REACH_BINS; b++) {
      // The bin modulo REACH_BINS (a power of two; b is a small integer, negative below the heading).
      const bb = b & (REACH_BINS - 1);
      if (radiusIn[bb]! > 1e-9) binGroups[bb * cap + binCount[bb]!++] = gi;
    }
  }
  return nKeys;
}
