/**
 * Per-state facts every rule area reads: each unit's fields and markers, each stand's type (from its role,
 * its unit's troop type and its footprint), footprints, the sight scene and the parameters.
 */
import { appendAll } from '../../engine/appendAll.ts';
import type { EvaluationWarning } from '../../engine/evaluation.ts';
import { rulesetValue } from '../../engine/rulesetFields.ts';
import type { PointIn } from '../../model/units.ts';
import type { Commander, Stand, TableState, Unit } from '../../model/tableState.ts';
import { standCenter, standCorners } from '../../geometry/footprint.ts';
import { boundingBox, emptyBox, extendBox, offsetConvexPolygon, type BoundingBoxIn } from '../../geometry/polygon.ts';
import {
  ABILITIES_FIELD,
  MORALE_FIELD,
  PERMANENT_DISORDER_STATUS,
  ROAD_MARCH_STATUS,
  ROUTED_STATUS,
  SKIRMISH_STATUS,
  SP_LOST_STATUS,
  STATIONARY_STATUS,
  STRENGTH_FIELD,
  TROOP_TYPE_FIELD,
  HITS_THIS_PHASE_STATUS,
  WING_FIELD,
  ARMY_COMMANDER_BRIGADE,
  WING_COMMANDER_PREFIX,
  type Ability,
  type TroopType,
} from './declarations.ts';
import { FOOTPRINT_TOLERANCE_IN, STAND_SIZES, type StandType } from './tables/standTypes.ts';
import { AREA_KIND_CLASS } from './tables/terrain.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import type { SightStand } from '../../geometry/lineOfSight.ts';
import { identityMemo } from '../../engine/identityMemo.ts';
import { memoSlots, type MemoSlots } from '../../engine/ownedMemo.ts';

export type UnitCategory = 'infantry' | 'cavalry' | 'artillery' | 'transport';

export const TROOP_CATEGORY: Readonly<Record<TroopType, UnitCategory>> = {
  'slow-infantry': 'infantry',
  'fast-infantry': 'infantry',
  'light-cavalry': 'cavalry',
  'light-artillery': 'artillery',
  'field-artillery': 'artillery',
  'field-howitzer': 'artillery',
  'heavy-artillery': 'artillery',
  'pack-transport': 'transport',
  'wheeled-transport': 'transport',
};

/** A stand type of the Stand Size table, or transport (the supplement gives no transport base). */
export type VbStandType = StandType | 'transport';

export interface VbStand {
  readonly stand: Stand;
  readonly type: VbStandType;
  /** True when the base is the printed size of its type (within FOOTPRINT_TOLERANCE_IN). */
  readonly footprintOk: boolean;
  readonly corners: readonly PointIn[];
  readonly center: PointIn;
  readonly box: BoundingBoxIn;
  readonly side: string;
  /** Owning unit, or undefined for a superior commander's own stand. */
  readonly unitId?: string;
  /** Owning commander (a commanders[] entry), for a superior commander's stand. */
  readonly commanderId?: string;
  /**
   * Its centre is in a forest, thicket or swamp, where non-skirmish stands "may not go stationary or recover
   * from disorder" (Terrain Effects, p. 3).
   */
  readonly inForest: boolean;
  /**
   * Derived from the stand alone, made on first use and kept on it (a stand object never changes, and the
   * session hands unchanged ones on to the next state): its sight stand and, for a gun, the stands that
   * last blocked its lines (fire/sight.ts), and its base grown by each size asked (`VbContext.grown`).
   * Fields, not weak maps: a weak map's look-up and insert cost more than the little they save here.
   */
  sightStand: SightStand | undefined;
  gunBlockers: number[] | undefined;
  grownBySize: Map<number, Blocker> | undefined;
}

export interface VbUnit {
  readonly unit: Unit;
  readonly troopType?: TroopType;
  readonly category: UnitCategory;
  readonly morale?: number;
  readonly strengthPoints?: number;
  readonly abilities: ReadonlySet<Ability>;
  readonly stationary: boolean;
  readonly roadMarch: boolean;
  readonly skirmishOrder: boolean;
  /** Yellow marker (`status.disordered`), or always for militia (MIL: permanently disordered). */
  readonly disordered: boolean;
  readonly permanentlyDisordered: boolean;
  readonly routed: boolean;
  readonly poorlyTrained: boolean;
  /** The wing it was assigned to at the start of the game (unit field `wing`), if any. */
  readonly wing?: number;
  readonly spLost: number;
  readonly hitsThisPhase: number;
  readonly stands: readonly VbStand[];
  /** Stands that fight: not commanders, not road-march spacers. */
  readonly combatStands: readonly VbStand[];
  /** The box around the combat stands (empty, min above max, when there are none): a unit-wide reject. */
  readonly combatBox: BoundingBoxIn;
  /**
   * Fire's "out of range" answer at this unit per longest range of the firers (fire/fire.ts), made on
   * first use and kept on the unit read (the same plain data for every firing unit that far away). Typed
   * loosely here: the context may not import fire (no import circles).
   */
  outOfRangeAnswers: Map<number, unknown> | undefined;
  readonly unitCommanders: readonly VbStand[];
  readonly spacers: readonly VbStand[];
}

