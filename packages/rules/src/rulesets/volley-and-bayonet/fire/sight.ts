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
import type { AreaTerrain, Elevation, TableState } from '../../../model/tableState.ts';
import { elevationLevelAt, segBoxMisses, sightBoxOf, standCrossingFraction, type SightBox, type SightStand } from '../../../geometry/lineOfSight.ts';
import { nearestOnBaseFrom } from '../nearest.ts';
import { fractionInsidePolygon, pointInPolygon, segmentInsideIntervals, segmentTouchesPolygonBoundary } from '../../../geometry/intersect.ts';
import type { VbContext, VbStand } from '../context.ts';
import type { BoundingBoxIn } from '../../../geometry/polygon.ts';
import { identityMemo } from '../../../engine/identityMemo.ts';
import { ownedMemo, ownedSlot } from '../../../engine/ownedMemo.ts';
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
  /**
   * A disk wholly inside the area, a cheap sure test for lines through it: found when a line first asks
   * (`coreRIn` -1: not yet; 0: none found).
   */
  coreXIn: number;
  coreYIn: number;
  coreRIn: number;
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

/** Grid cell for the stand cull, inches: a few stands wide. */
const CELL_IN = 6;

/** The stands per grid cell, cells in a flat array over the cells any stand touches (the rest are empty). */
interface CellGrid {
  readonly cx0: number;
  readonly cy0: number;
  readonly cx1: number;
  readonly cy1: number;
  /** Index (cx - cx0) * rows + (cy - cy0): the scene indices of the stands in that cell, ascending. */
  readonly lists: (number[] | undefined)[];
  readonly rows: number;
}

/**
 * The sight scene of one table state, prepared once: the areas that block sight and the hills (kept per
 * terrain object, `sightTerrain`), every stand of `ctx.sight` with its rule-set stand, a grid over them, and
 * per-stand facts (ground level, which blocking areas hold its centre) filled in as sight lines ask for them.
 */
interface VbSight {
  readonly areas: readonly BlockingArea[];
  readonly hills: readonly SightHill[];
  readonly stands: readonly SightStand[];
  readonly vb: readonly VbStand[];
  readonly cells: CellGrid;
  readonly seen: Int32Array;
  stamp: number;
  readonly level: Map<VbStand, number>;
  /** Per stand, per blocking area: 0 not yet known, 1 outside, 2 inside. */
  readonly inside: Map<VbStand, Uint8Array>;
}

/** A stand's sight stand, made once and kept on the stand: a stand unchanged between states (the session reuses it) keeps its own. */
function sightStandOf(v: VbStand): SightStand {
  let ss = v.sightStand;
  if (!ss) {
    const s = v.stand;
    const radiusIn = Math.sqrt(s.widthIn * s.widthIn + s.depthIn * s.depthIn) / 2;
    ss = v.sightStand = { id: s.id, unitId: s.unitId, corners: v.corners, box: sightBoxOf(v.corners), cx: s.pose.xIn, cy: s.pose.yIn, radiusIn };
  }
  return ss;
}

/**
 * A session's previous scene, handed to its next context (`carrySightScene`): the next state shares most of
 * its stand objects, so its grid is the previous one with the changed stands moved rather than built again.
 * Only the scene is kept (it holds no context), and only until the next context is prepared.
 */
const carried = ownedSlot<VbContext, VbSight>();

/**
 * Lets `to` (the next state's context) start from the sight scene of `from`, or the one handed to `from`
 * when nothing asked `from` for a sight line.
 */
export function carrySightScene(from: VbContext, to: VbContext): void {
  const p = scenes.peek(from) ?? carried.peek(from);
  if (p && p.vb.length > 0) carried.set(to, p);
}

/** Most stands changed before the last grid is not worth patching. */
const PATCH_MAX_STANDS = 32;

function cellRange(b: Box): [number, number, number, number] {
  return [Math.floor(b.minX / CELL_IN), Math.floor(b.minY / CELL_IN), Math.floor(b.maxX / CELL_IN), Math.floor(b.maxY / CELL_IN)];
}

