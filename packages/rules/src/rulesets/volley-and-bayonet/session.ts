/**
 * An incremental Volley & Bayonet evaluator. `update(state)` returns exactly what
 * `evaluateVolleyAndBayonet(state)` would, recomputing only what a change can touch:
 * - reading a unit (fields, markers, stand types, footprints): when the unit or one of its stands changes;
 * - command: per unit, when it changes; every unit when a superior commander's stand moves; artillery (which
 *   any commander of its side commands) when a changed unit's unit commander, before or after, comes within
 *   a stand's counting giver or the command radius of it (`standGiverIn`);
 * - movement: when the unit changes or its stands' command or its brigade's exhaustion changes, all of it;
 *   when a changed unit's (or commander's) old or new box comes within the unit's look (its longest move,
 *   doubled in road march, plus half a base: how far `blockersFor` reads enemy stands), only the rays of
 *   its stands that point toward a changed stand (`binsTowardBox`) and whose walked part, from the centre
 *   to where the ray stopped, meets the stand's box grown by half the moving base (the others keep their
 *   ends: a walk that meets nothing answers the same to the last bit, see `openWalkIn`);
 * - charges: per (charger unit, target unit) pair, as fire. All of a unit's pairs when it changes or its
 *   command or exhaustion changes. Else nothing unless a changed unit's old or new box, or the box of an
 *   enemy whose command or exhaustion changed, comes within the charge look (longest move + 2" + half a base
 *   + 1": `evaluateCharge`'s blockers and its "near enough to matter" test; plus the support distance and a
 *   gun's size around charged guns); then only the pairs of changed enemy units, of enemies whose command or
 *   exhaustion changed (the defender's stationary dice read them), and those whose walked paths (grown as
 *   blockers are) or struck gun's support box a changed area meets (`chargePairTouched`);
 * - fire: per (firer unit, target unit) pair, when either unit changes, the firer's command or exhaustion
 *   changes, or a changed unit or commander has its old or new box within reach of a sight line the pair
 *   traced (a pair settled by range and arc alone depends on the two units only). So an unchanged firer
 *   looks only at the pairs of changed enemy units (none when they were and are beyond its reach under the
 *   same name: `beyondFirersReach`) and at the pairs it keeps as traced, and only when a change comes near
 *   their lines. A pair traced again
 *   keeps the sight of each (firing stand, target stand) it traced before while both stands are the same
 *   objects and no changed stand's box, before or after, meets one of that pair's six lines (`keptSight`).
 *   A unit's assembled fire is kept when every pair traced again gives what it gave before (and its map of
 *   pairs too, when no pair was traced again);
 * - the sight grid (fire/sight.ts): the previous state's, with the changed stands moved to their new cells;
 * - formation: when the unit changes; morale: when the unit or its brigade's standing changes;
 * - danger zones: when a changed unit has a gun, or its old or new box meets a zone's box;
 * - rally and brigade exhaustion: every update (cheap).
 * Change is found by identity first and then by comparing plain data. A change of terrain, table,
 * parameters, the commanders list, the units' ids or order, any other top-level field, or a stand that
 * belongs to no unit or commander drops every cache.
 */
import type { Evaluation, FormationReading, MoraleReading } from '../../engine/evaluation.ts';
import type { RulesSession } from '../../engine/ruleset.ts';
import { samePlainData } from '../../engine/samePlainData.ts';
import { emptyBox, extendBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import type { Stand, TableState } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { chargeAtUnit, chargeSetup, evaluateCharge, type ChargeAtUnit, type ChargeResult, type ChargeSetup } from './charge.ts';
import { readFormation } from './formation.ts';
import { dangerZones, moraleReading, type BrigadeMorale, type DangerZones } from './morale.ts';
import { evaluateCommand, unitCommand, type CommandResult, type UnitCommand } from './command.ts';
import { boxesApart, type UnitReading, type VbContext, type VbStand, type VbUnit } from './context.ts';
import { evaluateVolleyAndBayonet } from './evaluate.ts';
import { beyondFirersReach, evaluateFire, fireAtUnit, fireSettings, firersOf, type FireAtUnit, type Firer, type FireResult, type FireSettings, type SightOf } from './fire/fire.ts';
import { carrySightScene, GUN_BLOCKED_REASON_UNASKED, sightLinesMeetBoxes, standSight } from './fire/sight.ts';
import { evaluateMovement, REACH_BINS, type KeepRay, type MovementResult } from './movement/movement.ts';
import { standRate } from './movement/standMovement.ts';
import { numberParameter } from '../../engine/rulesetFields.ts';
import { ARTILLERY_SUPPORT_PARAM } from './declarations.ts';
import { SUPERIOR_COMMAND_RADIUS_IN } from './tables/morale.ts';
import { ROAD_MARCH_CROSS_COUNTRY } from './tables/movementRates.ts';

/** The box diagonal of a 1.5 x 3" artillery base, with room for an odd-sized one (inches). */
const GUN_DIAGONAL_IN = 5;

/** Slack on every look distance (box arithmetic rounding). */
const LOOK_SLACK_IN = 0.01;

interface Caches {
  readonly state: TableState;
  readonly ctx: VbContext;
  readonly command: Map<string, UnitCommand>;
  /** Every unit's command put together (kept whole when no unit's command changed). */
  commandResult?: CommandResult;
  readonly movement: Map<string, MovementResult>;
  readonly charge: Map<string, ChargeResult>;
  /** Charger unit id → target unit id → that pair's charge (only the enemy units near enough to matter). */
  readonly chargePairs: Map<string, Map<string, ChargeAtUnit>>;
  readonly firers: Map<string, readonly Firer[]>;
  /** Firer unit id → target unit id → that pair's fire. */
  readonly fire: Map<string, Map<string, FireAtUnit>>;
  /** Per firer unit: its whole fire answer (kept when none of its pairs was traced again). */
  readonly fireResult: Map<string, FireResult>;
  /** Per firer unit: the box around every sight line any of its pairs traced. */
  readonly fireSight: Map<string, BoundingBoxIn | undefined>;
  /** Per firer unit: the target units whose pairs traced a sight line (only those read other units). */
  readonly traced: Map<string, readonly string[]>;
  /** Per unit: its stands' command flags and its brigade's exhaustion, as one key. */
  readonly signature: Map<string, string>;
  /** Per unit: its formation and morale readings, with the unit read and the brigade they were read with. */
  readonly readings: Map<string, { readonly info: VbUnit; readonly formation: FormationReading | undefined; readonly brigade: BrigadeMorale | undefined; readonly morale: MoraleReading | undefined }>;
  /** The guns' danger zones and the enemy units in them. */
  danger?: DangerZones;
  /** Per unit: how far its movement and its charges read other units (they change only with the unit). */
  readonly looks: Map<string, { readonly moveIn: number; readonly chargeIn: number; readonly supportIn: number; readonly rateIn: number }>;
}

/** A changed area of the table: a unit's or commander's old or new stands, and the sides it was on. */
interface Dirty {
  readonly box: BoundingBoxIn;
  readonly side: string;
}

const TOP_LEVEL_HANDLED = new Set(['units', 'stands', 'commanders']);

function sameTopLevel(a: TableState, b: TableState): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (TOP_LEVEL_HANDLED.has(k)) continue;
    if (!samePlainData((a as unknown as Record<string, unknown>)[k], (b as unknown as Record<string, unknown>)[k])) return false;
  }
  if (a.units.length !== b.units.length) return false;
  for (let i = 0; i < a.units.length; i++) if (a.units[i]!.id !== b.units[i]!.id) return false;
  return samePlainData(a.commanders, b.commanders);
}