export interface VbCommander {
  readonly commander: Commander;
  readonly stand?: VbStand;
}

export interface VbContext {
  readonly state: TableState;
  readonly units: ReadonlyMap<string, VbUnit>;
  /** The same units as a list, in the state's order (the loops over every unit read this). */
  readonly unitList: readonly VbUnit[];
  readonly commanders: readonly VbCommander[];
  /** Every stand on the table (units' and commanders'). */
  readonly allStands: readonly VbStand[];
  readonly standById: ReadonlyMap<string, VbStand>;
  /** Each unit as read, with the warnings its reading gave (the session reuses unchanged ones). */
  readonly readings: ReadonlyMap<string, UnitReading>;
  /** Problems found while reading the state (missing fields, odd bases), one per unit or stand. */
  readonly warnings: readonly EvaluationWarning[];
  /**
   * A stand's base grown by `growIn` (where another base's centre may not go), with its box; computed once
   * per stand object and size (unchanged stands keep theirs across the session's states).
   */
  grown(s: VbStand, growIn: number): Blocker;
  /** What fire and movement derive from this context (its sight scene, enemies by side), kept on it. */
  readonly memos: MemoSlots;
}

export interface Blocker {
  readonly polygon: readonly PointIn[];
  readonly box: BoundingBoxIn;
  readonly unitId?: string;
}

function fits(stand: Stand, type: StandType): boolean {
  const s = STAND_SIZES[type];
  return Math.abs(stand.widthIn - s.widthIn) <= FOOTPRINT_TOLERANCE_IN && Math.abs(stand.depthIn - s.depthIn) <= FOOTPRINT_TOLERANCE_IN;
}

/**
 * A stand's type: its role first (commanders, spacers), then its unit's category and its footprint. Command
 * and detachment bases are both 1.5" square, and infantry and infantry skirmisher bases both 3 x 1.5": the
 * role ('command' = a unit commander) and the unit's skirmish-order marker tell them apart.
 */
export function classifyStand(stand: Stand, category: UnitCategory, skirmishOrder: boolean): { type: VbStandType; footprintOk: boolean } {
  const typed = (type: StandType): { type: VbStandType; footprintOk: boolean } => ({ type, footprintOk: fits(stand, type) });
  if (stand.role === 'commander' || stand.role === 'command') return typed('command');
  if (stand.role === 'limber') return typed('road-march-spacer');
  if (fits(stand, 'mounted-skirmisher') && category !== 'artillery') return typed('mounted-skirmisher');
  switch (category) {
    case 'artillery':
      return typed('artillery');
    case 'transport':
      return { type: 'transport', footprintOk: true };
    case 'cavalry':
      if (stand.role === 'dismounted' || fits(stand, 'detachment')) return typed('detachment');
      return typed('mounted');
    case 'infantry':
      if (stand.role === 'mounted') return typed('mounted');
      if (fits(stand, 'detachment')) return typed('detachment');
      return typed(skirmishOrder ? 'infantry-skirmisher' : 'infantry');
  }
}

/** The forests, thickets and swamps of a terrain's areas list, with their boxes (a state's terrain never changes). */
const forests = identityMemo((areas: TableState['terrain']['areas']) =>
  areas.filter((a) => AREA_KIND_CLASS[a.kind] === 'forest-thicket-swamp').map((a) => ({ vertices: a.vertices, box: boundingBox(a.vertices) })),
);

