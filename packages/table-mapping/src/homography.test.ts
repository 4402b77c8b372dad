import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyHomography, homographyFromPoints, invertHomography, multiplyHomography, normaliseHomography, toHomography } from './homography.ts';

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

describe('homography helpers', () => {
  const projective = [12, 1.5, 40, -0.8, -11, 700, 0.0004, -0.0009, 1];

  it('multiplies right-to-left: the right map is applied first', () => {
    const shift = [1, 0, 5, 0, 1, -3, 0, 0, 1];
    const [x, y] = applyHomography(projective, 4, 9);
    const [u, v] = applyHomography(multiplyHomography(shift, projective), 4, 9);
    expect(u).toBeCloseTo(x + 5, 9);
    expect(v).toBeCloseTo(y - 3, 9);
  });

  it('refuses a singular map and malformed JSON', () => {
    expect(() => invertHomography([1, 2, 0, 2, 4, 0, 0, 0, 1])).toThrow(/singular/);
    expect(() => toHomography([1, 2, 3])).toThrow(/9 finite numbers/);
    expect(() => toHomography([1, 0, 0, 0, 1, 0, 0, 0, Number.NaN])).toThrow(/9 finite/);
  });

  it('normalises the overall sign so w stays positive and the map is unchanged', () => {
    const n = normaliseHomography(projective.map((v) => -2 * v));
    expect(n[8]).toBeCloseTo(1, 12);
    const a = applyHomography(n, 3, 4);
    const b = applyHomography(projective, 3, 4);
    expect(a[0]).toBeCloseTo(b[0], 9);
    expect(a[1]).toBeCloseTo(b[1], 9);
  });
});
