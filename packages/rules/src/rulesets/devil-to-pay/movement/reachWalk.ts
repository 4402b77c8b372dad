/**
 * The Devil to Pay (2018), MOVE: the reach per direction, the hottest code of a table evaluation. From the
 * open-ground reach (`openReach.ts`), rays per direction leave the unit's leading corners for the keys'
 * pieces (terrain, friends, enemies grown by 1": `collectObstacles.ts`), and the other way round from the
 * pieces' corners (grown stands, segment ends) back at the unit's bounding rectangle, so that a narrow
 * obstacle between two corners is not missed (corner-to-edge both ways gives the exact first contact of
 * convex outlines); with the table edge, the penalties met are then paid in order against the allowance,
 * as `walkPenalties` does ("When a unit moves and does not have enough movement to overcome an obstacle it
 * stops" at it).
 *
 * One module because its loops share per-direction scratch (RAY, ORIGINS, firstAt, the events) that they
 * must read as this module's own variables: V8 (Node 20) reads another module's variables, and exported
 * ones, through a cell on every access, which cost 5-10 % of movement when these functions were split
 * across modules. For the same reason each function copies the key table's arrays (`obstacleKeys.ts`)
 * into locals on entry, and the piece layout is copied into constants below.
 */
import type { PointIn } from '../../../model/units.ts';
import { PIECE } from './obstacleBuffer.ts';
import * as keys from './obstacleKeys.ts';
import * as openReachModule from './openReach.ts';
import type { OpenReach } from './openReach.ts';
import { REACH_IS_REF, REACH_XY, polygonOf } from './reachPolygon.ts';
import * as unitOutline from './unitOutline.ts';

const { P_CX, P_CY, P_R, P_HU, P_HV, P_UX, P_UY, P_NX, P_NY, P_RC, P_CORNERS, PIECE_STRIDE } = PIECE;
const { BIN_COS, BIN_SIN, REACH_BINS } = openReachModule;
const { OUR_FRAME, OUTLINE } = unitOutline;

/**
 * Rounding room for the distance lower bounds in the ray loops (coordinates are at most a few hundred
 * inches, so rounding errors are around 1e-13): a bound must be this far past the best hit to skip a test.
 */
const BOUND_SLACK_IN = 1e-7;

/** How far the last walkReach got straight ahead, and what stopped it (set by walkReach). */
export let straightAheadInOut = 0;
export let straightAheadStoppedByOut: string | undefined;

/** Keys with outline points already inside (areas), for the per-direction start. */
let insideKeys = new Int32Array(64);
/** One direction's events: where, penalty, stop, and source (key index, TABLE_EDGE, or START_BASE - start index). */
let evAt = new Float64Array(64);
let evPenaltyIn = new Float64Array(64);
let evStop = new Uint8Array(64);
let evSource = new Int32Array(64);
const TABLE_EDGE = -1;
const START_BASE = -2;

/** Per key, the nearest distance along the current direction at which it is met (Infinity: not met). */
let firstAt = new Float64Array(64);

/** How the straight-ahead note names what stopped the unit: a key, the table edge or a start area. */
function eventLabel(source: number): string {
  if (source >= 0) return keys.keyLabel(source);
  if (source === TABLE_EDGE) return 'table edge';
  const area = keys.startArea[START_BASE - source]!;
  return `${area.kind} '${area.id}'`;
}

/**
 * The current direction for the ray passes: (dx, dy), ray length and unit radius, inches; and where the
 * nearest stop met so far lies (an enemy's 1", impassable terrain, the table edge). The penalty walk
 * never gets past that stop, so a test whose every hit would lie beyond it (by more than BOUND_SLACK_IN:
 * equal distances still count, their order decides the label) is skipped, as is one that cannot come
 * nearer than the key's best hit so far. Doubles passed as arguments to a call V8 does not inline are
 * boxed (one allocation each); read from here they are not.
 */
const RAY = new Float64Array(5);
const RAY_DX = 0;
const RAY_DY = 1;
const RAY_LEN = 2;
const RAY_UNIT_RADIUS = 3;
const RAY_STOP = 4;

/** The outline points rays leave from in the current direction, [x0, y0, ...] (at most 4). */
const ORIGINS = new Float64Array(8);