function vbStand(state: TableState, stand: Stand, type: VbStandType, footprintOk: boolean, side: string, owner: { unitId?: string; commanderId?: string }): VbStand {
  const corners = standCorners(stand);
  const center = standCenter(stand);
  let inForest = false;
  for (const f of forests.get(state.terrain.areas)) {
    const b = f.box;
    if (center.xIn >= b.minXIn && center.xIn <= b.maxXIn && center.yIn >= b.minYIn && center.yIn <= b.maxYIn && pointInPolygon(center, f.vertices)) {
      inForest = true;
      break;
    }
  }
  // Written out, not spread: one object shape per owner kind (this runs for every stand of a full evaluation).
  const box = boundingBox(corners);
  if (owner.unitId !== undefined) return { stand, type, footprintOk, corners, center, box, side, unitId: owner.unitId, inForest, sightStand: undefined, gunBlockers: undefined, grownBySize: undefined };
  if (owner.commanderId !== undefined) return { stand, type, footprintOk, corners, center, box, side, commanderId: owner.commanderId, inForest, sightStand: undefined, gunBlockers: undefined, grownBySize: undefined };
  return { stand, type, footprintOk, corners, center, box, side, inForest, sightStand: undefined, gunBlockers: undefined, grownBySize: undefined };
}

const bool = (u: Unit, spec: typeof STATIONARY_STATUS): boolean => rulesetValue(spec, u.status?.rulesetStatus) === true;
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** One unit read from the state, with the warnings its reading gave. */
export interface UnitReading {
  readonly info: VbUnit;
  readonly warnings: readonly EvaluationWarning[];
}

/** Reads one unit: its fields and markers, its stands' types and footprints. */
export function readUnit(state: TableState, u: Unit, standById: ReadonlyMap<string, Stand>): UnitReading {
  const warnings: EvaluationWarning[] = [];
  const troopType = rulesetValue(TROOP_TYPE_FIELD, u.rulesetFields) as TroopType | undefined;
  if (troopType === undefined) {
    warnings.push({ code: 'unit/no-troop-type', message: `${u.name}: no troop-type in rulesetFields; movement, fire and melee need it.`, unitId: u.id });
  }
  const category: UnitCategory = troopType ? TROOP_CATEGORY[troopType] : u.arm;
  const abilities = new Set((rulesetValue(ABILITIES_FIELD, u.rulesetFields) as readonly Ability[] | undefined) ?? []);
  const skirmishOrder = bool(u, SKIRMISH_STATUS);
  const militia = abilities.has('MIL');
  const permanentlyDisordered = militia || bool(u, PERMANENT_DISORDER_STATUS);
  const routed = bool(u, ROUTED_STATUS);
  const stands: VbStand[] = [];
  for (const id of u.standIds) {
    const s = standById.get(id);
    if (!s) continue;
    const { type, footprintOk } = classifyStand(s, category, skirmishOrder);
    const vs = vbStand(state, s, type, footprintOk, u.side, { unitId: u.id });
    if (!footprintOk && type !== 'transport') {
      const size = STAND_SIZES[type as StandType];
      warnings.push({
        code: 'stand/footprint',
        message: `${u.name}: stand ${s.id} is ${s.widthIn} x ${s.depthIn}", read as ${size.label} (${size.widthIn} x ${size.depthIn}", ${size.source}).`,
        unitId: u.id,
      });
    }
    stands.push(vs);
  }
  const combatStands = stands.filter((s) => s.type !== 'command' && s.type !== 'road-march-spacer');
  const combatBox = emptyBox();
  for (const s of combatStands) extendBox(combatBox, s.box);
  const info: VbUnit = {
    unit: u,
    ...(troopType !== undefined ? { troopType } : {}),
    category,
    ...(num(rulesetValue(MORALE_FIELD, u.rulesetFields)) !== undefined ? { morale: num(rulesetValue(MORALE_FIELD, u.rulesetFields))! } : {}),
    ...(num(rulesetValue(STRENGTH_FIELD, u.rulesetFields)) !== undefined ? { strengthPoints: num(rulesetValue(STRENGTH_FIELD, u.rulesetFields))! } : {}),
    abilities,
    stationary: bool(u, STATIONARY_STATUS),
    roadMarch: bool(u, ROAD_MARCH_STATUS) || stands.some((s) => s.type === 'road-march-spacer') || u.status?.limbered === true || u.status?.formation === 'march-column',
    skirmishOrder: skirmishOrder || stands.some((s) => s.type === 'mounted-skirmisher'),
    disordered: permanentlyDisordered || routed || u.status?.disordered === true,
    permanentlyDisordered,
    routed,
    poorlyTrained: militia || abilities.has('PT'),
    ...(num(rulesetValue(WING_FIELD, u.rulesetFields)) !== undefined ? { wing: num(rulesetValue(WING_FIELD, u.rulesetFields))! } : {}),
    spLost: num(rulesetValue(SP_LOST_STATUS, u.status?.rulesetStatus)) ?? 0,
    hitsThisPhase: num(rulesetValue(HITS_THIS_PHASE_STATUS, u.status?.rulesetStatus)) ?? 0,
    stands,
    combatStands,
    combatBox,
    outOfRangeAnswers: undefined,
    unitCommanders: stands.filter((s) => s.type === 'command'),
    spacers: stands.filter((s) => s.type === 'road-march-spacer'),
  };
  return { info, warnings };
}

