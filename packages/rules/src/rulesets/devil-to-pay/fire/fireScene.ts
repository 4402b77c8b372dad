/**
 * The Devil to Pay FIRE, Obstructions (p. 21) and Terrain: what fire needs to know about the table to trace
 * sight lines, built once per terrain (`fireSceneQuery`: blocking areas, hills, linear cover),
 * and why a traced line is blocked (`sightBlocker`: troops, a hill between, more than 6" of area terrain,
 * unless seen over from or at an elevation).
 */
import type { PointIn } from '../../../model/units.ts';
import { segmentInsideIntervals } from '../../../geometry/intersect.ts';
import { sightBoxOf, type SightReport, type SightScene } from '../../../geometry/lineOfSight.ts';
import { polygonCentroid } from '../../../geometry/polygon.ts';
import { query } from '../../../engine/incremental/query.ts';
import type { DtpContext } from '../context.ts';

/** Area terrain deeper than this blocks sight; rough ground is exempt (Terrain, Area Terrain; Obstructions). */
export const AREA_BLOCK_DEPTH_IN = 6;
/** Firing over an obstruction from or at an elevation needs 12" between obstruction and the other end (Obstructions). */
export const ELEVATION_CLEARANCE_IN = 12;

/**
 * Everything fire needs about the terrain, made once per terrain (`fireSceneQuery`). The stands a sight
 * line may meet are not in it: each pair reads the stands in the box its lines can touch
 * (`eligibleStands.ts`), so a stand moving elsewhere does not touch the pair.
 */
export interface FireScene {
  /** Sight scene of the terrain alone (no stands). */
  readonly sight: SightScene;
  /** Linear terrain only: the range line's cover needs just the linear crossings, so skip areas and hills. */
  readonly coverOnly: SightScene;
  /** Ground level under each area terrain piece (at its centroid), by area id. */
  readonly areaLevel: ReadonlyMap<string, number>;
  /** The visibility scene: only the blocking (non-rough) areas and the elevations, no linear terrain. */
  readonly visibility: SightScene;
}

/** The fire scene of the table's terrain. */
export const fireSceneQuery = query('dtp/fire-scene', (ctx: DtpContext): FireScene => {
  const terrain = ctx.state.terrain;
  const areaLevel = new Map<string, number>();
  for (const a of terrain.areas) areaLevel.set(a.id, ctx.elevationLevelAt(polygonCentroid(a.vertices)));
  const sight: SightScene = {
    terrain,
    stands: [],
    areaBoxes: terrain.areas.map((a) => sightBoxOf(a.vertices)),
    linearBoxes: terrain.linear.map((l) => sightBoxOf(l.points)),
    elevationBoxes: terrain.elevations.map((e) => sightBoxOf(e.vertices)),
  };
  // For visibility only blocking areas and elevations matter: leave out linear terrain and rough ground so
  // each traced line does less work.
  const blockingAreas = terrain.areas.flatMap((a, i) => (a.kind === 'rough' ? [] : [i]));
  const visibility: SightScene = {
    ...sight,
    terrain: { ...sight.terrain, areas: blockingAreas.map((i) => sight.terrain.areas[i]!), linear: [] },
    areaBoxes: blockingAreas.map((i) => sight.areaBoxes[i]!),
    linearBoxes: [],
  };
  const coverOnly: SightScene = {
    ...sight,
    terrain: { ...sight.terrain, areas: [], elevations: [] },
    areaBoxes: [],
    elevationBoxes: [],
  };
  return { sight, coverOnly, areaLevel, visibility };
});

/** The fire scene of the context's table (its terrain). */
export function buildFireScene(ctx: DtpContext): FireScene {
  return ctx.t.get(fireSceneQuery);
}

/** Where along the sight line (inches from its start) a polygon is entered and left. */
function spanAlong(from: PointIn, to: PointIn, polygon: readonly PointIn[], lengthIn: number): [number, number] | undefined {
  const iv = segmentInsideIntervals(from, to, polygon);
  if (iv.length === 0) return undefined;
  return [iv[0]![0] * lengthIn, iv[iv.length - 1]![1] * lengthIn];
}

/**
 * Whether an obstruction spanning [entryIn, exitIn] along the line is seen over thanks to elevation
 * (Obstructions): firer above it with the target at least 12" beyond, or target above it with the firer at
 * least 12" short of it.
 */
function seenOver(report: SightReport, obstacleLevel: number, entryIn: number, exitIn: number): boolean {
  const { fromLevel, toLevel } = report.elevation;
  if (fromLevel > obstacleLevel && report.lengthIn - exitIn >= ELEVATION_CLEARANCE_IN) return true;
  if (toLevel > obstacleLevel && entryIn >= ELEVATION_CLEARANCE_IN) return true;
  return false;
}

/** Why a sight line is blocked, or undefined when it is clear (Obstructions, Terrain). */
export function sightBlocker(ctx: DtpContext, scene: FireScene, from: PointIn, to: PointIn, report: SightReport): string | undefined {
  const { fromLevel, toLevel, maxLevelBetween } = report.elevation;
  // A hill between firer and target hides one from the other unless one of them stands as high.
  if (maxLevelBetween > Math.max(fromLevel, toLevel)) return 'elevation';
  // Neither end raised: nothing can be seen over, the first obstruction blocks.
  const flat = fromLevel === 0 && toLevel === 0;
  for (const c of report.stands) {
    if (flat) return `troops:${c.unitId}`;
    const s = ctx.stands.get(c.standId);
    if (!s) continue;
    const span = spanAlong(from, to, s.corners, report.lengthIn) ?? [c.atIn, c.atIn];
    if (!seenOver(report, ctx.elevationLevelAt(s.center), span[0], span[1])) return `troops:${c.unitId}`;
  }
  for (const a of report.areas) {
    if (a.kind === 'rough' || a.lengthInsideIn <= AREA_BLOCK_DEPTH_IN) continue;
    if (flat) return `area:${a.id}`;
    const area = ctx.state.terrain.areas.find((x) => x.id === a.id)!;
    const span = spanAlong(from, to, area.vertices, report.lengthIn) ?? [0, report.lengthIn];
    if (!seenOver(report, scene.areaLevel.get(a.id) ?? 0, span[0], span[1])) return `area:${a.id}`;
  }
  return undefined;
}
