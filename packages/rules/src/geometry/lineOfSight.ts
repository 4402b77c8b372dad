/**
 * What a sight line crosses: area terrain (and how much of it), linear terrain, other stands, and the
 * ground level at both ends and along the way. Plain data; the rule set decides what blocks sight.
 */
import type { PointIn } from '../model/units.ts';
import type { AreaTerrainKind, LinearTerrainKind, Stand, TableState, Terrain } from '../model/tableState.ts';
import { standCorners } from './footprint.ts';
import {
  fractionInsidePolygon,
  pointInPolygon,
  polygonsOverlap,
  segmentIntersection,
  segmentIntersectionT,
  segmentInsideIntervals,
  segmentTouchesPolygonBoundary,
} from './intersect.ts';
import { sortSmall } from './sortSmall.ts';


const ascendingIndex = (a: number, b: number): number => a - b;
/** Axis-aligned box of a sight-scene item, inches (short field names: read in the hottest loops). */
export interface SightBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The SightBox of a set of points; an empty list gives an inverted box that meets nothing. */
export function sightBoxOf(points: readonly PointIn[]): SightBox {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of points) {
    if (p.xIn < minX) minX = p.xIn;
    if (p.xIn > maxX) maxX = p.xIn;
    if (p.yIn < minY) minY = p.yIn;
    if (p.yIn > maxY) maxY = p.yIn;
  }
  return { minX, minY, maxX, maxY };
}

/** Whether the segment a–b certainly misses `box` (its own bounding box does not meet it). */
export function segBoxMisses(a: PointIn, b: PointIn, box: SightBox): boolean {
  return (
    Math.max(a.xIn, b.xIn) < box.minX ||
    Math.min(a.xIn, b.xIn) > box.maxX ||
    Math.max(a.yIn, b.yIn) < box.minY ||
    Math.min(a.yIn, b.yIn) > box.maxY
  );
}

/** A stand prepared for sight tests: its footprint and bounding box computed once. */
export interface SightStand {
  readonly id: string;
  readonly unitId: string;
  readonly corners: readonly PointIn[];
  readonly box: SightBox;
  /** Footprint centre and circumscribed radius, inches: a cheap first test against a sight line. */
  readonly cx: number;
  readonly cy: number;
  readonly radiusIn: number;
}

/**
 * Terrain and stands prepared once per table state so that many sight lines are cheap
 * (footprints and bounding boxes are computed here, not per line).
 */
export interface SightScene {
  readonly terrain: Terrain;
  readonly stands: readonly SightStand[];
  /**
   * Uniform grid over `stands` so a sight line only tests stands near it. Used only while
   * `standGrid.stands === stands`: a scene copied with a different stand list (`{ ...scene, stands }`)
   * falls back to testing every stand, so it is never wrong, only slower.
   */
  readonly standGrid?: StandGrid;
  readonly areaBoxes: readonly SightBox[];
  readonly linearBoxes: readonly SightBox[];
  readonly elevationBoxes: readonly SightBox[];
}

/** Grid cell size for the stand grid, inches: a few stands wide, so a cell holds a handful. */
const GRID_CELL_IN = 6;

/** Stand indices bucketed by grid cell (see `SightScene.standGrid`). */
export interface StandGrid {
  readonly stands: readonly SightStand[];
  readonly cells: ReadonlyMap<number, readonly number[]>;
  /** Scratch for de-duplicating stands that sit in several cells during one query. */
  readonly seen: Int32Array;
  stamp: number;
}

const cellKey = (cx: number, cy: number): number => cx * 65_536 + cy;

function buildStandGrid(stands: readonly SightStand[]): StandGrid {
  const cells = new Map<number, number[]>();
  stands.forEach((s, i) => {
    for (let cx = Math.floor(s.box.minX / GRID_CELL_IN); cx <= Math.floor(s.box.maxX / GRID_CELL_IN); cx++) {
      for (let cy = Math.floor(s.box.minY / GRID_CELL_IN); cy <= Math.floor(s.box.maxY / GRID_CELL_IN); cy++) {
        const k = cellKey(cx, cy);
        const list = cells.get(k);
        if (list) list.push(i);
        else cells.set(k, [i]);
      }
    }
  });
  return { stands, cells, seen: new Int32Array(stands.length), stamp: 0 };
}

