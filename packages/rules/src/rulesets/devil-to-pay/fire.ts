/**
 * The Devil to Pay FIRE (pp. 20-23): which stands may fire at which enemy unit, at what range and band, and
 * how many dice, with every modifier named and cited. Pure: a context and a sight scene in, options out.
 */
import type { DiceBreakdown, DiceModifier, FireRefusal, FireTargetOption } from '../../engine/evaluation.ts';
import type { PointIn } from '../../model/units.ts';
import type { AreaTerrainKind, Arm, LinearTerrainKind } from '../../model/tableState.ts';
import { standCorners } from '../../geometry/footprint.ts';
import { headingToVector } from '../../geometry/angles.ts';
import { pointToPolygonDistanceIn, segmentToSegmentDistanceIn } from '../../geometry/distance.ts';
import { pointInPolygon, polygonsOverlap, segmentInsideIntervals } from '../../geometry/intersect.ts';
import { levelLineObstructed, linearCrossings, lineOfSight, sightBoxOf, standCrossingFraction, type SightBox, type SightReport, type SightScene, type SightStand } from '../../geometry/lineOfSight.ts';
import { polygonOverlapsPreparedWedge, prepareWedge, type PreparedWedge, type Wedge } from '../../geometry/wedge.ts';
import { polygonCentroid } from '../../geometry/polygon.ts';
import { boxGapIn, unionBoxes, type BoxIn, type DtpContext, type FireArcMemo, type StandInfo, type UnitInfo } from './context.ts';
import { fireArc } from './fireArc.ts';
import { bandAt, maxRangeIn, weaponRow, FIRE_TABLE_SOURCE_ARTILLERY, FIRE_TABLE_SOURCE_INFANTRY, type WeaponRow } from './fireTables.ts';
import { universalModifiers } from './universalModifiers.ts';
import { SRC_SHARPSHOOTERS } from './optionalRules.ts';
import { hypot2 } from '../../geometry/hypot.ts';
import { sortSmall } from '../../geometry/sortSmall.ts';

const SRC_ELIGIBLE = 'Fire, Eligible Stands (p. 20)';
const SRC_ARC = 'Fire, Arc of Fire (p. 20)';
const SRC_PRIORITY = 'Fire, Target Priority (p. 20)';
const SRC_OBSTRUCTIONS = 'Fire, Obstructions (p. 21)';
const SRC_FORMATION = 'Fire Modifiers, 2. Formation Modifiers (p. 22)';
const SRC_GENERAL = 'Fire Modifiers, 3. General Modifiers (p. 22)';
const SRC_ARTILLERY = 'Armies, Artillery: Batteries and Sections (p. 13)';

/** Target priority distance: enemies within 12" must be fired at, closest first (Target Priority, p. 20). */
export const PRIORITY_RANGE_IN = 12;
/** Area terrain deeper than this blocks sight; rough ground is exempt (Terrain, Area Terrain; Obstructions). */
export const AREA_BLOCK_DEPTH_IN = 6;
/** Firing over an obstruction from or at an elevation needs 12" between obstruction and the other end (Obstructions). */
export const ELEVATION_CLEARANCE_IN = 12;
/**
 * A firer this close to a fence or wall is "at" it and ignores its modifier (General Modifiers notes). Troops
 * stand beside linear terrain (Terrain, Linear Terrain); the inch allows for placement and camera error.
 */
export const AT_OBSTACLE_IN = 1;

/** Cover from linear terrain, as target (General Modifiers); sunken roads count as walls (notes). */
const OBSTACLE_DICE: Partial<Record<LinearTerrainKind, { dice: number; label: string }>> = {
  fence: { dice: -1, label: 'Target behind fence' },
  wall: { dice: -2, label: 'Target behind wall' },
  'hasty-works': { dice: -2, label: 'Target behind hasty works' },
  'sunken-road': { dice: -2, label: 'Target in sunken road (as wall)' },
  entrenchment: { dice: -3, label: 'Target behind entrenchment' },
};

/** Area terrain fire modifiers, as firer and as target, counted once (General Modifiers). Swamp has none. */
const AREA_DICE: Partial<Record<AreaTerrainKind, { dice: number; label: string }>> = {
  'open-woods': { dice: -1, label: 'Open woods' },
  farm: { dice: -1, label: 'Farm' },
  rough: { dice: -1, label: 'Rough ground' },
  'thick-woods': { dice: -2, label: 'Thick woods' },
  town: { dice: -2, label: 'Town' },
  city: { dice: -2, label: 'City' },
  thicket: { dice: -2, label: 'Thicket' },
};


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

