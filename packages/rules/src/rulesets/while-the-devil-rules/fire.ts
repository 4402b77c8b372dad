/**
 * Fire (While the Devil Rules, Fire; Formations for pike & shot faces): which bases may fire at which enemy
 * unit. Range from each firing base's front edge to the nearest point of the target within the 45° arc
 * from its front corners; line of sight through a 2" gap, at most 2" into woods, over units only from
 * higher ground; only the front rank fires, pike & shot blocks from any face up to their per-face cap,
 * swarms all round. Force ratio: firing bases against all the target's bases. Closer targets first
 * (except cannon).
 */
import type { DiceModifier, FireRefusal, FireTargetOption } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Stand } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { polygonToPolygonDistanceIn, closestPointsBetweenPolygons } from '../../geometry/distance.ts';
import { frontRankStands } from '../../geometry/frontLine.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { elevationLevelAt, lineOfSight, sightBoxOf, type SightStand } from '../../geometry/lineOfSight.ts';
import { standCorners } from '../../geometry/footprint.ts';
import { offsetConvexPolygon } from '../../geometry/polygon.ts';
import { engagedWith, gapLowerBoundIn, type UnitInfo, type WtdrContext } from './context.ts';
import { aheadOf, clipConvex, fromFrame, leftOfRay, rightOfRay, segmentToPolygonDistanceIn } from './geom.ts';
import { modifierBreakdown, type ModifierFactor } from './modifiers.ts';
import { advancingFireLine } from './advancingFire.ts';
import { query } from '../../engine/incremental/query.ts';
import { fireWeapon } from './fireWeapon.ts';
import {
  FIRE_ARC_HALF_DEG, FIRE_SOURCE, FORCE_RATIO_LABELS, OVERHEAD_CLEAR_OF_TARGET_IN, PIKE_AND_SHOT_FACE_CAPS, SIGHT_GAP_IN,
  SIGHT_INTO_WOODS_IN, forceRatio, rangeRow, type Face, type RangeRow,
} from './tables/fireTables.ts';
import { AREA_CLASSES } from './tables/terrainClasses.ts';
import { OUTCOME_SOURCE } from './tables/outcomeTables.ts';
import type { WeaponId } from './tables/troopTypes.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import { FIRE_ARC_FIELD } from './declarations.ts';

/** Where fire comes from: a front edge (left to right, facing `headingDeg`) or, for swarms, a figure all round. */
export interface FireSource {
  readonly id: string;
  readonly edge?: readonly [PointIn, PointIn];
  readonly headingDeg: number;
  readonly polygon?: readonly PointIn[];
  readonly standIds: readonly string[];
  readonly face?: Face;
  readonly cap: number;
}


function faceCaps(info: UnitInfo): { front: number; rear: number; flank: number; source: string } {
  const id = info.type!.id;
  if (id === 'swedish-brigade') return PIKE_AND_SHOT_FACE_CAPS.swedish;
  if (id === 'tercio' || id === 'veteran-tercio') return PIKE_AND_SHOT_FACE_CAPS.tercio;
  return PIKE_AND_SHOT_FACE_CAPS.dutch;
}

/** Shot bases of a pike & shot unit: those not read as pike, or the count its type implies. */
function shotStands(info: UnitInfo): Stand[] {
  const pikes = new Set(info.formation.pikeStandIds);
  if (pikes.size > 0) return info.stands.filter((s) => !pikes.has(s.id));
  const wantPikes = info.type?.pikeBasesByTotal?.[info.stands.length] ?? 0;
  return info.stands.slice(0, Math.max(0, info.stands.length - wantPikes));
}

