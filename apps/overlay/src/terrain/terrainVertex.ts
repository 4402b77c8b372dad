/**
 * Editing terrain by its corners: find the vertex nearest a click, and the terrain with that vertex moved.
 * Pure, so the operator view only turns pointer events into these calls and a `set-terrain` message.
 */
import type { PointIn, Terrain } from '@muster/rules';

export type TerrainCollection = 'areas' | 'linear' | 'roads' | 'elevations';

export interface TerrainVertexRef {
  readonly collection: TerrainCollection;
  readonly pieceId: string;
  readonly vertexIndex: number;
  readonly point: PointIn;
  /** Whether the piece is a closed ring (area, elevation) or an open line (linear, road). */
  readonly closed: boolean;
}

function pointsOf(terrain: Terrain, collection: TerrainCollection): { id: string; pts: readonly PointIn[] }[] {
  switch (collection) {
    case 'areas':
      return terrain.areas.map((a) => ({ id: a.id, pts: a.vertices }));
    case 'elevations':
      return terrain.elevations.map((e) => ({ id: e.id, pts: e.vertices }));
    case 'linear':
      return terrain.linear.map((l) => ({ id: l.id, pts: l.points }));
    case 'roads':
      return terrain.roads.map((r) => ({ id: r.id, pts: r.points }));
  }
}

const COLLECTIONS: readonly TerrainCollection[] = ['linear', 'roads', 'areas', 'elevations'];

/**
 * The terrain vertex nearest `at`, within `maxDistanceIn`; null when none is that close. Lines win ties
 * over areas (they are drawn on top).
 */
export function nearestTerrainVertex(terrain: Terrain, at: PointIn, maxDistanceIn: number): TerrainVertexRef | null {
  let best: TerrainVertexRef | null = null;
  let bestIn = maxDistanceIn;
  for (const collection of COLLECTIONS) {
    for (const piece of pointsOf(terrain, collection)) {
      piece.pts.forEach((p, vertexIndex) => {
        const d = Math.hypot(p.xIn - at.xIn, p.yIn - at.yIn);
        if (d < bestIn || (d === bestIn && best === null)) {
          bestIn = d;
          best = { collection, pieceId: piece.id, vertexIndex, point: p, closed: collection === 'areas' || collection === 'elevations' };
        }
      });
    }
  }
  return best;
}

function replaceAt(pts: readonly PointIn[], index: number, to: PointIn): PointIn[] {
  return pts.map((p, i) => (i === index ? to : p));
}

/** The terrain with one vertex moved; other pieces are the same objects. Throws if the ref is stale. */
export function moveTerrainVertex(terrain: Terrain, ref: TerrainVertexRef, to: PointIn): Terrain {
  const hit = pointsOf(terrain, ref.collection).find((p) => p.id === ref.pieceId);
  if (!hit || ref.vertexIndex >= hit.pts.length) throw new Error(`terrain piece ${ref.pieceId} has no vertex ${ref.vertexIndex} (changed meanwhile?)`);
  switch (ref.collection) {
    case 'areas':
      return { ...terrain, areas: terrain.areas.map((a) => (a.id === ref.pieceId ? { ...a, vertices: replaceAt(a.vertices, ref.vertexIndex, to) } : a)) };
    case 'elevations':
      return { ...terrain, elevations: terrain.elevations.map((e) => (e.id === ref.pieceId ? { ...e, vertices: replaceAt(e.vertices, ref.vertexIndex, to) } : e)) };
    case 'linear':
      return { ...terrain, linear: terrain.linear.map((l) => (l.id === ref.pieceId ? { ...l, points: replaceAt(l.points, ref.vertexIndex, to) } : l)) };
    case 'roads':
      return { ...terrain, roads: terrain.roads.map((r) => (r.id === ref.pieceId ? { ...r, points: replaceAt(r.points, ref.vertexIndex, to) } : r)) };
  }
}

/** The piece's points after the move, for drawing it while dragging. */
export function piecePoints(terrain: Terrain, ref: TerrainVertexRef): readonly PointIn[] {
  return pointsOf(terrain, ref.collection).find((p) => p.id === ref.pieceId)?.pts ?? [];
}
