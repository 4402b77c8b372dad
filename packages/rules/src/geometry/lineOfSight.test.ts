import { describe, expect, it } from 'vitest';
import type { Stand, Terrain } from '../model/tableState.ts';
import type { PointIn } from '../model/units.ts';
import { buildSightScene, elevationLevelAt, lineOfSight } from './lineOfSight.ts';
import { frontRankStands, unitFrontLine } from './frontLine.ts';

const p = (xIn: number, yIn: number): PointIn => ({ xIn, yIn });
const stand = (id: string, unitId: string, xIn: number, yIn: number, headingDeg = 90): Stand => ({
  id,
  unitId,
  pose: { xIn, yIn, headingDeg },
  widthIn: 1.5,
  depthIn: 1.5,
  role: 'base',
});

const terrain: Terrain = {
  areas: [
    { id: 'wood', kind: 'thick-woods', vertices: [p(10, 0), p(14, 0), p(14, 20), p(10, 20)] },
    { id: 'farm', kind: 'farm', vertices: [p(30, 30), p(32, 30), p(32, 32)] },
  ],
  linear: [{ id: 'fence', kind: 'fence', points: [p(20, 0), p(20, 5), p(21, 10), p(20, 20)] }],
  roads: [],
  elevations: [
    { id: 'hill', level: 1, vertices: [p(24, 0), p(28, 0), p(28, 20), p(24, 20)] },
    { id: 'crest', level: 2, vertices: [p(25, 8), p(27, 8), p(27, 12), p(25, 12)] },
  ],
};

describe('lineOfSight', () => {
  const stands = [stand('a1', 'A', 5, 10), stand('b1', 'B', 17, 10), stand('b2', 'B', 17, 3), stand('c1', 'C', 35, 10)];
  const scene = buildSightScene({ terrain, stands });

  it('reports area terrain with the length inside, and linear terrain with where it is crossed', () => {
    const r = lineOfSight(scene, p(0, 10), p(30, 10));
    expect(r.lengthIn).toBe(30);
    expect(r.areas).toEqual([{ id: 'wood', kind: 'thick-woods', lengthInsideIn: expect.closeTo(4, 9), fromInside: false, toInside: false }]);
    expect(r.linear).toHaveLength(1);
    expect(r.linear[0]!.id).toBe('fence');
    expect(r.linear[0]!.firstAtIn).toBeCloseTo(21);
    expect(r.linear[0]!.points[0]!.xIn).toBeCloseTo(21);
  });

  it('lists stands crossed nearest first, leaving out ignored units', () => {
    const r = lineOfSight(scene, p(0, 10), p(40, 10));
    expect(r.stands.map((s) => s.standId)).toEqual(['a1', 'b1', 'c1']);
    expect(r.stands[0]!.atIn).toBeCloseTo(4.25);
    expect(lineOfSight(scene, p(0, 10), p(40, 10), { ignoreUnitIds: ['A', 'C'] }).stands.map((s) => s.standId)).toEqual(['b1']);
    // Starting inside a stand counts it at distance 0.
    expect(lineOfSight(scene, p(5, 10), p(5, 30)).stands).toEqual([{ standId: 'a1', unitId: 'A', atIn: 0 }]);
  });

  it('gives the ground level at both ends and the highest level in between', () => {
    const over = lineOfSight(scene, p(22, 10), p(30, 10));
    expect(over.elevation.fromLevel).toBe(0);
    expect(over.elevation.toLevel).toBe(0);
    expect(over.elevation.maxLevelBetween).toBe(2);
    expect(over.elevation.crossed.map((c) => [c.id, c.lengthInsideIn])).toEqual([
      ['hill', expect.closeTo(4, 9)],
      ['crest', expect.closeTo(2, 9)],
    ]);
    const fromHill = lineOfSight(scene, p(26, 10), p(40, 10));
    expect(fromHill.elevation.fromLevel).toBe(2);
    expect(elevationLevelAt(p(24.5, 1), terrain)).toBe(1);
    expect(elevationLevelAt(p(0, 0), terrain)).toBe(0);
  });
});

describe('front rank', () => {
  it('finds the two front stands of an attack column, left to right', () => {
    // Facing +y: front rank at y = 10; the unit's left is -x.
    const column = [stand('r1', 'U', 1.5, 10), stand('l1', 'U', 0, 10), stand('l2', 'U', 0, 8.5), stand('r2', 'U', 1.5, 8.5)];
    expect(frontRankStands(column).map((s) => s.pose.xIn)).toEqual([0, 1.5]);
    const trace = unitFrontLine(column);
    expect(trace).toHaveLength(3);
    expect(trace[0]!.xIn).toBeCloseTo(-0.75);
    expect(trace[2]!.xIn).toBeCloseTo(2.25);
    expect(trace.every((q) => Math.abs(q.yIn - 10.75) < 1e-9)).toBe(true);
  });
});
