import { describe, expect, it } from 'vitest';
import { arrowHead, polylineStrip } from './polylineStrip.ts';

function trianglesArea(flat: readonly number[]): number {
  let a = 0;
  for (let i = 0; i < flat.length; i += 6) {
    const [x0, y0, x1, y1, x2, y2] = flat.slice(i, i + 6) as [number, number, number, number, number, number];
    a += Math.abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)) / 2;
  }
  return a;
}

describe('polylineStrip', () => {
  it('covers a straight segment with a width × length rectangle', () => {
    const flat = polylineStrip([{ xIn: 0, yIn: 0 }, { xIn: 10, yIn: 0 }], 0.5);
    expect(flat).toHaveLength(12);
    expect(trianglesArea(flat)).toBeCloseTo(5, 9);
    const ys = flat.filter((_, i) => i % 2 === 1);
    expect(Math.max(...ys)).toBeCloseTo(0.25, 9);
    expect(Math.min(...ys)).toBeCloseTo(-0.25, 9);
  });

  it('extends inner joints so corners have no notch, skips zero-length segments', () => {
    const flat = polylineStrip([{ xIn: 0, yIn: 0 }, { xIn: 4, yIn: 0 }, { xIn: 4, yIn: 0 }, { xIn: 4, yIn: 4 }], 1);
    expect(flat).toHaveLength(24); // two real segments
    // The second segment starts half a width before the joint.
    const secondYs = flat.slice(12).filter((_, i) => i % 2 === 1);
    expect(Math.min(...secondYs)).toBeCloseTo(-0.5, 9);
  });

  it('makes an arrow head at the last point', () => {
    const head = arrowHead([{ xIn: 0, yIn: 0 }, { xIn: 0, yIn: 10 }], 1);
    expect(head.slice(0, 2)).toEqual([0, 10]);
    expect(trianglesArea(head)).toBeCloseTo(0.5, 9);
    expect(arrowHead([{ xIn: 1, yIn: 1 }], 1)).toEqual([]);
  });
});
