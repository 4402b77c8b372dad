/**
 * An incremental Devil to Pay evaluator. `update(state)` returns exactly what `evaluateDevilToPay(state)`
 * would, recomputing only what a change can touch:
 * - formations: a unit's own stands and status;
 * - fire: per (firer, target) pair, again when either changes or the hull of a changed unit's old or new
 *   stands meets the convex hull of the firer's firing stands and the target's stands (every sight line
 *   lies in it, so only there can one be blocked); a pair settled before any sight line (out of arc or
 *   range) only when either changes. A unit's list of options again when one of its pairs was dropped or a
 *   changed unit is (or was) within its weapon's longest range (which enemies are candidates);
 * - movement: when the unit changes or a changed unit's old or new box meets what movementOptions read other
 *   units through (`movementDependsOnBox`: reach box and cull discs; without one, within its reach);
 * - charge: when the unit changes or a changed unit comes (or was) within its reach;
 * - rally: when the unit changes or a changed unit is (or was) nearer than its nearest enemy (a refusal,
 *   which the unit alone decides, only when the unit changes);
 * - command: per brigade, when one of its units (or the unit its commander is attached to) changed or its
 *   commander's stand moved;
 * - a unit's whole evaluation (its parts put together) only when one of those parts changed.
 * Change is found by identity first and then by comparing plain data, never by building JSON text. A
 * change of terrain, table, the commanders list, the order of units, any other top-level field, or a stand
 * belonging to no unit or commander drops every cache.
 */
import type { RulesSession } from '../../engine/ruleset.ts';
import type { CommandReading, DiceBreakdown, Evaluation, FireRefusal, FireTargetOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import { samePlainData } from '../../engine/samePlainData.ts';
import { buildContext, boxGapIn, standInfoOf, unionBoxes, type BoxIn, type DtpContext, type StandInfo, type UnitInfo } from './context.ts';
import { fireAtTarget, fireOptions, settledWithoutSight } from './fire/fire.ts';
import { firingStands } from './fire/eligibleStands.ts';
import { buildFireScene, type FireScene } from './fire/fireScene.ts';
import { fireShapes } from './fire/fireShapes.ts';
import { maxRangeIn, weaponRow } from './tables/fireTables.ts';
import { chargeOptions, type ChargeOptionsResult } from './charge.ts';
import { movementOptions } from './movement/movementOptions.ts';
import { movementDependsOnBox, type MovementResult } from './movement/movementResult.ts';
import { evaluateRally, nearestEnemyDistanceIn } from './rally.ts';
import { evaluateBrigade, evaluateCommand, type BrigadeCommand } from './command.ts';
import { recognizeFormation, type DtpFormationReading } from './formation.ts';
import { convexHull, pointsBoundingBox } from '../../geometry/polygon.ts';
import { polygonsOverlap } from '../../geometry/intersect.ts';
import { convexPolygonsMayOverlap } from '../../geometry/convexOverlap.ts';
import type { PointIn } from '../../model/units.ts';
import { assemble, evaluateUnit, type UnitPartSources, type UnitParts } from './evaluate.ts';
import { CHARGE_REACH_IN } from './tables/meleeTables.ts';
import { ENEMY_CLEARANCE_IN, FUDGE_MOVE_IN, MOUNTED_BONUS_IN, ROAD_MOVE_IN, movementAllowanceIn } from './tables/movementTables.ts';
import { hypot2 } from '../../geometry/hypot.ts';

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
/** Slack on the fire candidate distance (fire/fire.ts's `fireOptions` traces pairs whose box gap is within the longest range). */
const FIRE_LOOK_SLACK_IN = 0.01;

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
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Top-level fields of the state other than stands and units (table, terrain, commanders, options...). */
function sameGlobals(a: TableState, b: TableState): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const k in ra) if (k !== 'stands' && k !== 'units' && !samePlainData(ra[k], rb[k])) return false;
  for (const k in rb) if (k !== 'stands' && k !== 'units' && !(k in ra) && rb[k] !== undefined) return false;
  if (a.units.length !== b.units.length) return false;
  for (let i = 0; i < a.units.length; i++) if (a.units[i]!.id !== b.units[i]!.id) return false;
  return true;
}