function fireSources(ctx: WtdrContext, info: UnitInfo): FireSource[] {
  const family = info.type!.family;
  if (family === 'swarm') {
    return info.stands.map((s) => ({ id: s.id, polygon: info.corners[s.id]!, headingDeg: 0, standIds: [s.id], cap: 1 }));
  }
  if (family === 'pike-and-shot') {
    const { front, rear, left, right } = info.box;
    const f = info.frame;
    const h = f.headingDeg;
    const caps = faceCaps(info);
    const shots = shotStands(info).length;
    const p = (a: number, c: number): PointIn => fromFrame(f, a, c);
    const faces: [Face, PointIn, PointIn, number, number][] = [
      ['front', p(front, left), p(front, right), h, caps.front],
      ['rear', p(rear, right), p(rear, left), h + 180, caps.rear],
      ['left', p(rear, left), p(front, left), h + 90, caps.flank],
      ['right', p(front, right), p(rear, right), h - 90, caps.flank],
    ];
    // A Swedish brigade that has fired this turn keeps to that arc (Formations: "one arc in any given turn").
    const arc = info.type!.id === 'swedish-brigade' ? rulesetValue(FIRE_ARC_FIELD, info.unit.status?.rulesetStatus) : 'none';
    return faces
      .filter(([face]) => arc === 'none' || arc === face)
      .map(([face, a, b, deg, cap]) => ({ id: face, edge: [a, b] as const, headingDeg: deg, face, standIds: [], cap: Math.min(cap, shots) }));
  }
  // Everything else: "Only the front rank of bases may fire", each from its own front edge.
  return frontRankStands(info.stands, info.frame.headingDeg).map((s) => {
    const c = info.corners[s.id]!;
    return { id: s.id, edge: [c[0]!, c[1]!] as const, headingDeg: s.pose.headingDeg, standIds: [s.id], cap: 1 };
  });
}

/** Parts of the target inside the source's arc (the whole target for an all-round source). */
function inArc(ctx: WtdrContext, src: FireSource, target: UnitInfo): PointIn[][] {
  const out: PointIn[][] = [];
  for (const s of target.stands) {
    const poly = target.corners[s.id]!;
    if (!src.edge) {
      out.push([...poly]);
      continue;
    }
    const [a, b] = src.edge;
    const piece = clipConvex(poly, [aheadOf(a, src.headingDeg), rightOfRay(a, src.headingDeg + FIRE_ARC_HALF_DEG), leftOfRay(b, src.headingDeg - FIRE_ARC_HALF_DEG)]);
    if (piece.length >= 3) out.push(piece);
  }
  return out;
}

function distanceFromSource(src: FireSource, piece: readonly PointIn[]): number {
  return src.edge ? segmentToPolygonDistanceIn(src.edge[0], src.edge[1], piece) : polygonToPolygonDistanceIn(src.polygon!, piece);
}

function centroid(points: readonly PointIn[]): PointIn {
  let x = 0, y = 0;
  for (const p of points) {
    x += p.xIn;
    y += p.yIn;
  }
  return { xIn: x / points.length, yIn: y / points.length };
}

/** A base prepared for sight-line tests: its corners, box and bounding circle. */
const sightStandOf = query(
  'wtdr/sight-stand',
  (ctx: WtdrContext, standId: string): SightStand => {
    const st = ctx.t.stand(standId)!;
    const corners = standCorners(st);
    return { id: st.id, unitId: st.unitId, corners, box: sightBoxOf(corners), cx: st.pose.xIn, cy: st.pose.yIn, radiusIn: Math.sqrt(st.widthIn * st.widthIn + st.depthIn * st.depthIn) / 2 };
  },
);

/** Bases of other units near the firer and the target: the only ones that can stand in a sight line between them. */
function blockersBetween(ctx: WtdrContext, firer: UnitInfo, target: UnitInfo): SightStand[] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of firer.hull.concat(target.hull)) {
    minX = Math.min(minX, p.xIn);
    minY = Math.min(minY, p.yIn);
    maxX = Math.max(maxX, p.xIn);
    maxY = Math.max(maxY, p.yIn);
  }
  const m = SIGHT_GAP_IN / 2;
  const out: SightStand[] = [];
  for (const st of ctx.t.standsIn({ minXIn: minX - m, minYIn: minY - m, maxXIn: maxX + m, maxYIn: maxY + m })) {
    // Leaders' bases do not block ("Leaders may not be targeted"; only units block).
    if (st.unitId === firer.unit.id || st.unitId === target.unit.id || !ctx.units.has(st.unitId)) continue;
    const s = ctx.t.get(sightStandOf, st.id);
    if (s.box.maxX >= minX - m && s.box.minX <= maxX + m && s.box.maxY >= minY - m && s.box.minY <= maxY + m) out.push(s);
  }
  return out;
}

