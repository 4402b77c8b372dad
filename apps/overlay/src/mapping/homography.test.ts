import { describe, expect, it } from 'vitest';
import { multiplyHomography } from '@muster/table-mapping';
import { screenPxToTable, tableToScreenPx, type Homography } from './homography.ts';

const projective: Homography = [12, 1.5, 40, -0.8, -11, 700, 0.0004, -0.0009, 1];

describe('table ↔ screen', () => {
  it('maps with the projective divide', () => {
    const p = tableToScreenPx(projective, { xIn: 10, yIn: 20 });
    const w = 0.0004 * 10 - 0.0009 * 20 + 1;
    expect(p.xPx).toBeCloseTo((12 * 10 + 1.5 * 20 + 40) / w, 9);
    expect(p.yPx).toBeCloseTo((-0.8 * 10 - 11 * 20 + 700) / w, 9);
  });

  it('round-trips table → screen → table through the inverse', () => {
    for (const q of [{ xIn: 0, yIn: 0 }, { xIn: 72, yIn: 48 }, { xIn: 33.3, yIn: 7.1 }]) {
      const back = screenPxToTable(projective, tableToScreenPx(projective, q));
      expect(back.xIn).toBeCloseTo(q.xIn, 9);
      expect(back.yIn).toBeCloseTo(q.yIn, 9);
    }
  });

  it('a shift composed after the map moves the screen point (right-to-left product)', () => {
    const shift: Homography = [1, 0, 5, 0, 1, -3, 0, 0, 1];
    const direct = tableToScreenPx(projective, { xIn: 4, yIn: 9 });
    const p = tableToScreenPx(multiplyHomography(shift, projective), { xIn: 4, yIn: 9 });
    expect(p.xPx).toBeCloseTo(direct.xPx + 5, 9);
    expect(p.yPx).toBeCloseTo(direct.yPx - 3, 9);
  });
});