/** Indices (ascending, so results keep scene order) of stands in grid cells the segment passes near. */
function gridCandidates(grid: StandGrid, from: PointIn, to: PointIn): number[] {
  grid.stamp = (grid.stamp + 1) | 0;
  const stamp = grid.stamp;
  const out: number[] = [];
  const dx = to.xIn - from.xIn;
  const dy = to.yIn - from.yIn;
  const len2 = dx * dx + dy * dy;
  // A cell matters when its centre is within half its diagonal of the segment.
  const reach = (GRID_CELL_IN * Math.SQRT2) / 2 + 1e-9;
  const x0 = Math.floor(Math.min(from.xIn, to.xIn) / GRID_CELL_IN);
  const x1 = Math.floor(Math.max(from.xIn, to.xIn) / GRID_CELL_IN);
  const y0 = Math.floor(Math.min(from.yIn, to.yIn) / GRID_CELL_IN);
  const y1 = Math.floor(Math.max(from.yIn, to.yIn) / GRID_CELL_IN);
  for (let cx = x0; cx <= x1; cx++) {
    for (let cy = y0; cy <= y1; cy++) {
      const list = grid.cells.get(cellKey(cx, cy));
      if (!list) continue;
      const mx = (cx + 0.5) * GRID_CELL_IN;
      const my = (cy + 0.5) * GRID_CELL_IN;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((mx - from.xIn) * dx + (my - from.yIn) * dy) / len2));
      const ex = from.xIn + dx * t - mx;
      const ey = from.yIn + dy * t - my;
      if (ex * ex + ey * ey > reach * reach) continue;
      for (const i of list) {
        if (grid.seen[i] === stamp) continue;
        grid.seen[i] = stamp;
        out.push(i);
      }
    }
  }
  return sortSmall(out, ascendingIndex);
}

/** Prepare a table state (or just terrain and stands) for `lineOfSight`. */
export function buildSightScene(state: Pick<TableState, 'terrain' | 'stands'>): SightScene {
  const stands = state.stands.map((s: Stand): SightStand => {
    const corners = standCorners(s);
    const radiusIn = Math.sqrt(s.widthIn * s.widthIn + s.depthIn * s.depthIn) / 2;
    return { id: s.id, unitId: s.unitId, corners, box: sightBoxOf(corners), cx: s.pose.xIn, cy: s.pose.yIn, radiusIn };
  });
  return {
    terrain: state.terrain,
    stands,
    standGrid: buildStandGrid(stands),
    areaBoxes: state.terrain.areas.map((a) => sightBoxOf(a.vertices)),
    linearBoxes: state.terrain.linear.map((l) => sightBoxOf(l.points)),
    elevationBoxes: state.terrain.elevations.map((e) => sightBoxOf(e.vertices)),
  };
}

export interface AreaCrossing {
  readonly id: string;
  readonly kind: AreaTerrainKind;
  /** Length of the sight line inside this area, inches. */
  readonly lengthInsideIn: number;
  readonly fromInside: boolean;
  readonly toInside: boolean;
}

export interface LinearCrossing {
  readonly id: string;
  readonly kind: LinearTerrainKind;
  /** Where the sight line crosses it, nearest `from` first. */
  readonly points: readonly PointIn[];
  /** Distance from `from` to the first crossing, inches (e.g. "within 1\" of the fence"). */
  readonly firstAtIn: number;
}

export interface StandCrossing {
  readonly standId: string;
  readonly unitId: string;
  /** Distance along the line from `from` where it first meets the stand, inches. */
  readonly atIn: number;
}

export interface ElevationProfile {
  /** Ground level at `from` (0 = table, 1 = hill...). */
  readonly fromLevel: number;
  readonly toLevel: number;
  /** Highest level the line passes over strictly between the ends (excluding the end points). */
  readonly maxLevelBetween: number;
  /** Elevations the line enters or crosses, with the length inside each, inches. */
  readonly crossed: readonly { readonly id: string; readonly level: number; readonly lengthInsideIn: number }[];
}

export interface SightReport {
  readonly lengthIn: number;
  readonly areas: readonly AreaCrossing[];
  readonly linear: readonly LinearCrossing[];
  /** Stands the line touches, nearest first, excluding those of `ignoreUnitIds` / `ignoreStandIds`. */
  readonly stands: readonly StandCrossing[];
  readonly elevation: ElevationProfile;
}

export interface SightOptions {
  /** Units whose stands are not reported (typically the firer and the target). */
  readonly ignoreUnitIds?: readonly string[];
  readonly ignoreStandIds?: readonly string[];
}

/** Ground level at a point: the highest level among elevations containing it, 0 outside all. */
export function elevationLevelAt(point: PointIn, terrain: Pick<Terrain, 'elevations'>): number {
  let level = 0;
  for (const e of terrain.elevations) {
    if (e.level > level && pointInPolygon(point, e.vertices)) level = e.level;
  }
  return level;
}

