/**
 * Regimental Fire and Fury: which formation a unit is in, read from its stands (QRS II, Troop Maneuvers and
 * Deploy to the Front; Extended Line Frontage):
 * - line: one rank of stands side by side;
 * - extended line: one rank, for units that form only extended line (skirmish troops, dismounted cavalry),
 *   or one rank with intervals of up to 1" between stands (Extended Line Frontage, optional rule);
 * - field column: two stands wide, two or more deep ("a two-stand wide field column");
 * - march column: one stand wide, in file;
 * - broken: anything else (stands facing every way or scattered);
 * - guns: limbered when limber stands are present (or status.limbered), else unlimbered.
 * `status.rulesetStatus.formation` (this rule set's names) or `status.formation` overrides the stands.
 */
import type { FormationReading } from '../../engine/evaluation.ts';
import type { Formation, Stand, Unit } from '../../model/tableState.ts';
import { angleDiffDeg, headingToVector } from '../../geometry/angles.ts';
import { meanHeadingDeg } from '../../geometry/frontLine.ts';
import { qrs } from './tables/source.ts';

export type FfrFormationId = 'line' | 'extended-line' | 'field-column' | 'march-column' | 'broken' | 'garrison' | 'limbered' | 'unlimbered';

export interface FfrFormation {
  readonly id: FfrFormationId;
  readonly reading: FormationReading;
  readonly headingDeg: number;
  /** Stands that fight (gun stands of a battery, dismounted stands of dismounted cavalry). */
  readonly stands: readonly Stand[];
  /** The unit's reference stand: command stand, else the first fighting stand. */
  readonly reference: Stand;
  readonly dismounted: boolean;
  readonly limbered: boolean;
}

const GENERIC: Readonly<Record<FfrFormationId, Formation>> = {
  line: 'line',
  'extended-line': 'loose-order',
  'field-column': 'attack-column',
  'march-column': 'march-column',
  broken: 'disordered',
  garrison: 'block',
  limbered: 'limbered',
  unlimbered: 'unlimbered',
};

const NAMES: Readonly<Record<FfrFormationId, string>> = {
  line: 'Line',
  'extended-line': 'Extended line',
  'field-column': 'Field column',
  'march-column': 'March column',
  broken: 'Broken',
  garrison: 'Garrison',
  limbered: 'Limbered guns',
  unlimbered: 'Unlimbered guns',
};

const SECTIONS: Readonly<Record<FfrFormationId, string>> = {
  line: qrs('Troop Maneuvers'),
  'extended-line': qrs('Extended Line Frontage'),
  'field-column': qrs('Deploy to the Front'),
  'march-column': qrs('Deploy to the Front'),
  broken: qrs('Maneuver Effects, Panic'),
  garrison: qrs('Troop Maneuvers'),
  limbered: qrs('Gun Maneuvers'),
  unlimbered: qrs('Gun Maneuvers'),
};

/** Largest interval between stands of an extended line (Extended Line Frontage: "no single interval exceeds 1""). */
export const EXTENDED_LINE_MAX_INTERVAL_IN = 1;
/**
 * "Only skirmishers and other units with six or fewer stands in extended line may expand their frontage. Units
 * with more than six stands in extended line must remain in base-to-base contact." (Extended Line Frontage)
 */
export const EXTENDED_LINE_INTERVALS_MAX_STANDS = 6;
/** Intervals up to this are "base-to-base contact" in a read from a camera, inches. */
export const TOUCH_TOLERANCE_IN = 0.2;

const FROM_GENERIC: Partial<Record<Formation, FfrFormationId>> = {
  line: 'line',
  'loose-order': 'extended-line',
  'attack-column': 'field-column',
  'march-column': 'march-column',
  disordered: 'broken',
  block: 'garrison',
};

function clusters(values: readonly number[], gap: number): number {
  const s = [...values].sort((a, b) => a - b);
  let n = s.length > 0 ? 1 : 0;
  for (let i = 1; i < s.length; i++) if (s[i]! - s[i - 1]! > gap) n++;
  return n;
}

function make(id: FfrFormationId, confidence: number, source: 'status' | 'geometry', rest: Omit<FfrFormation, 'id' | 'reading'>): FfrFormation {
  const c = Math.round(Math.max(0, Math.min(1, confidence)) * 100) / 100;
  return { id, reading: { formation: GENERIC[id], name: NAMES[id], section: SECTIONS[id], confidence: c, source }, ...rest };
}

/** The formation of `unit`, from its status or its stands (in `unit.standIds` order, those on the table). */
export function readFormation(unit: Unit, stands: readonly Stand[], extendedLineOnly: boolean): FfrFormation {
  const status = unit.status;
  const limbered = unit.arm === 'artillery' && (status?.limbered ?? stands.some((s) => s.role === 'limber'));
  const dismounted = unit.arm === 'cavalry' && (status?.dismounted ?? stands.some((s) => s.role === 'dismounted'));
  let fighting = stands;
  if (unit.arm === 'artillery') {
    const guns = stands.filter((s) => s.role === 'gun');
    if (guns.length > 0 && !limbered) fighting = guns;
  } else if (dismounted) {
    const foot = stands.filter((s) => s.role === 'dismounted' || s.role === 'command');
    if (foot.length > 0) fighting = foot;
  }
  const reference = fighting.find((s) => s.role === 'command') ?? fighting[0]!;
  const headingDeg = meanHeadingDeg(fighting);
  const rest = { headingDeg, stands: fighting, reference, dismounted, limbered };
  if (unit.arm === 'artillery') return make(limbered ? 'limbered' : 'unlimbered', 1, status?.limbered !== undefined ? 'status' : 'geometry', rest);

  const explicit = status?.rulesetStatus?.['formation'];
  if (typeof explicit === 'string') return withLegality(make(explicit as FfrFormationId, 1, 'status', rest));
  const generic = status?.formation ? FROM_GENERIC[status.formation] : undefined;
  if (generic) return withLegality(make(generic, 1, 'status', rest));
  return withLegality({ ...geometryFormation(fighting, headingDeg, extendedLineOnly || dismounted), ...rest } as FfrFormation);
}

