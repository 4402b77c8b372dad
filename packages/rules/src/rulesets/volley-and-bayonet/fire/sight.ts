/**
 * Line of sight as this supplement draws it (Terrain Effects, p. 3; Combat: Firing lanes, p. 5): forests,
 * thickets, woods and town blocks block a line from outside (a stand inside sees out, and is seen, only from
 * the edge; stands inside the same forest or thicket see each other up to 4", in woods up to 12"); swamps do
 * not block; hills block unless the obstacle is no higher than both stands, or one stand is a contour above
 * it and it is nearer the higher stand, or one stand is two contours above it and it is at least 8" from the
 * lower stand; other stands block, except that artillery fires past enemy skirmishers while small arms
 * "must fire at the skirmishers".
 */
import type { PointIn } from '../../../model/units.ts';
import type { AreaTerrain, Elevation, Stand } from '../../../model/tableState.ts';
import { elevationLevelAt, segBoxMisses, sightBoxOf, standCrossingFraction, type SightBox, type SightStand } from '../../../geometry/lineOfSight.ts';
import { nearestOnBaseFrom } from '../nearest.ts';
import { fractionInsidePolygon, pointInPolygon, segmentInsideIntervals, segmentTouchesPolygonBoundary } from '../../../geometry/intersect.ts';
import type { VbContext, VbStand, VbUnit } from '../context.ts';
import type { BoundingBoxIn } from '../../../geometry/polygon.ts';
import { query } from '../../../engine/incremental/query.ts';
import { AREA_CLASSES, AREA_KIND_CLASS, HILL_SIGHT_FAR_IN, SIGHT_NEUTRAL_AREA_KINDS } from '../tables/terrain.ts';

export type SightBlock = 'terrain' | 'hill' | 'stands' | 'skirmishers';

export interface SightResult {
  readonly clear: boolean;
  readonly blockedBy?: SightBlock;
  /** Unit of the screening skirmishers, when small arms must fire at them instead. */
  readonly screenUnitId?: string;
}

/** A stand is on the edge of an area when its base is not wholly inside it. */
function onEdge(s: VbStand, polygon: readonly PointIn[]): boolean {
  return !s.corners.every((c) => pointInPolygon(c, polygon));
}

export function isSkirmisher(ctx: VbContext, s: VbStand): boolean {
  if (s.type === 'infantry-skirmisher' || s.type === 'mounted-skirmisher') return true;
  const u = s.unitId !== undefined ? ctx.units.get(s.unitId) : undefined;
  return u !== undefined && u.skirmishOrder;
}

/** Axis-aligned box, inches (the geometry's sight box: short names, read in the hottest loops). */
type Box = SightBox;

function boxesMeet(a: Box, b: Box): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY;
}

interface BlockingArea {
  readonly area: AreaTerrain;
  readonly box: Box;
  /** The area a stand's centre is tested against (the first with this id, as a lookup by id finds). */
  readonly byId: AreaTerrain;
  readonly insideSightIn?: number;
  /** Index into the per-stand inside flags. */
  readonly index: number;
  /** A disk wholly inside the area, a cheap sure test for lines through it (`coreRIn` 0: none found). */
  readonly coreXIn: number;
  readonly coreYIn: number;
  readonly coreRIn: number;
}

/** Candidate centres per axis when looking for an area's core disk. */
const CORE_SAMPLES = 9;
/** Cores narrower than this are not worth a test. */
const CORE_MIN_RADIUS_IN = 0.25;

/** Distance from (x, y) to the segment a-b, inches. */
function pointSegmentDistanceIn(x: number, y: number, a: PointIn, b: PointIn): number {
  const dx = b.xIn - a.xIn, dy = b.yIn - a.yIn;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - a.xIn) * dx + (y - a.yIn) * dy) / len2));
  return Math.sqrt((a.xIn + dx * t - x) ** 2 + (a.yIn + dy * t - y) ** 2);
}

/**
 * The widest disk found, among a grid of centres over the area's box and its vertices' mean, whose centre is
 * inside and which no edge enters: every point of it is inside the area by the even-odd rule (the parity
 * changes only across an edge). Its radius is kept a hair short of the nearest edge.
 */
function coreDisk(vertices: readonly PointIn[], box: Box): { coreXIn: number; coreYIn: number; coreRIn: number } {
  let bestX = 0, bestY = 0, bestR = 0;
  const consider = (x: number, y: number): void => {
    if (!pointInPolygon({ xIn: x, yIn: y }, vertices)) return;
    let r = Infinity;
    for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) r = Math.min(r, pointSegmentDistanceIn(x, y, vertices[j]!, vertices[i]!));
    if (r > bestR) (bestX = x), (bestY = y), (bestR = r);
  };
  let mx = 0, my = 0;
  for (const v of vertices) (mx += v.xIn), (my += v.yIn);
  if (vertices.length > 0) consider(mx / vertices.length, my / vertices.length);
  for (let i = 1; i < CORE_SAMPLES; i++) {
    for (let j = 1; j < CORE_SAMPLES; j++) consider(box.minX + ((box.maxX - box.minX) * i) / CORE_SAMPLES, box.minY + ((box.maxY - box.minY) * j) / CORE_SAMPLES);
  }
  const coreRIn = bestR * (1 - 1e-6) - 1e-6;
  return coreRIn >= CORE_MIN_RADIUS_IN ? { coreXIn: bestX, coreYIn: bestY, coreRIn } : { coreXIn: 0, coreYIn: 0, coreRIn: 0 };
}

