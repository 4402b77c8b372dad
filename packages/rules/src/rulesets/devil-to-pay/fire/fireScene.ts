/**
 * The Devil to Pay FIRE, Obstructions (p. 21) and Terrain: what fire needs to know about the table to trace
 * sight lines, built once per state (`buildFireScene`: troop stands grouped by unit, blocking areas, hills),
 * and why a traced line is blocked (`sightBlocker`: troops, a hill between, more than 6" of area terrain,
 * unless seen over from or at an elevation).
 */
import type { PointIn } from '../../../model/units.ts';
import { standCorners } from '../../../geometry/footprint.ts';
import { segmentInsideIntervals } from '../../../geometry/intersect.ts';
import { sightBoxOf, type SightReport, type SightScene, type SightStand } from '../../../geometry/lineOfSight.ts';
import { polygonCentroid } from '../../../geometry/polygon.ts';
import { BoxGrid } from '../../../geometry/boxGrid.ts';
import type { DtpContext, StandInfo } from '../context.ts';

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
   * The troop stands of `sight` filed in a uniform grid (item i is `sight.stands[i]`), so a sight line
   * tests only the stands in the cells it crosses, nearest its start first. Stands of `staleUnits` there
   * are out of date and skipped; those units' stands now are `extraStands`.
   */
  readonly standGrid: BoxGrid;
  /** Units whose stands in `sight.stands` (and the grid) are not this state's (`updateFireScene`). */
  readonly staleUnits: ReadonlySet<string>;
  /** This state's troop stands of the stale units, tested one by one after the grid. */
  readonly extraStands: readonly SightStand[];
  /** The visibility scene: `sight` with only the blocking (non-rough) areas and no linear terrain. */
  readonly visibility: SightScene;
  /**
   * Per firing stand, the stand that last blocked one of its sight lines in this state: the same friendly
   * line in front usually blocks its lines to the next target too, so it is tried first.
   */
  readonly lastBlocker: Map<StandInfo, SightStand>;
}


/**
 * The sight scene of troop stands (commanders are individuals, not troop formations), equal to
 * `buildSightScene` but reusing the context's stand infos (their `sight` form: same corners and box)
 * instead of recomputing 300 footprints per state. No stand grid of lineOfSight's own: fire walks its
 * `standGrid` and traces lines through scenes of the stands found there.
 */
function sightSceneOf(ctx: DtpContext): SightScene {
  const stands = troopStands(ctx);
  const terrain = ctx.state.terrain;
  return {
    terrain,
    stands,
    areaBoxes: terrain.areas.map((a) => sightBoxOf(a.vertices)),
    linearBoxes: terrain.linear.map((l) => sightBoxOf(l.points)),
    elevationBoxes: terrain.elevations.map((e) => sightBoxOf(e.vertices)),
  };
}

/** The troop stands of the state in state order, as sight lines see them. */
function troopStands(ctx: DtpContext): SightStand[] {
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
  return stands;
}

/**
 * The fire scene of a state. `sameTerrain`, when given, is a scene built for the same terrain (a session
 * that starts afresh on any terrain change vouches for it): its terrain parts are reused and only the
 * stands are read again.
 */
export function buildFireScene(ctx: DtpContext, sameTerrain?: FireScene): FireScene {
  if (sameTerrain) {
    const stands = troopStands(ctx);
    const sight: SightScene = { ...sameTerrain.sight, stands };
    return {
      sight,
      coverOnly: sameTerrain.coverOnly,
      areaLevel: sameTerrain.areaLevel,
      standGrid: new BoxGrid(stands.map((st) => st.box), STAND_GRID_CELL_IN),
      visibility: { ...sameTerrain.visibility, stands },
      lastBlocker: new Map(),
      staleUnits: NO_UNITS,
      extraStands: [],
    };
  }
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

  return {
    sight,
    coverOnly,
    areaLevel,
    standGrid: new BoxGrid(sight.stands.map((st) => st.box), STAND_GRID_CELL_IN),
    visibility,
    lastBlocker: new Map(),
    staleUnits: NO_UNITS,
    extraStands: [],
  };
}

const NO_UNITS: ReadonlySet<string> = new Set();

/** Beyond this many stale units a session files every stand again (each sight line tests the extras one by one). */
const MAX_STALE_UNITS = 16;

/**
 * The fire scene of a state that differs from `previous`'s only in the stands of `changedUnitIds` (a
 * session knows which): the grid is kept and those units' stands are marked stale and listed apart,
 * instead of filing a thousand stands again. Stands of no unit, and terrain, must be the same as before.
 */
export function updateFireScene(ctx: DtpContext, previous: FireScene, changedUnitIds: ReadonlySet<string>): FireScene {
  const stale = new Set(previous.staleUnits);
  changedUnitIds.forEach((id) => stale.add(id));
  if (stale.size > MAX_STALE_UNITS) return buildFireScene(ctx, previous);
  const extraStands: SightStand[] = [];
  stale.forEach((id) => {
    const info = ctx.units.get(id);
    // Units' own stands are troops (only commanders' stands are left out of sight scenes).
    if (info) for (const s of info.stands) if (s.stand.role !== 'commander') extraStands.push(s.sight);
  });
  return { ...previous, lastBlocker: new Map(), staleUnits: stale, extraStands };
}

/**
 * Cell side of the stand grid, inches: about two stands wide, so a cell holds a few stands and a sight
 * line's walk finds the stand in front of a firer within its first cells.
 */
const STAND_GRID_CELL_IN = 3;

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