/** Largest interval between neighbouring stands along the rank (across the facing), inches. */
export function largestRankIntervalIn(stands: readonly Stand[], headingDeg: number): number {
  const f = headingToVector(headingDeg);
  const order = stands.map((s) => ({ x: s.pose.xIn * f.y - s.pose.yIn * f.x, w: s.widthIn })).sort((a, b) => a.x - b.x);
  let maxGap = 0;
  for (let i = 1; i < order.length; i++) maxGap = Math.max(maxGap, order[i]!.x - order[i - 1]!.x - (order[i]!.w + order[i - 1]!.w) / 2);
  return maxGap;
}

/** An extended line of more than six stands with intervals is refused, with the reason (Extended Line Frontage). */
function withLegality(f: FfrFormation): FfrFormation {
  if (f.id !== 'extended-line' || f.stands.length <= EXTENDED_LINE_INTERVALS_MAX_STANDS) return f;
  const gapIn = largestRankIntervalIn(f.stands, f.headingDeg);
  if (gapIn <= TOUCH_TOLERANCE_IN) return f;
  const illegal = {
    reason: 'formation/extended-line-intervals',
    detail: `${f.stands.length} stands in extended line with intervals (up to ${gapIn.toFixed(1)}"); units with more than ${EXTENDED_LINE_INTERVALS_MAX_STANDS} stands in extended line must remain in base-to-base contact: close the intervals.`,
    section: qrs('Extended Line Frontage'),
  };
  return { ...f, reading: { ...f.reading, illegal } };
}

/** A formation read from the stands, as `geometryFormation` returns it. */
function pickGeometry(id: FfrFormationId, confidence: number, rest: Omit<FfrFormation, 'id' | 'reading'>): Pick<FfrFormation, 'id' | 'reading'> {
  const f = make(id, confidence, 'geometry', rest);
  return { id: f.id, reading: f.reading };
}

function geometryFormation(stands: readonly Stand[], headingDeg: number, extendedOnly: boolean): Pick<FfrFormation, 'id' | 'reading'> {
  const rest = { headingDeg, stands, reference: stands[0]!, dismounted: false, limbered: false };
  if (stands.length <= 1) return pickGeometry(extendedOnly ? 'extended-line' : 'line', 0.5, rest);
  const f = headingToVector(headingDeg);
  // Right of the facing is (fy, -fx).
  let cx = 0;
  let cy = 0;
  for (const s of stands) {
    cx += s.pose.xIn / stands.length;
    cy += s.pose.yIn / stands.length;
  }
  const u = stands.map((s) => (s.pose.xIn - cx) * f.y - (s.pose.yIn - cy) * f.x);
  const v = stands.map((s) => (s.pose.xIn - cx) * f.x + (s.pose.yIn - cy) * f.y);
  const width = Math.min(...stands.map((s) => s.widthIn));
  const depth = Math.min(...stands.map((s) => s.depthIn));
  let spread = 0;
  for (const s of stands) spread = Math.max(spread, Math.abs(angleDiffDeg(s.pose.headingDeg, headingDeg)));
  const facingFit = 1 - Math.min(1, spread / 45) * 0.5;
  if (spread > 45) return pickGeometry('broken', 0.8, rest);

  const ranks = clusters(v, depth / 2);
  const files = clusters(u, width / 2);
  if (ranks === 1) {
    const order = u.map((x, i) => ({ x, w: stands[i]!.widthIn })).sort((a, b) => a.x - b.x);
    let maxGap = 0;
    for (let i = 1; i < order.length; i++) maxGap = Math.max(maxGap, order[i]!.x - order[i - 1]!.x - (order[i]!.w + order[i - 1]!.w) / 2);
    if (maxGap <= TOUCH_TOLERANCE_IN) return pickGeometry(extendedOnly ? 'extended-line' : 'line', facingFit, rest);
    // More than six stands with intervals is still read as the extended line it is closest to; `withLegality` refuses it.
    if (maxGap <= EXTENDED_LINE_MAX_INTERVAL_IN + TOUCH_TOLERANCE_IN) return pickGeometry('extended-line', facingFit, rest);
    return pickGeometry('broken', 0.6, rest);
  }
  if (files === 1) {
    const order = [...v].sort((a, b) => a - b);
    let maxGap = 0;
    for (let i = 1; i < order.length; i++) maxGap = Math.max(maxGap, order[i]! - order[i - 1]! - depth);
    return pickGeometry('march-column', facingFit * (maxGap <= TOUCH_TOLERANCE_IN * 2 ? 1 : 0.6), rest);
  }
  if (files === 2 && ranks * 2 >= stands.length) return pickGeometry('field-column', facingFit, rest);
  return pickGeometry('broken', 0.4, rest);
}