function lineClear(ctx: WtdrContext, firer: UnitInfo, target: UnitInfo, blockers: readonly SightStand[], from: PointIn, to: PointIn): boolean {
  const report = lineOfSight(ctx.sight, from, to, { ignoreUnitIds: [firer.unit.id, target.unit.id] });
  let concealed = 0;
  for (const a of report.areas) if (AREA_CLASSES[a.kind].concealing) concealed += a.lengthInsideIn;
  if (concealed > SIGHT_INTO_WOODS_IN + 1e-9) return false;
  const { fromLevel, toLevel, maxLevelBetween } = report.elevation;
  if (maxLevelBetween > Math.max(fromLevel, toLevel)) return false;
  // The 2" gap: no other base within 1" of the line, unless fired over from a level above it and 2" clear of the target.
  const half = SIGHT_GAP_IN / 2;
  const minX = Math.min(from.xIn, to.xIn) - half, maxX = Math.max(from.xIn, to.xIn) + half;
  const minY = Math.min(from.yIn, to.yIn) - half, maxY = Math.max(from.yIn, to.yIn) + half;
  // Leaders' bases do not block ("Leaders may not be targeted"; only units block).
  for (const s of blockers) {
    if (s.box.maxX < minX || s.box.minX > maxX || s.box.maxY < minY || s.box.minY > maxY) continue;
    if (segmentToPolygonDistanceIn(from, to, s.corners) >= half) continue;
    const over = fromLevel >= elevationLevelAt({ xIn: s.cx, yIn: s.cy }, ctx.terrain) + 1;
    const clearOfTarget = Math.hypot(s.cx - to.xIn, s.cy - to.yIn) - s.radiusIn >= OVERHEAD_CLEAR_OF_TARGET_IN;
    if (!(over && clearOfTarget)) return false;
  }
  return true;
}

interface SourceResult {
  readonly src: FireSource;
  readonly rangeIn: number;
  readonly from: PointIn;
  readonly to: PointIn;
  readonly sight: boolean;
}

/** Range and sight from one source to the target; undefined when no part of the target is in its arc. */
function fromSource(ctx: WtdrContext, firer: UnitInfo, target: UnitInfo, src: FireSource, row: RangeRow, blockers: () => readonly SightStand[]): SourceResult | undefined {
  const pieces = inArc(ctx, src, target);
  if (pieces.length === 0) return undefined;
  let best: { d: number; piece: PointIn[] } | undefined;
  for (const piece of pieces) {
    const d = distanceFromSource(src, piece);
    if (!best || d < best.d) best = { d, piece };
  }
  const near = closestPointsBetweenPolygons(src.edge ? [...src.edge] : src.polygon!, best!.piece);
  const from = near.onA;
  const to = near.onB;
  if (best!.d > row.maxIn!) return { src, rangeIn: best!.d, from, to, sight: false };
  const starts = src.edge ? [src.edge[0], centroid(src.edge), src.edge[1], from] : [centroid(src.polygon!), from];
  const ends = [to, ...pieces.map(centroid)];
  let sight = false;
  const others = blockers();
  for (const a of starts) {
    for (const b of ends) {
      if (lineClear(ctx, firer, target, others, a, b)) {
        sight = true;
        break;
      }
    }
    if (sight) break;
  }
  return { src, rangeIn: best!.d, from, to, sight };
}