/**
 * The reach per direction: rays from the unit's outline to what they meet, and back from the obstacles'
 * corners (raysForDirection, forwardGroup), then the penalties paid in order (walkEvents, as
 * walkPenalties). Split in small functions so the JIT compiles each quickly; the rectangle tests are
 * written out in the loops because a call that V8 does not inline boxes every double argument.
 */
export function walkReach(open: OpenReach, allowanceIn: number, fx: number, fy: number, masks: Int32Array, nKeys: number, unitRadiusIn: number, ref: PointIn, widthIn: number, depthIn: number): PointIn[] {
  straightAheadInOut = 0;
  straightAheadStoppedByOut = undefined;
  const { keyInsideMask, binCount, binGroups, binCapacity, startCount } = keys;
  const nStart = startCount;
  if (firstAt.length < nKeys) firstAt = new Float64Array(nKeys * 2);
  if (evAt.length < nKeys + nStart + 1) {
    const n = (nKeys + nStart + 1) * 2;
    evAt = new Float64Array(n);
    evPenaltyIn = new Float64Array(n);
    evStop = new Uint8Array(n);
    evSource = new Int32Array(n);
  }
  const first = firstAt;
  const outline = OUTLINE;
  // Every key starts unmet; each direction puts back what it touched (its groups, the areas met at once),
  // instead of resetting every key per direction.
  first.fill(Infinity, 0, nKeys);
  if (insideKeys.length < nKeys) insideKeys = new Int32Array(nKeys * 2);
  let nInside = 0;
  for (let key = 0; key < nKeys; key++) if (keyInsideMask[key] !== 0) insideKeys[nInside++] = key;
  for (let b = 0; b < REACH_BINS; b++) {
    const openR = open.radiusIn[b]!;
    if (openR <= 1e-9) {
      REACH_XY[2 * b] = ref.xIn;
      REACH_XY[2 * b + 1] = ref.yIn;
      REACH_IS_REF[b] = 1;
      continue;
    }
    const k = allowanceIn / openR;
    const lx = BIN_COS[b]!;
    const ly = BIN_SIN[b]!;
    const dx = lx * fx - ly * fy;
    const dy = lx * fy + ly * fx;
    const lenIn = openR + 0.01;
    // Rays leave from the unit's corners that lead in this direction.
    const originMask = masks[b]!;
    let any = false;
    for (let i = 0; i < nInside; i++) {
      const key = insideKeys[i]!;
      if (keyInsideMask[key]! & originMask) {
        first[key] = 0;
        any = true;
      }
    }
    // The table edge: the nearest over the leading points of max(0, min(tx, ty)). Each of tx and ty is
    // monotone in one coordinate (rounded subtraction and division are monotone), so the smallest comes
    // from the extreme point and two divisions give the same number as two per point did.
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    let nOrigins = 0;
    for (let oi = 0; oi < 8; oi++) {
      if (!(originMask & (1 << oi))) continue;
      const ox = outline[2 * oi]!;
      const oy = outline[2 * oi + 1]!;
      ORIGINS[2 * nOrigins] = ox;
      ORIGINS[2 * nOrigins + 1] = oy;
      nOrigins++;
      if (ox < minX) minX = ox;
      if (ox > maxX) maxX = ox;
      if (oy < minY) minY = oy;
      if (oy > maxY) maxY = oy;
    }
    let tableAt = Infinity;
    if (originMask !== 0) {
      const tx = dx > 1e-12 ? (widthIn - maxX) / dx : dx < -1e-12 ? -minX / dx : Infinity;
      const ty = dy > 1e-12 ? (depthIn - maxY) / dy : dy < -1e-12 ? -minY / dy : Infinity;
      tableAt = Math.max(0, Math.min(tx, ty));
    }
    // The walk ends at the nearest stop at the latest; anything surely beyond it need not be tested. (Keys
    // met at once are areas, never stops.)
    RAY[RAY_STOP] = tableAt;
    RAY[RAY_DX] = dx;
    RAY[RAY_DY] = dy;
    RAY[RAY_LEN] = lenIn;
    RAY[RAY_UNIT_RADIUS] = unitRadiusIn;
    if (binCount[b]! > 0 && raysForDirection(b, nOrigins)) any = true;
    let reachIn = openR;
    if (any || nStart > 0 || tableAt <= lenIn) {
      // Something is met on the way: pay for it in order (most directions on a busy table meet nothing).
      reachIn = walkEvents(b, nInside, allowanceIn, tableAt <= lenIn ? tableAt : -1, k, openR);
    }
    if (b === 0) straightAheadInOut = reachIn;
    for (let li = b * binCapacity, end = li + binCount[b]!; li < end; li++) first[binGroups[li]!] = Infinity;
    for (let i = 0; i < nInside; i++) first[insideKeys[i]!] = Infinity;
    REACH_XY[2 * b] = ref.xIn + dx * reachIn;
    REACH_XY[2 * b + 1] = ref.yIn + dy * reachIn;
    REACH_IS_REF[b] = 0;
  }
  return polygonOf(REACH_XY, REACH_IS_REF, ref);
}