function buildCells(stands: readonly SightStand[]): CellGrid {
  let cx0 = Infinity, cy0 = Infinity, cx1 = -Infinity, cy1 = -Infinity;
  for (const s of stands) {
    cx0 = Math.min(cx0, Math.floor(s.box.minX / CELL_IN));
    cy0 = Math.min(cy0, Math.floor(s.box.minY / CELL_IN));
    cx1 = Math.max(cx1, Math.floor(s.box.maxX / CELL_IN));
    cy1 = Math.max(cy1, Math.floor(s.box.maxY / CELL_IN));
  }
  const rows = stands.length === 0 ? 0 : cy1 - cy0 + 1;
  const lists: (number[] | undefined)[] = new Array(stands.length === 0 ? 0 : (cx1 - cx0 + 1) * rows).fill(undefined);
  stands.forEach((s, i) => {
    for (let cx = Math.floor(s.box.minX / CELL_IN); cx <= Math.floor(s.box.maxX / CELL_IN); cx++) {
      for (let cy = Math.floor(s.box.minY / CELL_IN); cy <= Math.floor(s.box.maxY / CELL_IN); cy++) {
        const k = (cx - cx0) * rows + (cy - cy0);
        const list = lists[k];
        if (list) list.push(i);
        else lists[k] = [i];
      }
    }
  });
  return { cx0, cy0, cx1, cy1, lists, rows };
}

/**
 * The last grid with the stands at `changed` taken out of their old cells and put in their new ones (a
 * cell's order does not matter: a pair scene sorts what it finds), or undefined when a stand now lies
 * outside the last grid's cells. Cells are copied before they are changed: the last scene stays as it was.
 */
function patchedCells(last: VbSight, stands: readonly SightStand[], changed: readonly number[]): CellGrid | undefined {
  const g = last.cells;
  for (const i of changed) {
    const [x0, y0, x1, y1] = cellRange(stands[i]!.box);
    if (x0 < g.cx0 || y0 < g.cy0 || x1 > g.cx1 || y1 > g.cy1) return undefined;
  }
  const lists = g.lists.slice();
  const copied = new Set<number>();
  const own = (k: number): number[] => {
    let list = lists[k];
    if (!copied.has(k)) {
      list = list ? list.slice() : [];
      lists[k] = list;
      copied.add(k);
    }
    return list!;
  };
  for (const i of changed) {
    const [x0, y0, x1, y1] = cellRange(last.stands[i]!.box);
    for (let cx = x0; cx <= x1; cx++) {
      for (let cy = y0; cy <= y1; cy++) {
        const list = own((cx - g.cx0) * g.rows + (cy - g.cy0));
        const at = list.indexOf(i);
        if (at >= 0) list.splice(at, 1);
      }
    }
  }
  for (const i of changed) {
    const [x0, y0, x1, y1] = cellRange(stands[i]!.box);
    for (let cx = x0; cx <= x1; cx++) for (let cy = y0; cy <= y1; cy++) own((cx - g.cx0) * g.rows + (cy - g.cy0)).push(i);
  }
  return { cx0: g.cx0, cy0: g.cy0, cx1: g.cx1, cy1: g.cy1, lists, rows: g.rows };
}

/** Each context's sight scene, built on its first sight line. */
const scenes = ownedMemo((ctx: VbContext) => buildScene(ctx));

/**
 * The areas that block sight and the hills of a terrain, read once per terrain object (a state's terrain
 * is never changed once built, and a game's terrain object usually outlives many states): an area's core
 * disk, found when a line first asks, is then kept with it.
 */
const sightTerrain = identityMemo((terrain: TableState['terrain']): { readonly areas: readonly BlockingArea[]; readonly hills: readonly SightHill[] } => {
  const firstById = new Map<string, AreaTerrain>();
  for (const a of terrain.areas) if (!firstById.has(a.id)) firstById.set(a.id, a);
  const areas: BlockingArea[] = [];
  for (const area of terrain.areas) {
    if (SIGHT_NEUTRAL_AREA_KINDS.includes(area.kind)) continue;
    const rule = AREA_CLASSES[AREA_KIND_CLASS[area.kind]];
    if (rule.sight !== 'blocks') continue;
    const box = sightBoxOf(area.vertices);
    areas.push({ area, box, byId: firstById.get(area.id)!, ...(rule.insideSightIn !== undefined ? { insideSightIn: rule.insideSightIn } : {}), index: areas.length, coreXIn: 0, coreYIn: 0, coreRIn: -1 });
  }
  return { areas, hills: terrain.elevations.map((hill) => ({ hill, box: sightBoxOf(hill.vertices) })) };
});

