import { describe, expect, it } from 'vitest';
import { dashPolyline } from './dashedLine.ts';

const len = (l: { xIn: number; yIn: number }[]) => l.slice(1).reduce((s, p, i) => s + Math.hypot(p.xIn - l[i]!.xIn, p.yIn - l[i]!.yIn), 0);

describe('dashPolyline', () => {
  it('cuts a straight line into dashes and gaps of the asked lengths', () => {
    const dashes = dashPolyline([{ xIn: 0, yIn: 0 }, { xIn: 3, yIn: 0 }], 1, 0.5);
    expect(dashes.map((d) => [d[0]!.xIn, d.at(-1)!.xIn])).toEqual([[0, 1], [1.5, 2.5]]);
  });

  it('carries the pattern through a corner, keeping the corner inside the dash', () => {
    const dashes = dashPolyline([{ xIn: 0, yIn: 0 }, { xIn: 0.6, yIn: 0 }, { xIn: 0.6, yIn: 2 }], 1, 0.5);
    expect(dashes[0]).toEqual([{ xIn: 0, yIn: 0 }, { xIn: 0.6, yIn: 0 }, { xIn: 0.6, yIn: expect.closeTo(0.4, 9) }]);
    expect(len(dashes[0]!)).toBeCloseTo(1, 9);
    expect(dashes[1]![0]!.yIn).toBeCloseTo(0.9, 9);
  });

  it('draws about dash / (dash + gap) of a long line', () => {
    const dashes = dashPolyline([{ xIn: 0, yIn: 0 }, { xIn: 100, yIn: 0 }], 0.4, 0.6);
    expect(dashes.reduce((s, d) => s + len(d), 0)).toBeCloseTo(40, 6);
  });

  it('returns the line whole without a gap, and refuses a zero dash', () => {
    expect(dashPolyline([{ xIn: 0, yIn: 0 }, { xIn: 1, yIn: 1 }], 1, 0)).toHaveLength(1);
    expect(() => dashPolyline([{ xIn: 0, yIn: 0 }, { xIn: 1, yIn: 1 }], 0, 1)).toThrow(/dash length/);
  });
});