interface UnitCache {
  unit: Unit;
  stands: readonly StandInfo[];
  box: BoxIn;
  /** Convex hull of the unit's stands (empty without stands): what a sight line must meet to be blocked by it. */
  hull: readonly PointIn[];
  /** Brigades whose command pass this unit feeds: its own, and its attached commander's. */
  brigades: readonly string[];
  /** Convex hull of the unit's firing stands (`firingStands`, fire/eligibleStands.ts: its own front rank without hits). */
  firingHull?: readonly PointIn[];
  /** The weapon's longest range, inches (-Infinity when the unit cannot fire at anything by itself). */
  fireReachIn: number;
  formation?: DtpFormationReading;
  movement?: MovementResult;
  charge?: ChargeOptionsResult;
  rally?: { result: DiceBreakdown | Refusal; nearestIn: number };
  fire?: (FireTargetOption | FireRefusal)[];
  fireShapes?: { options: readonly (FireTargetOption | FireRefusal)[]; shapes: readonly Shape[] };
  command?: CommandReading;
  /** The unit's evaluation and the parts it was put together from. */
  parts?: { result: UnitParts; movement: MovementResult; charge: ChargeOptionsResult; rally: DiceBreakdown | Refusal; fire: readonly (FireTargetOption | FireRefusal)[]; command: CommandReading };
}

/** A cached fire result with the convex hull of both units' stands: every sight line lies in it. */
interface PairEntry {
  readonly result: FireTargetOption | FireRefusal;
  /** Box of the corridor (empty for a result settled without sight lines). */
  readonly hullBox: BoxIn;
  /** The corridor itself, computed the first time a change comes near its box. */
  hull?: readonly PointIn[];
}

const EMPTY_BOX: BoxIn = { minXIn: Infinity, minYIn: Infinity, maxXIn: -Infinity, maxYIn: -Infinity };

/** Bounding box of a polygon (an empty one has min > max and meets nothing). */
const boxOfPolygon: (points: readonly PointIn[]) => BoxIn = pointsBoundingBox;

/** Whether two boxes meet, with polygonsOverlap's own tolerance to spare (a cheap reject before it). */
function boxesMeet(a: BoxIn, b: BoxIn): boolean {
  return !(a.maxXIn < b.minXIn - 0.01 || b.maxXIn < a.minXIn - 0.01 || a.maxYIn < b.minYIn - 0.01 || b.maxYIn < a.minYIn - 0.01);
}

/**
 * Whether a changed unit's hull can meet a pair's corridor: separating axes for the (convex) hulls, which
 * may say yes for hulls a hair apart (only more work), never no where they meet.
 */
function corridorsMeet(a: readonly PointIn[], b: readonly PointIn[]): boolean {
  return a.length >= 3 && b.length >= 3 ? convexPolygonsMayOverlap(a, b) : polygonsOverlap(a, b);
}

function diagIn(b: BoxIn): number {
  return hypot2(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn);
}

function fireReachOf(unit: Unit): number {
  const row = weaponRow(unit.weapon);
  return row ? maxRangeIn(row) : -Infinity;
}

