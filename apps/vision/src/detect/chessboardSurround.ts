/**
 * Is this tag a ChArUco board's marker? The lens calibration board (`muster markers --charuco`) is printed
 * in DICT_4X4_50, whose codes are the anchors and first stands of every 4×4 profile, so a board left on
 * the table shows real stand ids at nearly a stand tag's size. What no stand has is the board's
 * chessboard around each marker: beside each edge of the marker's white square a black square, at each
 * corner of it (diagonally) another white square.
 *
 * Probed at several distances d from the tag centre (in cells of the tag, the border included; the tag's
 * own half side is n/2): the points d out along the four edge normals, and the four diagonal points (d, d).
 * A chessboard gives, at a d just past the marker's white margin, at least three black sides (an edge
 * marker has paper on its outer side) and at least three white diagonals (four, or three beside a
 * board's edge). Around a stand that cannot happen at any d: whatever white surround a tag has (the
 * sticker, the quiet zone) is convex and symmetric, so with three white diagonals the two side points
 * each between two of them are white too, leaving at most two black sides.
 */
import type { GrayFrame } from '../pipeline/types.ts';
import { applyHomography } from '@muster/table-mapping';
import { cellsToImage, sample } from './refineFromPrediction.ts';

const DIAGONALS = [
  [1, 1],
  [-1, 1],
  [1, -1],
  [-1, -1],
] as const;

/** Distances probed beyond the tag's edge, in cells: covers boards with marker/square ratios 0.5–0.85. */
const PROBE_BEYOND_EDGE_CELLS = [0.65, 0.9, 1.2, 1.6, 2.1, 2.7, 3.4];

export function isChessboardMarker(frame: GrayFrame, corners: Float64Array, cellsPerSide: number): boolean {
  const n = cellsPerSide;
  const h = cellsToImage(corners, n);
  if (!h) return false;
  const at = (x: number, y: number): number => {
    // Mean of a small cross (a fifth of a cell) against noise.
    let s = 0;
    for (const [dx, dy] of [
      [0, 0],
      [0.2, 0],
      [-0.2, 0],
      [0, 0.2],
      [0, -0.2],
    ] as const) {
      const [u, v] = applyHomography(h, x + dx, y + dy);
      s += sample(frame, u, v);
    }
    return s / 5;
  };
  const c = n / 2;
  // Black: the border ring's middle cells; white: the quiet zone half a cell out.
  const black = (at(c, 0.5) + at(c, n - 0.5) + at(0.5, c) + at(n - 0.5, c)) / 4;
  const white = (at(c, -0.5) + at(c, n + 0.5) + at(-0.5, c) + at(n + 0.5, c)) / 4;
  if (!(white - black > 30)) return false;
  const isBlack = (v: number): boolean => v < black + (white - black) * 0.35;
  const isWhite = (v: number): boolean => v > black + (white - black) * 0.65;
  for (const beyond of PROBE_BEYOND_EDGE_CELLS) {
    const d = c + beyond;
    // Diagonals first: around a stand they are seldom white, so most tags stop here.
    let whiteDiagonals = 0;
    for (const [sx, sy] of DIAGONALS) {
      if (isWhite(at(c + sx * d, c + sy * d))) whiteDiagonals++;
      else if (whiteDiagonals === 0 && sx === -1 && sy === 1) break; // two of four already not white
    }
    if (whiteDiagonals < 3) continue;
    const sides = [at(c + d, c), at(c - d, c), at(c, c + d), at(c, c - d)];
    if (sides.filter(isBlack).length >= 3) return true;
  }
  return false;
}