/** A refusal that applies to every target (the unit cannot fire at all); `targetUnitId` is '*'. */
export function unitFireRefusal(ctx: DtpContext, unitId: string): FireRefusal | undefined {
  const info = ctx.units.get(unitId)!;
  const reading = ctx.formationOf(unitId);
  const no = (reason: string, detail: string): FireRefusal => ({ ok: false, reason, detail, targetUnitId: '*' });
  if (info.stands.length === 0) return no('fire/no-stands', 'The unit has no stands on the table.');
  if (!weaponRow(info.unit.weapon)) {
    return no('fire/unknown-weapon', `Weapon '${info.unit.weapon}' is not in the Infantry or Artillery Fire table.`);
  }
  if (reading.mounted) return no('fire/mounted', 'Mounted cavalry do not fire; they may only charge (Mounted Cavalry, p. 11).');
  if (reading.formation === 'march-column') return no('fire/march-column', 'March column: No Firing (Formation Modifiers).');
  if (info.unit.arm === 'artillery' && reading.formation === 'disordered') {
    return no('fire/disordered-artillery', 'Disordered artillery cannot fire (Quick Reference, Fire; Disordered Artillery).');
  }
  if (reading.formation === 'limbered' || (info.unit.arm === 'artillery' && reading.limbered)) {
    return no('fire/limbered', 'Limbered artillery: No Firing (Formation Modifiers; Artillery, Limbered).');
  }
  return undefined;
}

/** Stands of the unit that may fire at all: front rank (Formation Modifiers "1st Rank"), no hits (Eligible Stands). */
export function firingStands(ctx: DtpContext, unitId: string): readonly StandInfo[] {
  // Asked once per (firer, target) pair: memoised per context.
  let memo = FIRING_STANDS.get(ctx);
  if (!memo) FIRING_STANDS.set(ctx, (memo = new Map()));
  let list = memo.get(unitId);
  if (!list) {
    const front = new Set(ctx.formationOf(unitId).frontRankStandIds);
    list = ctx.units.get(unitId)!.stands.filter((s) => front.has(s.stand.id) && s.hits === 0);
    memo.set(unitId, list);
  }
  return list;
}
const FIRING_STANDS = new WeakMap<DtpContext, Map<string, readonly StandInfo[]>>();

/** Closest point of a polygon to p (closestPointOnSegment per edge, allocating only the answer). */
function closestPointOnPolygon(p: PointIn, polygon: readonly PointIn[]): PointIn {
  let bestD = Infinity;
  let bestX = polygon[0]!.xIn;
  let bestY = polygon[0]!.yIn;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[j]!;
    const b = polygon[i]!;
    const dx = b.xIn - a.xIn;
    const dy = b.yIn - a.yIn;
    const len2 = dx * dx + dy * dy;
    let qx = a.xIn;
    let qy = a.yIn;
    if (len2 !== 0) {
      let t = ((p.xIn - a.xIn) * dx + (p.yIn - a.yIn) * dy) / len2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      qx = a.xIn + dx * t;
      qy = a.yIn + dy * t;
    }
    const d = hypot2(qx - p.xIn, qy - p.yIn);
    if (d < bestD) {
      bestD = d;
      bestX = qx;
      bestY = qy;
    }
  }
  return { xIn: bestX, yIn: bestY };
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

/** Length of the wedge's boundary rays in geometry/wedge.ts (polygonOverlapsWedge tests them as segments). */
const WEDGE_RAY_IN = 10_000;
/** A corner this far outside one of the arc's bounding half-planes is clear of it, whatever the rounding. */
const ARC_REJECT_MARGIN_IN = 1e-3;
/** Rounding allowed when checking that the arc's boundary lies in its own half-planes. */
const ARC_SELF_TOL_IN = 1e-4;

/**
 * The three half-planes (left ray, right ray, front edge) bounding a fire arc, as [a, b, c] rows with
 * a·x + b·y + c > 0 outside; undefined when the arc's boundary does not lie within all three (then the
 * cheap reject is not sound and only the exact test is used). Fire arcs diverge from the front corners, so
 * a stand wholly outside one half-plane cannot meet the arc: that skips most of polygonOverlapsWedge's
 * ray-by-edge work for stands beside or behind the arc.
 */