function buildScene(ctx: VbContext): VbSight {
  const last = carried.peek(ctx);
  carried.set(ctx, undefined);
  const { areas, hills } = sightTerrain.get(ctx.state.terrain);
  // Stands in the state's order (ties between stands the same distance along a line go to the first).
  const vb: VbStand[] = [];
  for (const st of ctx.state.stands) {
    const v = ctx.standById.get(st.id);
    if (v) vb.push(v);
  }
  // A stand object the last scene held at the same place keeps its sight stand (no lookup).
  const same = last !== undefined && last.vb.length === vb.length;
  const stands: SightStand[] = vb.map((v, i) => (same && last.vb[i] === v ? last.stands[i]! : sightStandOf(v)));
  let cells: CellGrid | undefined;
  if (last && same) {
    // Stand by stand by identity: a stand object is never changed once built.
    const changed: number[] = [];
    for (let i = 0; i < vb.length && changed.length <= PATCH_MAX_STANDS; i++) if (vb[i] !== last.vb[i]) changed.push(i);
    if (changed.length <= PATCH_MAX_STANDS) cells = patchedCells(last, stands, changed);
  }
  cells ??= buildCells(stands);
  return { areas, hills, stands, vb, cells, seen: new Int32Array(stands.length), stamp: 0, level: new Map(), inside: new Map() };
}

function groundLevel(ctx: VbContext, p: VbSight, s: VbStand): number {
  let v = p.level.get(s);
  if (v === undefined) p.level.set(s, (v = elevationLevelAt(s.center, ctx.state.terrain)));
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
  /** Scene indices of the stands near the segment, ascending (the first `standCount`), once `standsBuilt`. */
  stands: Int32Array;
  standCount: number;
  standsBuilt: boolean;
  /** The firing gun's remembered blockers (see `GUN_BLOCKERS_KEPT`), looked up once per pair. */
  gunBlockers: number[] | undefined;
  /** Per area of the pair (by its place in `areas`): 0 not yet read, else 1 + 2 * firer inside + target inside. */
  centres: Uint8Array;
  /**
   * What blocked the pair's last blocked gun line, tried first on its next lines: a scene index of a stand
   * (-1: none), or an area's place in `areas` (-1: none).
   */
  lastStand: number;
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
  stands: new Int32Array(64),
  standCount: 0,
  standsBuilt: false,
  gunBlockers: undefined,
  centres: new Uint8Array(16),
  lastStand: -1,
  lastArea: -1,
};

/**
 * How far any line from a point of base `a` to a point of base `b` strays from the segment between their
 * centres: the larger base's circumradius (and a hair).
 */
export function sightSpreadIn(a: VbStand, b: VbStand): number {
  return Math.max(baseDiagonalIn(a.stand.widthIn, a.stand.depthIn), baseDiagonalIn(b.stand.widthIn, b.stand.depthIn)) / 2 + 1e-6;
}

/** The last few base sizes' diagonals (a table has few sizes; `Math.hypot` is slow for a per-pair call). */
const DIAGONALS = new Float64Array(12);
let diagonalNext = 0;

function baseDiagonalIn(w: number, d: number): number {
  for (let k = 0; k < DIAGONALS.length; k += 3) if (DIAGONALS[k] === w && DIAGONALS[k + 1] === d) return DIAGONALS[k + 2]!;
  const h = Math.hypot(w, d);
  DIAGONALS[diagonalNext] = w;
  DIAGONALS[diagonalNext + 1] = d;
  DIAGONALS[diagonalNext + 2] = h;
  diagonalNext = (diagonalNext + 3) % DIAGONALS.length;
  return h;
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
  sc.gunBlockers = a.gunBlockers;
  sc.lastStand = -1;
  sc.lastArea = -1;
  if (sc.centres.length < sc.areaCount) sc.centres = new Uint8Array(sc.areaCount * 2);
  sc.centres.fill(0, 0, sc.areaCount);
  return sc;
}

/**
 * Whether a stand belongs to the pair's stands: its box meets the pair's box and its centre is within the
 * lines' spread plus its own circumradius of the centres' segment (every line from a point of one base to a
 * point of the other keeps within the spread of that segment, so a stand further away meets none of them).
 */