interface SightHill {
  readonly hill: Elevation;
  readonly box: Box;
}

/**
 * The sight scene of one piece that traces lines (a fire pair): the areas that block sight and the hills
 * (`sightTerrainQuery`), the stands that may stand in the way, and per-stand facts filled in as its lines
 * ask for them (ground level, which blocking areas hold its centre, the stands that last blocked a gun's
 * lines). Made per piece and dropped with it. The stands are read from the table (`VbContext.standsIn`)
 * once, in `within` (a box holding every stand pair the piece traces), on the first line that needs them;
 * without `within`, each stand pair reads its own box.
 */
interface VbSight {
  readonly ctx: VbContext;
  readonly within: BoundingBoxIn | undefined;
  /** The stands that may stand in the way of any of its lines, when given (`sightPool`), asked on first need. */
  readonly poolOf: (() => readonly VbStand[]) | undefined;
  pool: readonly VbStand[] | undefined;
  /** The table's stands in `within`, in the state's order, once read, and those read as the rules read them. */
  stands: readonly Stand[] | undefined;
  /** Their footprints' centres and half diagonals, and each as the rules read it (null: no unit's or commander's). */
  fx: Float64Array;
  fy: Float64Array;
  fr: Float64Array;
  readonly vb: (VbStand | null | undefined)[];
  readonly areas: readonly BlockingArea[];
  readonly hills: readonly SightHill[];
  readonly level: Map<VbStand, number>;
  /** Per stand, per blocking area: 0 not yet known, 1 outside, 2 inside. */
  readonly inside: Map<VbStand, Uint8Array>;
  /** Per firing gun: the stands that last blocked its lines, latest first (`GUN_BLOCKERS_KEPT`). */
  readonly gunBlockers: Map<VbStand, VbStand[]>;
}

/** The areas that block sight (with their core disks) and the hills of the terrain. */
export const sightTerrainQuery = query('vb/sight-terrain', (ctx: VbContext): { readonly areas: readonly BlockingArea[]; readonly hills: readonly SightHill[] } => {
  const terrain = ctx.t.terrain();
  const firstById = new Map<string, AreaTerrain>();
  for (const a of terrain.areas) if (!firstById.has(a.id)) firstById.set(a.id, a);
  const areas: BlockingArea[] = [];
  for (const area of terrain.areas) {
    if (SIGHT_NEUTRAL_AREA_KINDS.includes(area.kind)) continue;
    const rule = AREA_CLASSES[AREA_KIND_CLASS[area.kind]];
    if (rule.sight !== 'blocks') continue;
    const box = sightBoxOf(area.vertices);
    areas.push({ area, box, byId: firstById.get(area.id)!, ...(rule.insideSightIn !== undefined ? { insideSightIn: rule.insideSightIn } : {}), index: areas.length, ...coreDisk(area.vertices, box) });
  }
  return { areas, hills: terrain.elevations.map((hill) => ({ hill, box: sightBoxOf(hill.vertices) })) };
});

const EMPTY = new Float64Array(0);

/** A fresh sight scene (see `VbSight`): one per piece that traces lines, its stand pairs within `within`. */
export function sightScene(ctx: VbContext, within?: BoundingBoxIn, poolOf?: () => readonly VbStand[]): VbSight {
  const { areas, hills } = ctx.t.get(sightTerrainQuery);
  return { ctx, within, poolOf, pool: undefined, stands: undefined, fx: EMPTY, fy: EMPTY, fr: EMPTY, vb: [], areas, hills, level: new Map(), inside: new Map(), gunBlockers: new Map() };
}

function groundLevel(ctx: VbContext, p: VbSight, s: VbStand): number {
  let v = p.level.get(s);
  if (v === undefined) p.level.set(s, (v = elevationLevelAt(s.center, ctx.t.terrain())));
  return v;
}

function centreInside(p: VbSight, s: VbStand, a: BlockingArea): boolean {
  let flags = p.inside.get(s);
  if (!flags) p.inside.set(s, (flags = new Uint8Array(p.areas.length)));
  if (flags[a.index] === 0) flags[a.index] = pointInPolygon(s.center, a.byId.vertices) ? 2 : 1;
  return flags[a.index] === 2;
}

/**
 * What may stand in the way of any line between two stands: the areas and hills that meet the box around
 * both and, built only when a line asks for them, the stands near the segment between their centres.
 * One scratch object refilled per pair (sight is never re-entered): no lists are made per pair.
 */