/**
 * The context of a state. `reuse` may hand back a unit read from an earlier state of the same terrain and
 * parameters when the unit and its stands are unchanged (the incremental session does), so only changed
 * units are read again.
 */
export function buildContext(state: TableState, reuse?: (u: Unit) => UnitReading | undefined): VbContext {
  // Every stand by id, built only when a unit is read afresh (a session's update reads few or none).
  let stateStandById: Map<string, Stand> | undefined;
  const warnings: EvaluationWarning[] = [];
  const units = new Map<string, VbUnit>();
  const readings = new Map<string, UnitReading>();
  const allStands: VbStand[] = [];
  for (const u of state.units) {
    const reading = reuse?.(u) ?? readUnit(state, u, (stateStandById ??= standsById(state.stands)));
    readings.set(u.id, reading);
    appendAll(warnings, reading.warnings);
    units.set(u.id, reading.info);
    appendAll(allStands, reading.info.stands);
  }
  const commanders: VbCommander[] = [];
  for (const c of state.commanders) {
    const s = c.standId !== undefined ? (stateStandById ?? commanderStands(state))?.get(c.standId) : undefined;
    if (!s) {
      commanders.push({ commander: c });
      continue;
    }
    const vs = vbStand(state, s, 'command', fits(s, 'command'), c.side, { commanderId: c.id });
    allStands.push(vs);
    commanders.push({ commander: c, stand: vs });
  }
  const standById = new Map<string, VbStand>();
  for (const s of allStands) standById.set(s.stand.id, s);
  return { state, units, unitList: [...units.values()], readings, commanders, allStands, standById, warnings, grown, memos: memoSlots() };
}

function standsById(stands: readonly Stand[]): Map<string, Stand> {
  const byId = new Map<string, Stand>();
  for (const s of stands) byId.set(s.id, s);
  return byId;
}

/** The commanders' stands by id (one pass over the stands, no map of every stand), once per state. */
const COMMANDER_STANDS = new WeakMap<TableState, Map<string, Stand>>();

function commanderStands(state: TableState): Map<string, Stand> {
  let byId = COMMANDER_STANDS.get(state);
  if (!byId) {
    const wanted = new Set<string>();
    for (const c of state.commanders) if (c.standId !== undefined) wanted.add(c.standId);
    byId = new Map();
    for (const s of state.stands) if (wanted.has(s.id)) byId.set(s.id, s);
    COMMANDER_STANDS.set(state, byId);
  }
  return byId;
}

/** A stand's base grown by `growIn`, built once per stand object and size (kept on the stand: see `grownBySize`). */
function grown(s: VbStand, growIn: number): Blocker {
  const bySize = (s.grownBySize ??= new Map());
  let hit = bySize.get(growIn);
  if (!hit) {
    const polygon = offsetConvexPolygon(s.corners, growIn, 2);
    hit = { polygon, box: boundingBox(polygon), ...(s.unitId !== undefined ? { unitId: s.unitId } : {}) };
    bySize.set(growIn, hit);
  }
  return hit;
}

/**
 * Whether superior commander `c` is superior to the unit (Command and Control, p. 1): its brigade's
 * commander, a commander attached to it, the Army Commander of its side (`brigadeId` "army") or the Wing
 * Commander of its wing (`brigadeId` "wing-<n>" for units whose `wing` is n).
 */
export function superiorTo(c: Commander, info: VbUnit): boolean {
  const u = info.unit;
  if (c.side !== u.side) return false;
  if (u.brigadeId !== undefined && c.brigadeId === u.brigadeId) return true;
  if (c.attachedToUnitId === u.id || u.status?.attachedCommanderId === c.id) return true;
  if (c.brigadeId === ARMY_COMMANDER_BRIGADE) return true;
  return info.wing !== undefined && c.brigadeId === `${WING_COMMANDER_PREFIX}${info.wing}`;
}

/** True when two boxes are more than `gapIn` apart on either axis (a cheap reject before exact distances). */
export function boxesApart(a: BoundingBoxIn, b: BoundingBoxIn, gapIn: number): boolean {
  return a.minXIn - b.maxXIn > gapIn || b.minXIn - a.maxXIn > gapIn || a.minYIn - b.maxYIn > gapIn || b.minYIn - a.maxYIn > gapIn;
}