/**
 * Ids of the stands that changed, appeared or went between two lists. Most updates keep the list's order
 * and most of its stand objects: those are settled by place and identity, without a map of every stand.
 */
function changedStandIds(before: readonly Stand[], after: readonly Stand[]): Set<string> {
  const changed = new Set<string>();
  let sameOrder = before.length === after.length;
  for (let i = 0; sameOrder && i < after.length; i++) {
    const s = after[i]!;
    const old = before[i]!;
    if (old === s) continue;
    if (old.id !== s.id) sameOrder = false;
    else if (!samePlainData(old, s)) changed.add(s.id);
  }
  if (sameOrder) return changed;
  changed.clear();
  const byId = new Map<string, Stand>();
  for (const s of before) byId.set(s.id, s);
  const ids = new Set<string>();
  for (const s of after) {
    ids.add(s.id);
    const old = byId.get(s.id);
    if (old !== s && (!old || !samePlainData(old, s))) changed.add(s.id);
  }
  for (const id of byId.keys()) if (!ids.has(id)) changed.add(id);
  return changed;
}

function unionBox(stands: readonly VbStand[]): BoundingBoxIn | undefined {
  if (stands.length === 0) return undefined;
  const acc = emptyBox();
  for (const s of stands) extendBox(acc, s.box);
  return acc;
}

/** How far the unit's movement reads enemy stands beyond its own box (see `blockersFor`). */
function movementLookIn(ctx: VbContext, info: VbUnit): number {
  let look = 0;
  for (const s of [...info.combatStands, ...info.unitCommanders]) {
    const rate = standRate(ctx, info, s);
    if ('missing' in rate) continue;
    const cross = rate.rateIn * (info.roadMarch && s.type !== 'command' ? ROAD_MARCH_CROSS_COUNTRY : 1);
    look = Math.max(look, cross + s.stand.depthIn / 2);
  }
  return look + LOOK_SLACK_IN;
}

/**
 * How far the unit's charges read other stands beyond its own box (see `evaluateCharge`): enemies within
 * its reach, and, only when an enemy gun is within its move, that gun's side's stands that may support it
 * (`artillerySupported`) further out; and its longest move.
 */
function chargeLooks(ctx: VbContext, info: VbUnit): { readonly chargeIn: number; readonly supportIn: number; readonly rateIn: number } {
  let look = 0;
  let rateIn = 0;
  const supportIn = numberParameter(ctx.state, ARTILLERY_SUPPORT_PARAM) ?? 0;
  for (const s of info.combatStands) {
    const rate = standRate(ctx, info, s);
    if ('missing' in rate) continue;
    look = Math.max(look, rate.rateIn + 2 + s.stand.depthIn / 2, rate.rateIn + 1);
    rateIn = Math.max(rateIn, rate.rateIn);
  }
  // A gun within reach (its box within rate + 1) and its supporters within `supportIn` of the gun's base:
  // read only when an enemy gun is within the unit's move (`evaluateCharge` strikes no stand beyond it).
  return { chargeIn: look + LOOK_SLACK_IN, supportIn: supportIn > 0 ? supportIn + GUN_DIAGONAL_IN : 0, rateIn: rateIn + LOOK_SLACK_IN };
}

/** Square of the distance from (x, y) to the segment (ax, ay)-(bx, by), square inches. */
function pointSegmentSqIn(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
  const ex = ax + dx * t - x;
  const ey = ay + dy * t - y;
  return ex * ex + ey * ey;
}

/** Square of the distance from (x, y) to a box (0 inside), square inches. */
function pointBoxSqIn(x: number, y: number, b: BoundingBoxIn): number {
  const ex = Math.max(b.minXIn - x, 0, x - b.maxXIn);
  const ey = Math.max(b.minYIn - y, 0, y - b.maxYIn);
  return ex * ex + ey * ey;
}