/** A live Devil to Pay evaluator (see the module comment for what it recomputes). */
export function createDtpSession(): RulesSession {
  let previous: TableState | undefined;
  let units = new Map<string, UnitCache>();
  /** Fire results per firer, then per target. */
  let pairs = new Map<string, Map<string, PairEntry>>();
  let standInfos: ReadonlyMap<string, StandInfo> = new Map();
  let brigadeCache = new Map<string, BrigadeCommand>();
  let commanderStands = new Map<string, Stand>();
  let strayStands: readonly Stand[] = [];
  /** Stand ids of units, per `state.units` array (a tracker that keeps the array skips rebuilding it). */
  let unitStandIds: { units: readonly Unit[]; ids: ReadonlySet<string> } | undefined;
  /** The last result: returned as is when nothing at all changed (a still table re-sent every frame). */
  let last: Evaluation | undefined;

  const reset = (): void => {
    last = undefined;
    units = new Map();
    pairs = new Map();
    brigadeCache = new Map();
  };

  return {
    update(state: TableState): Evaluation {
      if (unitStandIds?.units !== state.units) unitStandIds = { units: state.units, ids: new Set(state.units.flatMap((u) => u.standIds)) };
      const ofUnits = unitStandIds.ids;

      // Stands of no unit: commanders' stands feed only their brigade's command pass; any other stray stand
      // (not a unit's, not a commander's) is treated like terrain. Terrain, table, commanders and stray
      // stands feed into every unit, and the order of units sets the order of options: any change there
      // starts afresh.
      const commanderOfStand = new Map<string, string>();
      for (const c of state.commanders) if (c.standId !== undefined) commanderOfStand.set(c.standId, c.id);
      const nextCommanderStands = new Map<string, Stand>();
      const stray: Stand[] = [];
      for (const st of state.stands) {
        if (ofUnits.has(st.id)) continue;
        const c = commanderOfStand.get(st.id);
        if (c !== undefined) nextCommanderStands.set(c, st);
        else stray.push(st);
      }
      if (
        previous === undefined ||
        !sameGlobals(previous, state) ||
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
        }
      }
      commanderStands = nextCommanderStands;

      const changedIds = new Set<string>();
      const ctx = buildContext(state, {
        reuseStand: (stand, hits) => {
          const prev = standInfos.get(stand.id);
          return prev && sameStand(prev.stand, prev.hits, stand, hits) ? prev : standInfoOf(stand, hits);
        },
        // Asked lazily, after the changed units are known below.
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

      // Which units changed (added, removed, moved, status), with their old and new boxes and hulls: only
      // these can newly block or clear a sight line.
      const changedBoxes: BoxIn[] = [];
      /** The side of the unit each changed box belongs to (its side then: old box, old side). */
      const changedSides: string[] = [];
      /** Sides of units that came onto or left the table (or changed side) in this update. */
      const presenceChangedSides = new Set<string>();
      const changedHulls: { hull: readonly PointIn[]; box: BoxIn }[] = [];
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
          changedSides.push(c.unit.side);
        }
        if (info.stands.length > 0) {
          changedBoxes.push(info.box);
          changedSides.push(info.unit.side);
        }
        const hull = info.stands.length > 0 ? convexHull(info.stands.flatMap((st) => st.corners)) : [];
        if (c && c.hull.length > 0) changedHulls.push({ hull: c.hull, box: boxOfPolygon(c.hull) });
        if (hull.length > 0) changedHulls.push({ hull, box: boxOfPolygon(hull) });
        units.set(id, { unit: info.unit, stands: info.stands, box: info.box, hull, brigades, fireReachIn: fireReachOf(info.unit) });
      }
      units.forEach((c, id) => {
        if (ctx.units.has(id)) return;
        changedIds.add(id);
        presenceChangedSides.add(c.unit.side);
        for (const b of c.brigades) brigadeCache.delete(b);
        if (c.box.minXIn <= c.box.maxXIn) {
          changedBoxes.push(c.box);
          changedSides.push(c.unit.side);
        }
        if (c.hull.length > 0) changedHulls.push({ hull: c.hull, box: boxOfPolygon(c.hull) });
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
      /** Whether a changed unit of another side than `side` is (or was) within `withinIn` of the box. */
      const changedEnemyNear = (box: BoxIn, side: string, withinIn: number): boolean => {
        for (let i = 0; i < changedBoxes.length; i++) if (changedSides[i] !== side && boxGapIn(box, changedBoxes[i]!) <= withinIn) return true;
        return false;
      };

      const pairHull = (f: string, t: string): readonly PointIn[] => convexHull([...firingHullOf(f), ...units.get(t)!.hull]);
      const firingHullOf = (id: string): readonly PointIn[] => {
        const c = units.get(id)!;
        if (!c.firingHull) {
          const corners = firingStands(ctx, id).flatMap((st) => st.corners);
          c.firingHull = corners.length > 0 ? convexHull(corners) : [];
        }
        return c.firingHull;
      };

      // Drop fire pairs a change can touch: either unit changed, or the hull of a changed unit's stands
      // (old or new) meets the pair's sight corridor. A stand can block a line only by meeting it, and it
      // lies in its unit's hull, so hull against corridor is exact where the unit's box (wider for a unit
      // at an angle) was not. The boxes reject most pairs before the polygon test. A firer that lost a pair
      // has its options listed again.
      const fireDirty = new Set<string>();
      /** Results of dropped pairs: a pair traced again to an equal result keeps the old object (see `pair`). */
      const dropped = new Map<string, Map<string, PairEntry>>();
      if (changedIds.size > 0) {
        // forEach, not for-of with destructuring: no [key, value] array per entry (a few hundred per update).
        pairs.forEach((byTarget, firer) => {
          if (changedIds.has(firer)) {
            pairs.delete(firer);
            dropped.set(firer, byTarget);
            return;
          }
          byTarget.forEach((p, target) => {
            let drop = changedIds.has(target);
            for (let i = 0; !drop && i < changedHulls.length; i++) {
              const ch = changedHulls[i]!;
              // Firer and target are unchanged here, so their hulls now are those the result was traced with.
              drop = boxesMeet(ch.box, p.hullBox) && corridorsMeet(ch.hull, (p.hull ??= pairHull(firer, target)));
            }
            if (drop) {
              byTarget.delete(target);
              fireDirty.add(firer);
              let d = dropped.get(firer);
              if (!d) dropped.set(firer, (d = new Map()));
              d.set(target, p);
            }
          });
        });
      }

      // The fire scene (sight lines) is built only when a pair has to be traced again.
      let scene: FireScene | undefined;
      const sceneOf = (c: DtpContext): FireScene => (scene ??= buildFireScene(c));
      const pair = (f: string, t: string): FireTargetOption | FireRefusal => {
        let byTarget = pairs.get(f);
        const cached = byTarget?.get(t);
        if (cached) return cached.result;
        let result = fireAtTarget(ctx, sceneOf(ctx), f, t);
        // Traced again to the same answer (the usual case when a third unit moves near the line): keep the
        // old object, so the firer's options, shapes and evaluation stay as they were.
        const old = dropped.get(f)?.get(t)?.result;
        if (old !== undefined && samePlainData(old, result)) result = old;
        // A result settled without sight lines depends on the two units only: an empty hull meets nothing.
        // Otherwise every sight line runs from a firing stand (front rank, no hits: firingStands,
        // which depends on the firer alone) to a target stand, so it lies in the hull of those stands: the
        // corridor other units must meet to change the result.
        // The hull of the two units' hulls is the hull of all their corners, from far fewer points.
        // The corridor's box is the union of the firing stands' and the target's boxes (hull and points
        // share a bounding box); the hull is left until a change comes near.
        if (!byTarget) pairs.set(f, (byTarget = new Map()));
        if (settledWithoutSight(result)) byTarget.set(t, { result, hullBox: EMPTY_BOX, hull: [] });
        else byTarget.set(t, { result, hullBox: unionBoxes([...firingStands(ctx, f).map((st) => st.box), ctx.units.get(t)!.box]) });
        return result;
      };

      const movementOf = (id: string, c: UnitCache, info: UnitInfo): MovementResult => {
        // What movementOptions actually read other units through when it says so (the reach box, then the
        // discs its direction and fudge culls pass: much tighter than the radius bound).
        let stale = !c.movement;
        for (let i = 0; !stale && i < changedBoxes.length; i++) {
          const meets = movementDependsOnBox(c.movement!, changedBoxes[i]!);
          if (meets === undefined) {
            stale = changedNear(info.box, movementLookIn(info, ctx.formationOf(id)));
            break;
          }
          stale = meets;
        }
        if (stale) c.movement = movementOptions(ctx, id);
        return c.movement!;
      };
      const chargeOf = (id: string, c: UnitCache, info: UnitInfo): ChargeOptionsResult => {
        if (!c.charge || changedNear(info.box, CHARGE_LOOK_IN)) c.charge = chargeOptions(ctx, id);
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
        // Candidates are enemies within range: a friend's move reaches the list only through a dropped pair.
        if (!c.fire || fireDirty.has(id) || enemyPresenceChanged(info.unit.side) || changedEnemyNear(info.box, info.unit.side, c.fireReachIn + FIRE_LOOK_SLACK_IN)) {
          const options = fireOptions(ctx, id, pair);
          // Listed again but the same options (the usual case for a unit in range of a move): keep the old
          // list, so the unit's evaluation is reused as is.
          if (!c.fire || options.length !== c.fire.length || options.some((o, i) => o !== c.fire![i])) c.fire = options;
        }
        return c.fire;
      };
      const fireShapesOf = (id: string, c: UnitCache, options: readonly (FireTargetOption | FireRefusal)[]): readonly Shape[] => {
        const prev = c.fireShapes;
        // Arrows run to the target's nearest stand: a moved target redraws them even when its option (kept as
        // the same object because it reads the same) did not change.
        if (
          prev &&
          !changedIds.has(id) &&
          prev.options.length === options.length &&
          prev.options.every((o, i) => o === options[i] && !(o.ok && changedIds.has(o.targetUnitId)))
        ) {
          return prev.shapes;
        }
        const shapes = fireShapes(ctx, id, options);
        c.fireShapes = { options, shapes };
        return shapes;
      };

      // Command per brigade: a brigade is recomputed only when one of its units (or the unit its commander
      // is attached to) changed.
      const command = evaluateCommand(ctx, (brigadeId, members) => {
        let r = brigadeCache.get(brigadeId);
        if (!r) {
          r = evaluateBrigade(ctx, brigadeId, members);
          brigadeCache.set(brigadeId, r);
        }
        return r;
      });

      const parts = new Map<string, UnitParts>();
      for (const u of state.units) {
        const id = u.id;
        const c = units.get(id)!;
        const info = ctx.units.get(id)!;
        const movement = movementOf(id, c, info);
        const charge = chargeOf(id, c, info);
        const rally = rallyOf(id, c, info);
        const fire = fireOf(id, c, info);
        let reading = command.readings.get(id)!;
        if (c.command && samePlainData(c.command, reading)) reading = c.command;
        else c.command = reading;
        const p = c.parts;
        // Fire arrows end at the target's stands: a moved target redraws them (see fireShapesOf).
        const arrowsMoved = fire.some((o) => o.ok && changedIds.has(o.targetUnitId));
        if (p && !changedIds.has(id) && !arrowsMoved && p.movement === movement && p.charge === charge && p.rally === rally && p.fire === fire && p.command === reading) {
          parts.set(id, p.result);
          continue;
        }
        const sources: UnitPartSources = {
          movement: () => movement,
          charge: () => charge,
          rally: () => rally,
          fire: () => fire,
          pair,
          fireShapes: (unitId, options) => fireShapesOf(unitId, c, options),
        };
        const result = evaluateUnit(ctx, id, reading, sources);
        c.parts = { result, movement, charge, rally, fire, command: reading };
        parts.set(id, result);
      }
      last = assemble(state, parts, command.shapes);
      return last;
    },
  };
}
