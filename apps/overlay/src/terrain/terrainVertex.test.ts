import { describe, expect, it } from 'vitest';
import type { Terrain } from '@muster/rules';
import { moveTerrainVertex, nearestTerrainVertex, piecePoints } from './terrainVertex.ts';

const terrain: Terrain = {
  areas: [{ id: 'wood', kind: 'open-woods', vertices: [{ xIn: 0, yIn: 0 }, { xIn: 10, yIn: 0 }, { xIn: 10, yIn: 10 }] }],
  linear: [{ id: 'fence', kind: 'fence', points: [{ xIn: 10, yIn: 0.2 }, { xIn: 20, yIn: 0 }] }],
  roads: [],
  elevations: [{ id: 'hill', level: 1, vertices: [{ xIn: 30, yIn: 30 }, { xIn: 40, yIn: 30 }, { xIn: 35, yIn: 38 }] }],
};

describe('terrain vertex editing', () => {
  it('finds the nearest vertex within reach, and nothing beyond it', () => {
    const ref = nearestTerrainVertex(terrain, { xIn: 10.1, yIn: 0.3 }, 0.5);
    expect(ref).toMatchObject({ collection: 'linear', pieceId: 'fence', vertexIndex: 0, closed: false });
    expect(nearestTerrainVertex(terrain, { xIn: 35.2, yIn: 37.9 }, 0.5)).toMatchObject({ collection: 'elevations', vertexIndex: 2, closed: true });
    expect(nearestTerrainVertex(terrain, { xIn: 5, yIn: 5 }, 0.5)).toBeNull();
  });

  it('moves exactly that vertex and leaves every other piece untouched', () => {
    const ref = nearestTerrainVertex(terrain, { xIn: 10, yIn: 9.8 }, 0.5)!;
    const moved = moveTerrainVertex(terrain, ref, { xIn: 12, yIn: 11 });
    expect(moved.areas[0]!.vertices).toEqual([{ xIn: 0, yIn: 0 }, { xIn: 10, yIn: 0 }, { xIn: 12, yIn: 11 }]);
    expect(moved.linear).toBe(terrain.linear);
    expect(moved.elevations).toBe(terrain.elevations);
    expect(piecePoints(moved, ref)[2]).toEqual({ xIn: 12, yIn: 11 });
    expect(terrain.areas[0]!.vertices[2]).toEqual({ xIn: 10, yIn: 10 }); // input not mutated
  });

  it('refuses a stale reference', () => {
    const ref = nearestTerrainVertex(terrain, { xIn: 20, yIn: 0 }, 0.5)!;
    expect(() => moveTerrainVertex({ ...terrain, linear: [] }, ref, { xIn: 0, yIn: 0 })).toThrow(/changed meanwhile/);
  });
});
