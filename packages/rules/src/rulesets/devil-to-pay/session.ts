/**
 * An incremental Devil to Pay evaluator. `update(state)` returns exactly what `evaluateDevilToPay(state)`
 * would, recomputing only what a change can touch:
 * - formations: a unit's own stands and status;
 * - fire: per (firer, target) pair, again when either changes or the hull of a changed unit's old or new
 *   stands meets the convex hull of the firer's firing stands and the target's stands (every sight line
 *   lies in it, so only there can one be blocked); a pair
 *   settled before any sight line (out of arc or range) only when either changes;
 * - movement: when the unit changes or a changed unit's old or new box meets what movement.ts read other
 *   units through (`movementDependsOnBox`: reach box and cull discs; without one, within its reach);
 * - charge: when the unit changes or a changed unit comes (or was) within its reach;
 * - rally: when the unit changes or a changed unit is (or was) nearer than its nearest enemy (a refusal,
 *   which the unit alone decides, only when the unit changes);
 * - command (brigade-wide) and target priority: every update, they are cheap.
 * - a commander's stand moving: only his brigade's command pass.
 * A change of terrain, table, the commanders list, or a stand belonging to no unit or commander drops every cache.
 */
import type { RulesSession } from '../../engine/ruleset.ts';
import type { DiceBreakdown, Evaluation, FireRefusal, FireTargetOption, Refusal } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import { buildContext, boxGapIn, standInfoOf, type BoxIn, type StandInfo, type UnitInfo } from './context.ts';
import { buildFireScene, fireAtTarget, firingStands, settledWithoutSight } from './fire.ts';
import { fireShapes } from './fireShapes.ts';
import { chargeOptions, type ChargeOptionsResult } from './charge.ts';
import { movementDependsOnBox, movementOptions, type MovementResult } from './movement.ts';
import { evaluateRally, nearestEnemyDistanceIn } from './rally.ts';
import { evaluateBrigade, evaluateCommand, type BrigadeCommand } from './command.ts';
import { recognizeFormation, type DtpFormationReading } from './formation.ts';
import { convexHull, pointsBoundingBox } from '../../geometry/polygon.ts';
import { polygonsOverlap } from '../../geometry/intersect.ts';
import type { PointIn } from '../../model/units.ts';
import { assemble, evaluateUnit, type UnitPartSources, type UnitParts } from './index.ts';
import { CHARGE_REACH_IN } from './meleeTables.ts';
import { ENEMY_CLEARANCE_IN, FUDGE_MOVE_IN, MOUNTED_BONUS_IN, ROAD_MOVE_IN, movementAllowanceIn } from './movementTables.ts';

/**
 * How far movement can look beyond a unit's box, inches: its allowance (the road allowance for march
 * columns and limbered guns, 'unknown' moves as line, with the mounted bonus), the 1" enemy clearance, the
 * unit's own size (movement.ts measures reach from the reference stand) and a 1" margin.
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

function standKey(s: Stand, hits: number): string {
  return `${s.id}|${s.unitId}|${s.pose.xIn}|${s.pose.yIn}|${s.pose.headingDeg}|${s.widthIn}|${s.depthIn}|${s.role}|${hits}`;
}

/** Field by field what `standKey` compares as text, without building the strings (most stands are unchanged). */
function same(x: unknown, y: unknown): boolean {
  return x === y || String(x) === String(y);
}

