import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PointIn } from '../model/units.ts';
import { convexHull } from './polygon.ts';
import { polygonsOverlap } from './intersect.ts';
import { polygonToPolygonDistanceIn } from './distance.ts';
import { convexPolygonsMayOverlap } from './convexOverlap.ts';

const point = fc.record({ xIn: fc.double({ min: -20, max: 20, noNaN: true }), yIn: fc.double({ min: -20, max: 20, noNaN: true }) });
/** A convex polygon with at least three vertices: the hull of random points. */
const convex = fc.array(point, { minLength: 3, maxLength: 12 }).map((pts) => convexHull(pts)).filter((h) => h.length >= 3);
const shifted = (p: readonly PointIn[], dx: number, dy: number) => p.map((v) => ({ xIn: v.xIn + dx, yIn: v.yIn + dy }));

describe('convexPolygonsMayOverlap', () => {
  it('never says no where polygonsOverlap says the polygons meet (conservative)', () => {
    fc.assert(
      fc.property(convex, convex, fc.double({ min: -30, max: 30, noNaN: true }), (a, b, dx) => {
        const c = shifted(b, dx, 0);
        return !polygonsOverlap(a, c) || convexPolygonsMayOverlap(a, c);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts touching as overlap and separates polygons clearly apart', () => {
    const sq = [{ xIn: 0, yIn: 0 }, { xIn: 1, yIn: 0 }, { xIn: 1, yIn: 1 }, { xIn: 0, yIn: 1 }];
    expect(convexPolygonsMayOverlap(sq, shifted(sq, 1, 0))).toBe(true); // sharing an edge
    expect(convexPolygonsMayOverlap(sq, shifted(sq, 1, 1))).toBe(true); // sharing a corner
    expect(convexPolygonsMayOverlap(sq, shifted(sq, 0.5, 0.5))).toBe(true);
    expect(convexPolygonsMayOverlap(sq, shifted(sq, 1.01, 0))).toBe(false);
    // Boxes overlap but a diagonal edge separates them: the case a box test cannot reject.
    const tri = [{ xIn: 0, yIn: 0 }, { xIn: 4, yIn: 0 }, { xIn: 0, yIn: 4 }];
    expect(convexPolygonsMayOverlap(tri, shifted(sq, 2.6, 2.6))).toBe(false);
  });

  it('says "may" for polygons apart only when they are within rounding of touching (separating axes are exact for convex shapes)', () => {
    fc.assert(
      fc.property(convex, convex, fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true }), (a, b, dx, dy) => {
        const c = shifted(b, dx, dy);
        if (!convexPolygonsMayOverlap(a, c, 0) || polygonsOverlap(a, c)) return true;
        return polygonToPolygonDistanceIn(a, c) < 1e-6;
      }),
      { numRuns: 3000 },
    );
  });
});
