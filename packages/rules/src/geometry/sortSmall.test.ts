import { describe, it } from 'vitest';
import fc from 'fast-check';
import { sortSmall } from './sortSmall.ts';

describe('sortSmall', () => {
  it('gives the same order as Array.prototype.sort (stable) for short and long lists', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.integer({ min: 0, max: 5 }), tag: fc.nat() }), { maxLength: 40 }), (items) => {
        const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
        const expected = [...items].sort(byKey);
        const actual = sortSmall([...items], byKey);
        return expected.length === actual.length && expected.every((x, i) => x === actual[i]);
      }),
      { numRuns: 2000 },
    );
  });
});
