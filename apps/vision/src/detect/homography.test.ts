import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyHomography, homographyFromPoints, invertHomography } from './homography.ts';

describe('homographyFromPoints', () => {
  it('recovers a perspective map from 4 exact pairs and round-trips through its inverse', () => {
    const truth = [1.9, 0.12, 40, -0.05, -2.1, 1000, 0.0004, -0.0002, 1];
    const from: [number, number][] = [
      [0, 0],
      [72, 0],
      [72, 48],
      [0, 48],
      [36, 24],
    ];
    const to = from.map(([x, y]) => applyHomography(truth, x, y));
    const h = homographyFromPoints(from, to);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 72, noNaN: true }), fc.double({ min: 0, max: 48, noNaN: true }), (x, y) => {
        const [u, v] = applyHomography(h, x, y);
        const [eu, ev] = applyHomography(truth, x, y);
        expect(Math.hypot(u - eu, v - ev)).toBeLessThan(1e-6);
        const [bx, by] = applyHomography(invertHomography(h), u, v);
        expect(Math.hypot(bx - x, by - y)).toBeLessThan(1e-6);
      }),
    );
  });

  it('refuses collinear points with a message', () => {
    const line: [number, number][] = [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
    ];
    expect(() => homographyFromPoints(line, line)).toThrow(/degenerate/);
    expect(() => homographyFromPoints(line.slice(0, 3), line.slice(0, 3))).toThrow(/at least 4/);
  });
});