interface PairScene {
  /** The box around both stands. */
  readonly box: Box;
  /** The centres' segment (from the firer's centre), its squared length, and how far lines stray from it. */
  ax: number;
  ay: number;
  dx: number;
  dy: number;
  len2: number;
  spread: number;
  readonly areas: BlockingArea[];
  areaCount: number;
  readonly hills: SightHill[];
  hillCount: number;
  /** The stands near the segment, in the state's order (the first `standCount`), once `standsBuilt`. */
  stands: VbStand[];
  standCount: number;
  standsBuilt: boolean;
  /** The firing gun's remembered blockers (see `GUN_BLOCKERS_KEPT`), looked up once per pair. */
  gunBlockers: VbStand[] | undefined;
  /** Per area of the pair (by its place in `areas`): 0 not yet read, else 1 + 2 * firer inside + target inside. */
  centres: Uint8Array;
  /**
   * What blocked the pair's last blocked gun line, tried first on its next lines: a stand (undefined: none),
   * or an area's place in `areas` (-1: none).
   */
  lastStand: VbStand | undefined;
  lastArea: number;
}

const scene: PairScene = {
  box: { minX: 0, minY: 0, maxX: 0, maxY: 0 },
  ax: 0,
  ay: 0,
  dx: 0,
  dy: 0,
  len2: 0,
  spread: 0,
  areas: [],
  areaCount: 0,
  hills: [],
  hillCount: 0,
  stands: [],
  standCount: 0,
  standsBuilt: false,
  gunBlockers: undefined,
  centres: new Uint8Array(16),
  lastStand: undefined,
  lastArea: -1,
};

/**
 * How far any line from a point of base `a` to a point of base `b` strays from the segment between their
 * centres: the larger base's circumradius (and a hair).
 */
export function sightSpreadIn(a: VbStand, b: VbStand): number {
  return Math.max(a.diagonalIn, b.diagonalIn) / 2 + 1e-6;
}


/** Fills the scratch scene for the pair (a, b): its box, the areas and hills meeting it, the segment. */
function fillPairScene(p: VbSight, a: VbStand, b: VbStand): PairScene {
  const sc = scene;
  const box = sc.box;
  box.minX = Math.min(a.box.minXIn, b.box.minXIn);
  box.minY = Math.min(a.box.minYIn, b.box.minYIn);
  box.maxX = Math.max(a.box.maxXIn, b.box.maxXIn);
  box.maxY = Math.max(a.box.maxYIn, b.box.maxYIn);
  sc.areaCount = 0;
  for (const x of p.areas) if (boxesMeet(x.box, box)) sc.areas[sc.areaCount++] = x;
  sc.hillCount = 0;
  for (const h of p.hills) if (boxesMeet(h.box, box)) sc.hills[sc.hillCount++] = h;
  sc.ax = a.center.xIn;
  sc.ay = a.center.yIn;
  sc.dx = b.center.xIn - sc.ax;
  sc.dy = b.center.yIn - sc.ay;
  sc.len2 = sc.dx * sc.dx + sc.dy * sc.dy;
  sc.spread = sightSpreadIn(a, b);
  sc.standsBuilt = false;
  sc.gunBlockers = p.gunBlockers.get(a);
  sc.lastStand = undefined;
  sc.lastArea = -1;
  if (sc.centres.length < sc.areaCount) sc.centres = new Uint8Array(sc.areaCount * 2);
  sc.centres.fill(0, 0, sc.areaCount);
  return sc;
}

/** What `inPairScene` reads of a pair's scene: its box and the centres' segment with its spread. */
type Corridor = Pick<PairScene, 'box' | 'ax' | 'ay' | 'dx' | 'dy' | 'len2' | 'spread'>;

/** The corridor of the stand pair (a, b): the box around both, the centres' segment, the lines' spread. */
function corridorOf(a: VbStand, b: VbStand): Corridor {
  const ax = a.center.xIn, ay = a.center.yIn, dx = b.center.xIn - ax, dy = b.center.yIn - ay;
  const box = { minX: Math.min(a.box.minXIn, b.box.minXIn), minY: Math.min(a.box.minYIn, b.box.minYIn), maxX: Math.max(a.box.maxXIn, b.box.maxXIn), maxY: Math.max(a.box.maxYIn, b.box.maxYIn) };
  return { box, ax, ay, dx, dy, len2: dx * dx + dy * dy, spread: sightSpreadIn(a, b) };
}

/** Whether the table stand `st` may be in the corridor (by its footprint: a stand that is passes). */
function mayBeInCorridor(c: Corridor, cx: number, cy: number, r: number): boolean {
  const box = c.box;
  if (cx + r < box.minX || cx - r > box.maxX || cy + r < box.minY || cy - r > box.maxY) return false;
  const tt = c.len2 === 0 ? 0 : Math.max(0, Math.min(1, ((cx - c.ax) * c.dx + (cy - c.ay) * c.dy) / c.len2));
  const ex = c.ax + c.dx * tt - cx, ey = c.ay + c.dy * tt - cy;
  const reach = c.spread + r + 1e-9;
  return ex * ex + ey * ey <= reach * reach;
}

/**
 * The stands that may stand in the way of any line between the stand pairs given (firing stand, target
 * stand), in the state's order: a spatial read of the pairs' corridors (a segment each, as wide as the
 * lines' spread), so a stand moving beside them, not in them, leaves the pool alone.
 * A piece that traces those pairs' lines reads only these (`sightScene`'s `poolOf`).
 */
