/**
 * The Devil to Pay (2018): which formation a unit is in, read from its stands' positions and roles.
 *
 * Templates (The Devil to Pay (2018), Armies: Infantry, Cavalry, Artillery):
 * - line: all stands side by side, facing forward;
 * - double line: two ranks, the front rank never has fewer stands than the rear;
 * - attack column: at least five stands, two wide, at least three deep, command stand in front;
 * - march column: single file, command stand in front (it may bend to follow a road);
 * - loose order: at least one stand's width between stands, at most two;
 * - disordered: stands staggered;
 * - artillery: limbered when limber stands are present (or status.limbered), else unlimbered;
 * - cavalry: dismounted when dismounted stands are present (or status.dismounted); the mounted command
 *   stand stays behind as horse holders and is left out of the geometry.
 *
 * An explicit `status.formation` (or `status.disordered`) overrides geometry with confidence 1.
 */
import type { FormationReading } from '../../engine/evaluation.ts';
import type { Formation, Stand, Unit } from '../../model/tableState.ts';
import { angleDiffDeg, headingToVector, vectorToHeadingDeg } from '../../geometry/angles.ts';
import { hypot2 } from '../../geometry/hypot.ts';
import { sortSmall } from '../../geometry/sortSmall.ts';

/** What the rest of the rule set needs to know about a unit's formation, beyond the contract's reading. */
export interface DtpFormationReading extends FormationReading {
  /** Mounted cavalry (The Devil to Pay (2018), Mounted Cavalry): +6" move, +1 Die melee, no fire. */
  readonly mounted: boolean;
  /** Cavalry on foot (The Devil to Pay (2018), Dismounted Cavalry). */
  readonly dismounted: boolean;
  /** Artillery only: limbered (true) or unlimbered (false); undefined for other arms. */
  readonly limbered?: boolean;
  /** Facing of the formation, degrees CCW from +x (mean facing of its fighting stands). */
  readonly headingDeg: number;
  /** Stand whose centre is the unit's reference point (command stand, else the front-most stand). */
  readonly referenceStandId: string;
  /**
   * Stands in the front rank (line, double line, attack column: only these fire), left to right as the unit
   * faces; every fighting stand for loose order, disordered and unknown; the lead stand for march column.
   */
  readonly frontRankStandIds: readonly string[];
}

/** A geometry score below this is reported as 'unknown'. */
const MIN_CONFIDENCE = 0.35;

/** Soft fit: 1 inside `exact`, falling linearly to 0 at `exact + slack` (both in the same unit as `error`). */
function fit(error: number, exact: number, slack: number): number {
  const over = Math.abs(error) - exact;
  if (over <= 0) return 1;
  return Math.max(0, 1 - over / slack);
}

/** Fit of a value to the interval [lo, hi], with the same soft edges as `fit`. */
function fitRange(value: number, lo: number, hi: number, exact: number, slack: number): number {
  const outside = value < lo ? lo - value : value > hi ? value - hi : 0;
  return fit(outside, exact, slack);
}

interface Local {
  readonly stand: Stand;
  /** Lateral offset, inches, positive to the unit's right. */
  readonly u: number;
  /** Forward offset, inches, positive ahead of the reference stand. */
  readonly v: number;
  /** Facing relative to the unit, degrees in (-180, 180]. */
  readonly relDeg: number;
}