/**
 * Where the sight line `from` → `to` first meets a stand, as a fraction of its length (0 when it starts
 * inside), or -1 when it misses it or only grazes along an edge. Allocation-free except in the rare
 * collinear-edge case.
 */
export function standCrossingFraction(s: SightStand, from: PointIn, to: PointIn): number {
  if (segBoxMisses(from, to, s.box)) return -1;
  const dx = to.xIn - from.xIn;
  const dy = to.yIn - from.yIn;
  const len2 = dx * dx + dy * dy;
  // Circle cull: a long diagonal line's box overlaps many stands' boxes, but few come near the line.
  const tc = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((s.cx - from.xIn) * dx + (s.cy - from.yIn) * dy) / len2));
  const ex = from.xIn + dx * tc - s.cx;
  const ey = from.yIn + dy * tc - s.cy;
  if (ex * ex + ey * ey > (s.radiusIn + 1e-9) * (s.radiusIn + 1e-9)) return -1;
  if (pointInPolygon(from, s.corners)) return 0;
  // First crossing of the footprint's boundary; none means the line misses (or only grazes along an edge).
  let t = Infinity;
  let parallelEdge = false;
  for (let i = 0, j = s.corners.length - 1; i < s.corners.length; j = i++) {
    const a = s.corners[j]!;
    const b = s.corners[i]!;
    const tHit = segmentIntersectionT(from, to, a, b);
    if (tHit === tHit) {
      if (tHit < t) t = tHit;
    } else if (Math.abs(dx * (b.yIn - a.yIn) - dy * (b.xIn - a.xIn)) < 1e-12) parallelEdge = true;
  }
  if (t === Infinity) {
    // No crossing: the line misses, unless it runs along a (parallel) edge, which only the careful overlap
    // test can tell; collinear with an edge counts as touching from the start of the contact.
    return parallelEdge && polygonsOverlap([from, to], s.corners) ? 0 : -1;
  }
  return t;
}

/**
 * For a line whose both ends are at ground level 0: whether it passes over higher ground between its ends
 * (`elevation.maxLevelBetween > 0` in `lineOfSight`'s report) or runs more than `areaDepthIn` inside one of
 * the scene's areas (an area crossing with `lengthInsideIn > areaDepthIn`). The same steps as
 * `lineOfSight` for those two answers, stopping at the first yes and building no report.
 */
export function levelLineObstructed(scene: Pick<SightScene, 'terrain' | 'areaBoxes' | 'elevationBoxes'>, from: PointIn, to: PointIn, areaDepthIn: number): boolean {
  const elevations = scene.terrain.elevations;
  for (let i = 0; i < elevations.length; i++) {
    const e = elevations[i]!;
    if (e.level <= 0 || segBoxMisses(from, to, scene.elevationBoxes[i]!)) continue;
    const crosses = segmentTouchesPolygonBoundary(from, to, e.vertices);
    if (!crosses && !pointInPolygon(from, e.vertices)) continue;
    if (!crosses) continue; // wholly inside: [0, 1] touches both ends, not "between"
    let inside = 0;
    let strictlyBetween = false;
    for (const [t0, t1] of segmentInsideIntervals(from, to, e.vertices)) {
      inside += t1 - t0;
      if (t1 - t0 > 1e-9 && (t0 > 1e-9 || t1 < 1 - 1e-9)) strictlyBetween = true;
    }
    if (inside > 0 && strictlyBetween) return true;
  }
  const lengthIn = Math.sqrt((to.xIn - from.xIn) ** 2 + (to.yIn - from.yIn) ** 2);
  // No area can hold more of the line than its length (the margin covers the rounding of summed intervals).
  if (lengthIn < areaDepthIn * (1 - 1e-9)) return false;
  const areas = scene.terrain.areas;
  for (let i = 0; i < areas.length; i++) {
    const area = areas[i]!;
    if (segBoxMisses(from, to, scene.areaBoxes[i]!)) continue;
    const fromInside = pointInPolygon(from, area.vertices);
    const crosses = segmentTouchesPolygonBoundary(from, to, area.vertices);
    if (!crosses && !fromInside) continue;
    const inside = crosses ? fractionInsidePolygon(from, to, area.vertices) : 1;
    if (inside * lengthIn > areaDepthIn) return true;
  }
  return false;
}

/**
 * The linear terrain the line `from` → `to` (of length `lengthIn`) crosses: `lineOfSight`'s `linear`, for
 * callers that need only that (cover along a range line).
 */