export function sightPool(ctx: VbContext, pairs: readonly (readonly [VbStand, VbStand])[]): VbStand[] {
  const out: VbStand[] = [];
  if (pairs.length === 0) return out;
  const corridors = pairs.map(([a, b]) => corridorOf(a, b));
  // A stand whose footprint comes within a corridor's spread of its centre line is in the read (every one
  // `mayBeInCorridor` passes: its disc lies inside its footprint box).
  const segmentsIn: number[] = [];
  for (const c of corridors) segmentsIn.push(c.ax, c.ay, c.ax + c.dx, c.ay + c.dy, c.spread + 1e-6);
  const near = ctx.tableStandsAlong(segmentsIn);
  const n = near.length;
  const fx = new Float64Array(n), fy = new Float64Array(n), fr = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const st = near[k]!;
    fx[k] = st.pose.xIn;
    fy[k] = st.pose.yIn;
    fr[k] = Math.sqrt(st.widthIn * st.widthIn + st.depthIn * st.depthIn) / 2;
  }
  // Corridor by corridor over the stands (plain numbers), marking those that may be in one; the corridors
  // from one firing stand (the pairs come firer by firer) first as one box around them all.
  const marked = new Uint8Array(n);
  for (let i = 0; i < corridors.length; ) {
    let j = i;
    const group = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    for (; j < corridors.length && pairs[j]![0] === pairs[i]![0]; j++) {
      const b = corridors[j]!.box;
      if (b.minX < group.minX) group.minX = b.minX;
      if (b.minY < group.minY) group.minY = b.minY;
      if (b.maxX > group.maxX) group.maxX = b.maxX;
      if (b.maxY > group.maxY) group.maxY = b.maxY;
    }
    for (let k = 0; k < n; k++) {
      if (marked[k] !== 0) continue;
      const x = fx[k]!, y = fy[k]!, r = fr[k]!;
      if (x + r < group.minX || x - r > group.maxX || y + r < group.minY || y - r > group.maxY) continue;
      for (let q = i; q < j; q++) {
        if (mayBeInCorridor(corridors[q]!, x, y, r)) {
          marked[k] = 1;
          break;
        }
      }
    }
    i = j;
  }
  // A unit's stands mostly come together in the state's order: each unit is asked once per run.
  let runId: string | undefined;
  let runInfo: VbUnit | undefined;
  for (let k = 0; k < n; k++) {
    if (marked[k] === 0) continue;
    const st = near[k]!;
    if (st.unitId !== runId) (runId = st.unitId), (runInfo = ctx.units.get(st.unitId));
    const v = runInfo?.stands.find((x) => x.stand.id === st.id) ?? ctx.vbStand(st);
    if (!v) continue;
    for (const c of corridors) {
      if (mayBeInCorridor(c, fx[k]!, fy[k]!, fr[k]!) && inPairScene(c, v.sightStand)) {
        out.push(v);
        break;
      }
    }
  }
  return out;
}

/**
 * Whether a stand belongs to the pair's stands: its box meets the pair's box and its centre is within the
 * lines' spread plus its own circumradius of the centres' segment (every line from a point of one base to a
 * point of the other keeps within the spread of that segment, so a stand further away meets none of them).
 */
function inPairScene(sc: Corridor, st: SightStand): boolean {
  if (!boxesMeet(st.box, sc.box)) return false;
  const t = sc.len2 === 0 ? 0 : Math.max(0, Math.min(1, ((st.cx - sc.ax) * sc.dx + (st.cy - sc.ay) * sc.dy) / sc.len2));
  const ex = sc.ax + sc.dx * t - st.cx, ey = sc.ay + sc.dy * t - st.cy;
  const r = sc.spread + st.radiusIn;
  return ex * ex + ey * ey <= r * r;
}

/** The pair's stands (in the state's order), read from the table on first use. */
function pairStands(p: VbSight, sc: PairScene): void {
  if (sc.standsBuilt) return;
  sc.standsBuilt = true;
  const box = sc.box;
  const out = sc.stands;
  let n = 0;
  const { ax, ay, dx, dy, len2 } = sc;
  if (p.poolOf) {
    for (const v of (p.pool ??= p.poolOf())) if (inPairScene(sc, v.sightStand)) out[n++] = v;
    sc.standCount = n;
    return;
  }
  // The table's stands near: those of the scene's box, read once, or read along this pair's corridor alone
  // (its centre line, as wide as the lines' spread: every stand the test below passes is in it).
  const near = p.within ? (p.stands ??= readNear(p, p.ctx.tableStandsIn(p.within))) : readNear(p, p.ctx.tableStandsAlong([ax, ay, ax + dx, ay + dy, sc.spread + 1e-6]));
  const fx = p.fx, fy = p.fy, fr = p.fr;
  for (let k = 0; k < near.length; k++) {
    // The footprint (centre plus half the diagonal each way) first: it holds the base.
    const cx = fx[k]!, cy = fy[k]!, r = fr[k]!;
    if (cx + r < box.minX || cx - r > box.maxX || cy + r < box.minY || cy - r > box.maxY) continue;
    const tt = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((cx - ax) * dx + (cy - ay) * dy) / len2));
    const ex = ax + dx * tt - cx, ey = ay + dy * tt - cy;
    const reach = sc.spread + r + 1e-9;
    if (ex * ex + ey * ey > reach * reach) continue;
    let v = p.vb[k];
    if (v === undefined) p.vb[k] = v = p.ctx.vbStand(near[k]!) ?? null;
    if (v && inPairScene(sc, v.sightStand)) out[n++] = v;
  }
  sc.standCount = n;
}

