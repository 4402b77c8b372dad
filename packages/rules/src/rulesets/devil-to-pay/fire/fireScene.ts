/**
 * The Devil to Pay FIRE, Obstructions (p. 21) and Terrain: what fire needs to know about the table to trace
 * sight lines, built once per state (`buildFireScene`: troop stands grouped by unit, blocking areas, hills),
 * and why a traced line is blocked (`sightBlocker`: troops, a hill between, more than 6" of area terrain,
 * unless seen over from or at an elevation).
 */
import type { PointIn } from '../../../model/units.ts';
import { standCorners } from '../../../geometry/footprint.ts';
import { segmentInsideIntervals } from '../../../geometry/intersect.ts';
import { sightBoxOf, type SightBox, type SightReport, type SightScene, type SightStand } from '../../../geometry/lineOfSight.ts';
import { polygonCentroid } from '../../../geometry/polygon.ts';
import type { BoxIn, DtpContext } from '../context.ts';

/** Area terrain deeper than this blocks sight; rough ground is exempt (Terrain, Area Terrain; Obstructions). */
export const AREA_BLOCK_DEPTH_IN = 6;
/** Firing over an obstruction from or at an elevation needs 12" between obstruction and the other end (Obstructions). */
export const ELEVATION_CLEARANCE_IN = 12;

/** Everything fire needs about the table beyond the context, built once per state. */
export interface FireScene {
  /** Sight scene of troop stands only: commanders are individuals, not troop formations, and do not block. */
  readonly sight: SightScene;
  /** Linear terrain only: the range line's cover needs just the linear crossings, so skip areas and hills. */
  readonly coverOnly: SightScene;
  /** Ground level under each area terrain piece (at its centroid), by area id. */
  readonly areaLevel: ReadonlyMap<string, number>;
  /**
   * The sight scene cut down to stands of other units whose boxes meet `box` (sight lines inside it can
   * only meet those), and whether anything there (stands, blocking area terrain, elevations) could block.
   */
  sightWithin(box: BoxIn, excludeUnitIds: readonly string[]): { sight: SightScene; mayBlock: boolean };
}


/**
 * The sight scene of troop stands (commanders are individuals, not troop formations), equal to
 * `buildSightScene` but reusing the context's stand infos (their `sight` form: same corners and box)
 * instead of recomputing 300 footprints per state. No stand grid: fire only traces lines through scenes
 * cut down by `sightWithin`, which the grid cannot serve.
 */
function sightSceneOf(ctx: DtpContext): SightScene {
  const stands: SightStand[] = [];
  for (const st of ctx.state.stands) {
    if (st.role === 'commander') continue;
    const info = ctx.stands.get(st.id);
    if (info && info.stand === st) stands.push(info.sight);
    else {
      const corners = standCorners(st);
      const radiusIn = Math.sqrt(st.widthIn * st.widthIn + st.depthIn * st.depthIn) / 2;
      stands.push({ id: st.id, unitId: st.unitId, corners, box: sightBoxOf(corners), cx: st.pose.xIn, cy: st.pose.yIn, radiusIn });
    }
  }
  const terrain = ctx.state.terrain;
  return {
    terrain,
    stands,
    areaBoxes: terrain.areas.map((a) => sightBoxOf(a.vertices)),
    linearBoxes: terrain.linear.map((l) => sightBoxOf(l.points)),
    elevationBoxes: terrain.elevations.map((e) => sightBoxOf(e.vertices)),
  };
}

export function buildFireScene(ctx: DtpContext): FireScene {
  const areaLevel = new Map<string, number>();
  for (const a of ctx.state.terrain.areas) areaLevel.set(a.id, ctx.elevationLevelAt(polygonCentroid(a.vertices)));
  // Troop stands only: commanders are individuals, not troop formations.
  const sight = sightSceneOf(ctx);
  // For visibility only stands, blocking areas and elevations matter: leave out linear terrain and rough
  // ground so each traced line does less work.
  const blockingAreas = ctx.state.terrain.areas.flatMap((a, i) => (a.kind === 'rough' ? [] : [i]));
  const visibility: SightScene = {
    ...sight,
    terrain: { ...sight.terrain, areas: blockingAreas.map((i) => sight.terrain.areas[i]!), linear: [] },
    areaBoxes: blockingAreas.map((i) => sight.areaBoxes[i]!),
    linearBoxes: [],
  };
  const coverOnly: SightScene = {
    ...sight,
    stands: [],
    terrain: { ...sight.terrain, areas: [], elevations: [] },
    areaBoxes: [],
    elevationBoxes: [],
  };

  // Troop stands grouped by unit with the group's box, so a pair of units tests only the units between
  // them. Order within a sight scene does not matter: fire asks only whether some line is clear.
  const groups: { unitId: string; box: SightBox; stands: SightStand[] }[] = [];
  const groupOf = new Map<string, (typeof groups)[number]>();
  for (const st of sight.stands) {
    let g = groupOf.get(st.unitId);
    if (!g) {
      g = { unitId: st.unitId, box: { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity }, stands: [] };
      groupOf.set(st.unitId, g);
      groups.push(g);
    }
    g.stands.push(st);
    const gb = g.box;
    if (st.box.minX < gb.minX) gb.minX = st.box.minX;
    if (st.box.minY < gb.minY) gb.minY = st.box.minY;
    if (st.box.maxX > gb.maxX) gb.maxX = st.box.maxX;
    if (st.box.maxY > gb.maxY) gb.maxY = st.box.maxY;
  }
  return {
    sight,
    coverOnly,
    areaLevel,
    sightWithin(box, excludeUnitIds) {
      const within: SightStand[] = [];
      for (const g of groups) {
        if (!boxMeets(g.box, box) || excludeUnitIds.includes(g.unitId)) continue;
        for (const st of g.stands) if (boxMeets(st.box, box)) within.push(st);
      }
      const count = within.length;
      // `visibility` holds the elevations and the blocking (non-rough) areas.
      let mayBlock = count > 0;
      for (let i = 0; !mayBlock && i < visibility.elevationBoxes.length; i++) mayBlock = boxMeets(visibility.elevationBoxes[i]!, box);
      for (let i = 0; !mayBlock && i < visibility.areaBoxes.length; i++) mayBlock = boxMeets(visibility.areaBoxes[i]!, box);
      const narrowed: SightScene = {
        terrain: visibility.terrain,
        stands: within,
        areaBoxes: visibility.areaBoxes,
        linearBoxes: visibility.linearBoxes,
        elevationBoxes: visibility.elevationBoxes,
      };
      return { sight: narrowed, mayBlock };
    },
  };
}

/** Whether a sight box meets a box. */
const boxMeets = (b: SightBox, box: BoxIn): boolean => !(b.maxX < box.minXIn || b.minX > box.maxXIn || b.maxY < box.minYIn || b.minY > box.maxYIn);
/** `boxMeets` for other modules (exported apart: this module's own loops read the private constant). */
export const sightBoxMeets = boxMeets;

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
