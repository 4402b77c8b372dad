import { describe, expect, it } from 'vitest';
import { multiPolygonArea, polygonIntersection, standCorners } from '@muster/rules';
import { largeScene, LARGE_SCENE_STANDS, LARGE_SCENE_UNITS } from '../../fixtures/rules/largeScene.ts';

describe('largeScene', () => {
  it('is the same for the same seed and different for another', () => {
    expect(JSON.stringify(largeScene(5))).toBe(JSON.stringify(largeScene(5)));
    expect(JSON.stringify(largeScene(6))).not.toBe(JSON.stringify(largeScene(5)));
  });

  it.each([1, 2, 3])('seed %i: 300 stands in 60 units, none overlapping another', (seed) => {
    const s = largeScene(seed);
    expect(s.stands).toHaveLength(LARGE_SCENE_STANDS);
    expect(s.units).toHaveLength(LARGE_SCENE_UNITS);
    const overlaps: string[] = [];
    for (let i = 0; i < s.stands.length; i++) {
      for (let j = i + 1; j < s.stands.length; j++) {
        const a = s.stands[i]!;
        const b = s.stands[j]!;
        if (Math.hypot(a.pose.xIn - b.pose.xIn, a.pose.yIn - b.pose.yIn) > 5) continue;
        // Touching ranks may share a thousandth of an inch after rounding; real overlaps are far larger.
        if (multiPolygonArea(polygonIntersection(standCorners(a), standCorners(b))) > 0.002) overlaps.push(`${a.id}/${b.id}`);
      }
    }
    expect(overlaps).toEqual([]);
  });
});