/** Puts the table's stands read into the scene, with their footprints as plain numbers. */
function readNear(p: VbSight, near: readonly Stand[]): readonly Stand[] {
  if (p.fx.length < near.length) (p.fx = new Float64Array(near.length)), (p.fy = new Float64Array(near.length)), (p.fr = new Float64Array(near.length));
  for (let k = 0; k < near.length; k++) {
    const st = near[k]!;
    p.fx[k] = st.pose.xIn;
    p.fy[k] = st.pose.yIn;
    p.fr[k] = Math.sqrt(st.widthIn * st.widthIn + st.depthIn * st.depthIn) / 2;
  }
  p.vb.length = 0;
  return near;
}

const CLEAR: SightResult = { clear: true };
const BY_TERRAIN: SightResult = { clear: false, blockedBy: 'terrain' };
const BY_HILL: SightResult = { clear: false, blockedBy: 'hill' };
const BY_STANDS: SightResult = { clear: false, blockedBy: 'stands' };
/**
 * Every line of a gun blocked, its reason not asked for (`standSight` with `reasonNeeded` false): named
 * `stands`, the highest reason a gun's line can be given, so a caller that ranks reasons is not misled.
 */
export const GUN_BLOCKED_REASON_UNASKED: SightResult = { clear: false, blockedBy: 'stands' };

/** Whether the firer's and the target's centres are inside the pair's `k`th area: 1 + 2 * firer + target. */
function pairCentres(p: VbSight, sc: PairScene, k: number, firer: VbStand, target: VbStand): number {
  let c = sc.centres[k]!;
  if (c === 0) {
    const a = sc.areas[k]!;
    c = 1 + (centreInside(p, firer, a) ? 2 : 0) + (centreInside(p, target, a) ? 1 : 0);
    sc.centres[k] = c;
  }
  return c;
}

/** A line must run this far through an area's core disk for the sure test (far above the exact test's 1e-6"). */
const CORE_CHORD_MIN_IN = 0.01;

/**
 * Whether terrain areas block the line (Terrain Effects, p. 3). The answer is whether any area does, so a
 * sure test goes first: a line running through an area's core disk, neither stand's centre inside the
 * area, runs inside it for more than the exact test's hair with no base of its own to excuse it.
 */
function terrainBlocks(p: VbSight, sc: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  if (terrainSurelyBlocks(p, sc, from, to, lengthIn, firer, target)) return true;
  for (let k = 0; k < sc.areaCount; k++) if (areaBlocks(p, sc, k, from, to, lengthIn, firer, target)) return (sc.lastArea = k), true;
  return false;
}

/** The sure test of every area of the pair (a yes means `terrainBlocks` says yes; a no, nothing). */
function terrainSurelyBlocks(p: VbSight, sc: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  if (lengthIn > 0) {
    for (let k = 0; k < sc.areaCount; k++) {
      if (coreSurelyBlocks(p, sc, k, from, to, lengthIn, firer, target)) return (sc.lastArea = k), true;
    }
  }
  return false;
}

/**
 * The sure test of the pair's `k`th area for a line of positive length: it runs through the area's core
 * disk for more than `CORE_CHORD_MIN_IN`, neither stand's centre inside the area.
 */
function coreSurelyBlocks(p: VbSight, sc: PairScene, k: number, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  const a = sc.areas[k]!;
  const r = a.coreRIn;
  if (r === 0) return false;
  const dx = to.xIn - from.xIn, dy = to.yIn - from.yIn;
  const tc = ((a.coreXIn - from.xIn) * dx + (a.coreYIn - from.yIn) * dy) / (lengthIn * lengthIn);
  const ex = from.xIn + dx * tc - a.coreXIn, ey = from.yIn + dy * tc - a.coreYIn;
  const off2 = ex * ex + ey * ey;
  if (off2 >= r * r) return false;
  const half = Math.sqrt(r * r - off2) / lengthIn;
  if ((Math.min(1, tc + half) - Math.max(0, tc - half)) * lengthIn <= CORE_CHORD_MIN_IN) return false;
  return pairCentres(p, sc, k, firer, target) === 1;
}

/** The exact test of the pair's `k`th area (Terrain Effects, p. 3). */
function areaBlocks(p: VbSight, sc: PairScene, k: number, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  const a = sc.areas[k]!;
  const vertices = a.area.vertices;
  if (segBoxMisses(from, to, a.box)) return false;
  const fromInside = pointInPolygon(from, vertices);
  const crosses = segmentTouchesPolygonBoundary(from, to, vertices);
  if (!crosses && !fromInside) return false;
  const lengthInsideIn = (crosses ? fractionInsidePolygon(from, to, vertices) : 1) * lengthIn;
  if (lengthInsideIn <= 1e-6) return false;
  const centres = pairCentres(p, sc, k, firer, target);
  const firerIn = centres >= 3;
  const targetIn = (centres & 1) === 0;
  if (firerIn && targetIn) {
    const within = a.insideSightIn !== undefined && lengthIn <= a.insideSightIn + 1e-9 && lengthInsideIn >= lengthIn - 1e-6;
    return !within;
  }
  // One inside: it sees out (and is seen) only from the edge; the line may run inside only along its own base.
  let allowedIn = 0;
  if (firerIn) allowedIn += onEdge(firer, a.byId.vertices) ? Math.max(firer.stand.widthIn, firer.stand.depthIn) : 0;
  if (targetIn) allowedIn += onEdge(target, a.byId.vertices) ? Math.max(target.stand.widthIn, target.stand.depthIn) : 0;
  return lengthInsideIn > allowedIn + 1e-6;
}

