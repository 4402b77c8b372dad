/**
 * Which detected quads are the table's anchors. Something else on the table can carry an anchor's id:
 * the lens calibration's ChArUco board is printed in DICT_4X4_50, whose ids 0–16 are the anchors and
 * first stands of every 4×4 profile, so a board lying on the table shows ids 0–3 a second time. Taking
 * "the id seen once" then loses the homography (every stand with it) for as long as the board lies there.
 *
 * So: every combination of one candidate per anchor id is tried (at most `MAX_COMBINATIONS`), and the
 * one whose homography fits its own anchor corners best wins (the surveyed anchor layout is what a
 * stray print cannot imitate). Then each chosen anchor must measure its surveyed size through that
 * homography (within `maxSizeError`, as stand tags must); the worst one that does not is dropped and
 * the homography re-solved, while at least `minAnchors` remain. Candidates not chosen are "foreign".
 */
import { applyHomography, homographyFromPoints, type Homography } from '@muster/table-mapping';

export interface AnchorCandidate {
  readonly id: number;
  /** Corners for geometry (undistorted with a lens), image px, OpenCV order, flat [u0,v0,…,u3,v3]. */
  readonly ideal: Float64Array;
}

export interface AnchorLayout {
  /** Table-inch corners of the anchor, OpenCV order. */
  readonly cornersIn: readonly (readonly [number, number])[];
  /** Black-square side, inches. */
  readonly sizeIn: number;
}

export interface AnchorChoice<C extends AnchorCandidate> {
  /** The chosen anchors, by id (one per id). */
  readonly anchors: readonly C[];
  /** Homography from the chosen anchors' corners (null with fewer than `minAnchors` or a degenerate fit). */
  readonly homography: Homography | null;
  /** RMS of the chosen anchors' corners through `homography`, inches. */
  readonly residualIn: number | null;
  /** Candidates with an anchor id that were not chosen (a duplicate that does not fit, or the wrong size). */
  readonly foreign: readonly C[];
  /** Why the homography failed, when it did with enough anchors. */
  readonly error?: string;
}

/** Most combinations of duplicate anchor candidates tried. */
export const MAX_COMBINATIONS = 256;

function solve(anchors: readonly AnchorCandidate[], layout: (id: number) => AnchorLayout): { h: Homography; residualIn: number } {
  const img: [number, number][] = [];
  const table: [number, number][] = [];
  for (const m of anchors) {
    const tc = layout(m.id).cornersIn;
    for (let k = 0; k < 4; k++) {
      img.push([m.ideal[2 * k]!, m.ideal[2 * k + 1]!]);
      table.push([tc[k]![0], tc[k]![1]]);
    }
  }
  const h = homographyFromPoints(img, table);
  let sq = 0;
  for (let i = 0; i < img.length; i++) {
    const [x, y] = applyHomography(h, img[i]![0], img[i]![1]);
    sq += (x - table[i]![0]) ** 2 + (y - table[i]![1]) ** 2;
  }
  return { h, residualIn: Math.sqrt(sq / img.length) };
}

/** Mean side of a quad on the table through `h`, inches. */
export function quadSideIn(h: Homography, c: Float64Array): number {
  const p = [0, 1, 2, 3].map((k) => applyHomography(h, c[2 * k]!, c[2 * k + 1]!));
  let sum = 0;
  for (let k = 0; k < 4; k++) {
    const a = p[k]!;
    const b = p[(k + 1) % 4]!;
    sum += Math.hypot(b[0] - a[0], b[1] - a[1]);
  }
  return sum / 4;
}

export function chooseAnchors<C extends AnchorCandidate>(
  candidates: readonly C[],
  layout: (id: number) => AnchorLayout,
  options: { readonly minAnchors: number; readonly maxSizeError: number },
): AnchorChoice<C> {
  const byId = new Map<number, C[]>();
  for (const c of candidates) byId.set(c.id, [...(byId.get(c.id) ?? []), c]);
  const ids = [...byId.keys()].sort((a, b) => a - b);
  // Candidates per id, trimmed so the product stays within MAX_COMBINATIONS.
  const lists = ids.map((id) => byId.get(id)!);
  let product = lists.reduce((a, l) => a * l.length, 1);
  while (product > MAX_COMBINATIONS) {
    const longest = lists.reduce((best, l, i) => (l.length > lists[best]!.length ? i : best), 0);
    product = (product / lists[longest]!.length) * (lists[longest]!.length - 1);
    lists[longest] = lists[longest]!.slice(0, -1);
  }
  let chosen: C[] = lists.map((l) => l[0]!);
  if (ids.length < options.minAnchors) return { anchors: chosen, homography: null, residualIn: null, foreign: candidates.filter((c) => !chosen.includes(c)) };

  let best: { anchors: C[]; h: Homography; residualIn: number } | null = null;
  let error: string | undefined;
  const pick = new Array<number>(lists.length).fill(0);
  for (let n = 0; n < product; n++) {
    const combo = lists.map((l, i) => l[pick[i]!]!);
    try {
      const s = solve(combo, layout);
      if (!best || s.residualIn < best.residualIn) best = { anchors: combo, ...s };
    } catch (err) {
      error = (err as Error).message;
    }
    for (let i = 0; i < pick.length; i++) {
      pick[i]! += 1;
      if (pick[i]! < lists[i]!.length) break;
      pick[i] = 0;
    }
  }
  if (!best) return { anchors: chosen, homography: null, residualIn: null, foreign: candidates.filter((c) => !chosen.includes(c)), error: error ?? 'no fit' };

  // An anchor of the wrong size is not the anchor (a stray print of its id, the anchor covered). Which
  // one: leaving it out gives the others' best fit; it is dropped if its size through that fit is wrong.
  chosen = best.anchors;
  let fit: { h: Homography; residualIn: number } = best;
  while (chosen.length > options.minAnchors) {
    let out: { i: number; h: Homography; residualIn: number } | null = null;
    for (let i = 0; i < chosen.length; i++) {
      try {
        const s = solve(
          chosen.filter((_, j) => j !== i),
          layout,
        );
        if (!out || s.residualIn < out.residualIn) out = { i, ...s };
      } catch {
        // degenerate without this one: keep it
      }
    }
    if (!out) break;
    const m = chosen[out.i]!;
    if (Math.abs(quadSideIn(out.h, m.ideal) / layout(m.id).sizeIn - 1) <= options.maxSizeError) break;
    chosen = chosen.filter((_, j) => j !== out!.i);
    fit = out;
  }
  return { anchors: chosen, homography: fit.h, residualIn: fit.residualIn, foreign: candidates.filter((c) => !chosen.includes(c)) };
}
