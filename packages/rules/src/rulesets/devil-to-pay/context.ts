/**
 * A per-state context shared by every Devil to Pay part (formation, movement, fire, charge, rally, command):
 * units and stands by id, footprints, hits, sides and enemies, commanders, and lazily memoised per-unit
 * readings (formation, area terrain, elevation). Building it is O(stands); the lazy parts are computed once
 * on first use, so a part that never asks never pays.
 */
import { memoSlots, type MemoSlots } from '../../engine/ownedMemo.ts';
import type { PointIn } from '../../model/units.ts';
import type {
  AreaTerrain,
  Arm,
  Commander,
  SideId,
  Stand,
  TableState,
  Unit,
} from '../../model/tableState.ts';
import { standCorners, type StandCorners } from '../../geometry/footprint.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { emptyBox, extendBox, pointsBoundingBox } from '../../geometry/polygon.ts';
import type { SightStand } from '../../geometry/lineOfSight.ts';
import type { PreparedWedge, Wedge } from '../../geometry/wedge.ts';
import { recognizeFormation, type DtpFormationReading } from './formation.ts';
import { hypot2 } from '../../geometry/hypot.ts';

/** Axis-aligned bounding box, inches. */
export interface BoxIn {
  readonly minXIn: number;
  readonly minYIn: number;
  readonly maxXIn: number;
  readonly maxYIn: number;
}

export interface StandInfo {
  readonly stand: Stand;
  /** [frontLeft, frontRight, rearRight, rearLeft], inches. */
  readonly corners: StandCorners;
  readonly center: PointIn;
  readonly box: BoxIn;
  /** Hits on this stand (0 or 1 on the table). */
  readonly hits: number;
  /** The stand as sight lines see it (same corners), for fire's sight scenes. */
  readonly sight: SightStand;
  /** Fire's memo of this stand's arc (fire.ts), filled on first use; survives with the info in a session. */
  arcMemo: FireArcMemo | undefined;
}

/** A stand's arc of fire for its unit's arm, with what the arc tests need prepared once. */
export interface FireArcMemo {
  readonly arm: Arm;
  readonly wedge: Wedge;
  /** Bounding half-planes for a cheap reject (fire.ts `arcHalfPlanes`), when sound. */
  readonly planes: readonly number[] | undefined;
  readonly prepared: PreparedWedge;
  /** The stand's facing as a unit vector (headingToVector's numbers) and its front edge's place along it. */
  readonly facingX: number;
  readonly facingY: number;
  readonly frontAt: number;
}

export interface UnitInfo {
  readonly unit: Unit;
  /** The unit's stands that are on the table, in `unit.standIds` order. */
  readonly stands: readonly StandInfo[];
  /** The colour (command) stand: role 'command', else the first stand. Undefined for a unit with no stands. */
  readonly command: StandInfo | undefined;
  /** Bounding box of all the unit's stands. */
  readonly box: BoxIn;
  /** Commander attached to this unit (from the unit's status or the commander's `attachedToUnitId`). */
  readonly attachedCommanderId: string | undefined;
}

export interface CommanderInfo {
  readonly commander: Commander;
  /** The commander's own stand, if on the table. */
  readonly stand: StandInfo | undefined;
}

/** Recognises a unit's formation from its stands on the table (`recognizeFormation` by default). */
export type FormationRecognizer = (unit: Unit, stands: readonly Stand[]) => DtpFormationReading;

export interface DtpContext {
  readonly state: TableState;
  /**
   * Built by a session from the last state's context (`previousUnits` given): unchanged units keep their
   * unit info objects, so a per-context cache of what depends on a unit info alone may carry over
   * (movement's piece buffer, `obstacleBuffer.ts`).
   */
  readonly incremental: boolean;
  readonly units: ReadonlyMap<string, UnitInfo>;
  readonly stands: ReadonlyMap<string, StandInfo>;
  readonly commanders: ReadonlyMap<string, CommanderInfo>;
  /** Units per side, in state order. */
  readonly unitsBySide: ReadonlyMap<SideId, readonly UnitInfo[]>;
  /** Every side present (units or commanders), in order of first appearance. */
  readonly sides: readonly SideId[];
  /** Units of every other side. */
  enemiesOf(unitId: string): readonly UnitInfo[];
  /** Formation reading (with front rank, mounted, limbered), memoised. */
  formationOf(unitId: string): DtpFormationReading;
  /** Area terrain the unit is in: the one holding most of its stand centres ("Area Terrain", Fire p. 22). */
  areaOf(unitId: string): AreaTerrain | undefined;
  /** Elevation level of a point: the highest elevation containing it, 0 outside all. */
  elevationLevelAt(p: PointIn): number;
  /** Elevation level of a unit: the level most of its stand centres are on (ties go to the lower). */
  elevationOf(unitId: string): number;
  /** The brigade commander of a brigade id, if any. */
  commanderOfBrigade(brigadeId: string): CommanderInfo | undefined;
  /** Mounted cavalry (from the formation reading). */
  isMounted(unitId: string): boolean;
  /** Limbered artillery (from the formation reading). */
  isLimbered(unitId: string): boolean;
  /** What fire and movement derive from this context (firing stands, movement's piece cache), kept on it. */
  readonly memos: MemoSlots;
}