/**
 * Distance along the ray from (ox, oy) with unit direction (dx, dy) to segment (ax, ay)-(bx, by), or -1 when
 * it misses within `lenIn`. (Same maths as geometry/intersect's segmentIntersection, without allocating:
 * this runs tens of thousands of times per table.)
 */
function raySegmentIn(ox: number, oy: number, dx: number, dy: number, lenIn: number, ax: number, ay: number, bx: number, by: number): number {
  const sx = bx - ax;
  const sy = by - ay;
  const denom = dx * sy - dy * sx;
  if (Math.abs(denom) < 1e-12) return -1;
  const qx = ax - ox;
  const qy = ay - oy;
  const t = (qx * sy - qy * sx) / denom;
  if (t < -1e-9 || t > lenIn) return -1;
  const u = (qx * dy - qy * dx) / denom;
  if (u < -1e-9 || u > 1 + 1e-9) return -1;
  return Math.max(0, t);
}

/**
 * Rays from the nOrigins leading outline points (ORIGINS) along (dx, dy) against group gi, lowering
 * firstAt[gi] and the nearest stop in RAY. Returns whether they met anything. The rectangle test is
 * rayIntoRectIn's arithmetic, written out.
 */
function forwardGroup(gi: number, nOrigins: number): boolean {
  const { keyR, keyCX, keyCY, keyReach, keyN, keySeg, keyOff, keyStop, pieceBuf } = keys;
  let stopAtIn = RAY[RAY_STOP]!;
  const dx = RAY[RAY_DX]!;
  const dy = RAY[RAY_DY]!;
  const lenIn = RAY[RAY_LEN]!;
  const first = firstAt;
  const p = pieceBuf;
  const gr = keyR[gi]!;
  const gcx = keyCX[gi]!;
  const gcy = keyCY[gi]!;
  const reach = keyReach[gi]!;
  const m = keyN[gi]!;
  const seg = keySeg[gi] === 1;
  let any = false;
  for (let k = 0; k < nOrigins; k++) {
    const ox = ORIGINS[2 * k]!;
    const oy = ORIGINS[2 * k + 1]!;
    // Ray against the group's disc first.
    const qx = gcx - ox;
    const qy = gcy - oy;
    const along = qx * dx + qy * dy;
    const across = qx * dy - qy * dx;
    // One branch per test (| rather than ||): these culls are data-dependent and mispredict often.
    if (+(along < -gr) | +(along > lenIn + gr) | +(Math.abs(across) > gr)) continue;
    // No point of the group is nearer along the ray than its centre minus its reach.
    const groupNearest = along - reach - BOUND_SLACK_IN;
    if (+(groupNearest >= first[gi]!) | +(groupNearest > stopAtIn)) continue;
    for (let j = 0, at = keyOff[gi]!; j < m; j++, at += PIECE_STRIDE) {
      const cx = p[at + P_CX]!;
      const cy = p[at + P_CY]!;
      const px = cx - ox;
      const py = cy - oy;
      const pAlong = px * dx + py * dy;
      if (m > 1) {
        // The piece's own disc, when the group has more than one piece.
        const r = p[at + P_R]!;
        const pAcross = px * dy - py * dx;
        if (+(Math.abs(pAcross) > r) | +(pAlong < -r) | +(pAlong > lenIn + r)) continue;
      }
      const pieceNearest = pAlong - p[at + P_RC]! - BOUND_SLACK_IN;
      if (+(pieceNearest >= first[gi]!) | +(pieceNearest > stopAtIn)) continue;
      let t: number;
      if (seg) {
        t = raySegmentIn(ox, oy, dx, dy, lenIn, p[at + P_CORNERS]!, p[at + P_CORNERS + 1]!, p[at + P_CORNERS + 2]!, p[at + P_CORNERS + 3]!);
      } else {
        // rayIntoRectIn(ox, oy, dx, dy, piece).
        const ux = p[at + P_UX]!;
        const uy = p[at + P_UY]!;
        const nx = p[at + P_NX]!;
        const ny = p[at + P_NY]!;
        const hu = p[at + P_HU]!;
        const hv = p[at + P_HV]!;
        const ou = (ox - cx) * ux + (oy - cy) * uy;
        const ov = (ox - cx) * nx + (oy - cy) * ny;
        const du = dx * ux + dy * uy;
        const dv = dx * nx + dy * ny;
        let t0 = 0;
        let t1 = Infinity;
        if (Math.abs(du) < 1e-12) {
          if (ou <= -hu + 1e-6 || ou >= hu - 1e-6) continue;
        } else {
          const a = (-hu - ou) / du;
          const c = (hu - ou) / du;
          t0 = Math.max(t0, Math.min(a, c));
          t1 = Math.min(t1, Math.max(a, c));
        }
        if (Math.abs(dv) < 1e-12) {
          if (ov <= -hv + 1e-6 || ov >= hv - 1e-6) continue;
        } else {
          const a = (-hv - ov) / dv;
          const c = (hv - ov) / dv;
          t0 = Math.max(t0, Math.min(a, c));
          t1 = Math.min(t1, Math.max(a, c));
        }
        if (t0 > t1 || t1 <= 1e-9) continue;
        if (t0 === 0 && (cx - ox) * dx + (cy - oy) * dy <= 0) continue;
        t = t0;
      }
      if (t >= 0 && t <= lenIn && t < first[gi]!) {
        first[gi] = t;
        any = true;
        if (keyStop[gi] && t < stopAtIn) stopAtIn = t;
      }
    }
  }
  RAY[RAY_STOP] = stopAtIn;
  return any;
}