/**
 * Square of the distance from the segment (ax, ay)-(bx, by) to a box (0 when they meet), square inches:
 * compared with a squared reach, no square roots. Allocation-free.
 */
function segmentBoxDistanceSqIn(ax: number, ay: number, bx: number, by: number, box: BoundingBoxIn): number {
  const { minXIn: x0, minYIn: y0, maxXIn: x1, maxYIn: y1 } = box;
  // Clip the segment to the box (Liang-Barsky): any part left inside means they meet.
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  let meets = true;
  for (let k = 0; k < 4 && meets; k++) {
    const p = k === 0 ? -dx : k === 1 ? dx : k === 2 ? -dy : dy;
    const q = k === 0 ? ax - x0 : k === 1 ? x1 - ax : k === 2 ? ay - y0 : y1 - ay;
    if (p === 0) {
      if (q < 0) meets = false;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) meets = false;
      else if (r > t0) t0 = r;
    } else if (r < t0) meets = false;
    else if (r < t1) t1 = r;
  }
  if (meets) return 0;
  // Apart: the nearest pair is a segment end and the box, or a box corner and the segment.
  return Math.min(
    pointBoxSqIn(ax, ay, box),
    pointBoxSqIn(bx, by, box),
    pointSegmentSqIn(x0, y0, ax, ay, bx, by),
    pointSegmentSqIn(x1, y0, ax, ay, bx, by),
    pointSegmentSqIn(x1, y1, ax, ay, bx, by),
    pointSegmentSqIn(x0, y1, ax, ay, bx, by),
  );
}

function mergeBoxes(a: BoundingBoxIn, b: BoundingBoxIn): BoundingBoxIn {
  return { minXIn: Math.min(a.minXIn, b.minXIn), minYIn: Math.min(a.minYIn, b.minYIn), maxXIn: Math.max(a.maxXIn, b.maxXIn), maxYIn: Math.max(a.maxYIn, b.maxYIn) };
}

/** Whether a pair traced again gives what it gave before (then the unit's assembled answer still holds). */
function samePair(a: FireAtUnit, b: FireAtUnit): boolean {
  return a.screenUnitId === b.screenUnitId && samePlainData(a.entries, b.entries) && samePlainData(a.shapes, b.shapes) && samePlainData(a.missingSaves, b.missingSaves);
}

/** Whether a changed stand's box comes within the reach of traced line `k` (five numbers each, see `FireAtUnit`). */
function lineNearBoxes(lines: readonly number[], k: number, boxes: readonly BoundingBoxIn[]): boolean {
  const ax = lines[k]!, ay = lines[k + 1]!, bx = lines[k + 2]!, by = lines[k + 3]!;
  const reach = lines[k + 4]! + LOOK_SLACK_IN;
  for (const box of boxes) {
    // The boxes first (most lines run far from the change): apart by more than the reach on either axis
    // means apart by more than it.
    if (Math.min(ax, bx) - reach > box.maxXIn || Math.max(ax, bx) + reach < box.minXIn || Math.min(ay, by) - reach > box.maxYIn || Math.max(ay, by) + reach < box.minYIn) continue;
    if (segmentBoxDistanceSqIn(ax, ay, bx, by, box) <= reach * reach) return true;
  }
  return false;
}

/**
 * Sight for a pair traced again, answered from the sight it traced before where the same two stand objects
 * (neither changed) meet and no changed stand's box, before or after, comes within that line's reach or, if
 * one does, meets one of the six lines themselves: only a stand on a line, or the two ends, can change its
 * answer (every change since it was traced was checked the same way, or the pair would have been traced
 * again then).
 */
function keptSight(ctx: VbContext, cached: FireAtUnit, changedStands: readonly BoundingBoxIn[]): SightOf | undefined {
  const stands = cached.sightStands;
  const results = cached.sightResults;
  const lines = cached.sightLines;
  if (!stands || !results || !lines) return undefined;
  return (firer, target, artillery, reasonNeeded) => {
    for (let k = 0; k < results.length; k++) {
      if (stands[2 * k] !== firer || stands[2 * k + 1] !== target) continue;
      // A blocked answer traced without its reason serves only where none is asked.
      const r = results[k]!;
      if ((r !== GUN_BLOCKED_REASON_UNASKED || !reasonNeeded) && (!lineNearBoxes(lines, 5 * k, changedStands) || !sightLinesMeetBoxes(firer, target, changedStands, LOOK_SLACK_IN))) return r;
      break;
    }
    return standSight(ctx, firer, target, artillery, reasonNeeded);
  };
}

/**
 * Whether no box comes within any stand's reach box (its allowance plus half its depth around its centre,
 * as far as a ray and the grown bases that may stop it go): then an unchanged unit walks every ray as before.
 */
function reachUntouched(ctx: VbContext, m: MovementResult, boxes: readonly BoundingBoxIn[]): boolean {
  for (const r of m.stands) {
    const s = ctx.standById.get(r.standId);
    if (!s) return false;
    const c = s.center;
    const reach = r.allowanceIn + s.stand.depthIn / 2 + LOOK_SLACK_IN;
    for (const b of boxes) if (b.minXIn <= c.xIn + reach && b.maxXIn >= c.xIn - reach && b.minYIn <= c.yIn + reach && b.maxYIn >= c.yIn - reach) return false;
  }
  return true;
}

function near(dirty: readonly Dirty[], box: BoundingBoxIn | undefined, lookIn: number, side: string | undefined): boolean {
  if (!box) return false;
  for (const d of dirty) {
    if (side !== undefined && d.side === side) continue;
    if (!boxesApart(d.box, box, lookIn)) return true;
  }
  return false;
}

