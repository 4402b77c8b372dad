import { describe, expect, it } from 'vitest';
import type { Shape } from '@muster/rules';
import { boxOfPoints, changedBoxes, screenRects, shapeBox, type ItemBox } from './damageRegion.ts';

const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1 });

describe('damage region', () => {
  it('marks the old and new boxes of changed items, and the boxes of items that came or went', () => {
    const same = {};
    const a1 = {};
    const a2 = {};
    const prev = new Map<string, ItemBox>([
      ['same', { ref: same, box: box(0, 0, 1, 1) }],
      ['moved', { ref: a1, box: box(10, 10, 11, 11) }],
      ['gone', { ref: 'x', box: box(20, 20, 21, 21) }],
    ]);
    const next = new Map<string, ItemBox>([
      ['same', { ref: same, box: box(0, 0, 1, 1) }],
      ['moved', { ref: a2, box: box(12, 10, 13, 11) }],
      ['new', { ref: 'y', box: box(30, 30, 31, 31) }],
    ]);
    expect(changedBoxes(prev, next)).toEqual([box(10, 10, 11, 11), box(12, 10, 13, 11), box(20, 20, 21, 21), box(30, 30, 31, 31)]);
    // Equal strings are the same drawing.
    expect(changedBoxes(new Map([['t', { ref: '1,2', box: box(0, 0, 1, 1) }]]), new Map([['t', { ref: '1,2', box: box(0, 0, 1, 1) }]]))).toEqual([]);
  });

  it('boxes a shape by everything it draws, and not a label (DOM text)', () => {
    const circle: Shape = { id: 'c', kind: 'circle', layer: 'movement', style: 'reach', center: { xIn: 10, yIn: 10 }, radiusIn: 2 };
    const b = shapeBox(circle, 0.5)!;
    expect(b.x0).toBeCloseTo(7.5, 6);
    expect(b.x1).toBeCloseTo(12.5, 6);
    expect(b.y0).toBeCloseTo(7.5, 6);
    expect(b.y1).toBeCloseTo(12.5, 6);
    expect(shapeBox({ id: 'l', kind: 'label', layer: 'labels', style: 'label', at: { xIn: 1, yIn: 1 }, text: 'x' }, 1)).toBeNull();
    expect(boxOfPoints([], 1)).toBeNull();
  });

  it('maps boxes to screen rectangles, padded, cut to the view, overlapping ones merged', () => {
    // 10 px per inch, table y up from the bottom of a 720×480 view.
    const h = [10, 0, 0, 0, -10, 480, 0, 0, 1] as const;
    const view = { widthPx: 720, heightPx: 480 };
    expect(screenRects([box(1, 1, 2, 2)], h, view, 2)).toEqual([{ x: 8, y: 458, w: 14, h: 14 }]);
    // Two overlapping boxes become one; a far one stays apart.
    const rects = screenRects([box(1, 1, 2, 2), box(1.5, 1.5, 3, 3), box(40, 40, 41, 41)], h, view, 0);
    expect(rects).toHaveLength(2);
    expect(rects).toContainEqual({ x: 10, y: 450, w: 20, h: 20 });
    // Off the view: nothing to draw; half off: cut at the edge.
    expect(screenRects([box(-10, -10, -5, -5)], h, view, 0)).toEqual([]);
    expect(screenRects([box(70, 1, 80, 2)], h, view, 0)).toEqual([{ x: 700, y: 460, w: 20, h: 10 }]);
    // Many scattered boxes: one bounding rectangle instead of a pass each.
    const many = screenRects([0, 10, 20, 30, 40, 50].map((x) => box(x, 0, x + 1, 1)), h, view, 0);
    expect(many).toEqual([{ x: 0, y: 470, w: 510, h: 10 }]);
  });
});