function arcHalfPlanes(w: PreparedWedge): Float64Array | undefined {
  // The prepared wedge's unit vectors are the same cos/sin of the ray directions, computed once.
  const lx = w.lx, ly = w.ly, rx = w.rx, ry = w.ry;
  const lux = w.lux, luy = w.luy, rux = w.rux, ruy = w.ruy;
  const bx = lx - rx, by = ly - ry;
  const planes = new Float64Array(9);
  planes[0] = -luy;
  planes[1] = lux;
  planes[2] = -lux * ly + luy * lx;
  planes[3] = ruy;
  planes[4] = -rux;
  planes[5] = rux * ry - ruy * rx;
  planes[6] = -by;
  planes[7] = bx;
  planes[8] = -bx * ry + by * rx;
  if (!(hypot2(bx, by) > 1e-6)) return undefined;
  // The arc's boundary (both origins and both far ray ends) must lie within all three half-planes.
  const lfx = lx + lux * WEDGE_RAY_IN, lfy = ly + luy * WEDGE_RAY_IN, rfx = rx + rux * WEDGE_RAY_IN, rfy = ry + ruy * WEDGE_RAY_IN;
  for (let k = 0; k < 9; k += 3) {
    const a = planes[k]!, b = planes[k + 1]!, c = planes[k + 2]!;
    if (a * lx + b * ly + c > ARC_SELF_TOL_IN || a * rx + b * ry + c > ARC_SELF_TOL_IN) return undefined;
    if (a * lfx + b * lfy + c > ARC_SELF_TOL_IN || a * rfx + b * rfy + c > ARC_SELF_TOL_IN) return undefined;
  }
  return planes;
}

/** A stand's arc of fire (`fireArc`), kept with its stand info. */
export function arcOfStand(stand: StandInfo, arm: Arm): Wedge {
  return standArc(stand, arm).wedge;
}

/** The stand's arc with its half-planes and prepared form, memoised on the stand info (no weak map). */
function standArc(stand: StandInfo, arm: Arm): FireArcMemo {
  const kept = stand.arcMemo;
  if (kept?.arm === arm) return kept;
  const wedge = fireArc(stand.stand, stand.corners, arm);
  const prepared = prepareWedge(wedge);
  const memo: FireArcMemo = { arm, wedge, planes: arcHalfPlanes(prepared), prepared };
  stand.arcMemo = memo;
  return memo;
}