export interface FireResult {
  readonly fire: readonly (FireTargetOption | FireRefusal)[];
  readonly shapes: readonly Shape[];
}

function coverOf(ctx: WtdrContext, target: UnitInfo): 'none' | 'soft' | 'hard' {
  let cover: 'none' | 'soft' | 'hard' = 'none';
  for (const a of ctx.terrain.areas) {
    if (!pointInPolygon(target.centre, a.vertices)) continue;
    const c = AREA_CLASSES[a.kind].cover;
    if (c === 'hard' || (c === 'soft' && cover === 'none')) cover = c;
  }
  return cover;
}

function pointAt(p: PointIn, deg: number, distanceIn: number): PointIn {
  return { xIn: p.xIn + Math.cos((deg * Math.PI) / 180) * distanceIn, yIn: p.yIn + Math.sin((deg * Math.PI) / 180) * distanceIn };
}

function arcPolygon(src: FireSource, rangeIn: number): PointIn[] {
  if (!src.edge) return offsetConvexPolygon(src.polygon!, rangeIn, 3);
  const [a, b] = src.edge;
  const h = src.headingDeg;
  return [a, pointAt(a, h + 45, rangeIn), pointAt(a, h + 22.5, rangeIn), pointAt(a, h, rangeIn), pointAt(b, h, rangeIn), pointAt(b, h - 22.5, rangeIn), pointAt(b, h - 45, rangeIn), b];
}

/** What a unit's fire needs before any target: nothing (it cannot fire), a refusal for every enemy, or its sources. */
export type FirePlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'refuse'; readonly reason: string; readonly detail: string }
  | { readonly kind: 'fire'; readonly row: RangeRow & { maxIn: number; shortIn: number }; readonly sources: readonly FireSource[]; readonly cannon: boolean };

export function firePlan(ctx: WtdrContext, info: UnitInfo): FirePlan {
  const weapon = fireWeapon(info);
  if (weapon === null || info.stands.length === 0 || info.status === 'destroyed') return { kind: 'none' };
  const row = rangeRow(weapon);
  if (row.maxIn === null || row.shortIn === null) return { kind: 'none' };
  const engaged = engagedWith(ctx, info);
  if (info.formation.march || info.acted || engaged.length > 0) {
    const reason = engaged.length > 0 ? 'fire/in-combat' : info.formation.march ? 'fire/in-march-column' : 'fire/already-acted';
    const detail =
      engaged.length > 0
        ? `in contact with ${engaged.join(', ')}: only Melee, Retire or Regroup (Actions)`
        : info.formation.march
          ? 'units in March formation may only March, Rest/Regroup, Melee (Movement)'
          : 'the unit has acted this turn (Turn Sequence)';
    return { kind: 'refuse', reason, detail };
  }
  return { kind: 'fire', row: row as RangeRow & { maxIn: number; shortIn: number }, sources: fireSources(ctx, info), cannon: info.type!.family === 'artillery' };
}

function farDetail(row: RangeRow & { maxIn: number }, wholeInches: number): string {
  return `over ${wholeInches}" away; ${row.name} reach ${row.maxIn}" (${FIRE_SOURCE})`;
}

/** One target's answer and the arrow to draw for an option. */
export interface FirePair {
  readonly entry: FireTargetOption | FireRefusal;
  readonly line?: { readonly from: PointIn; readonly to: PointIn };
}