/** Throws with an actionable message when a unit id is not in the state. */
function need<T>(map: ReadonlyMap<string, T>, id: string, what: string): T {
  const v = map.get(id);
  if (v === undefined) throw new Error(`Devil to Pay context: no ${what} with id '${id}' in the table state`);
  return v;
}

const boxOfPoints = pointsBoundingBox;

/** Union of boxes; an empty list gives an inverted (empty) box. */
export function unionBoxes(boxes: readonly BoxIn[]): BoxIn {
  const acc = emptyBox();
  for (const b of boxes) extendBox(acc, b);
  return acc;
}

/** Gap between two boxes, inches (0 when they overlap): a cheap lower bound on any distance between contents. */
export function boxGapIn(a: BoxIn, b: BoxIn): number {
  let dx = a.minXIn - b.maxXIn;
  const dx2 = b.minXIn - a.maxXIn;
  if (dx2 > dx) dx = dx2;
  let dy = a.minYIn - b.maxYIn;
  const dy2 = b.minYIn - a.maxYIn;
  if (dy2 > dy) dy = dy2;
  if (dx !== dx || dy !== dy) return NaN; // as Math.max/hypot would
  // Overlap on one axis: hypot(0, d) is exactly d, so skip the (slow) hypot.
  if (!(dx > 0)) return dy > 0 ? dy : 0;
  if (!(dy > 0)) return dx;
  return hypot2(dx, dy);
}

/**
 * `boxGapIn(a, b) > limitIn`, with the cheap per-axis test first (hypot is never below either axis gap).
 */
export function boxGapExceeds(a: BoxIn, b: BoxIn, limitIn: number): boolean {
  if (a.minXIn - b.maxXIn > limitIn || b.minXIn - a.maxXIn > limitIn || a.minYIn - b.maxYIn > limitIn || b.minYIn - a.maxYIn > limitIn) return true;
  return boxGapIn(a, b) > limitIn;
}

/** Builds a stand's derived info. Exported so a session can reuse it for unchanged stands. */
export function standInfoOf(stand: Stand, hits: number): StandInfo {
  const corners = standCorners(stand);
  const box = boxOfPoints(corners);
  const sight: SightStand = {
    id: stand.id,
    unitId: stand.unitId,
    corners,
    box: { minX: box.minXIn, minY: box.minYIn, maxX: box.maxXIn, maxY: box.maxYIn },
    cx: stand.pose.xIn,
    cy: stand.pose.yIn,
    radiusIn: Math.sqrt(stand.widthIn * stand.widthIn + stand.depthIn * stand.depthIn) / 2,
  };
  return { stand, corners, center: { xIn: stand.pose.xIn, yIn: stand.pose.yIn }, box, hits, sight, arcMemo: undefined };
}

/**
 * A polygon's bounding box for a cheap reject before `pointInPolygon` (undefined when a vertex is not a
 * finite number: then every point is tested). It gives exactly pointInPolygon's answer: a point above or
 * below the box has no edge straddling its row; one left or right of it by more than the slack has every
 * straddling edge's crossing on one side, and a closed polygon has an even number of them.
 */
interface PolygonRejectBox {
  readonly minXIn: number;
  readonly minYIn: number;
  readonly maxXIn: number;
  readonly maxYIn: number;
}

/** Far beyond the rounding of pointInPolygon's edge crossing (coordinates of a few hundred inches). */
const REJECT_SLACK_IN = 1e-6;

function polygonRejectBox(vertices: readonly PointIn[]): PolygonRejectBox | undefined {
  for (const v of vertices) if (!Number.isFinite(v.xIn) || !Number.isFinite(v.yIn)) return undefined;
  return boxOfPoints(vertices);
}

/** False only when `pointInPolygon(p, polygon)` is false for the polygon whose reject box this is. */
function mayContain(box: PolygonRejectBox | undefined, p: PointIn): boolean {
  return box === undefined || !(p.yIn < box.minYIn || p.yIn > box.maxYIn || p.xIn < box.minXIn - REJECT_SLACK_IN || p.xIn > box.maxXIn + REJECT_SLACK_IN);
}

/** The reading for a unit with no stands on the table: nothing to recognise, nothing can act. */
function noStandsReading(unit: Unit): DtpFormationReading {
  return {
    formation: unit.status?.formation ?? 'unknown',
    confidence: unit.status?.formation ? 1 : 0,
    source: unit.status?.formation ? 'status' : 'geometry',
    mounted: false,
    dismounted: false,
    headingDeg: 0,
    referenceStandId: '',
    frontRankStandIds: [],
  };
}