function sameStand(a: Stand, aHits: number, b: Stand, bHits: number): boolean {
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

/** A serial per stand info: a reused info means an unchanged stand (see `reuseStand`). */
const INFO_SERIAL = new WeakMap<StandInfo, number>();
let nextSerial = 0;
function serialOf(info: StandInfo): number {
  let n = INFO_SERIAL.get(info);
  if (n === undefined) INFO_SERIAL.set(info, (n = nextSerial++));
  return n;
}

/** Everything about a unit that its own rule results depend on: its fields, and which (unchanged) stands. */
function unitKey(unit: Unit, stands: readonly StandInfo[]): string {
  let key = JSON.stringify(unit) + '#';
  for (const s of stands) key += serialOf(s) + ',';
  return key;
}

interface UnitCache {
  key: string;
  box: BoxIn;
  /** Convex hull of the unit's stands (empty without stands): what a sight line must meet to be blocked by it. */
  hull: readonly PointIn[];
  /** Brigades whose command pass this unit feeds: its own, and its attached commander's. */
  brigades: readonly string[];
  formation?: DtpFormationReading;
  movement?: MovementResult;
  charge?: ChargeOptionsResult;
  rally?: { result: DiceBreakdown | Refusal; nearestIn: number };
  fireShapes?: { options: readonly (FireTargetOption | FireRefusal)[]; shapes: readonly Shape[] };
}

/** Bounding box of a polygon (an empty one has min > max and meets nothing). */
const boxOfPolygon: (points: readonly PointIn[]) => BoxIn = pointsBoundingBox;

/** Whether two boxes meet, with polygonsOverlap's own tolerance to spare (a cheap reject before it). */
function boxesMeet(a: BoxIn, b: BoxIn): boolean {
  return !(a.maxXIn < b.minXIn - 0.01 || b.maxXIn < a.minXIn - 0.01 || a.maxYIn < b.minYIn - 0.01 || b.maxYIn < a.minYIn - 0.01);
}

function diagIn(b: BoxIn): number {
  return Math.hypot(b.maxXIn - b.minXIn, b.maxYIn - b.minYIn);
}

/** A live Devil to Pay evaluator (see the module comment for what it recomputes). */
export function createDtpSession(): RulesSession {
  let globalKey = '';
  let units = new Map<string, UnitCache>();
  /** Fire results per firer/target, with the convex hull of both units' stands: every sight line lies in it. */
  let pairs = new Map<string, { result: FireTargetOption | FireRefusal; hull: readonly PointIn[]; hullBox: BoxIn; firer: string; target: string }>();
  let standInfos = new Map<string, StandInfo>();
  let brigadeCache = new Map<string, BrigadeCommand>();
  let commanderStandKeys = new Map<string, string>();
  /** The last result: returned as is when nothing at all changed (a still table re-sent every frame). */
  let last: Evaluation | undefined;

  return {
    update(state: TableState): Evaluation {
      // Stands of no unit: commanders' stands feed only their brigade's command pass; any other stray stand
      // (not a unit's, not a commander's) is treated like terrain.
      const unitStandIds = new Set(state.units.flatMap((u) => u.standIds));
      const commanderOfStand = new Map(state.commanders.flatMap((c) => (c.standId !== undefined ? [[c.standId, c] as const] : [])));
      const nextCommanderStandKeys = new Map<string, string>();
      let strayKey = '';
      for (const st of state.stands) {
        if (unitStandIds.has(st.id)) continue;
        const c = commanderOfStand.get(st.id);
        if (c) nextCommanderStandKeys.set(c.id, standKey(st, 0));
        else strayKey += standKey(st, 0) + ';';
      }
      // Terrain, table, commanders and stray stands feed into every unit, and the order of units sets the
      // order of options: any change there starts afresh.
      const gk = JSON.stringify([state.version, state.table, state.terrain, state.commanders, strayKey, state.units.map((u) => u.id)]);
      if (gk !== globalKey) {
        globalKey = gk;
        last = undefined;
        units = new Map();
        pairs = new Map();
        brigadeCache = new Map();
      }
      for (const c of state.commanders) {
        if (commanderStandKeys.get(c.id) !== nextCommanderStandKeys.get(c.id)) {
          brigadeCache.delete(c.brigadeId);
          last = undefined;
        }
      }
      commanderStandKeys = nextCommanderStandKeys;

      const nextStandInfos = new Map<string, StandInfo>();
      const ctx = buildContext(state, {
        reuseStand: (stand, hits) => {
          const prev = standInfos.get(stand.id);
          const info = prev && sameStand(prev.stand, prev.hits, stand, hits) ? prev : standInfoOf(stand, hits);
          nextStandInfos.set(stand.id, info);
          return info;
        },
        recognizeFormation: (unit, stands) => {
          const c = units.get(unit.id);
          if (c?.formation && c.key === currentKeys.get(unit.id)) return c.formation;
          const f = recognizeFormation(unit, stands);
          if (c && c.key === currentKeys.get(unit.id)) c.formation = f;
          return f;
        },
      });
      standInfos = nextStandInfos;

      // Which units changed (added, removed, moved, status), with their old and new boxes.
      const currentKeys = new Map<string, string>();
      const changedBoxes: BoxIn[] = [];
      /** Old and new hulls of changed units' stands, with their boxes: only these can newly block or clear a sight line. */
      const changedHulls: { hull: readonly PointIn[]; box: BoxIn }[] = [];
      const changedIds = new Set<string>();
      const brigadeTags = (unit: Unit, attachedCommanderId: string | undefined): string[] => {
        const tags = unit.brigadeId !== undefined ? [unit.brigadeId] : [];
        const cb = attachedCommanderId !== undefined ? ctx.commanders.get(attachedCommanderId)?.commander.brigadeId : undefined;
        if (cb !== undefined) tags.push(cb);
        return tags;
      };
      for (const info of ctx.units.values()) {
        const key = unitKey(info.unit, info.stands);
        currentKeys.set(info.unit.id, key);
        const c = units.get(info.unit.id);
        if (c && c.key === key) continue;
        changedIds.add(info.unit.id);
        const brigades = brigadeTags(info.unit, info.attachedCommanderId);
        for (const b of [...(c?.brigades ?? []), ...brigades]) brigadeCache.delete(b);
        if (c && c.box.minXIn <= c.box.maxXIn) changedBoxes.push(c.box);
        if (info.stands.length > 0) changedBoxes.push(info.box);
        const hull = info.stands.length > 0 ? convexHull(info.stands.flatMap((st) => st.corners)) : [];
        if (c && c.hull.length > 0) changedHulls.push({ hull: c.hull, box: boxOfPolygon(c.hull) });
        if (hull.length > 0) changedHulls.push({ hull, box: boxOfPolygon(hull) });
        units.set(info.unit.id, { key, box: info.box, hull, brigades });
      }
      for (const [id, c] of units) {
        if (ctx.units.has(id)) continue;
        changedIds.add(id);
        for (const b of c.brigades) brigadeCache.delete(b);
        if (c.box.minXIn <= c.box.maxXIn) changedBoxes.push(c.box);
        if (c.hull.length > 0) changedHulls.push({ hull: c.hull, box: boxOfPolygon(c.hull) });
        units.delete(id);
      }
      if (last && changedIds.size === 0) return last;
      const changedNear = (box: BoxIn, withinIn: number): boolean => changedBoxes.some((b) => boxGapIn(box, b) <= withinIn);

      // Drop fire pairs a change can touch: either unit changed, or the hull of a changed unit's stands
      // (old or new) meets the pair's sight corridor. A stand can block a line only by meeting it, and it
      // lies in its unit's hull, so hull against corridor is exact where the unit's box (wider for a unit
      // at an angle) was not. The boxes reject most pairs before the polygon test.
      if (changedIds.size > 0) {
        for (const [key, p] of pairs) {
          if (changedIds.has(p.firer) || changedIds.has(p.target)) {
            pairs.delete(key);
            continue;
          }
          if (p.hull.length === 0) continue;
          for (const ch of changedHulls) {
            if (boxesMeet(ch.box, p.hullBox) && polygonsOverlap(ch.hull, p.hull)) {
              pairs.delete(key);
              break;
            }
          }
        }
      }

      const scene = buildFireScene(ctx);
      const cacheOf = (id: string): UnitCache => units.get(id)!;
      const sources: UnitPartSources = {
        movement(id) {
          const c = cacheOf(id);
          const info = ctx.units.get(id) as UnitInfo;
          // What movement.ts actually read other units through when it says so (the reach box, then the
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
        },
        charge(id) {
          const c = cacheOf(id);
          if (!c.charge || changedNear(ctx.units.get(id)!.box, CHARGE_LOOK_IN)) c.charge = chargeOptions(ctx, id);
          return c.charge;
        },
        rally(id) {
          const c = cacheOf(id);
          if (!c.rally || changedNear(ctx.units.get(id)!.box, c.rally.nearestIn)) {
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
        },
        pair(f, t) {
          const key = `${f}\u0000${t}`;
          const cached = pairs.get(key);
          if (cached) return cached.result;
          const result = fireAtTarget(ctx, scene, f, t);
          // A result settled without sight lines depends on the two units only: an empty hull meets nothing.
          // Otherwise every sight line runs from a firing stand (front rank, no hits: fire.ts's firingStands,
          // which depends on the firer alone) to a target stand, so it lies in the hull of those stands: the
          // corridor other units must meet to change the result.
          const corners = settledWithoutSight(result) ? [] : [...firingStands(ctx, f), ...ctx.units.get(t)!.stands].flatMap((st) => st.corners);
          const hull = corners.length > 0 ? convexHull(corners) : [];
          pairs.set(key, { result, hull, hullBox: boxOfPolygon(hull), firer: f, target: t });
          return result;
        },
        fireShapes(id, options) {
          const c = cacheOf(id);
          const prev = c.fireShapes;
          if (prev && !changedIds.has(id) && prev.options.length === options.length && prev.options.every((o, i) => o === options[i])) {
            return prev.shapes;
          }
          const shapes = fireShapes(ctx, id, options);
          c.fireShapes = { options, shapes };
          return shapes;
        },
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
      for (const u of state.units) parts.set(u.id, evaluateUnit(ctx, scene, u.id, command.readings.get(u.id)!, sources));
      last = assemble(state, parts, command.shapes);
      return last;
    },
  };
}