/**
 * Bin b's groups, one at a time: rays from the nOrigins leading outline points (ORIGINS) along (dx, dy)
 * (forwardGroup), then the other way round, the group's own corners (grown stands, segment ends) cast
 * along (-dx, -dy) at the unit's bounding rectangle, so a narrow obstacle between two leading points is
 * not missed. Lowers firstAt per key; returns whether anything was met. The rectangle test here is
 * rayIntoRectIn's arithmetic against OUR_FRAME. (One loop over the groups for both: the offsets from the
 * rectangle's centre serve both culls, and each group's pieces are read while in cache.)
 */
function raysForDirection(b: number, nOrigins: number): boolean {
  const { keyR, keyCX, keyCY, keySpread, keyReach, keyN, keySeg, keyOff, keyStop, binGroups, binCapacity, binCount, pieceBuf } = keys;
  let stopAtIn = RAY[RAY_STOP]!;
  const dx = RAY[RAY_DX]!;
  const dy = RAY[RAY_DY]!;
  const lenIn = RAY[RAY_LEN]!;
  const unitRadiusIn = RAY[RAY_UNIT_RADIUS]!;
  const first = firstAt;
  const bins = binGroups;
  const frame = OUR_FRAME;
  const fcx = frame[0]!;
  const fcy = frame[1]!;
  const fux = frame[2]!;
  const fuy = frame[3]!;
  const fnx = frame[4]!;
  const fny = frame[5]!;
  const fhu = frame[6]! + 0;
  const fhv = frame[7]! + 0;
  // The unit's half-extent across and along this direction: corners outside that corridor cannot meet it.
  const halfAcross = frame[6]! * Math.abs(frame[2]! * -dy + frame[3]! * dx) + frame[7]! * Math.abs(frame[4]! * -dy + frame[5]! * dx);
  const halfAlong = frame[6]! * Math.abs(frame[2]! * dx + frame[3]! * dy) + frame[7]! * Math.abs(frame[4]! * dx + frame[5]! * dy);
  // The ray direction is (-dx, -dy) for every corner: its components along the frame's axes are fixed.
  const rdx = -dx;
  const rdy = -dy;
  const du = rdx * fux + rdy * fuy;
  const dv = rdx * fnx + rdy * fny;
  const duFlat = Math.abs(du) < 1e-12;
  const dvFlat = Math.abs(dv) < 1e-12;
  const listEnd = b * binCapacity + binCount[b]!;
  const p = pieceBuf;
  let any = false;
  for (let li = b * binCapacity; li < listEnd; li++) {
    const gi = bins[li]!;
    const gr = keyR[gi]!;
    const qx = keyCX[gi]! - fcx;
    const qy = keyCY[gi]! - fcy;
    const along = qx * dx + qy * dy;
    const across = qx * dy - qy * dx;
    // Forward rays first (their hits let the corner tests below skip more). Every outline point lies
    // within halfAcross across and halfAlong along of the rectangle's centre, so a group whose disc misses
    // that corridor fails forwardGroup's disc test from every origin (with room for rounding).
    const grF = gr + 1e-9;
    if (!(+(Math.abs(across) > grF + halfAcross) | +(along + halfAlong < -grF) | +(along - halfAlong > lenIn + grF))) {
      RAY[RAY_STOP] = stopAtIn;
      if (forwardGroup(gi, nOrigins)) any = true;
      stopAtIn = RAY[RAY_STOP]!;
    }
    const grown = gr + unitRadiusIn;
    // Tighter: every piece's disc misses the unit's swept corridor (the per-piece test below would skip each).
    const spread = keySpread[gi]!;
    if (
      +(along < -grown) | +(along > lenIn + gr + unitRadiusIn) | +(Math.abs(across) > grown) |
      +(Math.abs(across) > halfAcross + spread) | +(along < -halfAlong - spread) | +(along > lenIn + halfAlong + spread)
    ) {
      continue;
    }
    // A corner meets the unit no nearer than its distance along the ray less the unit's half-extent.
    const groupNearest = along - keyReach[gi]! - halfAlong - BOUND_SLACK_IN;
    if (+(groupNearest >= first[gi]!) | +(groupNearest > stopAtIn)) continue;
    const m = keyN[gi]!;
    const cornersEnd = keySeg[gi] === 1 ? 4 : 8;
    for (let j = 0, at = keyOff[gi]!; j < m; j++, at += PIECE_STRIDE) {
      // The piece's disc against the unit's swept corridor.
      const r = p[at + P_R]!;
      const mx = p[at + P_CX]! - fcx;
      const my = p[at + P_CY]! - fcy;
      const mAcross = mx * -dy + my * dx;
      const mAlong = mx * dx + my * dy;
      const pieceNearest = mAlong - p[at + P_RC]! - halfAlong - BOUND_SLACK_IN;
      if (+(Math.abs(mAcross) > halfAcross + r) | +(mAlong < -halfAlong - r) | +(mAlong > lenIn + halfAlong + r) | +(pieceNearest >= first[gi]!) | +(pieceNearest > stopAtIn)) continue;
      for (let c = at + P_CORNERS; c < at + P_CORNERS + cornersEnd; c += 2) {
        const ox = p[c]!;
        const oy = p[c + 1]!;
        const cx = ox - fcx;
        const cy = oy - fcy;
        const cAcross = cx * -dy + cy * dx;
        const cAlong = cx * dx + cy * dy;
        const cornerNearest = cAlong - halfAlong - BOUND_SLACK_IN;
        if (+(Math.abs(cAcross) > halfAcross) | +(cAlong < -halfAlong) | +(cAlong > lenIn + halfAlong) | +(cornerNearest >= first[gi]!) | +(cornerNearest > stopAtIn)) continue;
        // rayIntoRectIn(ox, oy, -dx, -dy, OUR_FRAME, 0).
        const ou = (ox - fcx) * fux + (oy - fcy) * fuy;
        const ov = (ox - fcx) * fnx + (oy - fcy) * fny;
        let t0 = 0;
        let t1 = Infinity;
        if (duFlat) {
          if (ou <= -fhu + 1e-6 || ou >= fhu - 1e-6) continue;
        } else {
          const a = (-fhu - ou) / du;
          const e = (fhu - ou) / du;
          t0 = Math.max(t0, Math.min(a, e));
          t1 = Math.min(t1, Math.max(a, e));
        }
        if (dvFlat) {
          if (ov <= -fhv + 1e-6 || ov >= fhv - 1e-6) continue;
        } else {
          const a = (-fhv - ov) / dv;
          const e = (fhv - ov) / dv;
          t0 = Math.max(t0, Math.min(a, e));
          t1 = Math.min(t1, Math.max(a, e));
        }
        if (t0 > t1 || t1 <= 1e-9) continue;
        if (t0 === 0 && (fcx - ox) * rdx + (fcy - oy) * rdy <= 0) continue;
        const t = t0;
        if (t <= lenIn && t < first[gi]!) {
          first[gi] = t;
          any = true;
          if (keyStop[gi] && t < stopAtIn) stopAtIn = t;
        }
      }
    }
  }
  RAY[RAY_STOP] = stopAtIn;
  return any;
}

