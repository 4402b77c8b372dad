import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { largeScene } from '../../../../fixtures/rules/largeScene.ts';
import { buildSightScene, elevationLevelAt, levelLineObstructed, lineOfSight } from './lineOfSight.ts';

describe('levelLineObstructed', () => {
  it("gives lineOfSight's answer (a hill between, or more than the depth inside an area) for lines with both ends at level 0", () => {
    const state = largeScene(4);
    const scene = buildSightScene({ terrain: state.terrain, stands: [] });
    const { widthIn, depthIn } = state.table;
    const pt = fc.record({ xIn: fc.double({ min: 0, max: widthIn, noNaN: true }), yIn: fc.double({ min: 0, max: depthIn, noNaN: true }) });
    let obstructed = 0;
    let level = 0;
    fc.assert(
      fc.property(pt, pt, fc.constantFrom(2, 6, 10), (from, to, depthIn) => {
        if (elevationLevelAt(from, state.terrain) !== 0 || elevationLevelAt(to, state.terrain) !== 0) return true;
        level++;
        const report = lineOfSight(scene, from, to);
        const expected = report.elevation.maxLevelBetween > 0 || report.areas.some((a) => a.lengthInsideIn > depthIn);
        if (expected) obstructed++;
        return levelLineObstructed(scene, from, to, depthIn) === expected;
      }),
      { numRuns: 5000 },
    );
    // The sample must hold both answers for the comparison to mean anything.
    expect(level).toBeGreaterThan(2000);
    expect(obstructed).toBeGreaterThan(50);
    expect(level - obstructed).toBeGreaterThan(100);
  });

  it('draws the line at the depth: 5.9" inside a wood is clear, 6.1" is not; a hill between obstructs, one at an end does not', () => {
    const wood = { id: 'w', kind: 'thick-woods' as const, vertices: [{ xIn: 10, yIn: 0 }, { xIn: 20, yIn: 0 }, { xIn: 20, yIn: 10 }, { xIn: 10, yIn: 10 }] };
    const hill = { id: 'h', level: 1, vertices: [{ xIn: 40, yIn: 0 }, { xIn: 44, yIn: 0 }, { xIn: 44, yIn: 10 }, { xIn: 40, yIn: 10 }] };
    const scene = buildSightScene({ terrain: { areas: [wood], linear: [], roads: [], elevations: [hill] }, stands: [] });
    const line = (x0: number, x1: number, y = 5) => levelLineObstructed(scene, { xIn: x0, yIn: y }, { xIn: x1, yIn: y }, 6);
    expect(line(0, 15.9)).toBe(false); // 5.9" inside
    expect(line(0, 16.1)).toBe(true); // 6.1" inside
    expect(line(14.1, 30)).toBe(false); // 5.9" inside, leaving the wood
    expect(line(30, 50)).toBe(true); // over the hill between the ends
    expect(line(30, 39.5)).toBe(false); // stops short of the hill
  });
});