function inPairScene(sc: PairScene, st: SightStand): boolean {
  if (!boxesMeet(st.box, sc.box)) return false;
  const t = sc.len2 === 0 ? 0 : Math.max(0, Math.min(1, ((st.cx - sc.ax) * sc.dx + (st.cy - sc.ay) * sc.dy) / sc.len2));
  const ex = sc.ax + sc.dx * t - st.cx, ey = sc.ay + sc.dy * t - st.cy;
  const r = sc.spread + st.radiusIn;
  return ex * ex + ey * ey <= r * r;
}

/** The pair's stands (scene indices, ascending), found in the grid on first use. */
function pairStands(p: VbSight, sc: PairScene): void {
  if (sc.standsBuilt) return;
  sc.standsBuilt = true;
  if (sc.stands.length < p.stands.length) sc.stands = new Int32Array(p.stands.length);
  const out = sc.stands;
  let n = 0;
  p.stamp = (p.stamp + 1) | 0;
  const box = sc.box;
  const { ax, ay, dx, dy, len2 } = sc;
  // A stand that meets the corridor has a part in a cell that meets it (each stand is in every cell its box touches).
  const cellReach = (CELL_IN * Math.SQRT2) / 2 + sc.spread;
  const g = p.cells;
  // Only the cells of the grid: no stand touches any other.
  const cxEnd = Math.min(Math.floor(box.maxX / CELL_IN), g.cx1);
  const cyStart = Math.max(Math.floor(box.minY / CELL_IN), g.cy0);
  const cyEnd = Math.min(Math.floor(box.maxY / CELL_IN), g.cy1);
  for (let cx = Math.max(Math.floor(box.minX / CELL_IN), g.cx0); cx <= cxEnd; cx++) {
    for (let cy = cyStart; cy <= cyEnd; cy++) {
      const list = g.lists[(cx - g.cx0) * g.rows + (cy - g.cy0)];
      if (!list) continue;
      const mx = (cx + 0.5) * CELL_IN, my = (cy + 0.5) * CELL_IN;
      const tc = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((mx - ax) * dx + (my - ay) * dy) / len2));
      const cxOff = ax + dx * tc - mx, cyOff = ay + dy * tc - my;
      if (cxOff * cxOff + cyOff * cyOff > cellReach * cellReach) continue;
      for (const i of list) {
        if (p.seen[i] === p.stamp) continue;
        p.seen[i] = p.stamp;
        if (inPairScene(sc, p.stands[i]!)) out[n++] = i;
      }
    }
  }
  // Ascending (ties along a line go to the stand listed first): insertion for the usual few, else typed sort.
  if (n > 32) out.subarray(0, n).sort();
  else {
    for (let k = 1; k < n; k++) {
      const x = out[k]!;
      let j = k - 1;
      while (j >= 0 && out[j]! > x) (out[j + 1] = out[j]!), j--;
      out[j + 1] = x;
    }
  }
  sc.standCount = n;
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
  if (a.coreRIn < 0) Object.assign(a, coreDisk(a.area.vertices, a.box));
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
    const i = sc.stands[k]!;
    const ss = p.stands[i]!;
    if (ss.id === firer.stand.id || ss.id === target.stand.id) continue;
    const s = p.vb[i]!;
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
 * Per firing gun (kept on its stand, `VbStand.gunBlockers`): the scene indices of the stands that last
 * blocked its lines, latest first, this many at most. A gun's lines
 * to neighbouring targets are mostly blocked by the same few stands; any stand of the pair's stands that
 * blocks the line answers for artillery (the first met or another, the answer is the same), so these are
 * tried before the pair's stands are looked up.
 */
const GUN_BLOCKERS_KEPT = 4;

/** Whether the stand at scene index `i` stops a gun's line: it crosses it, is no commander and no enemy skirmisher. */
function stopsGunLine(ctx: VbContext, p: VbSight, i: number, from: PointIn, to: PointIn, firer: VbStand, target: VbStand): boolean {
  const ss = p.stands[i]!;
  if (ss.id === firer.stand.id || ss.id === target.stand.id) return false;
  const s = p.vb[i]!;
  if (s.type === 'command' || standCrossingFraction(ss, from, to) < 0) return false;
  // Artillery fires past enemy skirmishers.
  return !(s.side !== firer.side && isSkirmisher(ctx, s));
}