const BIN_RAD = (2 * Math.PI) / REACH_BINS;
const ALL_BINS = REACH_BINS === 32 ? 0xffffffff | 0 : (1 << REACH_BINS) - 1;

/**
 * The reach directions (bit b for bin b, counted counter-clockwise from `headingRad`) from `c` that can meet
 * `box` grown by `growIn`: those between the tangents to the disc around the box's centre through its
 * corners, grown, widened by a hair so a grazing ray is never dropped. Every bin when `c` is in the disc.
 */
function binsTowardBox(c: PointIn, headingRad: number, box: BoundingBoxIn, growIn: number): number {
  const dx = (box.minXIn + box.maxXIn) / 2 - c.xIn;
  const dy = (box.minYIn + box.maxYIn) / 2 - c.yIn;
  const d = Math.sqrt(dx * dx + dy * dy);
  const radius = (Math.hypot(box.maxXIn - box.minXIn, box.maxYIn - box.minYIn) / 2 + growIn) * (1 + 1e-9);
  if (d <= radius) return ALL_BINS;
  const mid = Math.atan2(dy, dx) - headingRad;
  const half = Math.asin(radius / d);
  const first = Math.ceil((mid - half) / BIN_RAD - 1e-6);
  const last = Math.floor((mid + half) / BIN_RAD + 1e-6);
  let bins = 0;
  for (let k = first; k <= last; k++) bins |= 1 << (((k % REACH_BINS) + REACH_BINS) % REACH_BINS);
  return bins;
}

/**
 * Whether the segment (ax, ay)-(bx, by) meets `box` grown by `growIn` on every side (a clipping of the
 * segment by the box's slabs). A grown base lies inside its box so grown.
 */
function segmentMeetsGrownBox(ax: number, ay: number, bx: number, by: number, box: BoundingBoxIn, growIn: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const minX = box.minXIn - growIn, maxX = box.maxXIn + growIn;
  const minY = box.minYIn - growIn, maxY = box.maxYIn + growIn;
  if (dx === 0) {
    if (ax < minX || ax > maxX) return false;
  } else {
    let ta = (minX - ax) / dx;
    let tb = (maxX - ax) / dx;
    if (ta > tb) [ta, tb] = [tb, ta];
    if (ta > t0) t0 = ta;
    if (tb < t1) t1 = tb;
    if (t0 > t1) return false;
  }
  if (dy === 0) return ay >= minY && ay <= maxY;
  let ta = (minY - ay) / dy;
  let tb = (maxY - ay) / dy;
  if (ta > tb) [ta, tb] = [tb, ta];
  if (ta > t0) t0 = ta;
  if (tb < t1) t1 = tb;
  return t0 <= t1;
}

/**
 * Whether a change can alter a kept charge pair: a changed enemy stand area (before or after) meets a path
 * the pair walked (there it may block), or any changed area meets the box its struck gun's supporters are
 * counted in. Nothing else of other units enters a pair (see `ChargeAtUnit`).
 */
function chargePairTouched(pair: ChargeAtUnit, moved: readonly Dirty[], side: string): boolean {
  if (pair.supportBox && near(moved, pair.supportBox, LOOK_SLACK_IN, undefined)) return true;
  const b = pair.pathBoxes;
  if (!b) return false;
  for (const d of moved) {
    if (d.side === side) continue;
    const x = d.box;
    for (let k = 0; k < b.length; k += 4) {
      if (x.minXIn <= b[k + 2]! + LOOK_SLACK_IN && x.maxXIn >= b[k]! - LOOK_SLACK_IN && x.minYIn <= b[k + 3]! + LOOK_SLACK_IN && x.maxYIn >= b[k + 1]! - LOOK_SLACK_IN) return true;
    }
  }
  return false;
}

