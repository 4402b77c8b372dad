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
import type { AreaTerrain, Elevation } from '../../../model/tableState.ts';
import { elevationLevelAt, segBoxMisses, sightBoxOf, standCrossingFraction, type SightBox, type SightStand } from '../../../geometry/lineOfSight.ts';
import { closestPointsFromFront } from '../nearest.ts';
import { fractionInsidePolygon, pointInPolygon, segmentInsideIntervals, segmentTouchesPolygonBoundary } from '../../../geometry/intersect.ts';
import { sortSmall } from '../../../geometry/sortSmall.ts';
import type { VbContext, VbStand } from '../context.ts';
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
 * The sight scene of one table state, prepared once: the areas that block sight, the hills, every stand of
 * `ctx.sight` with its rule-set stand, a grid over them, and per-stand facts (ground level, which blocking
 * areas hold its centre) filled in as sight lines ask for them.
 */
interface VbSight {
  /** The terrain its areas and hills were read from. */
  readonly terrain: unknown;
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

const PREPARED = new WeakMap<VbContext, VbSight>();
/** Sight stands per rule-set stand: a stand unchanged between states (the session reuses it) keeps its own. */
const SIGHT_STANDS = new WeakMap<VbStand, SightStand>();

function sightStandOf(v: VbStand): SightStand {
  let ss = SIGHT_STANDS.get(v);
  if (!ss) {
    const s = v.stand;
    const radiusIn = Math.sqrt(s.widthIn * s.widthIn + s.depthIn * s.depthIn) / 2;
    ss = { id: s.id, unitId: s.unitId, corners: v.corners, box: sightBoxOf(v.corners), cx: s.pose.xIn, cy: s.pose.yIn, radiusIn };
    SIGHT_STANDS.set(v, ss);
  }
  return ss;
}

/**
 * A session's previous scene, handed to its next context (`carrySightScene`): the next state shares most of
 * its stand objects, so its grid is the previous one with the changed stands moved rather than built again.
 * Only the scene is kept (it holds no context), and only until the next context is prepared.
 */
const CARRIED = new WeakMap<VbContext, VbSight>();

/**
 * Lets `to` (the next state's context) start from the sight scene of `from`, or the one handed to `from`
 * when nothing asked `from` for a sight line.
 */
export function carrySightScene(from: VbContext, to: VbContext): void {
  const p = PREPARED.get(from) ?? CARRIED.get(from);
  if (p && p.vb.length > 0) CARRIED.set(to, p);
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

function prepared(ctx: VbContext): VbSight {
  let p = PREPARED.get(ctx);
  if (p) return p;
  const terrain = ctx.state.terrain;
  const last = CARRIED.get(ctx);
  CARRIED.delete(ctx);
  let areas: BlockingArea[];
  let hills: SightHill[];
  if (last && last.terrain === terrain) {
    // Built from the terrain alone (the same object): the last lists serve.
    areas = last.areas as BlockingArea[];
    hills = last.hills as SightHill[];
  } else {
    const firstById = new Map<string, AreaTerrain>();
    for (const a of terrain.areas) if (!firstById.has(a.id)) firstById.set(a.id, a);
    areas = [];
    for (const area of terrain.areas) {
      if (SIGHT_NEUTRAL_AREA_KINDS.includes(area.kind)) continue;
      const rule = AREA_CLASSES[AREA_KIND_CLASS[area.kind]];
      if (rule.sight !== 'blocks') continue;
      areas.push({ area, box: sightBoxOf(area.vertices), byId: firstById.get(area.id)!, ...(rule.insideSightIn !== undefined ? { insideSightIn: rule.insideSightIn } : {}), index: areas.length });
    }
    hills = terrain.elevations.map((hill) => ({ hill, box: sightBoxOf(hill.vertices) }));
  }
  // Stands in the state's order (ties between stands the same distance along a line go to the first).
  const stands: SightStand[] = [];
  const vb: VbStand[] = [];
  for (const st of ctx.state.stands) {
    const v = ctx.standById.get(st.id);
    if (!v) continue;
    stands.push(sightStandOf(v));
    vb.push(v);
  }
  let cells: CellGrid | undefined;
  if (last && last.vb.length === vb.length) {
    // Stand by stand by identity: a stand object is never changed once built.
    const changed: number[] = [];
    for (let i = 0; i < vb.length && changed.length <= PATCH_MAX_STANDS; i++) if (vb[i] !== last.vb[i]) changed.push(i);
    if (changed.length <= PATCH_MAX_STANDS) cells = patchedCells(last, stands, changed);
  }
  cells ??= buildCells(stands);
  p = { terrain, areas, hills, stands, vb, cells, seen: new Int32Array(stands.length), stamp: 0, level: new Map(), inside: new Map() };
  PREPARED.set(ctx, p);
  return p;
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

/** What may stand in the way of any line between two stands: what meets the box around both. */
interface PairScene {
  readonly areas: BlockingArea[];
  readonly hills: SightHill[];
  /** Scene indices of stands, ascending. */
  readonly stands: number[];
}

/**
 * How far any line from a point of base `a` to a point of base `b` strays from the segment between their
 * centres: the larger base's circumradius (and a hair).
 */
export function sightSpreadIn(a: VbStand, b: VbStand): number {
  return Math.max(Math.hypot(a.stand.widthIn, a.stand.depthIn), Math.hypot(b.stand.widthIn, b.stand.depthIn)) / 2 + 1e-6;
}

/** Shared empty lists of a pair scene (never pushed to: a list is made when the first item meets). */
const NO_AREAS: BlockingArea[] = [];
const NO_HILLS: SightHill[] = [];

function pairScene(p: VbSight, a: VbStand, b: VbStand): PairScene {
  const box: Box = {
    minX: Math.min(a.box.minXIn, b.box.minXIn),
    minY: Math.min(a.box.minYIn, b.box.minYIn),
    maxX: Math.max(a.box.maxXIn, b.box.maxXIn),
    maxY: Math.max(a.box.maxYIn, b.box.maxYIn),
  };
  // Plain loops, and one shared empty list where nothing meets the box (most pairs): fewer allocations.
  let areas: BlockingArea[] = NO_AREAS;
  for (const x of p.areas) if (boxesMeet(x.box, box)) (areas === NO_AREAS ? (areas = []) : areas).push(x);
  let hills: SightHill[] = NO_HILLS;
  for (const h of p.hills) if (boxesMeet(h.box, box)) (hills === NO_HILLS ? (hills = []) : hills).push(h);
  // Every line from a point of one base to a point of the other keeps within the larger base's
  // circumradius of the segment between their centres: a stand further than that plus its own
  // circumradius from that segment meets none of them.
  const ax = a.center.xIn, ay = a.center.yIn;
  const dx = b.center.xIn - ax, dy = b.center.yIn - ay;
  const len2 = dx * dx + dy * dy;
  const spread = sightSpreadIn(a, b);
  const stands: number[] = [];
  p.stamp = (p.stamp + 1) | 0;
  // A stand that meets the corridor has a part in a cell that meets it (each stand is in every cell its box touches).
  const cellReach = (CELL_IN * Math.SQRT2) / 2 + spread;
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
        const st = p.stands[i]!;
        if (!boxesMeet(st.box, box)) continue;
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((st.cx - ax) * dx + (st.cy - ay) * dy) / len2));
        const ex = ax + dx * t - st.cx, ey = ay + dy * t - st.cy;
        const r = spread + st.radiusIn;
        if (ex * ex + ey * ey <= r * r) stands.push(i);
      }
    }
  }
  sortSmall(stands, (x, y) => x - y);
  return { areas, hills, stands };
}