/**
 * walkPenalties over this direction's events (start areas, then keys met, then the table edge at
 * `tableAtIn` when not negative), sorted stably by distance as walkPenalties' sort does. Returns the reach;
 * for the straight-ahead direction also records what stopped the unit.
 */
function walkEvents(b: number, nInside: number, allowanceIn: number, tableAtIn: number, k: number, limitIn: number): number {
  const { startCount, startPenaltyIn, binGroups, binCapacity, binCount, keyPenaltyIn, keyStop } = keys;
  const straight = b === 0;
  let n = 0;
  for (let s = 0; s < startCount; s++) {
    evAt[n] = 0;
    evPenaltyIn[n] = startPenaltyIn[s]!;
    evStop[n] = 0;
    evSource[n++] = START_BASE - s;
  }
  // Only this direction's groups and the areas met at once can have been met: walk both lists (each in
  // key order) merged, so the events come in key order as before.
  const bins = binGroups;
  let li = b * binCapacity;
  const listEnd = li + binCount[b]!;
  let ii = 0;
  while (li < listEnd || ii < nInside) {
    const fromList = li < listEnd ? bins[li]! : 0x7fffffff;
    const fromInside = ii < nInside ? insideKeys[ii]! : 0x7fffffff;
    const key = fromList < fromInside ? fromList : fromInside;
    if (fromList === key) li++;
    if (fromInside === key) ii++;
    const a = firstAt[key]!;
    if (a === Infinity) continue;
    evAt[n] = a;
    evPenaltyIn[n] = keyPenaltyIn[key]!;
    evStop[n] = keyStop[key] ? 1 : 0;
    evSource[n++] = key;
  }
  if (tableAtIn >= 0) {
    evAt[n] = tableAtIn;
    evPenaltyIn[n] = 0;
    evStop[n] = 1;
    evSource[n++] = TABLE_EDGE;
  }
  // Stable insertion sort by distance (a handful of events).
  for (let i = 1; i < n; i++) {
    const a = evAt[i]!;
    const p = evPenaltyIn[i]!;
    const st = evStop[i]!;
    const src = evSource[i]!;
    let j = i - 1;
    while (j >= 0 && evAt[j]! > a) {
      evAt[j + 1] = evAt[j]!;
      evPenaltyIn[j + 1] = evPenaltyIn[j]!;
      evStop[j + 1] = evStop[j]!;
      evSource[j + 1] = evSource[j]!;
      j--;
    }
    evAt[j + 1] = a;
    evPenaltyIn[j + 1] = p;
    evStop[j + 1] = st;
    evSource[j + 1] = src;
  }
  // The same steps as walkPenalties.
  let budget = allowanceIn;
  let limit = limitIn;
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, evAt[i]!);
    if (a * k >= budget || a >= limit) break;
    if (evStop[i] || budget - a * k < evPenaltyIn[i]!) {
      if (straight) straightAheadStoppedByOut = eventLabel(evSource[i]!);
      return a;
    }
    budget -= evPenaltyIn[i]!;
  }
  limit = Math.min(limit, budget / k);
  return Math.max(0, limit);
}