function median(values: readonly number[]): number {
  const s = sortSmall([...values], (a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Mean heading of stands (vector mean, so 359° and 1° average to 0°). */
function meanHeadingDeg(stands: readonly Stand[]): number {
  let x = 0;
  let y = 0;
  for (const s of stands) {
    const v = headingToVector(s.pose.headingDeg);
    x += v.x;
    y += v.y;
  }
  return vectorToHeadingDeg(x, y);
}

function toLocal(stands: readonly Stand[], origin: Stand, headingDeg: number): Local[] {
  const f = headingToVector(headingDeg);
  // Right of the facing is the forward vector turned 90° clockwise.
  const rx = f.y;
  const ry = -f.x;
  return stands.map((stand) => {
    const dx = stand.pose.xIn - origin.pose.xIn;
    const dy = stand.pose.yIn - origin.pose.yIn;
    return { stand, u: dx * rx + dy * ry, v: dx * f.x + dy * f.y, relDeg: angleDiffDeg(headingDeg, stand.pose.headingDeg) };
  });
}

/** Group stands into ranks by forward offset: a new rank starts where v drops by more than half a depth. */
function ranksOf(local: readonly Local[], depthIn: number): Local[][] {
  const byV = sortSmall([...local], (a, b) => b.v - a.v);
  const ranks: Local[][] = [];
  let current: Local[] = [];
  let rankV = Number.POSITIVE_INFINITY;
  for (const l of byV) {
    if (current.length > 0 && rankV - l.v > depthIn / 2) {
      ranks.push(current);
      current = [];
    }
    if (current.length === 0) rankV = l.v;
    current.push(l);
  }
  if (current.length > 0) ranks.push(current);
  for (const r of ranks) sortSmall(r, (a, b) => a.u - b.u);
  return ranks;
}

/** How well every stand faces the unit's way: 1 within 10°, 0 at 40° off. */
function alignmentFit(local: readonly Local[]): number {
  let worst = 0;
  for (const l of local) worst = Math.max(worst, Math.abs(l.relDeg));
  return fit(worst, 10, 30);
}

/** Side-by-side fit of one rank: edge gaps between `loGapIn` and `hiGapIn`, and the rank dressed (same v). */
function rankFit(rank: readonly Local[], widthIn: number, depthIn: number, loGapIn: number, hiGapIn: number): number {
  let score = 1;
  const meanV = rank.reduce((acc, l) => acc + l.v, 0) / rank.length;
  for (let i = 0; i < rank.length; i++) {
    const l = rank[i]!;
    score = Math.min(score, fit(l.v - meanV, 0.15 * depthIn, 0.4 * depthIn));
    if (i > 0) {
      const gap = l.u - rank[i - 1]!.u - widthIn;
      score = Math.min(score, fitRange(gap, loGapIn, hiGapIn, 0.15 * widthIn, 0.5 * widthIn));
    }
  }
  return score;
}

/** Ranks touching front to back: the gap between one rank and the next is about zero (up to half a depth). */
function rankSpacingFit(ranks: readonly Local[][], depthIn: number): number {
  let score = 1;
  for (let i = 1; i < ranks.length; i++) {
    const gap = ranks[i - 1]![0]!.v - ranks[i]![0]!.v - depthIn;
    score = Math.min(score, fitRange(gap, 0, 0.5 * depthIn, 0.1 * depthIn, 0.5 * depthIn));
  }
  return score;
}

/** Rear ranks sit behind the front rank, not off to one side. */
function rankOverlapFit(ranks: readonly Local[][], widthIn: number): number {
  const front = ranks[0]!;
  const lo = front[0]!.u;
  const hi = front[front.length - 1]!.u;
  let score = 1;
  for (const r of ranks.slice(1)) for (const l of r) score = Math.min(score, fitRange(l.u, lo, hi, 0.25 * widthIn, 0.5 * widthIn));
  return score;
}

interface Candidate {
  readonly formation: Formation;
  readonly score: number;
  readonly front: readonly Local[];
}

/**
 * Single file from the lead stand: each next stand is directly behind the previous one (measured in the
 * previous stand's own frame, so the column may bend along a road).
 */
function marchColumnFit(stands: readonly Stand[], lead: Stand, widthIn: number, depthIn: number): number {
  if (stands.length < 2) return 0;
  const left = new Set(stands.filter((s) => s !== lead));
  let prev = lead;
  let score = 1;
  while (left.size > 0) {
    let best: Stand | undefined;
    let bestD = Number.POSITIVE_INFINITY;
    for (const s of left) {
      const d = hypot2(s.pose.xIn - prev.pose.xIn, s.pose.yIn - prev.pose.yIn);
      if (d < bestD) {
        bestD = d;
        best = s;
      }
    }
    const next = best!;
    left.delete(next);
    const [l] = toLocal([next], prev, prev.pose.headingDeg);
    // Behind by one depth (gaps up to a depth tolerated), centred, facing within 20° of the previous stand.
    score = Math.min(
      score,
      fitRange(-l!.v - depthIn, 0, depthIn, 0.1 * depthIn, 0.6 * depthIn),
      fit(l!.u, 0.15 * widthIn, 0.4 * widthIn),
      fit(l!.relDeg, 20, 25),
    );
    prev = next;
  }
  return score;
}

/** Staggered stands: neighbours (by lateral order) alternate forward/back by a third of a depth or more. */
function staggeredFit(local: readonly Local[], widthIn: number, depthIn: number): number {
  if (local.length < 3) return 0;
  const byU = sortSmall([...local], (a, b) => a.u - b.u);
  let staggered = 0;
  let prevSign = 0;
  for (let i = 1; i < byU.length; i++) {
    const a = byU[i - 1]!;
    const b = byU[i]!;
    const dv = b.v - a.v;
    const du = b.u - a.u;
    const sign = Math.sign(dv);
    // A neighbour half a width to a width and a half to the side (staggered stands stay close, unlike loose
    // order), a third of a depth to 1.5 depths forward or back, alternating.
    const isStep = du >= 0.5 * widthIn && du <= 1.6 * widthIn && Math.abs(dv) >= 0.35 * depthIn && Math.abs(dv) <= 1.5 * depthIn;
    if (isStep && sign !== prevSign) staggered++;
    prevSign = isStep ? sign : 0;
  }
  return staggered / (byU.length - 1);
}

function arrangement(stands: readonly Stand[], reference: Stand, headingDeg: number, dismountedCavalry: boolean): Candidate[] {
  const widthIn = median(stands.map((s) => s.widthIn));
  const depthIn = median(stands.map((s) => s.depthIn));
  const local = toLocal(stands, reference, headingDeg);
  const ranks = ranksOf(local, depthIn);
  const align = alignmentFit(local);
  const front = ranks[0]!;
  const refInFront = front.some((l) => l.stand === reference);
  const candidates: Candidate[] = [];
  if (ranks.length === 1) {
    // Armies, Infantry (Line): side by side, edges touching.
    candidates.push({ formation: 'line', score: Math.min(align, rankFit(front, widthIn, depthIn, 0, 0)), front });
    // Armies, Infantry (Loose Order): at least one stand's width between stands, at most two.
    candidates.push({ formation: 'loose-order', score: Math.min(align, rankFit(front, widthIn, depthIn, widthIn, 2 * widthIn)), front });
  }
  if (ranks.length === 2 && stands.length >= 3 && front.length >= ranks[1]!.length) {
    // Armies, Infantry (double line): the front rank may never have fewer stands than the rear rank.
    const score = Math.min(align, ...ranks.map((r) => rankFit(r, widthIn, depthIn, 0, 0)), rankSpacingFit(ranks, depthIn), rankOverlapFit(ranks, widthIn));
    candidates.push({ formation: 'double-line', score, front });
  }
  if (ranks.length >= 3 && stands.length >= 5 && ranks.every((r, i) => r.length === 2 || (r.length === 1 && i === ranks.length - 1))) {
    // Armies, Infantry (Attack Column): >= 5 stands, two wide, >= 3 deep, command stand in the front.
    let score = Math.min(align, ...ranks.map((r) => rankFit(r, widthIn, depthIn, 0, 0)), rankSpacingFit(ranks, depthIn), rankOverlapFit(ranks, widthIn));
    if (!refInFront) score *= 0.5;
    candidates.push({ formation: 'attack-column', score, front });
  }
  // Armies, Infantry (March Column): single file, command stand in front.
  const lead = front.length === 1 ? front[0]!.stand : reference;
  let marchScore = marchColumnFit(stands, reference, widthIn, depthIn);
  if (marchScore === 0 && lead !== reference) marchScore = 0.5 * marchColumnFit(stands, lead, widthIn, depthIn);
  candidates.push({ formation: 'march-column', score: marchScore, front: local.filter((l) => l.stand === reference) });
  // Armies, Infantry (Disordered): the stands are staggered.
  candidates.push({ formation: 'disordered', score: staggeredFit(local, widthIn, depthIn), front: local });
  if (dismountedCavalry) {
    // Dismounted Cavalry: may not use Line or Attack Column; it "generally fights in Loose Order".
    return candidates.map((c) => (c.formation === 'line' || c.formation === 'attack-column' ? { ...c, score: c.score * 0.5 } : c));
  }
  return candidates;
}

/** True when the unit's cavalry is on foot: status wins, else any stand with role 'dismounted'. */
export function isDismounted(unit: Unit, stands: readonly Stand[]): boolean {
  if (unit.arm !== 'cavalry') return false;
  if (unit.status?.dismounted !== undefined) return unit.status.dismounted;
  return stands.some((s) => s.role === 'dismounted');
}

/** True for an artillery unit with its limbers: status wins, else any stand with role 'limber'. */
export function isLimbered(unit: Unit, stands: readonly Stand[]): boolean {
  if (unit.arm !== 'artillery') return false;
  if (unit.status?.limbered !== undefined) return unit.status.limbered;
  return stands.some((s) => s.role === 'limber');
}

/**
 * Recognise a unit's formation from its stands on the table.
 *
 * @param unit the unit (its `status` may override the geometry)
 * @param stands the unit's stands that are on the table (removed stands are simply absent)
 * @returns formation, confidence 0..1 (1 when set by status) and the facts movement, fire and charge need
 * @throws when the unit has no stands on the table and no status formation (nothing to read)
 * @example recognizeFormation(unit, standsOfUnit).formation // 'line'
 */
export function recognizeFormation(unit: Unit, stands: readonly Stand[]): DtpFormationReading {
  const dismounted = isDismounted(unit, stands);
  const mounted = unit.arm === 'cavalry' && !dismounted;
  const limbered = unit.arm === 'artillery' ? isLimbered(unit, stands) : undefined;
  // Dismounted Cavalry: the mounted command stand stays behind as horse holders and does not fight.
  const fighting = stands.filter(
    (s) => s.role !== 'commander' && s.role !== 'limber' && !(dismounted && s.role === 'mounted'),
  );
  const pool = fighting.length > 0 ? fighting : stands.filter((s) => s.role !== 'commander');
  if (pool.length === 0) {
    throw new Error(`recognizeFormation: unit '${unit.id}' has no stands on the table; remove it from the state or give it stands`);
  }
  const command = pool.find((s) => s.role === 'command');
  // The mean facing of all stands: steadier than any one stand's marker under camera noise.
  const headingDeg = meanHeadingDeg(pool);
  const base = { mounted, dismounted, ...(limbered !== undefined ? { limbered } : {}), headingDeg };

  // Without a command stand (artillery, reduced units): the front-rank stand nearest the middle of the front.
  const reference = command ?? middleOfFront(pool, headingDeg);

  const status = unit.status;
  if (status?.formation !== undefined || status?.disordered) {
    const formation: Formation = status.disordered ? 'disordered' : status.formation!;
    return { formation, confidence: 1, source: 'status', ...base, referenceStandId: reference.id, frontRankStandIds: frontIds(pool, reference, headingDeg, formation) };
  }

  if (unit.arm === 'artillery') {
    // Artillery formations are limbered or unlimbered (Armies, Artillery); roles say which, not geometry.
    const formation: Formation = limbered ? 'limbered' : 'unlimbered';
    const staggered = staggeredFit(toLocal(pool, reference, headingDeg), median(pool.map((s) => s.widthIn)), median(pool.map((s) => s.depthIn)));
    if (staggered >= 0.99 && pool.length >= 3) {
      return { formation: 'disordered', confidence: staggered * 0.8, source: 'geometry', ...base, referenceStandId: reference.id, frontRankStandIds: pool.map((s) => s.id) };
    }
    return { formation, confidence: 0.9, source: 'geometry', ...base, referenceStandId: reference.id, frontRankStandIds: pool.map((s) => s.id) };
  }

  if (pool.length === 1) {
    // One stand fits line and march column equally; call it line, unsure.
    return { formation: 'line', confidence: 0.5, source: 'geometry', ...base, referenceStandId: reference.id, frontRankStandIds: [reference.id] };
  }

  const candidates = arrangement(pool, reference, headingDeg, dismounted);
  let best = candidates[0]!;
  for (const c of candidates) if (c.score > best.score) best = c;
  if (best.score < MIN_CONFIDENCE) {
    return { formation: 'unknown', confidence: 0, source: 'geometry', ...base, referenceStandId: reference.id, frontRankStandIds: pool.map((s) => s.id) };
  }
  return {
    formation: best.formation,
    confidence: Math.round(best.score * 100) / 100,
    source: 'geometry',
    ...base,
    referenceStandId: reference.id,
    frontRankStandIds: best.front.map((l) => l.stand.id),
  };
}

function middleOfFront(pool: readonly Stand[], headingDeg: number): Stand {
  const local = toLocal(pool, pool[0]!, headingDeg);
  const depthIn = median(pool.map((s) => s.depthIn));
  const front = ranksOf(local, depthIn)[0]!;
  const midU = (front[0]!.u + front[front.length - 1]!.u) / 2;
  return front.reduce((a, b) => (Math.abs(b.u - midU) < Math.abs(a.u - midU) ? b : a)).stand;
}

/** Front rank for a formation given by status (geometry still tells which stands are in front). */
function frontIds(pool: readonly Stand[], reference: Stand, headingDeg: number, formation: Formation): string[] {
  if (formation === 'march-column') return [reference.id];
  if (formation === 'line' || formation === 'double-line' || formation === 'attack-column') {
    const depthIn = median(pool.map((s) => s.depthIn));
    return ranksOf(toLocal(pool, reference, headingDeg), depthIn)[0]!.map((l) => l.stand.id);
  }
  return pool.map((s) => s.id);
}
