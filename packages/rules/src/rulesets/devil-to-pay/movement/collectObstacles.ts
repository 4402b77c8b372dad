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
import { boxMeets, callPieces, inBox, movementTerrainQuery, startPieces, terrainGroup, unitGroup } from './obstacleBuffer.ts';
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
  unitsBox: BoxIn,
  cannotCrossObstacles: boolean,
  ref: PointIn,
  unitRadiusIn: number,
  maxOpenIn: number,
  headingDeg: number,
  open: OpenReach,
): number {
  const terrain = ctx.t.get(movementTerrainQuery);
  const minX = reachBox.minXIn;
  const minY = reachBox.minYIn;
  const maxX = reachBox.maxXIn;
  const maxY = reachBox.maxYIn;
  resetKeys();
  startPieces();
  for (const l of terrain.linear) {
    if (!boxMeets(l.pieces.box, minX, minY, maxX, maxY)) continue;
    const penalty = l.penaltyIn;
    const stop = penalty === undefined || (cannotCrossObstacles && BLOCKS_ARTILLERY_AND_MOUNTED.has(l.feature.kind));
    pushKey(terrainGroup(l.pieces), penalty ?? 0, stop, 0, KEY_LINEAR, l.feature);
  }
  for (const a of terrain.areas) {
    const box = a.pieces.box;
    if (!boxMeets(box, minX, minY, maxX, maxY)) continue;
    const vertices = a.feature.vertices;
    if (inBox(ref.xIn, ref.yIn, box) && pointInPolygon(ref, vertices)) {
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
      if (inBox(PROBE.xIn, PROBE.yIn, box) && pointInPolygon(PROBE, vertices)) insideMask |= 1 << i;
    }
    pushKey(terrainGroup(a.pieces), a.penaltyIn, false, insideMask, KEY_AREA, a.feature);
  }
  // The units in the box the outline sweeps (within the reach box): friends first (passage of lines), then
  // enemies grown by the 1" clearance, each in the order of its list (`near`).
  const side = info.unit.side;
  const ux0 = unitsBox.minXIn, uy0 = unitsBox.minYIn, ux1 = unitsBox.maxXIn, uy1 = unitsBox.maxYIn;
  const near = ctx.near(unitsBox, side);
  for (const friend of near) {
    if (friend.unit.side !== side || friend.unit.id === unitId || friend.stands.length === 0 || !boxMeets(friend.box, ux0, uy0, ux1, uy1)) continue;
    pushKey(unitGroup(friend, false), PASSAGE_OF_LINES_PENALTY_IN, false, 0, KEY_FRIEND, friend);
  }
  for (const enemy of near) {
    if (enemy.unit.side === side || enemy.stands.length === 0 || !boxMeets(enemy.box, ux0, uy0, ux1, uy1)) continue;
    pushKey(unitGroup(enemy, true), 0, true, 0, KEY_ENEMY, enemy);
  }

  // Which directions each group can matter for: its disc grown by the unit's radius, seen from the
  // reference point (a ray from any outline point is a ray from the reference point shifted by at most that).
  const headingRad = (headingDeg * Math.PI) / 180;
  const radiusIn = open.radiusIn;
  const nKeys = keys.keyCount;
  usePieces(callPieces());
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