export function createVolleyAndBayonetSession(): RulesSession {
  let caches: Caches | undefined;

  return {
    update(state: TableState): Evaluation {
      const prev = caches && sameTopLevel(caches.state, state) ? caches : undefined;
      const changedUnits = new Set<string>();
      const changedCommanderStands: string[] = [];
      let global = prev === undefined;
      if (prev) {
        // Stands that changed, appeared or went; each must belong to a unit or a commander.
        const changedStands = changedStandIds(prev.state.stands, state.stands);
        // Which changed stands a unit (before or after) or a commander owns: only those are looked up.
        const owned = new Set<string>();
        // The same unit objects (the usual frame: only stands moved): each changed stand the last context
        // read belongs to the unit it belonged to then, with no unit's list searched. A stand it did not
        // read (new, or nobody's) takes the full look below.
        let byLastContext = state.units.length === prev.state.units.length && state.units.every((u, i) => u === prev.state.units[i]);
        if (byLastContext) {
          for (const id of changedStands) {
            const st = prev.ctx.standById.get(id);
            if (!st) {
              byLastContext = false;
              break;
            }
            if (st.unitId !== undefined) {
              owned.add(id);
              changedUnits.add(st.unitId);
            }
          }
          if (!byLastContext) {
            owned.clear();
            changedUnits.clear();
          }
        }
        if (!byLastContext && changedStands.size > 0) {
          for (const units of [prev.state.units, state.units]) for (const u of units) for (const id of u.standIds) if (changedStands.has(id)) owned.add(id);
        }
        for (const c of state.commanders) {
          if (c.standId === undefined || !changedStands.has(c.standId)) continue;
          changedCommanderStands.push(c.standId);
          owned.add(c.standId);
        }
        for (const id of changedStands) if (!owned.has(id)) global = true;
        if (!byLastContext) {
          state.units.forEach((u, i) => {
            const old = prev.state.units[i]!;
            if (old !== u && !samePlainData(old, u)) changedUnits.add(u.id);
            else if (u.standIds.some((id) => changedStands.has(id))) changedUnits.add(u.id);
          });
        }
      }
      const base = global ? undefined : prev;
      // The sides the changed units were or are on (any commander of its side commands artillery).
      let sides: Set<string> | undefined;
      const changedSides = (): Set<string> => {
        if (!sides) {
          sides = new Set();
          for (const u of [...(base?.state.units ?? []), ...state.units]) if (changedUnits.has(u.id)) sides.add(u.side);
        }
        return sides;
      };
      // Whether a changed unit was or is on a side other than `side`.
      const otherSideChanged = (side: string): boolean => {
        for (const s of changedSides()) if (s !== side) return true;
        return false;
      };
      // The changed units' unit commanders, before and after (any of them may command artillery of its side).
      let giverBoxes: BoundingBoxIn[] | undefined;
      const giversMatter = (ctx: VbContext, info: VbUnit, cached: UnitCommand): boolean => {
        if (!giverBoxes) {
          giverBoxes = [];
          for (const uid of changedUnits) {
            for (const u of [base?.ctx.units.get(uid), ctx.units.get(uid)]) for (const s of u?.unitCommanders ?? []) giverBoxes.push(s.box);
          }
        }
        // A giver whose box stays farther from a stand than the stand's counting giver and than any command
        // radius is worse for it than that giver before and after: the stand's answer cannot change.
        const stands = info.combatStands;
        for (let i = 0; i < stands.length; i++) {
          const beyondIn = Math.max(cached.standGiverIn[i] ?? Infinity, SUPERIOR_COMMAND_RADIUS_IN) + LOOK_SLACK_IN;
          for (const b of giverBoxes) if (!boxesApart(b, stands[i]!.box, beyondIn)) return true;
        }
        return false;
      };
      const next: Caches = {
        state,
        ctx: undefined as unknown as VbContext,
        command: new Map(),
        movement: new Map(),
        charge: new Map(),
        chargePairs: new Map(),
        firers: new Map(),
        fire: new Map(),
        fireResult: new Map(),
        fireSight: new Map(),
        traced: new Map(),
        signature: new Map(),
        looks: new Map(),
        readings: new Map(),
      };
      // Filled in once the context and command are known.
      let moveDirty = (_info: VbUnit): boolean => true;
      let chargeDirty = (_info: VbUnit): boolean => true;
      let pairDirty = (_info: VbUnit, _target: VbUnit, _cached: FireAtUnit): boolean => true;
      let ctxNow: VbContext | undefined;
      // The box around a unit's stands in this state (set with the context).
      let unitBoxOf = (_info: VbUnit): BoundingBoxIn | undefined => undefined;
      let sigChanged = new Set<string>();
      // Every stand of a changed unit or commander, before and after.
      const changedStandBoxes: BoundingBoxIn[] = [];
      // The same stands, each with the side it was or is on.
      const changedStandAreas: Dirty[] = [];
      let movedNow: Dirty[] = [];
      // Set in `prepared` (and by `firers` for the fire settings), read by the part hooks after it.
      let movementOf: (info: VbUnit, keepFor?: (s: VbStand, allowanceIn: number) => KeepRay | undefined) => MovementResult = () => {
        throw new Error('movement before the context');
      };
      let chargeOf: (info: VbUnit, atUnit: (target: VbUnit) => ChargeAtUnit | undefined) => ChargeResult = () => {
        throw new Error('charge before the context');
      };
      let chargeSetupOf: (info: VbUnit) => ChargeSetup | undefined = () => {
        throw new Error('charge before the context');
      };
      let chargePairOf: (setup: ChargeSetup, info: VbUnit, target: VbUnit) => ChargeAtUnit | undefined = () => {
        throw new Error('charge before the context');
      };
      let pairOf: (info: VbUnit, firers: readonly Firer[], target: VbUnit, cached: FireAtUnit | undefined) => FireAtUnit = () => {
        throw new Error('fire before the context');
      };
      let fireOf: (info: VbUnit, settings: FireSettings, firers: readonly Firer[], atUnit: (firers: readonly Firer[], target: VbUnit) => FireAtUnit) => FireResult = () => {
        throw new Error('fire before the context');
      };

      // A firer unit's fire as kept for the next update: its firers, pairs, traced targets, the box around their
      // lines (the union of the traced pairs' boxes unless given) and its assembled answer.
      const keepFire = (id: string, firers: readonly Firer[], pairs: Map<string, FireAtUnit>, traced: readonly string[], result: FireResult, sight?: BoundingBoxIn): FireResult => {
        if (!sight) for (const t of traced) sight = sight ? mergeBoxes(sight, pairs.get(t)!.sightBox!) : pairs.get(t)!.sightBox;
        next.firers.set(id, firers);
        next.fire.set(id, pairs);
        next.traced.set(id, traced);
        next.fireSight.set(id, sight);
        next.fireResult.set(id, result);
        return result;
      };

      const evaluation = evaluateVolleyAndBayonet(state, {
        reuse: (u) => (base && !changedUnits.has(u.id) ? (base.ctx.readings.get(u.id) as UnitReading | undefined) : undefined),
        commandAll: (ctx) => {
          // Every unit's command, kept or found again; the whole answer is the last one when every unit's
          // is (no commander's stand moved, and the units are the same ones in the same order).
          let same = base?.commandResult !== undefined && changedCommanderStands.length === 0;
          for (const info of ctx.unitList) {
            const id = info.unit.id;
            const cached = base?.command.get(id);
            const artilleryTouched = info.category === 'artillery' && changedSides().has(info.unit.side) && cached !== undefined && giversMatter(ctx, info, cached);
            const fresh = !cached || changedUnits.has(id) || changedCommanderStands.length > 0 || artilleryTouched;
            const c = fresh ? unitCommand(ctx, info) : cached;
            if (c !== cached) same = false;
            next.command.set(id, c);
          }
          const result = same ? base!.commandResult! : evaluateCommand(ctx, (info) => next.command.get(info.unit.id)!);
          next.commandResult = result;
          return result;
        },
        prepared: (ctx, terrain, command, exhausted) => {
          ctxNow = ctx;
          if (base) carrySightScene(base.ctx, ctx);
          (next as { ctx: VbContext }).ctx = ctx;
          const signatureChanged = new Set<string>();
          sigChanged = signatureChanged;
          for (const info of ctx.unitList) {
            const id = info.unit.id;
            const x = exhausted(id);
            const keptKey = base?.signature.get(id);
            // The same command answer (so the same stands' flags) and exhaustion: the same key.
            if (keptKey !== undefined && next.command.get(id) === base!.command.get(id) && (keptKey[0] === 'x') === x) {
              next.signature.set(id, keptKey);
              continue;
            }
            let key = x ? 'x' : '-';
            for (const s of info.stands) key += command.standInCommand.get(s.stand.id) === true ? '1' : '0';
            next.signature.set(id, key);
            if (keptKey !== key) signatureChanged.add(id);
          }
          // Where the table changed: changed units' and commanders' old and new stands.
          const moved: Dirty[] = [];
          const commandOnly: Dirty[] = [];
          movedNow = moved;
          if (base) {
            for (const id of changedUnits) {
              for (const info of [base.ctx.units.get(id), ctx.units.get(id)]) {
                if (!info) continue;
                const box = unionBox(info.stands);
                if (box) moved.push({ box, side: info.unit.side });
                for (const st of info.stands) {
                  changedStandBoxes.push(st.box);
                  changedStandAreas.push({ box: st.box, side: info.unit.side });
                }
              }
            }
            for (const standId of changedCommanderStands) {
              for (const st of [base.ctx.standById.get(standId), ctx.standById.get(standId)]) {
                if (!st) continue;
                const area = { box: st.box, side: st.side };
                moved.push(area);
                changedStandBoxes.push(st.box);
                changedStandAreas.push(area);
              }
            }
            for (const id of signatureChanged) {
              const info = ctx.units.get(id);
              const box = info ? unionBox(info.stands) : undefined;
              if (info && box) commandOnly.push({ box, side: info.unit.side });
            }
          }
          const boxes = new Map<string, BoundingBoxIn | undefined>();
          const boxOf = (info: VbUnit): BoundingBoxIn | undefined => {
            if (!boxes.has(info.unit.id)) boxes.set(info.unit.id, unionBox(info.stands));
            return boxes.get(info.unit.id);
          };
          unitBoxOf = boxOf;
          for (const info of ctx.unitList) {
            const id = info.unit.id;
            const kept = base && !changedUnits.has(id) ? base.looks.get(id) : undefined;
            next.looks.set(id, kept ?? { moveIn: movementLookIn(ctx, info), ...chargeLooks(ctx, info) });
          }
          const own = (info: VbUnit): boolean => !base || changedUnits.has(info.unit.id) || signatureChanged.has(info.unit.id);
          moveDirty = (info) => own(info) || near(moved, boxOf(info), next.looks.get(info.unit.id)!.moveIn, info.unit.side);
          // Artillery stands (charged guns read their supporters), found once per update when first asked.
          let guns: VbStand[] | undefined;
          chargeDirty = (info) => {
            if (own(info)) return true;
            const looks = next.looks.get(info.unit.id)!;
            const box = boxOf(info);
            const side = info.unit.side;
            const wide = looks.chargeIn + looks.supportIn;
            if (!near(moved, box, wide, side) && !near(commandOnly, box, wide, side)) return false;
            if (near(moved, box, looks.chargeIn, side) || near(commandOnly, box, looks.chargeIn, side)) return true;
            // Only the supporters' look reaches a change: it matters only if an enemy gun is within the
            // unit's move now (a gun that moved there, or away, is a change within the nearer look).
            if (!box) return false;
            guns ??= ctx.allStands.filter((st) => st.type === 'artillery');
            return guns.some((g) => g.side !== side && !boxesApart(g.box, box, looks.rateIn));
          };
          // The changed units' and commanders' boxes, made when a pair first asks.
          let movedBoxes: BoundingBoxIn[] | undefined;
          pairDirty = (info, target, cached) => {
            if (!base || changedUnits.has(info.unit.id) || changedUnits.has(target.unit.id) || signatureChanged.has(info.unit.id)) return true;
            // Settled without a sight line (range and arc): only the two units decide it.
            if (cached.sightBox === undefined || !near(moved, cached.sightBox, LOOK_SLACK_IN, undefined)) return false;
            // A stand can cut a traced line only if its box comes within the line's reach of the centres' segment.
            const lines = cached.sightLines ?? [];
            movedBoxes ??= moved.map((d) => d.box);
            for (let k = 0; k < lines.length; k += 5) if (lineNearBoxes(lines, k, movedBoxes)) return true;
            return false;
          };
          // Movement and charges computed here read the context, terrain and command of this state.
          movementOf = (info, keepFor) => evaluateMovement(ctx, terrain, info, command.standInCommand, keepFor);
          chargeOf = (info, atUnit) => evaluateCharge(ctx, terrain, info, command.standInCommand, exhausted, atUnit);
          chargeSetupOf = (info) => chargeSetup(ctx, terrain, info, exhausted);
          chargePairOf = (setup, info, target) => chargeAtUnit(ctx, terrain, setup, info, target, command.standInCommand, exhausted);
          const settings = fireSettings(ctx).settings;
          pairOf = (info, firers, target, cached) => fireAtUnit(ctx, settings!, info, firers, target, command.standInCommand, exhausted, cached && base ? keptSight(ctx, cached, changedStandBoxes) : undefined);
          fireOf = (info, fireCfg, firers, atUnit) => evaluateFire(ctx, fireCfg, info, command.standInCommand, exhausted, atUnit, firers);
        },
        movement: (info) => {
          const id = info.unit.id;
          const cached = base?.movement.get(id);
          let m: MovementResult;
          if (cached && !moveDirty(info)) m = cached;
          // Only other units changed, and none within any of its stands' reach: every ray keeps its end.
          else if (cached && !changedUnits.has(id) && !sigChanged.has(id) && reachUntouched(ctxNow!, cached, changedStandBoxes)) m = cached;
          else if (cached && !changedUnits.has(id) && !sigChanged.has(id)) {
            // Only other units changed near it: each ray is walked again only if a changed stand (grown by
            // half this base's depth, as `blockersFor` grows it) could lie on it; the rest keep their ends.
            m = movementOf(info, (s, allowanceIn) => {
              const before = cached.stands.find((r) => r.standId === s.stand.id);
              if (!before || before.allowanceIn !== allowanceIn) return undefined;
              const grow = s.stand.depthIn / 2 + LOOK_SLACK_IN;
              // The changed stands within the stand's whole reach (every ray's box lies inside it), and the
              // rays that point toward one of them: the others keep their ends.
              const c = s.center;
              const r = allowanceIn + grow;
              const headingRad = (s.stand.pose.headingDeg * Math.PI) / 180;
              let bins = 0;
              let nearBoxes: BoundingBoxIn[] | undefined;
              for (const b of changedStandBoxes) {
                if (b.minXIn > c.xIn + r || b.maxXIn < c.xIn - r || b.minYIn > c.yIn + r || b.maxYIn < c.yIn - r) continue;
                (nearBoxes ??= []).push(b);
                bins |= binsTowardBox(c, headingRad, b, grow);
              }
              if (bins === 0) return (bin) => before.reach[bin];
              // Only the part of a ray it walked before can change: a stand that meets neither it nor the
              // ray's start, before or after, lies beyond where the ray stopped, which an added blocker there
              // cannot shorten.
              return (bin, from) => {
                const end = before.reach[bin]!;
                if (((bins >>> bin) & 1) === 0) return end;
                for (const b of nearBoxes!) if (segmentMeetsGrownBox(from.xIn, from.yIn, end.xIn, end.yIn, b, grow)) return undefined;
                return end;
              };
            });
          } else m = movementOf(info);
          next.movement.set(id, m);
          return m;
        },
        fire: (info, settings) => {
          const id = info.unit.id;
          const ctx = ctxNow!;
          const kept = base?.fireResult.get(id);
          const keptPairs = base?.fire.get(id);
          if (kept === undefined || keptPairs === undefined || changedUnits.has(id) || sigChanged.has(id)) {
            // The unit itself changed (or nothing is kept): every enemy unit's pair again, each with the
            // sights it traced before to answer from where they still hold.
            const firers = (base && !changedUnits.has(id) ? base.firers.get(id) : undefined) ?? firersOf(ctx, settings, info);
            const pairs = new Map<string, FireAtUnit>();
            const traced: string[] = [];
            if (firers.length > 0) {
              for (const target of ctx.unitList) {
                if (target.unit.side === info.unit.side || target.combatStands.length === 0) continue;
                const r = pairOf(info, firers, target, keptPairs?.get(target.unit.id));
                pairs.set(target.unit.id, r);
                if (r.sightBox) traced.push(target.unit.id);
              }
            }
            return keepFire(id, firers, pairs, traced, fireOf(info, settings, firers, (_f, target) => pairs.get(target.unit.id)!));
          }
          // Unchanged itself: only the pairs of changed enemy units, and the pairs whose traced lines a change
          // comes near, can answer differently (a pair settled by range and arc reads the two units alone).
          const firers = base!.firers.get(id)!;
          const keptTraced = base!.traced.get(id)!;
          // Target id → its pair now, for pairs looked at again (absent: gone as a target).
          let looked: Map<string, FireAtUnit | undefined> | undefined;
          let fresh = false;
          if (firers.length > 0 && otherSideChanged(info.unit.side)) {
            for (const c of changedUnits) {
              const target = ctx.units.get(c);
              const cached = keptPairs.get(c);
              if (!target || target.unit.side === info.unit.side || target.combatStands.length === 0) {
                // Not a target now: a pair it had goes.
                if (cached) ((looked ??= new Map()).set(c, undefined), (fresh = true));
                continue;
              }
              // Beyond the firers' reach before and after, under the same name: the same "out of range" answer
              // (see `beyondFirersReach`), with no pair read or compared.
              const before = cached && !cached.sightBox ? base!.ctx.units.get(c) : undefined;
              if (before && before.unit.name === target.unit.name && before.combatStands.length > 0 && beyondFirersReach(firers, before) && beyondFirersReach(firers, target)) continue;
              const r = pairOf(info, firers, target, cached);
              if (!cached || !samePair(cached, r)) fresh = true;
              // The same answer with no line traced, before or now: the kept pair stands for it.
              else if (!r.sightBox && !cached.sightBox) continue;
              (looked ??= new Map()).set(c, r);
            }
          }
          if (keptTraced.length > 0 && near(movedNow, base!.fireSight.get(id), LOOK_SLACK_IN, undefined)) {
            for (const t of keptTraced) {
              if (changedUnits.has(t)) continue;
              const target = ctx.units.get(t)!;
              const cached = keptPairs.get(t)!;
              if (!pairDirty(info, target, cached)) continue;
              const r = pairOf(info, firers, target, cached);
              // The same answer keeps the unit's assembled fire; the pair traced now is kept all the same (its
              // sights name the stands of this state, which the next update answers from).
              if (!samePair(cached, r)) fresh = true;
              (looked ??= new Map()).set(t, r);
            }
          }
          if (!looked) return keepFire(id, firers, keptPairs, keptTraced, kept, base!.fireSight.get(id));
          // One native copy of the kept pairs with the ones looked at written over it (the order of a unit's
          // pairs is never read: its fire is assembled by target, its box is a union).
          const pairs = new Map(keptPairs);
          const traced: string[] = [];
          for (const t of keptTraced) if (!looked.has(t)) traced.push(t);
          for (const [t, r] of looked) {
            if (r === undefined) pairs.delete(t);
            else {
              pairs.set(t, r);
              if (r.sightBox) traced.push(t);
            }
          }
          return keepFire(id, firers, pairs, traced, fresh ? fireOf(info, settings, firers, (_f, target) => pairs.get(target.unit.id)!) : kept);
        },
        // Both read the unit alone (the same object: read from an unchanged unit), the morale also its
        // brigade's standing and the commanders attached (a change of commanders drops every cache).
        formation: (info) => {
          const kept = base?.readings.get(info.unit.id);
          const formation = kept?.info === info && kept.formation ? kept.formation : readFormation(info);
          next.readings.set(info.unit.id, { info, formation, brigade: undefined, morale: undefined });
          return formation;
        },
        morale: (info, brigade) => {
          const kept = base?.readings.get(info.unit.id);
          const same = kept?.info === info && kept.morale !== undefined && (kept.brigade === brigade || (kept.brigade !== undefined && brigade !== undefined && samePlainData(kept.brigade, brigade)));
          const morale = same ? kept.morale! : moraleReading(ctxNow!, info, brigade);
          // Written out, not spread: this runs for every unit on every update.
          const formation = next.readings.get(info.unit.id)?.formation;
          next.readings.set(info.unit.id, { info, formation, brigade, morale });
          return morale;
        },
        // Kept while no changed unit is a gun's and none, before or after, meets a zone's box (only a gun's
        // own unit decides its zone; only enemy stands in a zone's box can be in the zone).
        danger: (ctx) => {
          const kept = base?.danger;
          let touched = kept === undefined;
          for (const id of changedUnits) {
            if (touched) break;
            for (const info of [base!.ctx.units.get(id), ctx.units.get(id)]) {
              if (info?.combatStands.some((st) => st.type === 'artillery')) touched = true;
            }
          }
          for (const d of movedNow) {
            if (touched) break;
            touched = kept!.zoneBoxes.some((z) => !boxesApart(d.box, z, LOOK_SLACK_IN));
          }
          const danger = touched ? dangerZones(ctx) : kept!;
          next.danger = danger;
          return danger;
        },
        charge: (info) => {
          const id = info.unit.id;
          const kept = base?.charge.get(id);
          const keptPairs = base?.chargePairs.get(id);
          if (kept === undefined || keptPairs === undefined || changedUnits.has(id) || sigChanged.has(id)) {
            // The unit itself changed (or nothing is kept): every enemy unit's pair again.
            const pairs = new Map<string, ChargeAtUnit>();
            let setup: ChargeSetup | undefined | null = null;
            const result = chargeOf(info, (target) => {
              if (setup === null) setup = chargeSetupOf(info);
              const r = setup ? chargePairOf(setup, info, target) : undefined;
              if (r) pairs.set(target.unit.id, r);
              return r;
            });
            next.chargePairs.set(id, pairs);
            next.charge.set(id, result);
            return result;
          }
          next.chargePairs.set(id, keptPairs);
          next.charge.set(id, kept);
          // Nothing changed within its whole charge look (nor the command of a unit there): all of it stands.
          // (A unit with no stands on the table has no box, no chargers and no pairs.)
          const unitBox = unitBoxOf(info);
          if (!unitBox || !chargeDirty(info)) return kept;
          // Unchanged itself: a pair answers differently only if its target changed (itself or its command), or
          // a changed enemy stand (before or after) comes near a path it walked or the gun it struck.
          let looked: Map<string, VbUnit | undefined> | undefined;
          const side = info.unit.side;
          const chargeIn = next.looks.get(id)!.chargeIn;
          for (const c of changedUnits) {
            const target = ctxNow!.units.get(c);
            const had = keptPairs.has(c);
            if (!target || target.unit.side === side || target.combatStands.length === 0) {
              if (had) (looked ??= new Map()).set(c, undefined);
              continue;
            }
            // Beyond the charge look of the unit's box now, and no pair before: still no pair.
            if (!had && boxesApart(unitBox, target.combatBox, chargeIn)) continue;
            (looked ??= new Map()).set(c, target);
          }
          for (const [t, pair] of keptPairs) {
            if (changedUnits.has(t)) continue;
            if (sigChanged.has(t) || chargePairTouched(pair, changedStandAreas, side)) (looked ??= new Map()).set(t, ctxNow!.units.get(t));
          }
          if (!looked) return kept;
          const setup = chargeSetupOf(info);
          const pairs = new Map(keptPairs);
          for (const [t, target] of looked) {
            const r = target && setup ? chargePairOf(setup, info, target) : undefined;
            if (r) pairs.set(t, r);
            else pairs.delete(t);
          }
          const result = chargeOf(info, (target) => pairs.get(target.unit.id));
          next.chargePairs.set(id, pairs);
          next.charge.set(id, result);
          return result;
        },
      });
      caches = next;
      return evaluation;
    },
  };
}
