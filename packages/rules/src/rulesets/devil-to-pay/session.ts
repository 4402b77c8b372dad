/**
 * An incremental Devil to Pay evaluator. `update(state)` returns exactly what `evaluateDevilToPay(state)`
 * would, recomputing only what a change can touch:
 * - formations: a unit's own stands and status;
 * - fire: per (firer, target) pair, again when either changes, when a unit one of whose stands blocked one
 *   of its sight lines changed and no longer has a stand on every line it blocked (only that can clear the
 *   line: more stands never do, terrain does not move; a line with a raised end, where a stand may be seen
 *   over, goes whenever its blocker changes), or when a changed unit's stands now touch a clear line it
 *   found (`SightTrace`, fire/eligibleStands.ts); a pair settled before any sight line (out of arc or
 *   range) only when either changes. A firer none of whose pairs rests on a changed blocker or clear line
 *   near a change loses just the pairs at a changed target, looked up; the firers looked at are found
 *   through an index (by the units their pairs aim at or were blocked by, and their clear lines' boxes),
 *   never by walking every firer. A unit's list of options afresh when it changes or a unit of another side
 *   comes, goes or changes side; otherwise only its entries for a changed enemy or a dropped pair
 *   (`fireEntry`);
 * - movement: when the unit changes or a changed unit's old or new box meets what movementOptions read other
 *   units through and one of its stands, grown for the enemy clearance, meets the unit's outline swept to a
 *   reach or fudge point (`movementDependsOnStands`: reach box and cull discs, then the swept rectangles
 *   stand by stand; without a recorded dependency, within its reach); movement's pieces of unchanged units
 *   carry over from the last context (`contextCache`, movement/obstacleBuffer.ts);
 * - charge: when the unit changes or a changed unit comes (or was) within its reach; a friend only when
 *   some option got as far as a charge path (`chargeReadOnlyEnemies`);
 * - rally: when the unit changes or a changed unit is (or was) nearer than its nearest enemy (a refusal,
 *   which the unit alone decides, only when the unit changes);
 * - command: per brigade, when one of its units (or the unit its commander is attached to) changed or its
 *   commander's stand moved; a unit's reading, when it or its brigade pass changed (only those are built);
 * - which units are looked at all: the changed ones, firers that lost a pair, those whose command reading
 *   was built, and those whose look box (everything their cached parts read of other units, kept by unit
 *   number: `writeLookBox`) a changed unit's old or new box meets; every other unit is not read, and its
 *   parts stay where the assembly finds them (by place in the units array);
 * - the fire scene: the last one, with the units changed since marked stale (`updateFireScene`);
 * - a unit's whole evaluation (its parts put together) only when one of those parts changed;
 * - the context: an unchanged unit keeps its unit info (`previousUnits`, context.ts); with the same units
 *   array and stand ids in the same places, the stand map is the last one with the changed stands laid
 *   over it (`patchStands`, standInfoOverlay.ts) and only the units those stands name are looked at again;
 * - the result: unchanged units' shapes copied from the last one in runs (`assembleAfter`, evaluate.ts).
 * Change is found by identity first and then by comparing plain data, never by building JSON text. A
 * change of terrain, table, the commanders list, the order of units, any other top-level field, or a stand
 * belonging to no unit or commander drops every cache, and so does a commander's stand with a troop role
 * moving (it would block sight lines).
 */