/** Whether higher ground blocks the line (Terrain Effects: Hills, p. 3). */
function hillBlocks(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  // Hills: the obstacle is higher ground between the stands that is not the ground either stands on.
  if (sc.hillCount === 0) return false;
  const fromLevel = groundLevel(ctx, p, firer);
  const toLevel = groundLevel(ctx, p, target);
  const low = Math.min(fromLevel, toLevel);
  // Is any ground higher than the lower stand passed over strictly between the ends of the line?
  let higherBetween = false;
  for (let k = 0; k < sc.hillCount && !higherBetween; k++) {
    const { hill, box } = sc.hills[k]!;
    if (hill.level <= low || segBoxMisses(from, to, box)) continue;
    const crosses = segmentTouchesPolygonBoundary(from, to, hill.vertices);
    if (!crosses) continue; // wholly inside touches both ends, not "between"; wholly outside misses
    let inside = 0;
    let strictlyBetween = false;
    for (const [t0, t1] of segmentInsideIntervals(from, to, hill.vertices)) {
      inside += t1 - t0;
      if (t1 - t0 > 1e-9 && (t0 > 1e-9 || t1 < 1 - 1e-9)) strictlyBetween = true;
    }
    if (inside > 0 && strictlyBetween) higherBetween = true;
  }
  if (!higherBetween) return false;
  let obstacle = 0;
  let nearFromIn = Infinity;
  let nearToIn = Infinity;
  for (let k = 0; k < sc.hillCount; k++) {
    const { hill: e, box } = sc.hills[k]!;
    if (e.level <= low || segBoxMisses(from, to, box)) continue;
    for (const [t0, t1] of segmentInsideIntervals(from, to, e.vertices)) {
      if (t0 <= 1e-9 && e.level <= fromLevel) continue; // the firer's own hill
      if (t1 >= 1 - 1e-9 && e.level <= toLevel) continue; // the target's own hill
      if (e.level > obstacle) (obstacle = e.level), (nearFromIn = Infinity), (nearToIn = Infinity);
      if (e.level === obstacle) {
        nearFromIn = Math.min(nearFromIn, t0 * lengthIn);
        nearToIn = Math.min(nearToIn, (1 - t1) * lengthIn);
      }
    }
  }
  if (obstacle <= low) return false;
  const hi = Math.max(fromLevel, toLevel);
  const fromIsHigher = fromLevel >= toLevel;
  const nearHigherIn = fromIsHigher ? nearFromIn : nearToIn;
  const nearLowerIn = fromIsHigher ? nearToIn : nearFromIn;
  const seen = (hi - obstacle >= 2 && nearLowerIn >= HILL_SIGHT_FAR_IN - 1e-9) || (hi - obstacle >= 1 && nearHigherIn < nearLowerIn);
  return !seen;
}

/** What the stands on the line make of small arms' fire: clear, blocked, or screened by enemy skirmishers. */
function standsOnLine(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): SightResult {
  // Stands in the way (commanders' stands do not block: a reading): the nearest one stops small arms
  // (enemy skirmishers: they must fire at them).
  pairStands(p, sc);
  let nearestAt = Infinity;
  let nearest: VbStand | undefined;
  for (let k = 0; k < sc.standCount; k++) {
    const s = sc.stands[k]!;
    const ss = s.sightStand;
    if (ss.id === firer.stand.id || ss.id === target.stand.id) continue;
    if (s.type === 'command') continue;
    const fraction = standCrossingFraction(ss, from, to);
    if (fraction < 0) continue;
    const atIn = fraction * lengthIn;
    if (atIn < nearestAt) (nearestAt = atIn), (nearest = s);
  }
  if (!nearest) return CLEAR;
  if (nearest.side !== firer.side && isSkirmisher(ctx, nearest)) return { clear: false, blockedBy: 'skirmishers', ...(nearest.unitId !== undefined ? { screenUnitId: nearest.unitId } : {}) };
  return BY_STANDS;
}

/**
 * Per firing gun (kept in the piece's sight scene): the stands that last blocked its lines, latest first,
 * this many at most. A gun's lines to neighbouring targets are mostly blocked by the same few stands; any
 * stand of the pair's stands that blocks the line answers for artillery (the first met or another, the
 * answer is the same), so these are tried before the pair's stands are looked up.
 */
const GUN_BLOCKERS_KEPT = 4;

