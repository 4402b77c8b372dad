/**
 * A per-state context shared by every Devil to Pay part (formation, movement, fire, charge, rally, command):
 * units and stands by id, footprints, hits, sides and enemies, commanders, and lazily memoised per-unit
 * readings (formation, area terrain, elevation). Building it is O(stands); the lazy parts are computed once
 * on first use, so a part that never asks never pays.
 */
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
import { pointsBoundingBox } from '../../geometry/polygon.ts';
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
  readonly planes: Float64Array | undefined;
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
  let minXIn = Infinity, minYIn = Infinity, maxXIn = -Infinity, maxYIn = -Infinity;
  for (const b of boxes) {
    if (b.minXIn < minXIn) minXIn = b.minXIn;
    if (b.maxXIn > maxXIn) maxXIn = b.maxXIn;
    if (b.minYIn < minYIn) minYIn = b.minYIn;
    if (b.maxYIn > maxYIn) maxYIn = b.maxYIn;
  }
  return { minXIn, minYIn, maxXIn, maxYIn };
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
  const hitsOf = new Map<string, number>();
  for (const unit of state.units) {
    const hitsByStand = unit.status?.hitsByStand;
    if (hitsByStand) for (const standId in hitsByStand) hitsOf.set(standId, hitsByStand[standId]!);
  }
  const stands = new Map<string, StandInfo>();
  const reuse = options.reuseStand;
  for (let i = 0; i < state.stands.length; i++) {
    const stand = state.stands[i]!;
    // No hits anywhere (the usual table) needs no lookup per stand.
    const hits = hitsOf.size === 0 ? 0 : (hitsOf.get(stand.id) ?? 0);
    stands.set(stand.id, reuse?.(stand, hits, i) ?? standInfoOf(stand, hits));
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
  for (const unit of state.units) {
    const attachedCommanderId = unit.status?.attachedCommanderId ?? attachedByCommander.get(unit.id);
    const prev = previousUnits?.get(unit.id);
    if (prev !== undefined && unitInfoStillHolds(prev, unit, stands, attachedCommanderId)) {
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

  const elevationLevelAt = (p: PointIn): number => {
    let level = 0;
    for (const e of elevations) if (e.level > level && pointInPolygon(p, e.vertices)) level = e.level;
    return level;
  };

  const ctx: DtpContext = {
    state,
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
      for (const area of state.terrain.areas) {
        let inside = 0;
        for (const s of info.stands) if (pointInPolygon(s.center, area.vertices)) inside++;
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