import type { RulesSession } from '../../engine/ruleset.ts';
import type { CommandReading, DiceBreakdown, Evaluation, FireRefusal, FireTargetOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import { samePlainData } from '../../engine/samePlainData.ts';
import { buildContext, boxGapIn, standHitsOf, standInfoOf, type BoxIn, type DtpContext, type StandInfo, type UnitInfo } from './context.ts';
import { StandInfoOverlay } from './standInfoOverlay.ts';
import { applyTargetPriority, fireAtTarget, fireEntry, fireOptionsBeforePriority, settledWithoutSight } from './fire/fire.ts';
import { BLOCK_CROSSES, BLOCK_MEETS, BLOCKED_STRIDE, standStillBlocks, type SightTrace } from './fire/eligibleStands.ts';
import { buildFireScene, updateFireScene, type FireScene } from './fire/fireScene.ts';
import { fireShapes } from './fire/fireShapes.ts';
import { maxRangeIn, weaponRow, type WeaponRow } from './tables/fireTables.ts';
import { chargeOptions, chargeReadOnlyEnemies, type ChargeOptionsResult } from './charge.ts';
import { movementOptions } from './movement/movementOptions.ts';
import { movementDependencyBox, movementDependsOnStands, type MovementResult } from './movement/movementResult.ts';
import { evaluateRally, nearestEnemyDistanceIn } from './rally.ts';
import { evaluateBrigade, evaluateCommand, type BrigadeCommand } from './command.ts';
import { recognizeFormation, type DtpFormationReading } from './formation.ts';
import { pointInPolygon } from '../../geometry/intersect.ts';
import { pointToSegmentDistanceIn } from '../../geometry/distance.ts';
import type { PointIn } from '../../model/units.ts';
import { assembleAfter, evaluateUnit, type AssemblyMemo, type UnitPartSources, type UnitParts } from './evaluate.ts';
import { CHARGE_REACH_IN } from './tables/meleeTables.ts';
import { ENEMY_CLEARANCE_IN, FUDGE_MOVE_IN, MOUNTED_BONUS_IN, ROAD_MOVE_IN, movementAllowanceIn } from './tables/movementTables.ts';
import { hypot2 } from '../../geometry/hypot.ts';
import { sameTableGlobals } from '../../engine/sameTableGlobals.ts';

/**
 * How far movement can look beyond a unit's box, inches: its allowance (the road allowance for march
 * columns and limbered guns, 'unknown' moves as line, with the mounted bonus), the 1" enemy clearance, the
 * unit's own size (movementOptions measures reach from the reference stand) and a 1" margin.
 */
function movementLookIn(info: UnitInfo, reading: DtpFormationReading): number {
  const formation = reading.formation === 'unknown' ? 'line' : reading.formation;
  const opts = { mounted: reading.mounted, horseArtillery: info.unit.horseArtillery === true };
  const bonus = opts.mounted || opts.horseArtillery ? MOUNTED_BONUS_IN : 0;
  const allowance = Math.max(
    movementAllowanceIn(formation, opts) ?? 0,
    formation === 'march-column' || formation === 'limbered' ? ROAD_MOVE_IN + bonus : 0,
    FUDGE_MOVE_IN,
  );
  return allowance + ENEMY_CLEARANCE_IN + diagIn(info.box) + 1;
}
/** How far charge looks: enemies reported out to 12" (+1 box slack), friends in the 6" path (charge.ts). */
const CHARGE_LOOK_IN = Math.max(12 + 1, CHARGE_REACH_IN + 1) + 1;
/**
 * How far charge looks at the charging unit's own side: friends in the 6" path (box gap 6" + 1, charge.ts),
 * with 1" slack; every other unit it reads (targets, enemies on the path, reinforcers) is an enemy.
 */
const CHARGE_FRIEND_LOOK_IN = CHARGE_REACH_IN + 1 + 1;

/** Field by field what the earlier text keys compared (numbers and their text form alike). */
function same(x: unknown, y: unknown): boolean {
  return x === y || String(x) === String(y);
}

/** Whether two stands (with their hits) are the same for every rule: pose, size, role, unit and id. */
function sameStand(a: Stand, aHits: number, b: Stand, bHits: number): boolean {
  if (a === b && aHits === bHits) return true;
  return (
    same(a.pose.xIn, b.pose.xIn) &&
    same(a.pose.yIn, b.pose.yIn) &&
    same(a.pose.headingDeg, b.pose.headingDeg) &&
    same(a.id, b.id) &&
    same(a.unitId, b.unitId) &&
    same(a.widthIn, b.widthIn) &&
    same(a.depthIn, b.depthIn) &&
    same(a.role, b.role) &&
    same(aHits, bHits)
  );
}

/** Whether two lists hold the same stand infos (a reused info means an unchanged stand). */
function sameInfos(a: readonly StandInfo[], b: readonly StandInfo[]): boolean {
  // The context hands a kept unit's own list on: most units need no look at their stands.
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface UnitCache {
  unit: Unit;
  stands: readonly StandInfo[];
  box: BoxIn;
  /** Brigades whose command pass this unit feeds: its own, and its attached commander's. */
  brigades: readonly string[];
  /** The weapon's longest range, inches (-Infinity when the unit cannot fire at anything by itself). */
  fireReachIn: number;
  formation?: DtpFormationReading;
  movement?: MovementResult;
  /** `movementDependencyBox(movement)`: the box movementOptions looked in (undefined: anything may matter). */
  movementBox?: BoxIn | undefined;
  charge?: ChargeOptionsResult;
  /** How far `charge` looks at the unit's own side (-Infinity: it read no friend, `chargeReadOnlyEnemies`). */
  chargeFriendLookIn: number;
  rally?: { result: DiceBreakdown | Refusal; nearestIn: number };
  fire?: (FireTargetOption | FireRefusal)[];
  /**
   * The fire list before target priority (`fireOptionsBeforePriority`, fire/fire.ts) and, by the target's
   * unit number, its place in it plus one (0: not listed; no index: the unit cannot fire at all).
   */
  fireRaw?: { options: (FireTargetOption | FireRefusal)[]; index: Int32Array | undefined };
  /** Targets of the fire options that can be taken (ok), whose arrows are drawn; reset with `fire`. */
  fireOkTargets?: readonly string[];
  fireShapes?: { options: readonly (FireTargetOption | FireRefusal)[]; shapes: readonly Shape[] };
  command?: CommandReading;
  /** The unit's evaluation and the parts it was put together from. */
  parts?: { result: UnitParts; movement: MovementResult; charge: ChargeOptionsResult; rally: DiceBreakdown | Refusal; fire: readonly (FireTargetOption | FireRefusal)[]; command: CommandReading };
}

/**
 * A fresh cache entry with every field present from the start: all entries then share one hidden class, so
 * the per-unit loop's field reads stay monomorphic (fields added one by one, in whatever order a unit's
 * parts came, gave a dozen shapes and slow generic reads on every unit of every update).
 */
function newUnitCache(unit: Unit, stands: readonly StandInfo[], box: BoxIn, brigades: readonly string[]): UnitCache {
  return {
    unit,
    stands,
    box,
    brigades,
    fireReachIn: fireReachOf(unit),
    formation: undefined,
    movement: undefined,
    movementBox: undefined,
    charge: undefined,
    chargeFriendLookIn: CHARGE_FRIEND_LOOK_IN,
    rally: undefined,
    fire: undefined,
    fireRaw: undefined,
    fireOkTargets: undefined,
    fireShapes: undefined,
    command: undefined,
    parts: undefined,
  };
}

/**
 * A cached fire result and what its sight lines rested on besides the two units (`SightTrace`): nothing for
 * a result settled before any sight line.
 */
interface PairEntry {
  readonly result: FireTargetOption | FireRefusal;
  /** The target's and the blocking units' numbers (`unitNumber` in the session): read in the drop loop. */
  readonly targetNo: number;
  readonly blockerNos: readonly number[];
  /** The blocking units' ids, in the order of `blockerNos`. */
  readonly blockerIds: readonly string[];
  /** The lines they blocked (`SightTrace.blocked`: BLOCKED_STRIDE numbers per line, blocker by place). */
  readonly blocked: readonly number[];
  /** The clear lines found, x0, y0, x1, y1 in turn. */
  readonly clear: readonly number[];
  /** Box of the clear lines (empty without any). */
  readonly clearBox: BoxIn;
}

const NO_NUMBERS: readonly number[] = [];
const NO_IDS: readonly string[] = [];
const NO_LINES: readonly number[] = [];
const EMPTY_BOX: BoxIn = { minXIn: Infinity, minYIn: Infinity, maxXIn: -Infinity, maxYIn: -Infinity };

/** Within this of a clear line, a stand is taken to touch it (far above the sight tests' own tolerances). */
const TOUCH_SLACK_IN = 0.01;

function boxOfLines(lines: readonly number[]): BoxIn {
  if (lines.length === 0) return EMPTY_BOX;
  let minXIn = Infinity, minYIn = Infinity, maxXIn = -Infinity, maxYIn = -Infinity;
  for (let i = 0; i < lines.length; i += 2) {
    const x = lines[i]!, y = lines[i + 1]!;
    if (x < minXIn) minXIn = x;
    if (x > maxXIn) maxXIn = x;
    if (y < minYIn) minYIn = y;
    if (y > maxYIn) maxYIn = y;
  }
  return { minXIn, minYIn, maxXIn, maxYIn };
}

/** Whether two boxes come within the touch slack of each other (a cheap reject before the stand tests). */
function boxesNear(a: BoxIn, b: BoxIn): boolean {
  const m = TOUCH_SLACK_IN;
  return !(a.maxXIn < b.minXIn - m || b.maxXIn < a.minXIn - m || a.maxYIn < b.minYIn - m || b.maxYIn < a.minYIn - m);
}

/** Whether a stand comes within the touch slack of the segment (x0, y0) → (x1, y1): it may block it. */
function standNearLine(st: StandInfo, x0: number, y0: number, x1: number, y1: number): boolean {
  const b = st.box;
  const m = TOUCH_SLACK_IN;
  if (Math.max(x0, x1) < b.minXIn - m || Math.min(x0, x1) > b.maxXIn + m || Math.max(y0, y1) < b.minYIn - m || Math.min(y0, y1) > b.maxYIn + m) return false;
  const a = { xIn: x0, yIn: y0 };
  const e = { xIn: x1, yIn: y1 };
  if (pointInPolygon(a, st.corners)) return true;
  const c = st.corners;
  for (let i = 0, j = c.length - 1; i < c.length; j = i++) {
    // Segment to segment: the nearer of the four end-to-segment distances, or 0 when they cross.
    if (segmentsCross(a, e, c[j]!, c[i]!)) return true;
    if (pointToSegmentDistanceIn(c[i]!, a, e) <= m || pointToSegmentDistanceIn(a, c[j]!, c[i]!) <= m || pointToSegmentDistanceIn(e, c[j]!, c[i]!) <= m) return true;
  }
  return false;
}

/** Whether segments p1p2 and q1q2 properly cross (touching cases are caught by the distance tests). */
function segmentsCross(p1: PointIn, p2: PointIn, q1: PointIn, q2: PointIn): boolean {
  const d1 = (q2.xIn - q1.xIn) * (p1.yIn - q1.yIn) - (q2.yIn - q1.yIn) * (p1.xIn - q1.xIn);
  const d2 = (q2.xIn - q1.xIn) * (p2.yIn - q1.yIn) - (q2.yIn - q1.yIn) * (p2.xIn - q1.xIn);
  const d3 = (p2.xIn - p1.xIn) * (q1.yIn - p1.yIn) - (p2.yIn - p1.yIn) * (q1.xIn - p1.xIn);
  const d4 = (p2.xIn - p1.xIn) * (q2.yIn - p1.yIn) - (p2.yIn - p1.yIn) * (q2.xIn - p1.xIn);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/**
 * Whether every line the pair's blocker at place `k` blocked is still blocked by one of that unit's troop
 * stands now (`info`), by the same test (`standStillBlocks`): then the unit's change cannot clear a line.
 * False for a line where an end is raised (whether a stand is seen over depends on more than the line),
 * for a unit off the table, and for a unit one of whose stands names another unit (the scene files stands
 * by their own unit).
 */
function blockerStillBlocks(p: PairEntry, k: number, info: UnitInfo | undefined): boolean {
  if (info === undefined || info.stands.length === 0) return false;
  const id = info.unit.id;
  for (const st of info.stands) if (st.stand.unitId !== id) return false;
  const l = p.blocked;
  for (let i = 0; i < l.length; i += BLOCKED_STRIDE) {
    if (l[i + 5] !== k) continue;
    const how = l[i + 4]!;
    if (how !== BLOCK_MEETS && how !== BLOCK_CROSSES) return false;
    let still = false;
    for (let j = 0; !still && j < info.stands.length; j++) {
      const st = info.stands[j]!;
      // Commanders' stands are not troops: sight lines pass them.
      if (st.stand.role !== 'commander') still = standStillBlocks(how, st.sight, l[i]!, l[i + 1]!, l[i + 2]!, l[i + 3]!);
    }
    if (!still) return false;
  }
  return true;
}

/** Whether one of the unit's stands may now touch one of the pair's clear lines. */
function touchesClearLine(p: PairEntry, stands: readonly StandInfo[]): boolean {
  const l = p.clear;
  for (let i = 0; i < l.length; i += 4) for (const st of stands) if (standNearLine(st, l[i]!, l[i + 1]!, l[i + 2]!, l[i + 3]!)) return true;
  return false;
}

/**
 * `next` with the entry for target `t` (if listed) taken again through `fireEntry`; copied before the first
 * change, so `original` (the kept list) is never written.
 */
function patchEntry(
  next: (FireTargetOption | FireRefusal)[],
  original: readonly (FireTargetOption | FireRefusal)[],
  index: Int32Array,
  t: string,
  tNo: number,
  ctx: DtpContext,
  firer: UnitInfo,
  row: WeaponRow,
  maxIn: number,
  pair: (firerId: string, targetId: string) => FireTargetOption | FireRefusal,
): (FireTargetOption | FireRefusal)[] {
  const k = tNo < index.length ? index[tNo]! - 1 : -1;
  if (k < 0) return next;
  const entry = fireEntry(firer, row, maxIn, ctx.units.get(t)!, pair);
  if (entry === next[k]) return next;
  const out = next === original ? next.slice() : next;
  out[k] = entry;
  return out;
}

/**
 * What any cached pair of one firer may rest on: the target and blocker unit numbers flagged, and the box
 * of every clear line. Only ever grows while the firer's pairs are kept (a dropped pair leaves its marks):
 * a superset is safe, as it only decides how closely the firer's pairs are looked at.
 */
interface FirerDeps {
  targetNos: Uint8Array;
  blockerNos: Uint8Array;
  readonly clearBox: { minXIn: number; minYIn: number; maxXIn: number; maxYIn: number };
}

function addPairDeps(deps: FirerDeps, p: PairEntry): void {
  deps.targetNos = flagUnit(deps.targetNos, p.targetNo, 1);
  for (const no of p.blockerNos) deps.blockerNos = flagUnit(deps.blockerNos, no, 1);
  if (p.clear.length > 0) {
    const b = deps.clearBox;
    const c = p.clearBox;
    if (c.minXIn < b.minXIn) b.minXIn = c.minXIn;
    if (c.minYIn < b.minYIn) b.minYIn = c.minYIn;
    if (c.maxXIn > b.maxXIn) b.maxXIn = c.maxXIn;
    if (c.maxYIn > b.maxYIn) b.maxYIn = c.maxYIn;
  }
}

/** No change touches the firer's pairs. */
const UNTOUCHED = 0;
/** Only as their target: exactly the pairs at a changed target go (none rests on a change otherwise). */
const TARGETS_ONLY = 1;
/** A changed unit blocked a line of some pair, or comes near the clear lines: every pair is tested. */
const EVERY_PAIR = 2;

/** How a change may touch the firer's pairs (the drop loop's tests, against the union). */
function firerTouch(deps: FirerDeps, changedNos: readonly number[], changedNow: readonly UnitInfo[]): number {
  let asTarget = false;
  for (const no of changedNos) {
    if (no < deps.blockerNos.length && deps.blockerNos[no] === 1) return EVERY_PAIR;
    if (no < deps.targetNos.length && deps.targetNos[no] === 1) asTarget = true;
  }
  if (deps.clearBox.minXIn <= deps.clearBox.maxXIn) for (const ch of changedNow) if (boxesNear(ch.box, deps.clearBox)) return EVERY_PAIR;
  return asTarget ? TARGETS_ONLY : UNTOUCHED;
}

/** Sets `flags[n]`, growing the array when `n` is beyond it; returns the (possibly new) array. */
function flagUnit(flags: Uint8Array, n: number, value: number): Uint8Array {
  let out = flags;
  if (n >= out.length) {
    out = new Uint8Array(Math.max(2 * out.length, n + 1));
    out.set(flags);
  }
  out[n] = value;
  return out;
}

function diagIn(b: BoxIn): number {
  return hypot2(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn);
}

/** Slack on every side of a look box, inches: far above rounding, far below any rule's distance. */
const LOOK_SLACK_IN = 0.05;

/**
 * Writes at `at` in `boxes` (minX, minY, maxX, maxY) the box of everything the unit's cached parts read of
 * other units (the per-part tests of the units loop, each as a box): movement's dependency box, or its look
 * distance without one; charge's 13" look; rally's nearest enemy; fire's longest range (an enemy beyond it
 * on an axis reads the one beyond-range refusal). A change whose old and new boxes both miss it leaves every
 * part as it was. NaN for a unit with no stands (its empty box would miss everything): always looked at.
 */
function writeLookBox(boxes: Float64Array, at: number, ctx: DtpContext, info: UnitInfo, c: UnitCache): void {
  if (info.stands.length === 0 || c.rally === undefined) {
    boxes.fill(NaN, at, at + 4);
    return;
  }
  const b = info.box;
  const aroundIn = Math.max(CHARGE_LOOK_IN, CHARGE_FRIEND_LOOK_IN, c.rally.nearestIn, c.fireReachIn) + LOOK_SLACK_IN;
  const mb = c.movementBox;
  // Movement's box, grown by the 0.01" its test allows; without one, its look distance round the unit.
  const m = mb ?? b;
  const mIn = (mb !== undefined ? 0.01 : movementLookIn(info, ctx.formationOf(info.unit.id))) + LOOK_SLACK_IN;
  boxes[at] = Math.min(b.minXIn - aroundIn, m.minXIn - mIn);
  boxes[at + 1] = Math.min(b.minYIn - aroundIn, m.minYIn - mIn);
  boxes[at + 2] = Math.max(b.maxXIn + aroundIn, m.maxXIn + mIn);
  boxes[at + 3] = Math.max(b.maxYIn + aroundIn, m.maxYIn + mIn);
}

function fireReachOf(unit: Unit): number {
  const row = weaponRow(unit.weapon);
  return row ? maxRangeIn(row) : -Infinity;
}

/** Beyond this many changed stands since the last full stand map, the next update makes a full one again. */
const MAX_PATCHED_STANDS = 128;

/**
 * The stand infos of `state` as the last map with the stands at the `dirty` places laid over it
 * (`StandInfoOverlay`), writing their infos into `byIndex` (the session's own list, by place), and the units
 * those stands name; undefined when that would not be the map buildContext makes: a changed stand with
 * another id or unit than the one it replaces at its place, or too many changes since the last full map.
 * The caller vouches for the same units array (so the same hits) and the same stand count.
 */
function patchStands(
  state: TableState,
  oldStands: readonly Stand[],
  dirty: readonly number[],
  last: ReadonlyMap<string, StandInfo>,
  byIndex: (StandInfo | undefined)[],
): { stands: ReadonlyMap<string, StandInfo>; unitIds: ReadonlySet<string> } | undefined {
  const before = last instanceof StandInfoOverlay ? last.changes : undefined;
  if ((before?.size ?? 0) + dirty.length > MAX_PATCHED_STANDS) return undefined;
  for (const i of dirty) {
    const st = state.stands[i]!;
    const old = oldStands[i]!;
    if (st.id !== old.id || st.unitId !== old.unitId) return undefined;
  }
  const hitsOf = dirty.length > 0 ? standHitsOf(state) : undefined;
  const changes = new Map(before);
  const unitIds = new Set<string>();
  for (const i of dirty) {
    const st = state.stands[i]!;
    const hits = hitsOf!.size === 0 ? 0 : (hitsOf!.get(st.id) ?? 0);
    const prev = last.get(st.id);
    const info = prev && sameStand(prev.stand, prev.hits, st, hits) ? prev : standInfoOf(st, hits);
    byIndex[i] = info;
    changes.set(st.id, info);
    unitIds.add(st.unitId);
  }
  const base = last instanceof StandInfoOverlay ? last.base : last;
  return { stands: new StandInfoOverlay(base, changes), unitIds };
}

/**
 * Whether the context's stands have distinct ids and every stand a unit lists names that unit (then a
 * changed stand can change only the unit it names): what `patchStands` needs of the state it builds on.
 */
function unitsNameTheirStands(ctx: DtpContext, state: TableState): boolean {
  if (ctx.stands.size !== state.stands.length) return false;
  for (const info of ctx.units.values()) for (const s of info.stands) if (s.stand.unitId !== info.unit.id) return false;
  return true;
}

/** Kinds of stand for the session's first pass: a unit's, a commander's, or neither (stray, like terrain). */
const UNIT_STAND = 0;
const COMMANDER_STAND = 1;
const STRAY_STAND = 2;

/** A live Devil to Pay evaluator (see the module comment for what it recomputes). */
export function createDtpSession(): RulesSession {
  let previous: TableState | undefined;
  let units = new Map<string, UnitCache>();
  /** Fire results per firer, then per target. */
  let pairs = new Map<string, Map<string, PairEntry>>();
  /**
   * Per firer, what any of its cached pairs may rest on (`FirerDeps`): a firer none of whose pairs a change
   * can touch is passed over in the drop loop without visiting its pairs.
   */
  let pairDeps = new Map<string, FirerDeps>();
  /**
   * By unit number, the firers one of whose cached pairs had that unit as target or blocker: with each
   * firer's clear box below, which firers the drop loop looks at, so it never walks every firer. A
   * superset of `FirerDeps`' marks (a firer's pairs dropped whole leave stale entries, which cost a look).
   */
  let firersOn: (Set<string> | undefined)[] = [];
  /** By firer number, its `FirerDeps.clearBox` (minX, minY, maxX, maxY; empty: no clear line). */
  let firerClearBoxes = new Float64Array(0);
  let standInfos: ReadonlyMap<string, StandInfo> = new Map();
  /** The last state's stands and the kind of each (UNIT_STAND, COMMANDER_STAND, STRAY_STAND), by place. */
  let lastStands: readonly Stand[] = [];
  let standKinds: Uint8Array = new Uint8Array(0);
  /** The same infos by place in the last state's `stands` (what `reuseStand` tries first). */
  let standInfosByIndex: (StandInfo | undefined)[] = [];
  /**
   * Whether the last state's stands had distinct ids and every unit's listed stands named that unit (then a
   * changed stand can only change the unit it names, and the stand map can be laid over: `patchStands`).
   */
  let standsPatchable = false;
  /** The last context's unit infos: an unchanged unit keeps its info object (`previousUnits`, context.ts). */
  let unitInfos: ReadonlyMap<string, UnitInfo> | undefined;
  /** The last assembly: unchanged units' shapes are copied from it in runs (`assembleAfter`, evaluate.ts). */
  let assembly: AssemblyMemo | undefined;
  let brigadeCache = new Map<string, BrigadeCommand>();
  let commanderStands = new Map<string, Stand>();
  let strayStands: readonly Stand[] = [];
  /** Unit ids by the brigade they name, per `state.units` array (the command pass's readings to build). */
  let unitIdsByBrigade: { units: readonly Unit[] | undefined; byBrigade: ReadonlyMap<string, readonly string[]> } = { units: undefined, byBrigade: new Map() };
  /** Stand ids of units, per `state.units` array (a tracker that keeps the array skips rebuilding it). */
  let unitStandIds: { units: readonly Unit[]; ids: ReadonlySet<string> } | undefined;
  /** The last result: returned as is when nothing at all changed (a still table re-sent every frame). */
  let last: Evaluation | undefined;
  /** The last fire scene built: it serves later states (with changed units marked) until the caches are dropped. */
  let lastScene: FireScene | undefined;
  /** Units changed since `lastScene` was built. */
  const changedSinceScene = new Set<string>();
  /** A number per unit id seen in this session (kept for good: numbers only index `changedFlag`). */
  const unitNumbers = new Map<string, number>();
  const unitNumber = (id: string): number => {
    let n = unitNumbers.get(id);
    if (n === undefined) {
      unitNumbers.set(id, (n = unitNumbers.size));
      idsByNumber.push(id);
    }
    return n;
  };
  /** The unit ids by number (the inverse of `unitNumber`). */
  const idsByNumber: string[] = [];
  /** Empties firer number `no`'s clear box (when it is in the array). */
  const emptyFirerBox = (no: number): void => {
    const at = 4 * no;
    if (at >= firerClearBoxes.length) return;
    firerClearBoxes[at] = Infinity;
    firerClearBoxes[at + 1] = Infinity;
    firerClearBoxes[at + 2] = -Infinity;
    firerClearBoxes[at + 3] = -Infinity;
  };
  /** Empties the firer clear boxes from number `from` on (all of them from 0). */
  const clearFirerBoxes = (from: number): void => {
    for (let no = from; 4 * no < firerClearBoxes.length; no++) emptyFirerBox(no);
  };
  /** Notes a new pair of firer `f` (number `fNo`) in `firersOn` and `firerClearBoxes` (see `addPairDeps`). */
  const indexPair = (f: string, fNo: number, deps: FirerDeps, p: PairEntry): void => {
    (firersOn[p.targetNo] ??= new Set()).add(f);
    for (const no of p.blockerNos) (firersOn[no] ??= new Set()).add(f);
    if (p.clear.length === 0) return;
    if (firerClearBoxes.length < 4 * (fNo + 1)) {
      const old = firerClearBoxes;
      firerClearBoxes = new Float64Array(8 * (fNo + 1));
      firerClearBoxes.set(old);
      clearFirerBoxes(old.length / 4);
    }
    const b = deps.clearBox;
    firerClearBoxes[4 * fNo] = b.minXIn;
    firerClearBoxes[4 * fNo + 1] = b.minYIn;
    firerClearBoxes[4 * fNo + 2] = b.maxXIn;
    firerClearBoxes[4 * fNo + 3] = b.maxYIn;
  };
  /** Place plus one of each target in a fire list, by unit number. */
  const placesByNumber = (targetIds: readonly string[]): Int32Array => {
    const nos = targetIds.map(unitNumber);
    const places = new Int32Array(unitNumbers.size);
    nos.forEach((no, i) => (places[no] = i + 1));
    return places;
  };
  /** 1 for the units changed in this update, by number, while pairs are dropped; 0 otherwise. */
  let changedFlag: Uint8Array = new Uint8Array(64);
  /** Each unit's number by its place in the last units array. */
  let unitNosByPlace = new Int32Array(0);
  /** Each unit's look box by number (`writeLookBox`): minX, minY, maxX, maxY; NaN until first written. */
  let lookBoxes = new Float64Array(0);
  /** By number, the update (`lookEpoch`) in which the unit is to be looked at. */
  let lookStamps = new Int32Array(0);
  let lookEpoch = 0;
  /** Each unit's evaluation parts by place in the last units array (the assembly reads them). */
  let partsByPlace: UnitParts[] = [];
  /** False after a reset or a new units array: the next update looks at every unit and fills `partsByPlace`. */
  let partsSameArray = false;

  const reset = (): void => {
    last = undefined;
    units = new Map();
    pairs = new Map();
    pairDeps = new Map();
    firersOn = [];
    clearFirerBoxes(0);
    brigadeCache = new Map();
    lastScene = undefined;
    changedSinceScene.clear();
    partsSameArray = false;
  };

  return {
    update(state: TableState): Evaluation {
      const sameUnitsArray = unitStandIds?.units === state.units;
      if (!sameUnitsArray) partsSameArray = false;
      if (!sameUnitsArray) unitStandIds = { units: state.units, ids: new Set(state.units.flatMap((u) => u.standIds)) };
      const ofUnits = unitStandIds!.ids;
      // With the same units and commanders arrays, a stand object at the same place as last time is of the
      // same kind (unit, commander, stray): no lookup by id for it.
      const kindsKnown = sameUnitsArray && previous !== undefined && state.commanders === previous.commanders;
      const nextKinds = new Uint8Array(state.stands.length);

      // Stands of no unit: commanders' stands feed only their brigade's command pass; any other stray stand
      // (not a unit's, not a commander's) is treated like terrain. Terrain, table, commanders and stray
      // stands feed into every unit, and the order of units sets the order of options: any change there
      // starts afresh.
      const commanderOfStand = new Map<string, string>();
      for (const c of state.commanders) if (c.standId !== undefined) commanderOfStand.set(c.standId, c.id);
      const nextCommanderStands = new Map<string, Stand>();
      const stray: Stand[] = [];
      // Places whose stand object is new, when the stands array kept its length (for `patchStands`).
      const oldStands = lastStands;
      const sameLength = kindsKnown && state.stands.length === oldStands.length;
      const dirty: number[] = [];
      for (let i = 0; i < state.stands.length; i++) {
        const st = state.stands[i]!;
        const unmoved = kindsKnown && lastStands[i] === st;
        if (sameLength && !unmoved) dirty.push(i);
        const kind = unmoved ? standKinds[i]! : ofUnits.has(st.id) ? UNIT_STAND : commanderOfStand.has(st.id) ? COMMANDER_STAND : STRAY_STAND;
        nextKinds[i] = kind;
        if (kind === UNIT_STAND) continue;
        if (kind === COMMANDER_STAND) nextCommanderStands.set(commanderOfStand.get(st.id)!, st);
        else stray.push(st);
      }
      lastStands = state.stands;
      standKinds = nextKinds;
      if (
        previous === undefined ||
        !sameTableGlobals(previous, state) ||
        stray.length !== strayStands.length ||
        stray.some((st, i) => !sameStand(st, 0, strayStands[i]!, 0))
      ) {
        reset();
      }
      previous = state;
      strayStands = stray;
      for (const c of state.commanders) {
        const a = commanderStands.get(c.id);
        const b = nextCommanderStands.get(c.id);
        if (a === b) continue;
        if (a === undefined || b === undefined || !sameStand(a, 0, b, 0)) {
          brigadeCache.delete(c.brigadeId);
          last = undefined;
          // A commander's stand given a troop role would be in the sight scene, which pair traces do not
          // follow for commanders: start afresh (the validator allows it; no real table does it).
          if (a?.role !== 'commander' && a !== undefined) reset();
          if (b?.role !== 'commander' && b !== undefined) reset();
        }
      }
      commanderStands = nextCommanderStands;
      const changedIds = new Set<string>();
      // The same units array, ids in the same places, no changed stand naming another unit: the stand map
      // is the last one with the changed stands laid over it, and only the units they name may differ.
      const patch = sameLength && standsPatchable ? patchStands(state, oldStands, dirty, standInfos, standInfosByIndex) : undefined;
      const nextInfosByIndex = patch !== undefined ? standInfosByIndex : new Array<StandInfo | undefined>(state.stands.length);
      const ctx = buildContext(state, {
        ...(patch !== undefined ? { standInfos: patch.stands, unitMayHaveChanged: (unit: Unit) => patch.unitIds.has(unit.id) } : {}),
        reuseStand: (stand, hits, index) => {
          // The same stand object at the same place as last time (nearly every stand of a tracked table):
          // its info, without a lookup by id.
          const atIndex = standInfosByIndex[index];
          let info: StandInfo;
          if (atIndex !== undefined && atIndex.stand === stand && atIndex.hits === hits) info = atIndex;
          else {
            const prev = standInfos.get(stand.id);
            info = prev && sameStand(prev.stand, prev.hits, stand, hits) ? prev : standInfoOf(stand, hits);
          }
          nextInfosByIndex[index] = info;
          return info;
        },
        previousUnits: unitInfos,
        // Both asked lazily, after the changed units are known below.
        knownFormation: (unitId) => {
          const c = units.get(unitId);
          return c?.formation && !changedIds.has(unitId) ? c.formation : undefined;
        },
        recognizeFormation: (unit, stands) => {
          const c = units.get(unit.id);
          if (c?.formation && !changedIds.has(unit.id)) return c.formation;
          const f = recognizeFormation(unit, stands);
          if (c) c.formation = f;
          return f;
        },
      });
      // The context's stand map is exactly the infos handed out above: next update reuses from it.
      standInfos = ctx.stands;
      standInfosByIndex = nextInfosByIndex;
      if (patch === undefined) standsPatchable = unitsNameTheirStands(ctx, state);
      unitInfos = ctx.units;

      // Which units changed (added, removed, moved, status), with their old and new boxes and hulls: only
      // these can newly block or clear a sight line.
      const changedBoxes: BoxIn[] = [];
      /** The stands' boxes inside each changed box (movement's dependency test refines by them). */
      const changedStandBoxes: (readonly BoxIn[])[] = [];
      const boxesOf = (stands: readonly StandInfo[]): BoxIn[] => stands.map((st) => st.box);
      /** The side of the unit each changed box belongs to (its side then: old box, old side). */
      const changedSides: string[] = [];
      /** Sides of units that came onto or left the table (or changed side) in this update. */
      const presenceChangedSides = new Set<string>();
      /** Changed units on the table now, with their box: only their stands can come onto a clear sight line. */
      const changedNow: UnitInfo[] = [];
      const brigadeTags = (unit: Unit, attachedCommanderId: string | undefined): string[] => {
        const tags = unit.brigadeId !== undefined ? [unit.brigadeId] : [];
        const cb = attachedCommanderId !== undefined ? ctx.commanders.get(attachedCommanderId)?.commander.brigadeId : undefined;
        if (cb !== undefined) tags.push(cb);
        return tags;
      };
      for (const info of ctx.units.values()) {
        const id = info.unit.id;
        const c = units.get(id);
        if (c && sameInfos(c.stands, info.stands) && (c.unit === info.unit || samePlainData(c.unit, info.unit))) {
          c.unit = info.unit;
          continue;
        }
        changedIds.add(id);
        // Every enemy on the table is in a unit's fire list (out of range or not): a unit that comes onto or
        // leaves the table, or changes side, changes the lists of the other sides wherever it stands.
        if (!c || c.stands.length > 0 !== info.stands.length > 0 || c.unit.side !== info.unit.side) {
          if (c) presenceChangedSides.add(c.unit.side);
          presenceChangedSides.add(info.unit.side);
        }
        const brigades = brigadeTags(info.unit, info.attachedCommanderId);
        for (const b of c?.brigades ?? []) brigadeCache.delete(b);
        for (const b of brigades) brigadeCache.delete(b);
        if (c && c.box.minXIn <= c.box.maxXIn) {
          changedBoxes.push(c.box);
          changedStandBoxes.push(boxesOf(c.stands));
          changedSides.push(c.unit.side);
        }
        if (info.stands.length > 0) {
          changedBoxes.push(info.box);
          changedStandBoxes.push(boxesOf(info.stands));
          changedSides.push(info.unit.side);
        }
        if (info.stands.length > 0) changedNow.push(info);
        units.set(id, newUnitCache(info.unit, info.stands, info.box, brigades));
      }
      units.forEach((c, id) => {
        if (ctx.units.has(id)) return;
        changedIds.add(id);
        presenceChangedSides.add(c.unit.side);
        for (const b of c.brigades) brigadeCache.delete(b);
        if (c.box.minXIn <= c.box.maxXIn) {
          changedBoxes.push(c.box);
          changedStandBoxes.push(boxesOf(c.stands));
          changedSides.push(c.unit.side);
        }
        units.delete(id);
      });
      if (last && changedIds.size === 0) return last;
      /** Whether a unit of another side than `side` came onto or left the table (see above). */
      const enemyPresenceChanged = (side: string): boolean => {
        for (const s of presenceChangedSides) if (s !== side) return true;
        return false;
      };
      const changedNear = (box: BoxIn, withinIn: number): boolean => {
        for (const b of changedBoxes) if (boxGapIn(box, b) <= withinIn) return true;
        return false;
      };
      /** Whether a changed unit is (or was) within `friendIn` of the box on `side`, or `enemyIn` on another. */
      const changedNearBySide = (box: BoxIn, side: string, friendIn: number, enemyIn: number): boolean => {
        for (let i = 0; i < changedBoxes.length; i++) if (boxGapIn(box, changedBoxes[i]!) <= (changedSides[i] === side ? friendIn : enemyIn)) return true;
        return false;
      };
      /** Whether a changed unit of another side than `side` is (or was) within `withinIn` of the box. */
      const changedEnemyNear = (box: BoxIn, side: string, withinIn: number): boolean => {
        for (let i = 0; i < changedBoxes.length; i++) if (changedSides[i] !== side && boxGapIn(box, changedBoxes[i]!) <= withinIn) return true;
        return false;
      };

      // Drop fire pairs a change can touch: either unit changed, a unit whose stand blocked one of its lines
      // changed, or a changed unit's stands now touch one of its clear lines (see PairEntry). A firer that
      // lost a pair has its options listed again.
      /** Results of dropped pairs: a pair traced again to an equal result keeps the old object (see `pair`). */
      const dropped = new Map<string, Map<string, PairEntry>>();
      if (changedIds.size > 0) {
        // Changed units flagged by number: a thousand pairs test an array, not a set of strings.
        const changedNos: number[] = [];
        for (const id of changedIds) {
          const no = unitNumber(id);
          changedNos.push(no);
          changedFlag = flagUnit(changedFlag, no, 1);
        }
        // The firers a change can touch: the changed ones, those with a pair at or blocked by a changed unit,
        // and those whose clear lines' box a changed unit now comes near (what `firerTouch` tests, indexed).
        const touched = new Set<string>();
        for (const id of changedIds) if (pairs.has(id)) touched.add(id);
        for (const no of changedNos) firersOn[no]?.forEach((f) => touched.add(f));
        const cb = firerClearBoxes;
        for (let at = 0; at < cb.length; at += 4) {
          const minX = cb[at]!, minY = cb[at + 1]!, maxX = cb[at + 2]!, maxY = cb[at + 3]!;
          if (minX > maxX) continue;
          for (const ch of changedNow) {
            // `boxesNear(ch.box, clear box)`, on the numbers.
            const b = ch.box, m = TOUCH_SLACK_IN;
            if (!(b.maxXIn < minX - m || maxX < b.minXIn - m || b.maxYIn < minY - m || maxY < b.minYIn - m)) {
              touched.add(idsByNumber[at / 4]!);
              break;
            }
          }
        }
        touched.forEach((firer) => {
          const byTarget = pairs.get(firer);
          if (byTarget === undefined) return;
          if (changedIds.has(firer)) {
            pairs.delete(firer);
            pairDeps.delete(firer);
            emptyFirerBox(unitNumber(firer));
            dropped.set(firer, byTarget);
            return;
          }
          const deps = pairDeps.get(firer);
          // Every firer with pairs has its marks (both are made together in `pair`).
          const touch = deps === undefined ? EVERY_PAIR : firerTouch(deps, changedNos, changedNow);
          if (touch === UNTOUCHED) return;
          if (touch === TARGETS_ONLY) {
            // The pairs at a changed target, looked up; every other pair stays.
            for (const target of changedIds) {
              const p = byTarget.get(target);
              if (p === undefined) continue;
              byTarget.delete(target);
              let d = dropped.get(firer);
              if (!d) dropped.set(firer, (d = new Map()));
              d.set(target, p);
            }
            return;
          }
          byTarget.forEach((p, target) => {
            let drop = changedFlag[p.targetNo] === 1;
            // A changed blocker drops the pair unless its stands still block every line it blocked.
            for (let i = 0; !drop && i < p.blockerNos.length; i++) drop = changedFlag[p.blockerNos[i]!] === 1 && !blockerStillBlocks(p, i, ctx.units.get(p.blockerIds[i]!));
            for (let i = 0; !drop && p.clear.length > 0 && i < changedNow.length; i++) {
              const ch = changedNow[i]!;
              drop = boxesNear(ch.box, p.clearBox) && touchesClearLine(p, ch.stands);
            }
            if (drop) {
              byTarget.delete(target);
              let d = dropped.get(firer);
              if (!d) dropped.set(firer, (d = new Map()));
              d.set(target, p);
            }
          });
        });
        for (const id of changedIds) changedFlag[unitNumber(id)] = 0;
      }

      // The fire scene (sight lines) is built only when a pair has to be traced again.
      let scene: FireScene | undefined;
      changedIds.forEach((id) => changedSinceScene.add(id));
      /** The changed units on the table with their side (a unit that changed side, came or left relists every enemy). */
      const changedUnitSides: { id: string; no: number; side: string }[] = [];
      for (const id of changedIds) {
        const now = ctx.units.get(id);
        if (now) changedUnitSides.push({ id, no: unitNumber(id), side: now.unit.side });
      }
      const sceneOf = (c: DtpContext): FireScene => {
        if (!scene) {
          // The last scene with the units changed since marked stale, or every stand filed afresh.
          scene = lastScene = lastScene ? updateFireScene(c, lastScene, changedSinceScene) : buildFireScene(c);
          changedSinceScene.clear();
        }
        return scene;
      };
      const pair = (f: string, t: string): FireTargetOption | FireRefusal => {
        let byTarget = pairs.get(f);
        const cached = byTarget?.get(t);
        if (cached) return cached.result;
        const trace: SightTrace = { clear: [], blockers: [], blocked: [] };
        let result = fireAtTarget(ctx, sceneOf(ctx), f, t, trace);
        // Traced again to the same answer (the usual case when a third unit moves near the line): keep the
        // old object, so the firer's options, shapes and evaluation stay as they were.
        const old = dropped.get(f)?.get(t)?.result;
        if (old !== undefined && samePlainData(old, result)) result = old;
        // A result settled without sight lines depends on the two units only; any other on what its lines met.
        if (!byTarget) pairs.set(f, (byTarget = new Map()));
        let deps = pairDeps.get(f);
        if (!deps) pairDeps.set(f, (deps = { targetNos: new Uint8Array(64), blockerNos: new Uint8Array(64), clearBox: { ...EMPTY_BOX } }));
        const targetNo = unitNumber(t);
        const entry: PairEntry = settledWithoutSight(result)
          ? { result, targetNo, blockerNos: NO_NUMBERS, blockerIds: NO_IDS, blocked: NO_LINES, clear: NO_LINES, clearBox: EMPTY_BOX }
          : {
              result,
              targetNo,
              blockerNos: trace.blockers.map(unitNumber),
              blockerIds: trace.blockers,
              blocked: trace.blocked,
              clear: trace.clear,
              clearBox: boxOfLines(trace.clear),
            };
        byTarget.set(t, entry);
        addPairDeps(deps, entry);
        indexPair(f, unitNumber(f), deps, entry);
        return result;
      };

      const movementOf = (id: string, c: UnitCache, info: UnitInfo): MovementResult => {
        // What movementOptions actually read other units through when it says so (the reach box, then the
        // discs its direction and fudge culls pass: much tighter than the radius bound).
        let stale = !c.movement;
        const box = c.movementBox;
        for (let i = 0; !stale && i < changedBoxes.length; i++) {
          const b = changedBoxes[i]!;
          // movementDependsOnBox's first test, inline: most changed boxes are nowhere near.
          if (box && (b.maxXIn < box.minXIn - 0.01 || b.minXIn > box.maxXIn + 0.01 || b.maxYIn < box.minYIn - 0.01 || b.minYIn > box.maxYIn + 0.01)) continue;
          const meets = movementDependsOnStands(c.movement!, b, changedStandBoxes[i]!);
          if (meets === undefined) {
            stale = changedNear(info.box, movementLookIn(info, ctx.formationOf(id)));
            break;
          }
          stale = meets;
        }
        if (stale) {
          c.movement = movementOptions(ctx, id);
          c.movementBox = movementDependencyBox(c.movement);
        }
        return c.movement!;
      };
      const chargeOf = (id: string, c: UnitCache, info: UnitInfo): ChargeOptionsResult => {
        if (c.charge && !changedNearBySide(info.box, info.unit.side, c.chargeFriendLookIn, CHARGE_LOOK_IN)) return c.charge;
        const next = chargeOptions(ctx, id);
        // The same options again (a unit moved near but out of the way): keep the old object, so the
        // unit's evaluation and the combined charges are reused.
        if (!c.charge || changedIds.has(id) || !samePlainData(c.charge, next)) c.charge = next;
        c.chargeFriendLookIn = chargeReadOnlyEnemies(c.charge) ? -Infinity : CHARGE_FRIEND_LOOK_IN;
        return c.charge;
      };
      const rallyOf = (id: string, c: UnitCache, info: UnitInfo): DiceBreakdown | Refusal => {
        // Rally reads only the nearest enemy: a friend's move cannot change it.
        if (!c.rally || changedEnemyNear(info.box, info.unit.side, c.rally.nearestIn)) {
          // A refusal (disordered, prone, no hits) comes from the unit alone: no other unit can change it,
          // and -Infinity is nearer than any change.
          const own = evaluateRally(ctx, id, Infinity);
          if ('ok' in own && own.ok === false) c.rally = { result: own, nearestIn: -Infinity };
          else {
            const nearestIn = nearestEnemyDistanceIn(ctx, id);
            c.rally = { result: evaluateRally(ctx, id, nearestIn), nearestIn };
          }
        }
        return c.rally.result;
      };
      const fireOf = (id: string, c: UnitCache, info: UnitInfo): (FireTargetOption | FireRefusal)[] => {
        let raw = c.fireRaw;
        if (!c.fire || !raw || enemyPresenceChanged(info.unit.side)) {
          const listed = fireOptionsBeforePriority(ctx, id, pair);
          raw = c.fireRaw = { options: listed.options, index: listed.targetIds ? placesByNumber(listed.targetIds) : undefined };
          keepFire(c, listed.targetIds ? applyTargetPriority(listed.options) : listed.options);
          return c.fire!;
        }
        // The same firer and the same enemies on the table: only entries for a target that changed or whose
        // pair was dropped can differ (candidates are enemies within range by box, which only a changed
        // target can cross; a friend's move reaches the list only through a dropped pair).
        const index = raw.index;
        if (!index) return c.fire; // the unit cannot fire at all: that is its own business alone
        const row = weaponRow(info.unit.weapon) as WeaponRow;
        let next = raw.options;
        // Loops, not callbacks: a closure per unit and update was measurable here.
        const d = dropped.get(id);
        if (d) d.forEach((p, t) => (next = patchEntry(next, raw!.options, index, t, p.targetNo, ctx, info, row, c.fireReachIn, pair)));
        for (const ch of changedUnitSides) if (ch.side !== info.unit.side) next = patchEntry(next, raw.options, index, ch.id, ch.no, ctx, info, row, c.fireReachIn, pair);
        if (next !== raw.options) {
          raw.options = next;
          keepFire(c, applyTargetPriority(next));
        }
        return c.fire;
      };
      /** Keeps the old list when the new one holds the same options, so the unit's evaluation is reused. */
      const keepFire = (c: UnitCache, options: (FireTargetOption | FireRefusal)[]): void => {
        if (!c.fire || options.length !== c.fire.length || options.some((o, i) => o !== c.fire![i])) {
          c.fire = options;
          c.fireOkTargets = undefined;
        }
      };
      /** `arrowsMoved`: the target of one of `options` that can be taken changed (see the units loop). */
      const fireShapesOf = (id: string, c: UnitCache, options: readonly (FireTargetOption | FireRefusal)[], arrowsMoved: boolean): readonly Shape[] => {
        const prev = c.fireShapes;
        // Arrows run to the target's nearest stand: a moved target redraws them even when its option (kept as
        // the same object because it reads the same) did not change.
        if (
          prev &&
          !changedIds.has(id) &&
          !arrowsMoved &&
          (prev.options === options || (prev.options.length === options.length && prev.options.every((o, i) => o === options[i])))
        ) {
          return prev.shapes;
        }
        const shapes = fireShapes(ctx, id, options);
        c.fireShapes = { options, shapes };
        return shapes;
      };

      // Command per brigade: a brigade is recomputed only when one of its units (or the unit its commander
      // is attached to) changed.
      const recomputedBrigades = new Set<string>();
      if (unitIdsByBrigade.units !== state.units) {
        const byBrigade = new Map<string, string[]>();
        for (const u of state.units) if (u.brigadeId !== undefined) (byBrigade.get(u.brigadeId) ?? byBrigade.set(u.brigadeId, []).get(u.brigadeId)!).push(u.id);
        unitIdsByBrigade = { units: state.units, byBrigade };
      }
      const command = evaluateCommand(
        ctx,
        (brigadeId, members) => {
          let r = brigadeCache.get(brigadeId);
          if (!r) {
            r = evaluateBrigade(ctx, brigadeId, members);
            brigadeCache.set(brigadeId, r);
            recomputedBrigades.add(brigadeId);
          }
          return r;
        },
        // A reading comes from the unit's own fields and its brigade's pass (the commanders list, which
        // also feeds it, drops every cache when it changes): an unchanged unit in a brigade not computed
        // again reads as before, without building it to compare. So readings are built only for the
        // changed units and the units naming a brigade computed again.
        () => {
          const fresh: UnitInfo[] = [];
          for (const id of changedIds) {
            const info = ctx.units.get(id);
            if (info) fresh.push(info);
          }
          for (const b of recomputedBrigades) {
            for (const id of unitIdsByBrigade.byBrigade.get(b) ?? NO_IDS) if (!changedIds.has(id)) fresh.push(ctx.units.get(id)!);
          }
          return fresh;
        },
      );
      // Which units to look at: every one when a unit came, left or changed side (it is in every enemy's
      // fire list) or the units array is another; otherwise the changed units, the firers that lost a pair,
      // those with a command reading built afresh, and those whose look box a changed box meets (see
      // `writeLookBox`). Every other unit's parts, and so its evaluation, are the last ones: it is not read.
      const n = state.units.length;
      if (!sameUnitsArray || unitNosByPlace.length !== n) unitNosByPlace = Int32Array.from(state.units, (u) => unitNumber(u.id));
      const everyUnit = presenceChangedSides.size > 0 || partsByPlace.length !== n || !partsSameArray;
      partsSameArray = true;
      if (partsByPlace.length !== n) partsByPlace = new Array<UnitParts>(n);
      if (lookStamps.length < unitNumbers.size) {
        const grownStamps = new Int32Array(2 * unitNumbers.size);
        grownStamps.set(lookStamps);
        lookStamps = grownStamps;
        const grownBoxes = new Float64Array(8 * unitNumbers.size).fill(NaN);
        grownBoxes.set(lookBoxes);
        lookBoxes = grownBoxes;
      }
      const stamp = ++lookEpoch;
      if (!everyUnit) {
        for (const id of changedIds) lookStamps[unitNumber(id)] = stamp;
        dropped.forEach((_, id) => (lookStamps[unitNumber(id)] = stamp));
        command.readings.forEach((_, id) => (lookStamps[unitNumber(id)] = stamp));
        for (let i = 0; i < n; i++) {
          const no = unitNosByPlace[i]!;
          if (lookStamps[no] === stamp) continue;
          const at = 4 * no;
          const minX = lookBoxes[at]!, minY = lookBoxes[at + 1]!, maxX = lookBoxes[at + 2]!, maxY = lookBoxes[at + 3]!;
          for (let k = 0; k < changedBoxes.length; k++) {
            const b = changedBoxes[k]!;
            // Written so a NaN anywhere reads as a meeting (looked at).
            if (!(b.maxXIn < minX || b.minXIn > maxX || b.maxYIn < minY || b.minYIn > maxY)) {
              lookStamps[no] = stamp;
              break;
            }
          }
        }
      }
      for (let i = 0; i < n; i++) {
        const no = unitNosByPlace[i]!;
        if (!everyUnit && lookStamps[no] !== stamp) continue;
        const id = state.units[i]!.id;
        const c = units.get(id)!;
        // Not built again: the reading kept (see the command pass above).
        let reading = command.readings.get(id) ?? c.command!;
        if (c.command && samePlainData(c.command, reading)) reading = c.command;
        else c.command = reading;
        const info = ctx.units.get(id)!;
        const movement = movementOf(id, c, info);
        const charge = chargeOf(id, c, info);
        const rally = rallyOf(id, c, info);
        const fire = fireOf(id, c, info);
        writeLookBox(lookBoxes, 4 * no, ctx, info, c);
        const p = c.parts;
        // Fire arrows end at the target's stands: a moved target redraws them (see fireShapesOf).
        const okTargets = (c.fireOkTargets ??= fire.flatMap((o) => (o.ok ? [o.targetUnitId] : [])));
        let arrowsMoved = false;
        for (let k = 0; !arrowsMoved && k < okTargets.length; k++) arrowsMoved = changedIds.has(okTargets[k]!);
        if (p && !changedIds.has(id) && !arrowsMoved && p.movement === movement && p.charge === charge && p.rally === rally && p.fire === fire && p.command === reading) {
          partsByPlace[i] = p.result;
          continue;
        }
        const sources: UnitPartSources = {
          movement: () => movement,
          charge: () => charge,
          rally: () => rally,
          fire: () => fire,
          pair,
          fireShapes: (unitId, options) => fireShapesOf(unitId, c, options, arrowsMoved),
        };
        const result = evaluateUnit(ctx, id, reading, sources);
        c.parts = { result, movement, charge, rally, fire, command: reading };
        partsByPlace[i] = result;
      }
      const assembled = assembleAfter(state, (place) => partsByPlace[place]!, command.shapes, assembly);
      assembly = assembled.memo;
      last = assembled.evaluation;
      return last;
    },
  };
}