/** Whether stand `s` stops a gun's line: it crosses it, is no commander and no enemy skirmisher. */
function stopsGunLine(ctx: VbContext, s: VbStand, from: PointIn, to: PointIn, firer: VbStand, target: VbStand): boolean {
  const ss = s.sightStand;
  if (ss.id === firer.stand.id || ss.id === target.stand.id) return false;
  if (s.type === 'command' || standCrossingFraction(ss, from, to) < 0) return false;
  // Artillery fires past enemy skirmishers.
  return !(s.side !== firer.side && isSkirmisher(ctx, s));
}

/** Whether one of the gun's remembered blockers, if it is one of the pair's stands, stops the line. */
function rememberedStopsGunLine(ctx: VbContext, sc: PairScene, from: PointIn, to: PointIn, firer: VbStand, target: VbStand): boolean {
  const kept = sc.gunBlockers;
  if (!kept) return false;
  for (const s of kept) if (inPairScene(sc, s.sightStand) && stopsGunLine(ctx, s, from, to, firer, target)) return (sc.lastStand = s), true;
  return false;
}

/** Remembers stand `s` as the gun's latest blocker and the pair's last. */
function rememberGunBlocker(p: VbSight, sc: PairScene, firer: VbStand, s: VbStand): void {
  let kept = sc.gunBlockers;
  if (!kept) p.gunBlockers.set(firer, (kept = sc.gunBlockers = []));
  const at = kept.indexOf(s);
  if (at >= 0) kept.splice(at, 1);
  else if (kept.length >= GUN_BLOCKERS_KEPT) kept.pop();
  kept.unshift(s);
  sc.lastStand = s;
}

/** Whether any of the pair's stands stops the gun's line (the one found is remembered). */
function lineStopsGunLine(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, firer: VbStand, target: VbStand): boolean {
  pairStands(p, sc);
  for (let k = 0; k < sc.standCount; k++) {
    const s = sc.stands[k]!;
    if (stopsGunLine(ctx, s, from, to, firer, target)) return rememberGunBlocker(p, sc, firer, s), true;
  }
  return false;
}

/**
 * Sight along one line from `from` (on the firer) to `to` (on the target), testing only what the pair's
 * scene holds (everything near both stands): terrain first, then hills, then stands, the first that blocks
 * named. When `exact` is false the caller needs only "clear", "screened by skirmishers" or "blocked somehow"
 * (whatever blocks, a skirmisher screen counts only where nothing else does), so the cheapest tests go first.
 */
function sightLineIn(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, firer: VbStand, target: VbStand, artillery: boolean, exact: boolean): SightResult {
  const lengthIn = Math.sqrt((to.xIn - from.xIn) ** 2 + (to.yIn - from.yIn) ** 2);
  if (!exact && artillery) return gunLineBlocked(ctx, p, sc, from, to, lengthIn, firer, target) ? BY_STANDS : CLEAR;
  if (terrainBlocks(p, sc, from, to, lengthIn, firer, target)) return BY_TERRAIN;
  if (hillBlocks(ctx, p, sc, from, to, lengthIn, firer, target)) return BY_HILL;
  if (!artillery) return standsOnLine(ctx, p, sc, from, to, lengthIn, firer, target);
  if (exact && rememberedStopsGunLine(ctx, sc, from, to, firer, target)) return BY_STANDS;
  return lineStopsGunLine(ctx, p, sc, from, to, firer, target) ? BY_STANDS : CLEAR;
}

/**
 * Whether anything blocks a gun's line (terrain, hills or stands: which one is not asked). The cheap tests
 * first: the gun's remembered blockers, the areas' core disks, the stands in the line's cells; the exact
 * area and hill tests last.
 */
function gunLineBlocked(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  if (rememberedStopsGunLine(ctx, sc, from, to, firer, target) || terrainSurelyBlocks(p, sc, from, to, lengthIn, firer, target)) return true;
  if (lineStopsGunLine(ctx, p, sc, from, to, firer, target)) return true;
  for (let k = 0; k < sc.areaCount; k++) if (areaBlocks(p, sc, k, from, to, lengthIn, firer, target)) return (sc.lastArea = k), true;
  return hillBlocks(ctx, p, sc, from, to, lengthIn, firer, target);
}

function frontCentre(s: VbStand): PointIn {
  const [fl, fr] = s.corners;
  return { xIn: (fl!.xIn + fr!.xIn) / 2, yIn: (fl!.yIn + fr!.yIn) / 2 };
}

/**
 * Sight from a firing stand to a target stand: from its front (centre, then each front corner) to the
 * target's nearest point and its centre; clear if any line is, else the first line's reason (or a later
 * line's skirmisher screen). For a gun whose caller needs only "clear or not" (`reasonNeeded` false: its
 * fire already has a shot at the target unit, or a reason no gun's line can outrank), a blocked answer is
 * `GUN_BLOCKED_REASON_UNASKED`, found by the cheap tests on every line (the exact reason of the first line,
 * terrain before hills before stands, is the dearest test of a pair).
 */