export interface BuildContextOptions {
  /** How formations are recognised; default `recognizeFormation` (sessions wrap it with a cache). */
  readonly recognizeFormation?: FormationRecognizer;
  /**
   * A reading already known for the unit (a session's, for a unit that did not change), asked before
   * `recognizeFormation`: spares listing the unit's stands for it.
   */
  readonly knownFormation?: (unitId: string) => DtpFormationReading | undefined;
  /**
   * Stand infos to reuse when the stand object and its hits are unchanged (sessions). `index` is the stand's
   * place in `state.stands`: a session can try the info it made for the same place last time before any
   * lookup by id.
   */
  readonly reuseStand?: (stand: Stand, hits: number, index: number) => StandInfo | undefined;
  /**
   * A session's unit infos from the last state: one is kept (the same object) when its unit object, its
   * stand infos in `standIds` order and its attached commander are all the same ones, which is everything
   * a unit info is made from.
   */
  readonly previousUnits?: ReadonlyMap<string, UnitInfo>;
  /**
   * The state's stand infos by id, ready made by a session (what `reuseStand` would have handed out for
   * every stand, under the same ids in the same order): the stands are then not listed here.
   */
  readonly standInfos?: ReadonlyMap<string, StandInfo>;
  /**
   * With `standInfos`: whether one of the unit's stands may have changed. A unit it says no for keeps its
   * `previousUnits` info (same unit object and attached commander) without its stands being looked up.
   */
  readonly unitMayHaveChanged?: (unit: Unit) => boolean;
}

/** Hits per stand id from the units' status, as every context reads them (a later unit's entry wins). */
export function standHitsOf(state: TableState): ReadonlyMap<string, number> {
  const hitsOf = new Map<string, number>();
  for (const unit of state.units) {
    const hitsByStand = unit.status?.hitsByStand;
    if (hitsByStand) for (const standId in hitsByStand) hitsOf.set(standId, hitsByStand[standId]!);
  }
  return hitsOf;
}

/** Whether `prev` is exactly the info `buildContext` would make for `unit` from `stands` (no allocation). */
function unitInfoStillHolds(prev: UnitInfo, unit: Unit, stands: ReadonlyMap<string, StandInfo>, attachedCommanderId: string | undefined): boolean {
  if (prev.unit !== unit || prev.attachedCommanderId !== attachedCommanderId) return false;
  let k = 0;
  for (const id of unit.standIds) {
    const s = stands.get(id);
    if (s === undefined) continue;
    if (prev.stands[k] !== s) return false;
    k++;
  }
  return k === prev.stands.length;
}

/**
 * Builds the context for one table state. Throws when the state references stands that do not exist,
 * because every part below relies on those links.
 */