const CLEAR: SightResult = { clear: true };
const BY_TERRAIN: SightResult = { clear: false, blockedBy: 'terrain' };
const BY_HILL: SightResult = { clear: false, blockedBy: 'hill' };
const BY_STANDS: SightResult = { clear: false, blockedBy: 'stands' };

/** Whether terrain areas block the line (Terrain Effects, p. 3). */
function terrainBlocks(p: VbSight, scene: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  // Terrain areas.
  for (const a of scene.areas) {
    const vertices = a.area.vertices;
    if (segBoxMisses(from, to, a.box)) continue;
    const fromInside = pointInPolygon(from, vertices);
    const crosses = segmentTouchesPolygonBoundary(from, to, vertices);
    if (!crosses && !fromInside) continue;
    const lengthInsideIn = (crosses ? fractionInsidePolygon(from, to, vertices) : 1) * lengthIn;
    if (lengthInsideIn <= 1e-6) continue;
    const firerIn = centreInside(p, firer, a);
    const targetIn = centreInside(p, target, a);
    if (firerIn && targetIn) {
      const within = a.insideSightIn !== undefined && lengthIn <= a.insideSightIn + 1e-9 && lengthInsideIn >= lengthIn - 1e-6;
      if (!within) return true;
      continue;
    }
    // One inside: it sees out (and is seen) only from the edge; the line may run inside only along its own base.
    let allowedIn = 0;
    if (firerIn) allowedIn += onEdge(firer, a.byId.vertices) ? Math.max(firer.stand.widthIn, firer.stand.depthIn) : 0;
    if (targetIn) allowedIn += onEdge(target, a.byId.vertices) ? Math.max(target.stand.widthIn, target.stand.depthIn) : 0;
    if (lengthInsideIn > allowedIn + 1e-6) return true;
  }
  return false;
}

