import { describe, expect, it } from 'vitest';
import { chooseAnchors, type AnchorLayout } from './chooseAnchors.ts';

/** A 72×48 table seen at 20 px per inch, y up in the table, down in the image. */
const pxPerIn = 20;
const toPx = (x: number, y: number): [number, number] => [x * pxPerIn, (48 - y) * pxPerIn];
const anchors: Record<number, { x: number; y: number; size: number }> = { 0: { x: 3, y: 3, size: 2 }, 1: { x: 69, y: 3, size: 2 }, 2: { x: 69, y: 45, size: 2 }, 3: { x: 3, y: 45, size: 2 } };
const cornersIn = (x: number, y: number, s: number): [number, number][] => [
  [x - s / 2, y + s / 2],
  [x + s / 2, y + s / 2],
  [x + s / 2, y - s / 2],
  [x - s / 2, y - s / 2],
];
const layout = (id: number): AnchorLayout => ({ cornersIn: cornersIn(anchors[id]!.x, anchors[id]!.y, anchors[id]!.size), sizeIn: anchors[id]!.size });
/** A quad of side `s` inches centred at table (x, y), as detected. */
const quad = (id: number, x: number, y: number, s: number) => ({ id, ideal: Float64Array.from(cornersIn(x, y, s).flatMap(([a, b]) => toPx(a, b))) });

describe('chooseAnchors', () => {
  it('takes the candidate that fits the surveyed layout when an anchor id is printed twice', () => {
    const real = [0, 1, 2, 3].map((id) => quad(id, anchors[id]!.x, anchors[id]!.y, 2));
    // A ChArUco board's ids 0 and 2 (0.87 in markers) in the middle of the table.
    const board = [quad(0, 30, 20, 0.87), quad(2, 32, 22, 0.87)];
    const choice = chooseAnchors([board[0]!, ...real, board[1]!], layout, { minAnchors: 3, maxSizeError: 0.25 });
    expect(choice.anchors.map((a) => a.id).sort()).toEqual([0, 1, 2, 3]);
    expect(choice.anchors).toEqual(expect.arrayContaining(real));
    expect(choice.foreign).toEqual(board);
    expect(choice.residualIn).toBeLessThan(1e-6);
  });

  it('drops an anchor of the wrong size (its id printed elsewhere while the anchor is covered)', () => {
    const seen = [quad(0, 3, 3, 2), quad(1, 69, 3, 2), quad(2, 69, 45, 2), quad(3, 40, 30, 0.87)];
    const choice = chooseAnchors(seen, layout, { minAnchors: 3, maxSizeError: 0.25 });
    expect(choice.anchors.map((a) => a.id)).toEqual([0, 1, 2]);
    expect(choice.foreign.map((a) => a.id)).toEqual([3]);
  });

  it('keeps the minimum number of anchors rather than none', () => {
    const seen = [quad(0, 3, 3, 2), quad(1, 69, 3, 2), quad(2, 69, 45, 2)];
    const choice = chooseAnchors(seen, layout, { minAnchors: 3, maxSizeError: 0.25 });
    expect(choice.anchors).toHaveLength(3);
    expect(choice.homography).not.toBeNull();
  });
});
