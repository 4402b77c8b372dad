/**
 * A unit's front line: the polyline along the front edges of its front-rank stands, left to right as the
 * unit sees it. Used to draw the line, measure from it, and recognise formations.
 */
import type { PointIn } from '../model/units.ts';
import { normalizeDeg } from './angles.ts';
import { standCorners, type StandShape } from './footprint.ts';
import { hypot2 } from './hypot.ts';

/** Circular mean of stand headings, degrees in [0, 360); 0 for an empty list. */
export function meanHeadingDeg(stands: readonly StandShape[]): number {
  let sx = 0;
  let sy = 0;
  for (const s of stands) {
    const r = (s.pose.headingDeg * Math.PI) / 180;
    sx += Math.cos(r);
    sy += Math.sin(r);
  }
  if (Math.abs(sx) < 1e-12 && Math.abs(sy) < 1e-12) return stands[0]?.pose.headingDeg ?? 0;
  return normalizeDeg((Math.atan2(sy, sx) * 180) / Math.PI);
}

/**
 * Stands in the front rank: those whose front edge centre is within `toleranceIn` (default: half the
 * shallowest stand depth) of the most forward one, measured along `headingDeg` (default: mean heading).
 * Returned left to right.
 */
export function frontRankStands<S extends StandShape>(
  stands: readonly S[],
  headingDeg: number = meanHeadingDeg(stands),
  toleranceIn?: number,
): S[] {
  if (stands.length === 0) return [];
  const r = (headingDeg * Math.PI) / 180;
  const fx = Math.cos(r);
  const fy = Math.sin(r);
  const tol = toleranceIn ?? Math.min(...stands.map((s) => s.depthIn)) / 2;
  const ahead = stands.map((s) => (s.pose.xIn + (fx * s.depthIn) / 2) * fx + (s.pose.yIn + (fy * s.depthIn) / 2) * fy);
  let best = -Infinity;
  for (const a of ahead) if (a > best) best = a;
  const front = stands.filter((_, i) => ahead[i]! >= best - tol);
  // Left of the facing is (-fy, fx); leftmost first.
  return front.sort((a, b) => -a.pose.xIn * fy + a.pose.yIn * fx < -b.pose.xIn * fy + b.pose.yIn * fx ? 1 : -1);
}

/**
 * The front-line trace: front-left and front-right corners of each front-rank stand, left to right,
 * with points closer than `mergeIn` (default 0.05") merged so touching stands share a vertex.
 */
export function unitFrontLine(
  stands: readonly StandShape[],
  headingDeg: number = meanHeadingDeg(stands),
  mergeIn = 0.05,
): PointIn[] {
  const out: PointIn[] = [];
  for (const s of frontRankStands(stands, headingDeg)) {
    const [fl, fr] = standCorners(s);
    for (const p of [fl, fr]) {
      const last = out[out.length - 1];
      if (last && hypot2(last.xIn - p.xIn, last.yIn - p.yIn) < mergeIn) {
        out[out.length - 1] = { xIn: (last.xIn + p.xIn) / 2, yIn: (last.yIn + p.yIn) / 2 };
      } else out.push(p);
    }
  }
  return out;
}
