/**
 * Stands counted for the outnumbered modifier of the Charge Table (QRS II, Figure 4 "Outnumbered by 3:2, 2:1,
 * 3:1 or more"; Extended Line Frontage): "an extended line with intervals can count only the stands that are
 * within 1" of the charging unit and in the path of the charge when determining the modifier for being
 * outnumbered. All of the stands are counted in an extended line without intervals."
 *
 * Reading (the charge is evaluated before it moves): a stand of a charged extended line with intervals counts
 * when it is "in the path of the charge", some of it lying across the charging unit's frontage carried
 * straight ahead (not beside it), and "within 1" of the charging unit" once the charge has moved up to the
 * first stand it meets there: its near face no more than 1" deeper than that stand's. Every other unit
 * counts all its troop stands. The other reading, which also counts stands within 1" beside the path, is
 * `EXTENDED_LINE_PATH_FLANK_MARGIN_IN` set to 1.
 */
import type { FfrUnitInfo } from './context.ts';
import { TOUCH_TOLERANCE_IN } from './formation.ts';
import { qrs } from './tables/source.ts';

/** "within 1" of the charging unit" (Extended Line Frontage): how much deeper than the first stand met a counted stand may lie. */
export const EXTENDED_LINE_WITHIN_IN = 1;
/** Widening of the path beside the charger's flanks: 0, the path itself (the reading chosen; 1 counts stands beside it). */
export const EXTENDED_LINE_PATH_FLANK_MARGIN_IN = 0;
export const EXTENDED_LINE_COUNT_SOURCE = qrs('Extended Line Frontage');

export function troopStandCount(info: FfrUnitInfo): number {
  let n = 0;
  for (const s of info.stands) if (s.role !== 'limber' && s.role !== 'commander') n++;
  return n;
}

/** Whether a unit in extended line stands with intervals (some neighbours in its rank not touching). */
export function extendedLineWithIntervals(info: FfrUnitInfo): boolean {
  const f = info.formation;
  if (f.id !== 'extended-line' || f.stands.length < 2) return false;
  // Along the rank: right of the facing is (hy, -hx).
  const r = (f.headingDeg * Math.PI) / 180;
  const rx = Math.sin(r);
  const ry = -Math.cos(r);
  const order = f.stands.map((s) => ({ at: s.pose.xIn * rx + s.pose.yIn * ry, w: s.widthIn })).sort((a, b) => a.at - b.at);
  for (let i = 1; i < order.length; i++) if (order[i]!.at - order[i - 1]!.at - (order[i]!.w + order[i - 1]!.w) / 2 > TOUCH_TOLERANCE_IN) return true;
  return false;
}

/**
 * The charged unit's stands that count against a charger whose front runs from `left` to `right` (its
 * flank front corners) facing `heading`: all its troop stands, or for an extended line with intervals those
 * in the path. `partial` tells which.
 */
export function chargedStandsCounted(
  defender: FfrUnitInfo,
  front: { readonly left: { xIn: number; yIn: number }; readonly right: { xIn: number; yIn: number } },
  heading: { readonly x: number; readonly y: number },
): { counted: number; partial: boolean } {
  const all = troopStandCount(defender);
  if (!extendedLineWithIntervals(defender)) return { counted: all, partial: false };
  // The charger's frontage on its own left-right axis (r), and depth ahead of it (h).
  const rx = heading.y;
  const ry = -heading.x;
  const a = front.left.xIn * rx + front.left.yIn * ry;
  const b = front.right.xIn * rx + front.right.yIn * ry;
  const lo = Math.min(a, b) - EXTENDED_LINE_PATH_FLANK_MARGIN_IN;
  const hi = Math.max(a, b) + EXTENDED_LINE_PATH_FLANK_MARGIN_IN;
  const inPath: number[] = [];
  defender.stands.forEach((s, i) => {
    if (s.role === 'limber' || s.role === 'commander') return;
    let min = Infinity;
    let max = -Infinity;
    let near = Infinity;
    for (const p of defender.polygons[i]!) {
      const v = p.xIn * rx + p.yIn * ry;
      if (v < min) min = v;
      if (v > max) max = v;
      near = Math.min(near, p.xIn * heading.x + p.yIn * heading.y);
    }
    // Some of the stand across the frontage: touching its edge only is beside the path.
    if (Math.min(max, hi) - Math.max(min, lo) > 1e-6) inPath.push(near);
  });
  const first = Math.min(...inPath);
  const counted = inPath.filter((d) => d <= first + EXTENDED_LINE_WITHIN_IN + 1e-9).length;
  // A charge that reaches the line meets at least one of its stands.
  const n = Math.max(1, Math.min(all, counted));
  return { counted: n, partial: n < all };
}