/** Whether one of the gun's remembered blockers, if it is one of the pair's stands, stops the line. */
function rememberedStopsGunLine(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, firer: VbStand, target: VbStand): boolean {
  const kept = sc.gunBlockers;
  if (!kept) return false;
  for (const i of kept) if (i < p.stands.length && inPairScene(sc, p.stands[i]!) && stopsGunLine(ctx, p, i, from, to, firer, target)) return (sc.lastStand = i), true;
  return false;
}

/** Remembers the stand at scene index `i` as the gun's latest blocker and the pair's last. */
function rememberGunBlocker(sc: PairScene, firer: VbStand, i: number): void {
  let kept = sc.gunBlockers;
  if (!kept) kept = sc.gunBlockers = firer.gunBlockers = [];
  const at = kept.indexOf(i);
  if (at >= 0) kept.splice(at, 1);
  else if (kept.length >= GUN_BLOCKERS_KEPT) kept.pop();
  kept.unshift(i);
  sc.lastStand = i;
}

/** How far outside a line the grid walk still takes cells in, inches (far above the rounding of the walk). */
const WALK_MARGIN_IN = 1e-6;

/**
 * Whether any of the pair's stands stops the gun's line (the one found is remembered), looking only in the
 * grid's cells the line passes through or comes within `WALK_MARGIN_IN` of, column by column from the
 * firer's end. A stand stops a line only where the crossing test finds a point of its edge on the line (to
 * its 1e-12 tolerance, far inside the margin), so its box has a point in one of those cells, and a stand is
 * listed in every cell its box touches: every pair stand (`inPairScene`, as `pairStands` keeps) that stops
 * the line is met, and only pair stands are tested, so the answer is the one the pair's whole corridor gives,
 * without looking the corridor up.
 */
