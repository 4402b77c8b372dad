import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hypot2 } from './hypot.ts';

describe('hypot2', () => {
  it('returns exactly what Math.hypot returns, bit for bit, for any two doubles', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (x, y) => Object.is(hypot2(x, y), Math.hypot(x, y))),
      { numRuns: 20_000 },
    );
  });

  it('agrees on table-sized values (inches to a few hundredths), where the engine calls it', () => {
    fc.assert(
      fc.property(fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: -200, max: 200, noNaN: true }), (x, y) =>
        Object.is(hypot2(x, y), Math.hypot(x, y)),
      ),
      { numRuns: 20_000 },
    );
  });

  it('handles the special values as the spec says', () => {
    expect(hypot2(3, 4)).toBe(5);
    expect(hypot2(Infinity, NaN)).toBe(Infinity);
    expect(hypot2(NaN, -Infinity)).toBe(Infinity);
    expect(hypot2(NaN, 1)).toBeNaN();
    expect(Object.is(hypot2(-0, -0), 0)).toBe(true);
    expect(hypot2(1e308, 1e308)).toBe(Math.hypot(1e308, 1e308));
    expect(hypot2(5e-324, 5e-324)).toBe(Math.hypot(5e-324, 5e-324));
  });
});