export function standSight(ctx: VbContext, s: VbStand, t: VbStand, artillery: boolean, reasonNeeded = true, p: VbSight = sightScene(ctx)): SightResult {
  const sc = fillPairScene(p, s, t);
  if (artillery) return reasonNeeded ? gunSight(ctx, p, sc, s, t) : gunSightUnranked(ctx, p, sc, s, t);
  let worst: SightResult | undefined;
  for (let k = 0; k < 3; k++) {
    const from = k === 0 ? frontCentre(s) : s.corners[k - 1]!;
    const near = nearestOnBaseFrom(from, t.corners, t.box);
    for (let m = 0; m < 2; m++) {
      // Only the first line's reason is reported unless a later one is a skirmisher screen.
      const r = sightLineIn(ctx, p, sc, from, m === 0 ? near : t.center, s, t, artillery, worst === undefined);
      if (r.clear) return r;
      if (!worst || r.blockedBy === 'skirmishers') worst = r;
    }
  }
  return worst!;
}

/**
 * `standSight` for artillery, the same lines in the same order: for a gun no later line is a skirmisher
 * screen, so the answer is "clear" if any line is, else the first line's reason. Once the first line is
 * blocked, the others need only "blocked or not", and the thing that blocked the pair's last blocked line
 * (a stand that stops this gun's lines, or an area whose core disk the sure test found) is tried on each
 * first, by its own test alone: the stand's checks other than the crossing do not depend on the line, and
 * the sure test does not either beyond the line itself.
 */
function gunSight(ctx: VbContext, p: VbSight, sc: PairScene, s: VbStand, t: VbStand): SightResult {
  const fc = frontCentre(s);
  const near0 = nearestOnBaseFrom(fc, t.corners, t.box);
  const first = sightLineIn(ctx, p, sc, fc, near0, s, t, true, true);
  if (first.clear) return first;
  return gunLinesClear(ctx, p, sc, s, t, fc, near0, 1) ? CLEAR : first;
}

/**
 * `gunSight` when only "clear or not" is asked: the same six lines, each by the tests `gunSight` gives its
 * later lines.
 */
function gunSightUnranked(ctx: VbContext, p: VbSight, sc: PairScene, s: VbStand, t: VbStand): SightResult {
  const fc = frontCentre(s);
  return gunLinesClear(ctx, p, sc, s, t, fc, nearestOnBaseFrom(fc, t.corners, t.box), 0) ? CLEAR : GUN_BLOCKED_REASON_UNASKED;
}

/**
 * Whether one of a gun's lines from the `from`-th on (0: every line; 1: all but the first) is clear, each by
 * the cheap tests first: the thing that blocked the pair's last blocked line (a stand, or an area's core),
 * then `gunLineBlocked`. `fc` is the gun's front centre and `near0` the target's nearest point from it.
 */
function gunLinesClear(ctx: VbContext, p: VbSight, sc: PairScene, s: VbStand, t: VbStand, fc: PointIn, near0: PointIn, from: number): boolean {
  for (let k = 0; k < 3; k++) {
    const origin = k === 0 ? fc : s.corners[k - 1]!;
    const near = k === 0 ? near0 : nearestOnBaseFrom(origin, t.corners, t.box);
    for (let m = k === 0 ? from : 0; m < 2; m++) {
      const to = m === 0 ? near : t.center;
      if (sc.lastStand !== undefined && standCrossingFraction(sc.lastStand.sightStand, origin, to) >= 0) continue;
      if (sc.lastArea >= 0) {
        const lengthIn = Math.sqrt((to.xIn - origin.xIn) ** 2 + (to.yIn - origin.yIn) ** 2);
        if (lengthIn > 0 && coreSurelyBlocks(p, sc, sc.lastArea, origin, to, lengthIn, s, t)) continue;
      }
      if (sightLineIn(ctx, p, sc, origin, to, s, t, true, false).clear) return true;
    }
  }
  return false;
}

/**
 * The plain trace `standSight` answers as (kept for tests that compare the two): every line in order, each
 * by the full tests in the rules' order (terrain, hills, then every one of the pair's stands), with no
 * remembered blockers, no pair's last blocker and no walk of the line's cells.
 */
export function standSightTraced(ctx: VbContext, s: VbStand, t: VbStand, artillery: boolean): SightResult {
  const p = sightScene(ctx);
  const sc = fillPairScene(p, s, t);
  let worst: SightResult | undefined;
  for (let k = 0; k < 3; k++) {
    const from = k === 0 ? frontCentre(s) : s.corners[k - 1]!;
    const near = nearestOnBaseFrom(from, t.corners, t.box);
    for (let m = 0; m < 2; m++) {
      const to = m === 0 ? near : t.center;
      const lengthIn = Math.sqrt((to.xIn - from.xIn) ** 2 + (to.yIn - from.yIn) ** 2);
      let r: SightResult;
      if (terrainBlocks(p, sc, from, to, lengthIn, s, t)) r = BY_TERRAIN;
      else if (hillBlocks(ctx, p, sc, from, to, lengthIn, s, t)) r = BY_HILL;
      else if (!artillery) r = standsOnLine(ctx, p, sc, from, to, lengthIn, s, t);
      else {
        pairStands(p, sc);
        r = CLEAR;
        for (let j = 0; j < sc.standCount; j++) if (stopsGunLine(ctx, sc.stands[j]!, from, to, s, t)) r = BY_STANDS;
      }
      if (r.clear) return r;
      if (!worst || r.blockedBy === 'skirmishers') worst = r;
    }
  }
  return worst!;
}