export function buildContext(state: TableState, options: BuildContextOptions = {}): DtpContext {
  const recognize = options.recognizeFormation ?? recognizeFormation;
  const known = options.knownFormation;
  let stands: ReadonlyMap<string, StandInfo>;
  if (options.standInfos !== undefined) stands = options.standInfos;
  else {
    const hitsOf = standHitsOf(state);
    const built = new Map<string, StandInfo>();
    const reuse = options.reuseStand;
    for (let i = 0; i < state.stands.length; i++) {
      const stand = state.stands[i]!;
      // No hits anywhere (the usual table) needs no lookup per stand.
      const hits = hitsOf.size === 0 ? 0 : (hitsOf.get(stand.id) ?? 0);
      built.set(stand.id, reuse?.(stand, hits, i) ?? standInfoOf(stand, hits));
    }
    stands = built;
  }

  const attachedByCommander = new Map<string, string>();
  for (const c of state.commanders) if (c.attachedToUnitId) attachedByCommander.set(c.attachedToUnitId, c.id);

  const units = new Map<string, UnitInfo>();
  const unitsBySide = new Map<SideId, UnitInfo[]>();
  const sides: SideId[] = [];
  const addSide = (side: SideId): void => {
    if (!unitsBySide.has(side)) {
      unitsBySide.set(side, []);
      sides.push(side);
    }
  };
  const previousUnits = options.previousUnits;
  const mayHaveChanged = options.standInfos !== undefined ? options.unitMayHaveChanged : undefined;
  for (const unit of state.units) {
    const attachedCommanderId = unit.status?.attachedCommanderId ?? attachedByCommander.get(unit.id);
    const prev = previousUnits?.get(unit.id);
    // A session that knows which units' stands changed vouches for the others' stand infos.
    const kept =
      prev !== undefined &&
      (mayHaveChanged !== undefined && !mayHaveChanged(unit)
        ? prev.unit === unit && prev.attachedCommanderId === attachedCommanderId
        : unitInfoStillHolds(prev, unit, stands, attachedCommanderId));
    if (kept) {
      units.set(unit.id, prev);
      addSide(unit.side);
      unitsBySide.get(unit.side)!.push(prev);
      continue;
    }
    const own: StandInfo[] = [];
    for (const id of unit.standIds) {
      const s = stands.get(id);
      if (s) own.push(s); // a stand id without a stand is off the table (removed or not seen)
    }
    const command = own.find((s) => s.stand.role === 'command') ?? own[0];
    const info: UnitInfo = {
      unit,
      stands: own,
      command,
      box: unionBoxes(own.map((s) => s.box)),
      attachedCommanderId,
    };
    units.set(unit.id, info);
    addSide(unit.side);
    unitsBySide.get(unit.side)!.push(info);
  }

  const commanders = new Map<string, CommanderInfo>();
  const commanderByBrigade = new Map<string, CommanderInfo>();
  for (const commander of state.commanders) {
    const ci: CommanderInfo = { commander, stand: commander.standId ? stands.get(commander.standId) : undefined };
    commanders.set(commander.id, ci);
    if (!commanderByBrigade.has(commander.brigadeId)) commanderByBrigade.set(commander.brigadeId, ci);
    addSide(commander.side);
  }

  const enemiesBySide = new Map<SideId, UnitInfo[]>();
  for (const side of sides) {
    const list: UnitInfo[] = [];
    unitsBySide.forEach((us, other) => {
      if (other !== side) list.push(...us);
    });
    enemiesBySide.set(side, list);
  }

  const formations = new Map<string, DtpFormationReading>();
  const areas = new Map<string, AreaTerrain | undefined>();
  const levels = new Map<string, number>();
  const elevations = state.terrain.elevations;

  // Boxes of the elevations and areas, made on first use: most points asked about are outside most of them.
  let elevationBoxes: (PolygonRejectBox | undefined)[] | undefined;
  let areaBoxes: (PolygonRejectBox | undefined)[] | undefined;
  const elevationLevelAt = (p: PointIn): number => {
    const boxes = (elevationBoxes ??= elevations.map((e) => polygonRejectBox(e.vertices)));
    let level = 0;
    for (let i = 0; i < elevations.length; i++) {
      const e = elevations[i]!;
      if (e.level > level && mayContain(boxes[i], p) && pointInPolygon(p, e.vertices)) level = e.level;
    }
    return level;
  };

  const ctx: DtpContext = {
    state,
    incremental: previousUnits !== undefined,
    memos: memoSlots(),
    units,
    stands,
    commanders,
    unitsBySide,
    sides,
    enemiesOf: (unitId) => enemiesBySide.get(need(units, unitId, 'unit').unit.side) ?? [],
    formationOf(unitId) {
      let f = formations.get(unitId);
      if (!f) {
        f = known?.(unitId);
        if (!f) {
          const info = need(units, unitId, 'unit');
          f = info.stands.length === 0 ? noStandsReading(info.unit) : recognize(info.unit, info.stands.map((s) => s.stand));
        }
        formations.set(unitId, f);
      }
      return f;
    },
    areaOf(unitId) {
      if (areas.has(unitId)) return areas.get(unitId);
      const info = need(units, unitId, 'unit');
      let found: AreaTerrain | undefined;
      const areaList = state.terrain.areas;
      const boxes = (areaBoxes ??= areaList.map((a) => polygonRejectBox(a.vertices)));
      for (let i = 0; i < areaList.length; i++) {
        const area = areaList[i]!;
        const box = boxes[i];
        let inside = 0;
        for (const s of info.stands) if (mayContain(box, s.center) && pointInPolygon(s.center, area.vertices)) inside++;
        // "Most of its stands": a strict majority.
        if (inside * 2 > info.stands.length) {
          found = area;
          break;
        }
      }
      areas.set(unitId, found);
      return found;
    },
    elevationLevelAt,
    elevationOf(unitId) {
      const cached = levels.get(unitId);
      if (cached !== undefined) return cached;
      const info = need(units, unitId, 'unit');
      const counts = new Map<number, number>();
      for (const s of info.stands) {
        const l = elevationLevelAt(s.center);
        counts.set(l, (counts.get(l) ?? 0) + 1);
      }
      let best = 0, bestCount = -1;
      for (const [l, c] of [...counts].sort((a, b) => a[0] - b[0])) {
        if (c > bestCount) {
          best = l;
          bestCount = c;
        }
      }
      levels.set(unitId, best);
      return best;
    },
    commanderOfBrigade: (brigadeId) => commanderByBrigade.get(brigadeId),
    isMounted: (unitId) => ctx.formationOf(unitId).mounted,
    isLimbered: (unitId) => ctx.formationOf(unitId).limbered === true,
  };
  return ctx;
}
