import { describe, it } from 'vitest';
import fc from 'fast-check';
import { fractionInsidePolygon, segmentInsideIntervals } from './intersect.ts';

const point = fc.record({ xIn: fc.double({ min: -10, max: 10, noNaN: true }), yIn: fc.double({ min: -10, max: 10, noNaN: true }) });
/** Grid points too, so segments run through vertices and along edges (the merging cases). */
const gridPoint = fc.record({ xIn: fc.integer({ min: -4, max: 4 }), yIn: fc.integer({ min: -4, max: 4 }) });

describe('fractionInsidePolygon', () => {
  it('is the sum of segmentInsideIntervals, bit for bit', () => {
    for (const p of [point, gridPoint]) {
      fc.assert(
        fc.property(p, p, fc.array(p, { minLength: 3, maxLength: 9 }), (a, b, polygon) => {
          let sum = 0;
          for (const [t0, t1] of segmentInsideIntervals(a, b, polygon)) sum += t1 - t0;
          return Object.is(fractionInsidePolygon(a, b, polygon), sum);
        }),
        { numRuns: 4000 },
      );
    }
  });
});