function lineStopsGunLine(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, firer: VbStand, target: VbStand): boolean {
  const g = p.cells;
  if (g.lists.length === 0) return false;
  p.stamp = (p.stamp + 1) | 0;
  const ax = from.xIn, ay = from.yIn, bx = to.xIn, by = to.yIn;
  const m = WALK_MARGIN_IN;
  const xLo = Math.min(ax, bx) - m, xHi = Math.max(ax, bx) + m;
  const yMin = Math.min(ay, by), yMax = Math.max(ay, by);
  const cxLo = Math.max(Math.floor(xLo / CELL_IN), g.cx0), cxHi = Math.min(Math.floor(xHi / CELL_IN), g.cx1);
  const step = ax <= bx ? 1 : -1;
  const n = cxHi - cxLo + 1;
  for (let c = 0; c < n; c++) {
    const cx = step > 0 ? cxLo + c : cxHi - c;
    // The line's y-range over this column (its x-range grown by the margin), then grown by the margin.
    let y0 = yMin, y1 = yMax;
    if (bx !== ax) {
      const u0 = (Math.max(xLo, cx * CELL_IN - m) - ax) / (bx - ax), u1 = (Math.min(xHi, (cx + 1) * CELL_IN + m) - ax) / (bx - ax);
      const ya = ay + (by - ay) * u0, yb = ay + (by - ay) * u1;
      y0 = Math.max(yMin, Math.min(ya, yb));
      y1 = Math.min(yMax, Math.max(ya, yb));
    }
    const cyLo = Math.max(Math.floor((y0 - m) / CELL_IN), g.cy0), cyHi = Math.min(Math.floor((y1 + m) / CELL_IN), g.cy1);
    for (let cy = cyLo; cy <= cyHi; cy++) {
      const list = g.lists[(cx - g.cx0) * g.rows + (cy - g.cy0)];
      if (!list) continue;
      for (const i of list) {
        if (p.seen[i] === p.stamp) continue;
        p.seen[i] = p.stamp;
        if (inPairScene(sc, p.stands[i]!) && stopsGunLine(ctx, p, i, from, to, firer, target)) return rememberGunBlocker(sc, firer, i), true;
      }
    }
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
  if (exact && rememberedStopsGunLine(ctx, p, sc, from, to, firer, target)) return BY_STANDS;
  return lineStopsGunLine(ctx, p, sc, from, to, firer, target) ? BY_STANDS : CLEAR;
}

/**
 * Whether anything blocks a gun's line (terrain, hills or stands: which one is not asked). The cheap tests
 * first: the gun's remembered blockers, the areas' core disks, the stands in the line's cells; the exact
 * area and hill tests last.
 */
function gunLineBlocked(ctx: VbContext, p: VbSight, sc: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  if (rememberedStopsGunLine(ctx, p, sc, from, to, firer, target) || terrainSurelyBlocks(p, sc, from, to, lengthIn, firer, target)) return true;
  if (lineStopsGunLine(ctx, p, sc, from, to, firer, target)) return true;
  for (let k = 0; k < sc.areaCount; k++) if (areaBlocks(p, sc, k, from, to, lengthIn, firer, target)) return (sc.lastArea = k), true;
  return hillBlocks(ctx, p, sc, from, to, lengthIn, firer, target);
}

function frontCentre(s: VbStand): PointIn {
  const [fl, fr] = s.corners;
  return { xIn: (fl!.xIn + fr!.xIn) / 2, yIn: (fl!.yIn + fr!.yIn) / 2 };
}

/** Whether segment a-b meets the box grown by `marginIn` on every side (box overlap, then no corner-free side). */
function segmentMeetsGrownBox(a: PointIn, b: PointIn, box: BoundingBoxIn, marginIn: number): boolean {
  const minX = box.minXIn - marginIn, minY = box.minYIn - marginIn, maxX = box.maxXIn + marginIn, maxY = box.maxYIn + marginIn;
  if (Math.max(a.xIn, b.xIn) < minX || Math.min(a.xIn, b.xIn) > maxX || Math.max(a.yIn, b.yIn) < minY || Math.min(a.yIn, b.yIn) > maxY) return false;
  const dx = b.xIn - a.xIn, dy = b.yIn - a.yIn;
  const c1 = dx * (minY - a.yIn) - dy * (minX - a.xIn);
  const c2 = dx * (minY - a.yIn) - dy * (maxX - a.xIn);
  const c3 = dx * (maxY - a.yIn) - dy * (minX - a.xIn);
  const c4 = dx * (maxY - a.yIn) - dy * (maxX - a.xIn);
  return !((c1 > 0 && c2 > 0 && c3 > 0 && c4 > 0) || (c1 < 0 && c2 < 0 && c3 < 0 && c4 < 0));
}

/**
 * Whether any of the six lines `standSight` traces from `s` to `t` meets one of `boxes` grown by `marginIn`.
 * The lines depend on the two stands alone, and only a stand that touches a line can change what it meets:
 * with both stands unchanged, stands whose boxes (before and after a change) meet no line leave the answer.
 */
export function sightLinesMeetBoxes(s: VbStand, t: VbStand, boxes: readonly BoundingBoxIn[], marginIn: number): boolean {
  if (boxes.length === 0) return false;
  for (let k = 0; k < 3; k++) {
    const from = k === 0 ? frontCentre(s) : s.corners[k - 1]!;
    const near = nearestOnBaseFrom(from, t.corners, t.box);
    for (const b of boxes) if (segmentMeetsGrownBox(from, near, b, marginIn) || segmentMeetsGrownBox(from, t.center, b, marginIn)) return true;
  }
  return false;
}

/**
 * Sight from a firing stand to a target stand: from its front (centre, then each front corner) to the
 * target's nearest point and its centre; clear if any line is, else the first line's reason (or a later
 * line's skirmisher screen). For a gun whose caller needs only "clear or not" (`reasonNeeded` false: its
 * fire already has a shot at the target unit, or a reason no gun's line can outrank), a blocked answer is
 * `GUN_BLOCKED_REASON_UNASKED`, found by the cheap tests on every line (the exact reason of the first line,
 * terrain before hills before stands, is the dearest test of a pair).
 */
export function standSight(ctx: VbContext, s: VbStand, t: VbStand, artillery: boolean, reasonNeeded = true): SightResult {
  const p = scenes.get(ctx);
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
      if (sc.lastStand >= 0 && standCrossingFraction(p.stands[sc.lastStand]!, origin, to) >= 0) continue;
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
  const p = scenes.get(ctx);
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
        for (let j = 0; j < sc.standCount; j++) if (stopsGunLine(ctx, p, sc.stands[j]!, from, to, s, t)) r = BY_STANDS;
      }
      if (r.clear) return r;
      if (!worst || r.blockedBy === 'skirmishers') worst = r;
    }
  }
  return worst!;
}
