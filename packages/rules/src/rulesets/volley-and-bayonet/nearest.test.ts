import { describe, expect, it } from 'vitest';
import { closestPointsBetweenPolygons } from '../../geometry/distance.ts';
import { standCorners } from '../../geometry/footprint.ts';
import type { PointIn } from '../../model/units.ts';
import { boundingBox } from '../../geometry/polygon.ts';
import { closestPointsFromFront, frontDistanceIn, nearestOnBaseFrom } from './nearest.ts';

/** A small seeded generator (the same cases every run). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('closestPointsFromFront', () => {
  it('gives exactly what closestPointsBetweenPolygons gives, far apart, near, touching and overlapping', () => {
    const rnd = lcg(7);
    let far = 0;
    for (let i = 0; i < 4000; i++) {
      // A target base, and a front edge (or its centre) anywhere from overlapping to 30" away.
      const target = standCorners({ pose: { xIn: 20, yIn: 20, headingDeg: rnd() * 360 }, widthIn: 1 + rnd() * 3, depthIn: 0.5 + rnd() * 2 });
      const spreadIn = i % 4 === 0 ? 3 : 30;
      const a: PointIn = { xIn: 20 + (rnd() - 0.5) * spreadIn, yIn: 20 + (rnd() - 0.5) * spreadIn };
      const h = rnd() * 2 * Math.PI;
      const b: PointIn = { xIn: a.xIn + Math.cos(h) * 2, yIn: a.yIn + Math.sin(h) * 2 };
      // Some points exactly on a corner or an edge of the target.
      const p = i % 50 === 0 ? target[0]! : i % 50 === 1 ? { xIn: (target[1]!.xIn + target[2]!.xIn) / 2, yIn: (target[1]!.yIn + target[2]!.yIn) / 2 } : a;
      for (const front of [[p], [p, b]]) {
        const fast = closestPointsFromFront(front, target);
        const general = closestPointsBetweenPolygons(front, target);
        expect(fast).toEqual(general);
        // The sight lines' end on the target: the same point, and the same vertex object where it is one.
        if (front.length === 1) {
          const onB = nearestOnBaseFrom(p, target);
          expect(onB).toEqual(general.onB);
          expect(target.includes(onB)).toBe(target.includes(general.onB));
          // With the target's box handed in (a stand's `box`): the same point.
          expect(nearestOnBaseFrom(p, target, boundingBox(target))).toEqual(general.onB);
        } else {
          // The range from a front edge, with and without the target's box.
          expect(frontDistanceIn(p, b, target)).toBe(general.distanceIn);
          expect(frontDistanceIn(p, b, target, boundingBox(target))).toBe(general.distanceIn);
        }
        if (fast.distanceIn > 1) far++;
      }
    }
    // Most cases take the fast path (boxes apart), not the general one.
    expect(far).toBeGreaterThan(4000);
  });

  it('hands back the given point objects where the general function does', () => {
    const target = standCorners({ pose: { xIn: 0, yIn: 0, headingDeg: 0 }, widthIn: 2, depthIn: 1 });
    const from = { xIn: 10, yIn: 10 };
    const r = closestPointsFromFront([from], target);
    const general = closestPointsBetweenPolygons([from], target);
    expect(r.onA).toBe(from);
    expect(general.onA).toBe(from);
    expect(target.includes(r.onB)).toBe(target.includes(general.onB));
  });
});