export function linearCrossings(scene: Pick<SightScene, 'terrain' | 'linearBoxes'>, from: PointIn, to: PointIn, lengthIn: number): LinearCrossing[] {
  const linear: LinearCrossing[] = [];
  scene.terrain.linear.forEach((line, i) => {
    if (segBoxMisses(from, to, scene.linearBoxes[i]!)) return;
    const hits: { t: number; p: PointIn }[] = [];
    for (let k = 0; k + 1 < line.points.length; k++) {
      const hit = segmentIntersection(from, to, line.points[k]!, line.points[k + 1]!);
      // A crossing at a shared polyline vertex shows up on both segments; keep one.
      if (hit && !hits.some((h) => Math.abs(h.t - hit.tA) < 1e-9)) hits.push({ t: hit.tA, p: hit.point });
    }
    if (hits.length === 0) return;
    sortSmall(hits, (a, b) => a.t - b.t);
    linear.push({ id: line.id, kind: line.kind, points: hits.map((h) => h.p), firstAtIn: hits[0]!.t * lengthIn });
  });
  return linear;
}

/** List everything the sight line `from` → `to` crosses. */
export function lineOfSight(scene: SightScene, from: PointIn, to: PointIn, options: SightOptions = {}): SightReport {
  const lengthIn = Math.sqrt((to.xIn - from.xIn) ** 2 + (to.yIn - from.yIn) ** 2);
  const areas: AreaCrossing[] = [];
  scene.terrain.areas.forEach((area, i) => {
    if (segBoxMisses(from, to, scene.areaBoxes[i]!)) return;
    const fromInside = pointInPolygon(from, area.vertices);
    // Most lines near an area never cross its edge: then the line is wholly outside or wholly inside.
    const crosses = segmentTouchesPolygonBoundary(from, to, area.vertices);
    if (!crosses && !fromInside) return;
    const inside = crosses ? fractionInsidePolygon(from, to, area.vertices) : 1;
    const toInside = pointInPolygon(to, area.vertices);
    if (inside > 0 || fromInside || toInside) {
      areas.push({ id: area.id, kind: area.kind, lengthInsideIn: inside * lengthIn, fromInside, toInside });
    }
  });

  const linear = linearCrossings(scene, from, to, lengthIn);

  const ignoreUnits = options.ignoreUnitIds ?? [];
  const ignoreStands = options.ignoreStandIds ?? [];
  const stands: StandCrossing[] = [];
  const grid = scene.standGrid;
  const useGrid = grid !== undefined && grid.stands === scene.stands;
  const candidates = useGrid ? gridCandidates(grid, from, to) : undefined;
  const count = candidates ? candidates.length : scene.stands.length;
  for (let k = 0; k < count; k++) {
    const s = scene.stands[candidates ? candidates[k]! : k]!;
    const atFraction = standCrossingFraction(s, from, to);
    if (atFraction < 0) continue;
    if (ignoreUnits.includes(s.unitId) || ignoreStands.includes(s.id)) continue;
    stands.push({ standId: s.id, unitId: s.unitId, atIn: atFraction * lengthIn });
  }
  sortSmall(stands, (a, b) => a.atIn - b.atIn);

  const fromLevel = elevationLevelAt(from, scene.terrain);
  const toLevel = elevationLevelAt(to, scene.terrain);
  let maxLevelBetween = 0;
  const crossed: { id: string; level: number; lengthInsideIn: number }[] = [];
  scene.terrain.elevations.forEach((e, i) => {
    if (segBoxMisses(from, to, scene.elevationBoxes[i]!)) return;
    const crosses = segmentTouchesPolygonBoundary(from, to, e.vertices);
    if (!crosses && !pointInPolygon(from, e.vertices)) return;
    const intervals: [number, number][] = crosses ? segmentInsideIntervals(from, to, e.vertices) : [[0, 1]];
    let inside = 0;
    let strictlyBetween = false;
    for (const [t0, t1] of intervals) {
      inside += t1 - t0;
      // Inside somewhere other than just at an end point counts as "between".
      if (t1 - t0 > 1e-9 && (t0 > 1e-9 || t1 < 1 - 1e-9)) strictlyBetween = true;
    }
    if (inside <= 0) return;
    crossed.push({ id: e.id, level: e.level, lengthInsideIn: inside * lengthIn });
    if (strictlyBetween && e.level > maxLevelBetween) maxLevelBetween = e.level;
  });

  return { lengthIn, areas, linear, stands, elevation: { fromLevel, toLevel, maxLevelBetween, crossed } };
}
