import { describe, expect, it } from 'vitest';
import { applyHomography, composeHomography, invertHomography, normaliseHomography, screenPxToTable, toHomography, type Homography } from './homography.ts';

const projective: Homography = [12, 1.5, 40, -0.8, -11, 700, 0.0004, -0.0009, 1];

describe('homography', () => {
  it('maps with the projective divide', () => {
    const p = applyHomography(projective, { xIn: 10, yIn: 20 });
    const w = 0.0004 * 10 - 0.0009 * 20 + 1;
    expect(p.xPx).toBeCloseTo((12 * 10 + 1.5 * 20 + 40) / w, 9);
    expect(p.yPx).toBeCloseTo((-0.8 * 10 - 11 * 20 + 700) / w, 9);
  });

  it('round-trips table → screen → table through the inverse', () => {
    for (const q of [{ xIn: 0, yIn: 0 }, { xIn: 72, yIn: 48 }, { xIn: 33.3, yIn: 7.1 }]) {
      const back = screenPxToTable(projective, applyHomography(projective, q));
      expect(back.xIn).toBeCloseTo(q.xIn, 9);
      expect(back.yIn).toBeCloseTo(q.yIn, 9);
    }
  });

  it('composes right-to-left', () => {
    const shift: Homography = [1, 0, 5, 0, 1, -3, 0, 0, 1];
    const both = composeHomography(shift, projective);
    const direct = applyHomography(projective, { xIn: 4, yIn: 9 });
    const p = applyHomography(both, { xIn: 4, yIn: 9 });
    expect(p.xPx).toBeCloseTo(direct.xPx + 5, 9);
    expect(p.yPx).toBeCloseTo(direct.yPx - 3, 9);
  });

  it('refuses a singular map and malformed JSON', () => {
    expect(() => invertHomography([1, 2, 0, 2, 4, 0, 0, 0, 1])).toThrow(/singular/);
    expect(() => toHomography([1, 2, 3])).toThrow(/9 finite numbers/);
    expect(() => toHomography([1, 0, 0, 0, 1, 0, 0, 0, Number.NaN])).toThrow(/9 finite/);
  });

  it('normalises the overall sign so w stays positive and the map is unchanged', () => {
    const negated = projective.map((v) => -2 * v) as unknown as Homography;
    const n = normaliseHomography(negated);
    expect(n[8]).toBeCloseTo(1, 12);
    const a = applyHomography(n, { xIn: 3, yIn: 4 });
    const b = applyHomography(projective, { xIn: 3, yIn: 4 });
    expect(a.xPx).toBeCloseTo(b.xPx, 9);
    expect(a.yPx).toBeCloseTo(b.yPx, 9);
  });
});