/** Whether the polygon lies wholly outside one of the arc's half-planes (so it cannot meet the arc). */
function outsideArc(planes: Float64Array, polygon: readonly PointIn[]): boolean {
  for (let k = 0; k < 9; k += 3) {
    const a = planes[k]!, b = planes[k + 1]!, c = planes[k + 2]!;
    let all = true;
    for (const v of polygon) {
      if (a * v.xIn + b * v.yIn + c <= ARC_REJECT_MARGIN_IN) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

/** Target stands in a firing stand's arc and within the weapon's longest range, nearest first. */
/** Nearest first (module level: no comparator closure per call). */
const byDistance = (a: { d: number }, b: { d: number }): number => a.d - b.d;

function inArcAndRange(stand: StandInfo, standArc: FireArcMemo, target: UnitInfo, maxIn: number, needArc: boolean): { inArc: boolean; ranged: StandInfo[] } {
  // Every arc lies ahead of the stand's front edge: a target wholly behind that line is out of arc.
  const f = headingToVector(stand.stand.pose.headingDeg);
  const frontAt = stand.corners[0].xIn * f.x + stand.corners[0].yIn * f.y;
  const b = target.box;
  const ahead = Math.max(b.minXIn * f.x, b.maxXIn * f.x) + Math.max(b.minYIn * f.y, b.maxYIn * f.y);
  if (ahead < frontAt - 1e-9) return { inArc: false, ranged: [] };
  // A stand outside one of the arc's half-planes counts for nothing (neither arc nor range): drop it before
  // measuring. Then range (cheaper than the exact wedge test): a stand out of range needs the wedge test
  // only while no arc is known yet.
  const planes = standArc.planes;
  let inArc = false;
  let ranged: { t: StandInfo; d: number }[] | undefined;
  for (const t of target.stands) {
    if (planes && outsideArc(planes, t.corners)) continue;
    const d = pointToPolygonDistanceIn(stand.center, t.corners);
    const inRange = d <= maxIn;
    if (!inRange && (inArc || !needArc)) continue;
    if (!polygonOverlapsPreparedWedge(standArc.prepared, t.corners)) continue;
    inArc = true;
    if (inRange) (ranged ??= []).push({ t, d });
  }
  if (!ranged) return { inArc, ranged: [] };
  // Stable sort: equal distances keep the target's stand order.
  sortSmall(ranged, byDistance);
  const out: StandInfo[] = new Array(ranged.length);
  for (let i = 0; i < ranged.length; i++) out[i] = ranged[i]!.t;
  return { inArc, ranged: out };
}

const NO_TERRAIN: SightScene['terrain'] = { areas: [], linear: [], roads: [], elevations: [] };
const NO_BOXES: readonly SightBox[] = [];
const NO_STANDS: readonly SightStand[] = [];

const boxMeets = (b: SightBox, box: BoxIn) => !(b.maxX < box.minXIn || b.minX > box.maxXIn || b.maxY < box.minYIn || b.minY > box.maxYIn);

/**
 * Whether a firing stand sees any of the (in-arc, in-range) target stands, nearest first. Its lines lie in
 * the box around its front-edge centre and the target, so only stands and terrain meeting that box are tried.
 */
function seesAny(ctx: DtpContext, scene: FireScene, sight: SightScene, stand: StandInfo, target: UnitInfo, ranged: readonly StandInfo[]): boolean {
  const from = { xIn: (stand.corners[0].xIn + stand.corners[1].xIn) / 2, yIn: (stand.corners[0].yIn + stand.corners[1].yIn) / 2 };
  const box: BoxIn = {
    minXIn: Math.min(from.xIn, target.box.minXIn),
    minYIn: Math.min(from.yIn, target.box.minYIn),
    maxXIn: Math.max(from.xIn, target.box.maxXIn),
    maxYIn: Math.max(from.yIn, target.box.maxYIn),
  };
  const stands: SightStand[] = [];
  for (const st of sight.stands) if (boxMeets(st.box, box)) stands.push(st);
  // `sight` is the visibility scene: its areas are the blocking (non-rough) ones.
  let terrainMayBlock = false;
  for (let i = 0; !terrainMayBlock && i < sight.elevationBoxes.length; i++) terrainMayBlock = boxMeets(sight.elevationBoxes[i]!, box);
  for (let i = 0; !terrainMayBlock && i < sight.areaBoxes.length; i++) terrainMayBlock = boxMeets(sight.areaBoxes[i]!, box);
  if (stands.length === 0 && !terrainMayBlock) return true;
  if (!terrainMayBlock) {
    // No elevation or blocking area anywhere near: both ends are on level ground (an elevation under either
    // end would meet the box), so a line is clear exactly when it touches no stand.
    // The stand that blocked one line usually blocks the next (the same friendly line in front): try it first.
    let witness = -1;
    for (const t of ranged) {
      const to = closestPointOnPolygon(from, t.corners);
      const line = [from, to];
      if (witness >= 0 && lineMeetsStand(line, stands[witness]!)) continue;
      witness = -1;
      for (let k = 0; witness < 0 && k < stands.length; k++) if (lineMeetsStand(line, stands[k]!)) witness = k;
      if (witness < 0) return true;
    }
    return false;
  }
  // Stands and terrain are traced apart (lineOfSight's parts are independent): with both ends on level
  // ground the first stand on the line blocks whatever the terrain, so most blocked lines skip the terrain.
  const narrowStands: SightScene = { stands, terrain: NO_TERRAIN, areaBoxes: NO_BOXES, linearBoxes: NO_BOXES, elevationBoxes: NO_BOXES };
  const narrowTerrain: SightScene = { stands: NO_STANDS, terrain: sight.terrain, areaBoxes: sight.areaBoxes, linearBoxes: sight.linearBoxes, elevationBoxes: sight.elevationBoxes };
  const fromFlat = ctx.elevationLevelAt(from) === 0;
  let witness = -1; // as above: the stand that blocked the last level line is tried first
  for (const t of ranged) {
    const to = closestPointOnPolygon(from, t.corners);
    if (fromFlat && ctx.elevationLevelAt(to) === 0) {
      // Both ends on level ground: nothing is seen over, so any stand, a hill between, or more than 6" of a
      // blocking area blocks the line (sightBlocker's answer for level ends, without building a report).
      if (witness >= 0 && standCrossingFraction(stands[witness]!, from, to) >= 0) continue;
      witness = -1;
      for (let k = 0; witness < 0 && k < stands.length; k++) if (standCrossingFraction(stands[k]!, from, to) >= 0) witness = k;
      if (witness >= 0) continue;
      if (!levelLineObstructed(narrowTerrain, from, to, AREA_BLOCK_DEPTH_IN)) return true;
      continue;
    }
    const crossing = stands.length > 0 ? lineOfSight(narrowStands, from, to).stands : [];
    const report: SightReport = { ...lineOfSight(narrowTerrain, from, to), stands: crossing };
    if (sightBlocker(ctx, scene, from, to, report) === undefined) return true;
  }
  return false;
}

/** Whether the sight line [from, to] touches the stand (box first, then the exact overlap test). */
function lineMeetsStand(line: readonly PointIn[], st: SightStand): boolean {
  const a = line[0]!, b = line[1]!;
  const box = st.box;
  if (box.maxX < Math.min(a.xIn, b.xIn) || box.minX > Math.max(a.xIn, b.xIn) || box.maxY < Math.min(a.yIn, b.yIn) || box.minY > Math.max(a.yIn, b.yIn)) return false;
  return polygonsOverlap(line, st.corners);
}

/** Dice from modifiers after the battery floor / section cap (Armies, Artillery). */
function applyLimits(firer: UnitInfo, base: number, modifiers: readonly DiceModifier[]): DiceBreakdown {
  const raw = base + modifiers.reduce((s, m) => s + m.dice, 0);
  let dice = Math.max(0, raw);
  const limits: DiceModifier[] = [];
  if (firer.unit.arm === 'artillery') {
    // A battery reduced to one stand becomes an independent section (Armies, Artillery).
    const section = firer.stands.length <= 1;
    if (!section && dice < 1) {
      // "Artillery batteries always fire with at least 1 Die (regardless of modifiers)."
      limits.push({ label: 'Battery always fires with at least 1 die', dice: 1 - dice, source: SRC_ARTILLERY });
      dice = 1;
    } else if (section && dice > 2) {
      // "An independent section may never fire with more than 2 dice (regardless of modifiers)."
      limits.push({ label: 'Independent section fires at most 2 dice', dice: 2 - dice, source: SRC_ARTILLERY });
      dice = 2;
    }
  }
  return { baseDice: base, modifiers, dice, limits };
}

/** Whether the firer's command stand is behind the target's front-line trace (Flanking Fire note). */
function isFlanking(ctx: DtpContext, firer: UnitInfo, target: UnitInfo): boolean {
  const cmd = firer.command;
  if (!cmd) return false;
  const reading = ctx.formationOf(target.unit.id);
  const f = headingToVector(reading.headingDeg);
  const front = new Set(reading.frontRankStandIds);
  let frontAhead = -Infinity;
  for (const s of target.stands) {
    if (!front.has(s.stand.id)) continue;
    const mid = { xIn: (s.corners[0].xIn + s.corners[1].xIn) / 2, yIn: (s.corners[0].yIn + s.corners[1].yIn) / 2 };
    frontAhead = Math.max(frontAhead, mid.xIn * f.x + mid.yIn * f.y);
  }
  if (frontAhead === -Infinity) return false;
  return cmd.center.xIn * f.x + cmd.center.yIn * f.y < frontAhead;
}

/** Formation modifier as firer (Formation Modifiers, "As Firer"): only Disordered, -2 Die. */
function firerFormationModifier(ctx: DtpContext, firer: UnitInfo): DiceModifier | undefined {
  return ctx.formationOf(firer.unit.id).formation === 'disordered'
    ? { label: 'Firer disordered', dice: -2, source: SRC_FORMATION }
    : undefined;
}

/** Formation modifier as target (Formation Modifiers, "As Target"; Disordered Artillery). */
function targetFormationModifier(ctx: DtpContext, target: UnitInfo): DiceModifier | undefined {
  const r = ctx.formationOf(target.unit.id);
  if (target.unit.arm === 'artillery') {
    // Limbered +2, unlimbered -1; disordered artillery by whether it is limbered (Disordered Artillery).
    return r.limbered || r.formation === 'limbered'
      ? { label: 'Target limbered artillery', dice: 2, source: SRC_FORMATION }
      : { label: 'Target unlimbered artillery', dice: -1, source: SRC_FORMATION };
  }
  switch (r.formation) {
    case 'loose-order':
      return { label: 'Target in loose order', dice: -1, source: SRC_FORMATION };
    case 'attack-column':
      return { label: 'Target in attack column', dice: 2, source: SRC_FORMATION };
    case 'march-column':
      return { label: 'Target in march column', dice: 2, source: SRC_FORMATION };
    default:
      return undefined;
  }
}

/** General modifiers (p. 22), each specific modifier counted once for firer or target. */
function generalModifiers(
  ctx: DtpContext,
  firer: UnitInfo,
  target: UnitInfo,
  eligible: readonly StandInfo[],
  rangeReport: Pick<SightReport, 'linear'>,
): DiceModifier[] {
  const out: DiceModifier[] = [];
  // Obstacles: highest only; none for an obstacle the firer is at.
  let best: { dice: number; label: string } | undefined;
  for (const crossing of rangeReport.linear) {
    const cover = OBSTACLE_DICE[crossing.kind];
    if (!cover) continue;
    const line = ctx.state.terrain.linear.find((l) => l.id === crossing.id)!;
    const firerAtIt = eligible.some((s) => {
      const a = s.corners[0], b = s.corners[1];
      const aMinX = Math.min(a.xIn, b.xIn), aMaxX = Math.max(a.xIn, b.xIn), aMinY = Math.min(a.yIn, b.yIn), aMaxY = Math.max(a.yIn, b.yIn);
      for (let i = 0; i + 1 < line.points.length; i++) {
        const p = line.points[i]!, q = line.points[i + 1]!;
        // Segments whose boxes are more than the inch apart are further apart than that: skip the exact test.
        if (Math.min(p.xIn, q.xIn) - aMaxX > AT_OBSTACLE_IN || aMinX - Math.max(p.xIn, q.xIn) > AT_OBSTACLE_IN) continue;
        if (Math.min(p.yIn, q.yIn) - aMaxY > AT_OBSTACLE_IN || aMinY - Math.max(p.yIn, q.yIn) > AT_OBSTACLE_IN) continue;
        if (segmentToSegmentDistanceIn(a, b, p, q) <= AT_OBSTACLE_IN) return true;
      }
      return false;
    });
    if (firerAtIt) continue;
    if (!best || cover.dice < best.dice) best = cover;
  }
  if (best) out.push({ label: best.label, dice: best.dice, source: `${SRC_GENERAL}: obstacles, highest only` });

  // Area terrain: fully in or out by most stands; applied when either is in it, never twice.
  const kinds: AreaTerrainKind[] = [];
  for (const u of [firer, target]) {
    const a = ctx.areaOf(u.unit.id);
    if (a && !kinds.includes(a.kind)) kinds.push(a.kind);
  }
  for (const k of kinds) {
    const m = AREA_DICE[k];
    if (m) out.push({ label: m.label, dice: m.dice, source: `${SRC_GENERAL}: area terrain, counted once` });
  }

  // Prone: -2 as firer or target, counted once (Quick Reference: specific modifiers only once).
  if (firer.unit.status?.prone || target.unit.status?.prone) {
    const who = firer.unit.status?.prone && target.unit.status?.prone ? 'Firer and target prone' : firer.unit.status?.prone ? 'Firer prone' : 'Target prone';
    out.push({ label: who, dice: -2, source: `${SRC_GENERAL}; Optional Rules, Going Prone` });
  }

  // Flanking fire +2, not against march column, attack column or limbered artillery.
  const tf = ctx.formationOf(target.unit.id);
  const exempt = tf.formation === 'march-column' || tf.formation === 'attack-column' || tf.formation === 'limbered' || tf.limbered === true;
  if (!exempt && isFlanking(ctx, firer, target)) {
    out.push({ label: 'Flanking fire', dice: 2, source: `${SRC_GENERAL}: Flanking Fire` });
  }
  return out;
}

/**
 * Refusals decided after sight lines were traced although their reason alone does not say so: out of range
 * measured from the eligible stands' centre (see `settledWithoutSight`). Rare, so this weak set stays small
 * (an entry for every sight-free refusal made garbage collection dearer).
 */
const TRACED_REFUSALS = new WeakSet<FireRefusal>();

function traced(r: FireRefusal): FireRefusal {
  TRACED_REFUSALS.add(r);
  return r;
}

/**
 * Whether `fireAtTarget` settled this result from the two units alone (no target stands, no eligible
 * stands, out of arc, out of range before any sight line): then no other unit can change it, which a
 * session uses to keep it when others move. Only for results of `fireAtTarget`.
 */
export function settledWithoutSight(result: FireTargetOption | FireRefusal): boolean {
  return !result.ok && result.reason !== 'fire/no-line-of-sight' && !TRACED_REFUSALS.has(result);
}

/** A refusal to fire at one target (module level: no closure per pair). */
function refusal(targetUnitId: string, reason: string, detail: string): FireRefusal {
  return { ok: false, reason, detail, targetUnitId };
}

/**
 * Fire of one unit at one enemy unit, before target priority. Pairwise: depends on the two units, the
 * terrain, and stands of other units only through line of sight.
 */
export function fireAtTarget(ctx: DtpContext, scene: FireScene, firerId: string, targetId: string): FireTargetOption | FireRefusal {
  const firer = ctx.units.get(firerId)!;
  const target = ctx.units.get(targetId)!;
  const row = weaponRow(firer.unit.weapon) as WeaponRow;
  const maxIn = maxRangeIn(row);
  if (target.stands.length === 0) return refusal(targetId, 'fire/target-not-on-table', 'The target has no stands on the table.');

  const candidates = firingStands(ctx, firerId);
  if (candidates.length === 0) return refusal(targetId, 'fire/no-eligible-stands', `Every front-rank stand has a hit; stands with hits are not eligible (${SRC_ELIGIBLE}).`);
  let anyArc = false;
  const inRange: { s: StandInfo; ranged: StandInfo[] }[] = [];
  for (const s of candidates) {
    // Once one stand has the target in arc, the others need the arc only for stands in range.
    const v = inArcAndRange(s, standArc(s, firer.unit.arm), target, maxIn, !anyArc);
    anyArc ||= v.inArc;
    if (v.ranged.length > 0) inRange.push({ s, ranged: v.ranged });
  }
  const anyRange = inRange.length > 0;
  // Every sight line runs between the two units, so only stands meeting their joint box can block it.
  const { sight, mayBlock } = anyRange
    ? scene.sightWithin(unionBoxes([firer.box, target.box]), [firerId, targetId])
    : { sight: scene.sight, mayBlock: false };
  const eligible: StandInfo[] = [];
  for (const x of inRange) if (!mayBlock || seesAny(ctx, scene, sight, x.s, target, x.ranged)) eligible.push(x.s);
  if (!anyArc) return refusal(targetId, 'fire/target-out-of-arc', `No firing stand has the target in its arc of fire (${SRC_ARC}).`);
  if (!anyRange) return refusal(targetId, 'fire/target-out-of-range', `Beyond ${maxIn}" for ${row.name} (${row.class === 'infantry' ? FIRE_TABLE_SOURCE_INFANTRY : FIRE_TABLE_SOURCE_ARTILLERY}).`);
  if (eligible.length === 0) return refusal(targetId, 'fire/no-line-of-sight', `Every line of sight is blocked (${SRC_OBSTRUCTIONS}).`);

  // Range from the centre of the eligible stands to the nearest enemy stand (Range Modifiers).
  let cx = 0, cy = 0;
  for (const s of eligible) {
    cx += s.center.xIn;
    cy += s.center.yIn;
  }
  const centre = { xIn: cx / eligible.length, yIn: cy / eligible.length };
  let rangeIn = Infinity;
  let nearest = target.stands[0]!;
  for (const t of target.stands) {
    const d = pointInPolygon(centre, t.corners) ? 0 : pointToPolygonDistanceIn(centre, t.corners);
    if (d < rangeIn) {
      rangeIn = d;
      nearest = t;
    }
  }
  const band = bandAt(row, rangeIn);
  if (!band) return traced(refusal(targetId, 'fire/target-out-of-range', `${rangeIn.toFixed(1)}" from the centre of the eligible stands is beyond ${row.name}'s range.`));

  const rangeEnd = closestPointOnPolygon(centre, nearest.corners);
  // Only the obstacles the range line crosses matter here (cover), not stands or sight.
  const rangeReport = { linear: linearCrossings(scene.coverOnly, centre, rangeEnd, Math.sqrt((rangeEnd.xIn - centre.xIn) ** 2 + (rangeEnd.yIn - centre.yIn) ** 2)) };

  const modifiers: DiceModifier[] = [];
  if (band.dice !== 0) {
    modifiers.push({
      label: `Range ${rangeIn.toFixed(1)}" (${band.band} band), ${row.name}`,
      dice: band.dice,
      source: row.class === 'infantry' ? FIRE_TABLE_SOURCE_INFANTRY : FIRE_TABLE_SOURCE_ARTILLERY,
    });
  }
  // Optional Rules, Sharpshooters: "Sharpshooters receive no range penalties when firing." The table's
  // penalty stays visible and is cancelled by its own line; a range bonus (6" band) is kept.
  if (firer.unit.sharpshooters && band.dice < 0) {
    modifiers.push({ label: 'Sharpshooters: no range penalty', dice: -band.dice, source: SRC_SHARPSHOOTERS });
  }
  const ff = firerFormationModifier(ctx, firer);
  if (ff) modifiers.push(ff);
  const tf = targetFormationModifier(ctx, target);
  if (tf) modifiers.push(tf);
  modifiers.push(...generalModifiers(ctx, firer, target, eligible, rangeReport));
  modifiers.push(
    ...universalModifiers(firer.unit, firer.attachedCommanderId !== undefined, { roll: 'fire', trainedVeteran: ctx.state.optionalRules?.includes('trained-veteran') === true }),
  );

  return {
    ok: true,
    targetUnitId: targetId,
    eligibleStandIds: eligible.map((s) => s.stand.id),
    rangeIn,
    band: band.band,
    breakdown: applyLimits(firer, eligible.length, modifiers),
    priority: false,
  };
}

/** Enemy units close enough to be worth a pairwise test (box gap within the weapon's longest range). */
export function fireCandidates(ctx: DtpContext, unitId: string): UnitInfo[] {
  const firer = ctx.units.get(unitId)!;
  const row = weaponRow(firer.unit.weapon);
  if (!row) return [];
  const maxIn = maxRangeIn(row);
  return ctx.enemiesOf(unitId).filter((e) => e.stands.length > 0 && boxGapIn(firer.box, e.box) <= maxIn);
}

/**
 * Target priority (p. 20): when any target is within 12", the closest must be fired at; the others are
 * refused with 'fire/target-priority'. Options keep their input order.
 */
export function applyTargetPriority(options: readonly (FireTargetOption | FireRefusal)[]): (FireTargetOption | FireRefusal)[] {
  let closest: FireTargetOption | undefined;
  for (const o of options) if (o.ok && o.rangeIn <= PRIORITY_RANGE_IN && (!closest || o.rangeIn < closest.rangeIn)) closest = o;
  if (!closest) return [...options];
  const chosen = closest;
  return options.map((o) => {
    if (!o.ok) return o;
    if (o === chosen) {
      let p = PRIORITISED.get(o);
      if (!p) PRIORITISED.set(o, (p = { ...o, priority: true }));
      return p;
    }
    let byChosen = OVERRULED.get(o);
    if (!byChosen) OVERRULED.set(o, (byChosen = new WeakMap()));
    let r = byChosen.get(chosen);
    if (!r) {
      r = {
        ok: false,
        reason: 'fire/target-priority',
        detail: `Must fire at the closest enemy within ${PRIORITY_RANGE_IN}" (${chosen.targetUnitId}, ${chosen.rangeIn.toFixed(1)}") (${SRC_PRIORITY}).`,
        targetUnitId: o.targetUnitId,
      };
      byChosen.set(chosen, r);
    }
    return r;
  });
}

/**
 * The same pair results give the same (identical) prioritised objects, so a session that reuses pair
 * results also sees unchanged options and can keep the shapes drawn from them. Weak: no leak.
 */
const PRIORITISED = new WeakMap<FireTargetOption, FireTargetOption>();
const OVERRULED = new WeakMap<FireTargetOption, WeakMap<FireTargetOption, FireRefusal>>();

/**
 * All fire options of one unit: a single '*' refusal when it cannot fire at all, else one entry per enemy
 * unit within its weapon's longest range, with target priority applied.
 */
export function evaluateFire(
  ctx: DtpContext,
  scene: FireScene,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal = (f, t) => fireAtTarget(ctx, scene, f, t),
): (FireTargetOption | FireRefusal)[] {
  return fireOptions(ctx, unitId, pair);
}

/** `evaluateFire` with every pair from `pair` (a session serves them from its cache, tracing only new ones). */
export function fireOptions(
  ctx: DtpContext,
  unitId: string,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal,
): (FireTargetOption | FireRefusal)[] {
  const refusal = unitFireRefusal(ctx, unitId);
  if (refusal) return [refusal];
  return applyTargetPriority(fireCandidates(ctx, unitId).map((e) => pair(unitId, e.unit.id)));
}