export function fireAtTarget(ctx: WtdrContext, info: UnitInfo, plan: FirePlan & { kind: 'fire' }, target: UnitInfo): FirePair {
  const { row, sources } = plan;
  const id = info.unit.id;
  const tid = target.unit.id;
  // Beyond the longest range at the nearest: no per-base work needed.
  const bound = gapLowerBoundIn(info, target);
  const gapIn = bound > row.maxIn ? bound : polygonToPolygonDistanceIn(info.hull, target.hull);
  if (gapIn > row.maxIn + 1e-9) {
    return { entry: { ok: false, reason: 'fire/out-of-range', detail: farDetail(row, Math.floor(gapIn)), targetUnitId: tid } };
  }
  const results: SourceResult[] = [];
  let near: readonly SightStand[] | undefined;
  const blockers = (): readonly SightStand[] => (near ??= blockersBetween(ctx, info, target));
  for (const s of sources) {
    const r = fromSource(ctx, info, target, s, row, blockers);
    if (r !== undefined) results.push(r);
  }
  const eligible = results.filter((r) => r.rangeIn <= row.maxIn + 1e-9 && r.sight && r.src.cap > 0);
  if (eligible.length === 0) {
    let entry: FireRefusal;
    if (results.length === 0) {
      const arc = info.type!.id === 'swedish-brigade' ? rulesetValue(FIRE_ARC_FIELD, info.unit.status?.rulesetStatus) : 'none';
      const oneArc = arc !== 'none' ? `; this turn the brigade fires only to its ${arc} arc (Formations: "one arc in any given turn")` : '';
      entry = { ok: false, reason: 'fire/out-of-arc', detail: `no part of the target within 45° of a firing base's front (${FIRE_SOURCE})${oneArc}`, targetUnitId: tid };
    }
    else if (results.every((r) => r.rangeIn > row.maxIn)) entry = { ok: false, reason: 'fire/out-of-range', detail: `${Math.min(...results.map((r) => r.rangeIn)).toFixed(1)}" in arc; ${row.name} reach ${row.maxIn}" (${FIRE_SOURCE})`, targetUnitId: tid };
    else entry = { ok: false, reason: 'fire/no-line-of-sight', detail: `no 2"-wide clear line, or more than 2" of woods, or a hill between (${FIRE_SOURCE})`, targetUnitId: tid };
    return { entry };
  }
  let firingBases: number;
  let standIds: string[];
  let chosen: SourceResult[];
  const family = info.type!.family;
  if (family === 'pike-and-shot') {
    // One face fires: the one with most bases allowed, then the nearest.
    const best = [...eligible].sort((a, b) => b.src.cap - a.src.cap || a.rangeIn - b.rangeIn)[0]!;
    chosen = [best];
    firingBases = best.src.cap;
    const edge = best.src.edge!;
    standIds = shotStands(info)
      .map((s) => ({ s, d: segmentToPolygonDistanceIn(edge[0], edge[1], info.corners[s.id]!) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, firingBases)
      .map((x) => x.s.id);
  } else if (family === 'swarm') {
    chosen = eligible;
    firingBases = info.basesNow;
    standIds = eligible.map((r) => r.src.id);
  } else {
    chosen = eligible;
    firingBases = eligible.length;
    standIds = eligible.map((r) => r.src.id);
  }
  const nearest = chosen.reduce((a, b) => (b.rangeIn < a.rangeIn ? b : a));
  const short = nearest.rangeIn <= row.shortIn + 1e-9;
  const ratio = forceRatio(firingBases, target.basesNow);
  const factors: ModifierFactor[] = [{ id: `fire-${ratio}`, label: `${FORCE_RATIO_LABELS[ratio]} (${firingBases} firing v ${target.basesNow} bases)`, section: FIRE_SOURCE }];
  if (short) factors.push({ id: 'fire-short-range', label: `Fire is at Short Range (≤${row.shortIn}")`, section: `${FIRE_SOURCE} (range table)` });
  if (info.status !== 'ok') factors.push({ id: 'fire-actor-disordered', label: 'Actor is Disordered/Demoralized', section: 'Actions (Fire)' });
  if (info.attachedLeaderId !== undefined) factors.push({ id: 'fire-leader-with-actor', label: 'Leader with Actor', section: 'Leaders and Command Control' });
  const cover = coverOf(ctx, target);
  if (cover !== 'none') factors.push({ id: cover === 'hard' ? 'fire-target-hard-cover' : 'fire-target-soft-cover', label: `Target in ${cover} cover (Cover/Ground)`, section: 'Movement (terrain: cover by scenario)' });
  const breakdown = modifierBreakdown(ctx, factors, `Fire dice of ${info.unit.name}`, id);
  const outcome: DiceModifier = { label: 'd6 each, firer − target: ≤0 none, 1-3 one level, 4-5 two, 6-7 three, 8+ destroyed', dice: 0, source: OUTCOME_SOURCE };
  const advancing = advancingFireLine(info);
  return {
    entry: {
      ok: true,
      targetUnitId: tid,
      eligibleStandIds: standIds,
      rangeIn: nearest.rangeIn,
      band: short ? `short (≤${row.shortIn}")` : `long (≤${row.maxIn}")`,
      breakdown: { ...breakdown, limits: advancing ? [outcome, advancing] : [outcome] },
      priority: false,
    },
    line: { from: nearest.from, to: nearest.to },
  };
}

/** The unit's arcs of fire out to `rangeIn` (each firing face or base, or all round for a swarm): convex polygons. */
export function fireArcPolygons(ctx: WtdrContext, info: UnitInfo, rangeIn: number): PointIn[][] {
  if (info.type?.family === 'swarm') return [arcPolygon({ id: 'swarm', polygon: info.hull, headingDeg: 0, standIds: [], cap: 1 }, rangeIn)];
  return fireSources(ctx, info)
    .filter((s) => s.cap > 0)
    .map((s) => arcPolygon(s, rangeIn));
}

/** The arcs a firing unit draws (depend on the unit alone). */
export function fireArcShapes(info: UnitInfo, plan: FirePlan & { kind: 'fire' }): Shape[] {
  const id = info.unit.id;
  // A swarm fires all round: one outline at the longest range around the whole swarm.
  const drawn = info.type!.family === 'swarm' ? [{ id: 'swarm', polygon: info.hull, headingDeg: 0, standIds: [], cap: 1 }] : plan.sources;
  return drawn
    .filter((s) => s.cap > 0)
    .map((s) => ({ id: `wtdr/${id}/fire/arc/${s.id}`, kind: 'polygon' as const, layer: 'fire' as const, style: plan.cannon ? ('arc-artillery' as const) : ('arc' as const), unitId: id, side: info.unit.side, vertices: arcPolygon(s, plan.row.maxIn) }));
}

/** The unit's fire list from its plan and per-target answers (in enemy order): priority marks, arcs and arrows. */
export function fireResult(info: UnitInfo, plan: FirePlan, enemyIds: readonly string[], pairs: readonly FirePair[], arcs: readonly Shape[]): FireResult {
  if (plan.kind === 'none') return { fire: [], shapes: [] };
  if (plan.kind === 'refuse') return { fire: enemyIds.map((targetUnitId) => ({ ok: false, reason: plan.reason, detail: plan.detail, targetUnitId })), shapes: [] };
  const id = info.unit.id;
  const side = info.unit.side;
  const fire: (FireTargetOption | FireRefusal)[] = pairs.map((p) => p.entry);
  // "closer targets must be preferred ... Cannon may select any valid Target for fire."
  if (!plan.cannon) {
    let min = Infinity;
    for (const f of fire) if (f.ok && f.rangeIn < min) min = f.rangeIn;
    for (let i = 0; i < fire.length; i++) {
      const f = fire[i]!;
      if (f.ok && f.rangeIn <= min + 1e-9) fire[i] = { ...f, priority: true };
    }
  }
  const shapes: Shape[] = [...arcs];
  for (let i = 0; i < pairs.length; i++) {
    const l = pairs[i]!.line;
    if (!l) continue;
    const f = fire[i]!;
    shapes.push({ id: `wtdr/${id}/fire/target/${f.targetUnitId}`, kind: 'polyline', layer: 'fire', style: f.ok && f.priority ? 'target-priority' : 'target', unitId: id, side, points: [l.from, l.to], arrow: true });
  }
  return { fire, shapes };
}
