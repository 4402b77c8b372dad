/**
 * The table's terrain prepared once per state for movement walks: each area and line with its class in
 * this supplement (tables/terrain.ts) and its bounding box, roads with their half-widths, hills.
 */
import type { PointIn } from '../../../model/units.ts';
import type { AreaTerrainKind, TableState } from '../../../model/tableState.ts';
import { boundingBox, type BoundingBoxIn } from '../../../geometry/polygon.ts';
import { pointToSegmentDistanceIn } from '../../../geometry/distance.ts';
import { AREA_KIND_CLASS, LINEAR_KIND_CLASS, type AreaClass, type LinearClass } from '../tables/terrain.ts';

export interface VbArea {
  readonly id: string;
  readonly kind: AreaTerrainKind;
  readonly cls: AreaClass;
  readonly vertices: readonly PointIn[];
  readonly box: BoundingBoxIn;
}

export interface VbLine {
  readonly id: string;
  readonly cls: LinearClass;
  readonly points: readonly PointIn[];
  readonly box: BoundingBoxIn;
}

export interface VbRoad {
  readonly id: string;
  readonly points: readonly PointIn[];
  readonly halfWidthIn: number;
  readonly box: BoundingBoxIn;
}

export interface VbHill {
  readonly id: string;
  readonly level: number;
  readonly vertices: readonly PointIn[];
  readonly box: BoundingBoxIn;
}

export interface VbTerrain {
  readonly areas: readonly VbArea[];
  readonly lines: readonly VbLine[];
  readonly roads: readonly VbRoad[];
  readonly hills: readonly VbHill[];
  readonly table: { readonly widthIn: number; readonly depthIn: number };
}

export function buildTerrain(state: TableState): VbTerrain {
  return {
    areas: state.terrain.areas.map((a) => ({ id: a.id, kind: a.kind, cls: AREA_KIND_CLASS[a.kind], vertices: a.vertices, box: boundingBox(a.vertices) })),
    lines: state.terrain.linear.map((l) => ({ id: l.id, cls: LINEAR_KIND_CLASS[l.kind], points: l.points, box: boundingBox(l.points) })),
    roads: state.terrain.roads.map((r) => ({ id: r.id, points: r.points, halfWidthIn: (r.widthIn ?? 1) / 2, box: boundingBox(r.points) })),
    hills: state.terrain.elevations.filter((e) => e.level > 0).map((e) => ({ id: e.id, level: e.level, vertices: e.vertices, box: boundingBox(e.vertices) })),
    table: state.table,
  };
}

/** The road whose surface holds `p` (within its half-width of the centre line), if any. */
export function roadAt(terrain: VbTerrain, p: PointIn): VbRoad | undefined {
  for (const r of terrain.roads) {
    if (p.xIn < r.box.minXIn - r.halfWidthIn || p.xIn > r.box.maxXIn + r.halfWidthIn || p.yIn < r.box.minYIn - r.halfWidthIn || p.yIn > r.box.maxYIn + r.halfWidthIn) continue;
    for (let i = 0; i + 1 < r.points.length; i++) {
      if (pointToSegmentDistanceIn(p, r.points[i]!, r.points[i + 1]!) <= r.halfWidthIn + 1e-9) return r;
    }
  }
  return undefined;
}

function boxesMeet(a: BoundingBoxIn, b: BoundingBoxIn): boolean {
  return a.minXIn <= b.maxXIn && b.minXIn <= a.maxXIn && a.minYIn <= b.maxYIn && b.minYIn <= a.maxYIn;
}

/**
 * The terrain within `radiusIn` of `center` (by bounding boxes): what the walks from one stand can meet,
 * so each of its many walks tests only that. Roads are kept whole (bridges are looked up by point).
 */
export function terrainNear(terrain: VbTerrain, center: PointIn, radiusIn: number): VbTerrain {
  const box: BoundingBoxIn = { minXIn: center.xIn - radiusIn, minYIn: center.yIn - radiusIn, maxXIn: center.xIn + radiusIn, maxYIn: center.yIn + radiusIn };
  return {
    areas: terrain.areas.filter((a) => boxesMeet(a.box, box)),
    lines: terrain.lines.filter((l) => boxesMeet(l.box, box)),
    roads: terrain.roads,
    hills: terrain.hills.filter((h) => boxesMeet(h.box, box)),
    table: terrain.table,
  };
}