/** Whether higher ground blocks the line (Terrain Effects: Hills, p. 3). */
function hillBlocks(ctx: VbContext, p: VbSight, scene: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand): boolean {
  // Hills: the obstacle is higher ground between the stands that is not the ground either stands on.
  if (scene.hills.length > 0) {
    const fromLevel = groundLevel(ctx, p, firer);
    const toLevel = groundLevel(ctx, p, target);
    const low = Math.min(fromLevel, toLevel);
    // Is any ground higher than the lower stand passed over strictly between the ends of the line?
    let higherBetween = false;
    for (const { hill, box } of scene.hills) {
      if (hill.level <= low || segBoxMisses(from, to, box)) continue;
      const crosses = segmentTouchesPolygonBoundary(from, to, hill.vertices);
      if (!crosses && !pointInPolygon(from, hill.vertices)) continue;
      if (!crosses) continue; // wholly inside: it touches both ends, not "between"
      let inside = 0;
      let strictlyBetween = false;
      for (const [t0, t1] of segmentInsideIntervals(from, to, hill.vertices)) {
        inside += t1 - t0;
        if (t1 - t0 > 1e-9 && (t0 > 1e-9 || t1 < 1 - 1e-9)) strictlyBetween = true;
      }
      if (inside > 0 && strictlyBetween) {
        higherBetween = true;
        break;
      }
    }
    if (higherBetween) {
      let obstacle = 0;
      let nearFromIn = Infinity;
      let nearToIn = Infinity;
      for (const { hill: e, box } of scene.hills) {
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
      if (obstacle > low) {
        const hi = Math.max(fromLevel, toLevel);
        const fromIsHigher = fromLevel >= toLevel;
        const nearHigherIn = fromIsHigher ? nearFromIn : nearToIn;
        const nearLowerIn = fromIsHigher ? nearToIn : nearFromIn;
        const seen = (hi - obstacle >= 2 && nearLowerIn >= HILL_SIGHT_FAR_IN - 1e-9) || (hi - obstacle >= 1 && nearHigherIn < nearLowerIn);
        if (!seen) return true;
      }
    }
  }
  return false;
}

/** What the stands on the line make of it: clear, blocked, or screened by enemy skirmishers. */
function standsOnLine(ctx: VbContext, p: VbSight, scene: PairScene, from: PointIn, to: PointIn, lengthIn: number, firer: VbStand, target: VbStand, artillery: boolean): SightResult {
  // Stands in the way (commanders' stands do not block: a reading). Small arms are stopped by the nearest
  // one (enemy skirmishers: they must fire at them); artillery fires past enemy skirmishers.
  let nearestAt = Infinity;
  let nearest: VbStand | undefined;
  for (const i of scene.stands) {
    const ss = p.stands[i]!;
    if (ss.id === firer.stand.id || ss.id === target.stand.id) continue;
    const s = p.vb[i]!;
    if (s.type === 'command') continue;
    const fraction = standCrossingFraction(ss, from, to);
    if (fraction < 0) continue;
    const screen = s.side !== firer.side && isSkirmisher(ctx, s);
    if (artillery) {
      if (!screen) return BY_STANDS;
      continue;
    }
    const atIn = fraction * lengthIn;
    if (atIn < nearestAt) (nearestAt = atIn), (nearest = s);
  }
  if (!nearest) return CLEAR;
  if (nearest.side !== firer.side && isSkirmisher(ctx, nearest)) return { clear: false, blockedBy: 'skirmishers', ...(nearest.unitId !== undefined ? { screenUnitId: nearest.unitId } : {}) };
  return BY_STANDS;
}

/**
 * Sight along one line from `from` (on the firer) to `to` (on the target), testing only what `scene` holds
 * (everything near both stands): terrain first, then hills, then stands, the first that blocks named. When
 * `exact` is false the caller needs only "clear", "screened by skirmishers" or "blocked somehow", so a line
 * a stand blocks is answered without the terrain tests (it is blocked either way, and never screened).
 */
function sightLineIn(ctx: VbContext, p: VbSight, scene: PairScene, from: PointIn, to: PointIn, firer: VbStand, target: VbStand, artillery: boolean, exact: boolean): SightResult {
  const lengthIn = Math.sqrt((to.xIn - from.xIn) ** 2 + (to.yIn - from.yIn) ** 2);
  if (exact) {
    if (terrainBlocks(p, scene, from, to, lengthIn, firer, target)) return BY_TERRAIN;
    if (hillBlocks(ctx, p, scene, from, to, lengthIn, firer, target)) return BY_HILL;
    return standsOnLine(ctx, p, scene, from, to, lengthIn, firer, target, artillery);
  }
  const byStands = standsOnLine(ctx, p, scene, from, to, lengthIn, firer, target, artillery);
  if (byStands === BY_STANDS) return byStands;
  if (terrainBlocks(p, scene, from, to, lengthIn, firer, target)) return BY_TERRAIN;
  if (hillBlocks(ctx, p, scene, from, to, lengthIn, firer, target)) return BY_HILL;
  return byStands;
}

function frontCentre(s: VbStand): PointIn {
  const [fl, fr] = s.corners;
  return { xIn: (fl!.xIn + fr!.xIn) / 2, yIn: (fl!.yIn + fr!.yIn) / 2 };
}

/**
 * Sight from a firing stand to a target stand: from its front (centre, then each front corner) to the
 * target's nearest point and its centre; clear if any line is, else the last failure (skirmishers first).
 */
export function standSight(ctx: VbContext, s: VbStand, t: VbStand, artillery: boolean): SightResult {
  const p = prepared(ctx);
  const scene = pairScene(p, s, t);
  let worst: SightResult | undefined;
  for (let k = 0; k < 3; k++) {
    const from = k === 0 ? frontCentre(s) : s.corners[k - 1]!;
    const near = closestPointsFromFront([from], t.corners).onB;
    for (let m = 0; m < 2; m++) {
      // Only the first line's reason is reported unless a later one is a skirmisher screen (see below).
      const r = sightLineIn(ctx, p, scene, from, m === 0 ? near : t.center, s, t, artillery, worst === undefined);
      if (r.clear) return r;
      if (!worst || r.blockedBy === 'skirmishers') worst = r;
    }
  }
  return worst!;
}
