/**
 * An incremental Regimental Fire and Fury evaluator. `update(state)` returns exactly what
 * `evaluateFireAndFuryRegimental(state)` would, recomputing only what a change can touch:
 * - a unit's facts (stands, footprints, formation), fresh/worn/spent and fire setup: when the unit changes;
 * - command: per unit when the unit changes; every unit when a leader's place changes (a commander's own
 *   stand, or the unit a commander is attached to);
 * - the maneuver check: when the unit or its command changes;
 * - movement: when the unit changes or a changed unit of another side is (or was) in the box its reach
 *   looked in (`MovementResult.lookBox`);
 * - fire, per (firer, target) pair: when either changes; a pair settled by the two units alone (out of range
 *   by their boxes, limbered, silenced) only then; a pair whose sight lines were traced also when a changed
 *   unit is (or was) in the box of both units (every sight line lies in it); an option also when one is
 *   where massed friends behind the target or a leader within 4" of it would be (`massedLookBox`);
 * - charge, per (charger, target) pair: when either or the command of either changes; a traced path also
 *   when a changed unit is (or was) in the box of both units; the charge reach when a changed enemy is in
 *   the box it looked in;
 * - a leader's own reach (`leaderMovement.ts`): when a changed enemy is (or was) in his box grown by his move;
 * - a unit's lists, shapes and warnings are put together again only when one of its parts changed.
 * Any change of terrain, table, parameters, commanders, any other top-level field, the order of units or
 * stands, or a stand of no unit drops every cache.
 */
import type { ChargeRefusal, Evaluation, EvaluationWarning, FireRefusal, UnitEvaluation } from '../../engine/evaluation.ts';
import type { RulesSession } from '../../engine/ruleset.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import { emptyBox, extendBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { samePlainData } from '../../engine/samePlainData.ts';
import { buildSightScene, type SightScene } from '../../geometry/lineOfSight.ts';
import { buildContext, unitInfoOf, WarningSink, type FfrContext, type FfrUnitInfo } from './context.ts';
import { commandCircles, leaderPlaces, unitCommand, type LeaderPlace, type UnitCommand } from './command.ts';
import { leaderReach, type LeaderReach } from './leaderMovement.ts';
import { evaluateMorale, type Effectiveness, type MoraleResult } from './morale.ts';
import { evaluateMovement, lookBoxOf, type MovementResult } from './movement.ts';
import { fireArcShape, fireAtTarget, fireSetup, massedLookBox, type FfrFireOption, type FireSetup } from './fire.ts';
import { chargeAtTarget, chargeReachShape, chargeSetup, type ChargeSetup, type FfrChargeOption } from './charge.ts';
import { maneuverCheck } from './maneuver.ts';
import { FFR_RULESET_ID, formationWarning, noStandsEvaluation, type FfrUnitEvaluation } from './evaluate.ts';
import { FALLEN_LEADER_WITHIN_IN } from './tables/fireTables.ts';
import { sameTableGlobals } from '../../engine/sameTableGlobals.ts';

/** A pair's answer with what it depends on beyond the two units: a box a changed unit must stay out of. */
interface PairEntry<R> {
  readonly targetId: string;
  readonly result: R;
  readonly shape?: Shape;
  /** Absent: the two units alone decide it. */
  readonly dependsOn?: BoundingBoxIn;
  /** Warnings the pair raised (fire only). */
  readonly sink?: WarningSink;
}

type FirePair = PairEntry<FfrFireOption | FireRefusal>;
type ChargePair = PairEntry<FfrChargeOption | ChargeRefusal>;

interface UnitCache {
  unit: Unit;
  /** The unit's stands on the table, in `standIds` order. */
  stands: readonly Stand[];
  info?: FfrUnitInfo;
  morale?: MoraleResult;
  moraleSink?: WarningSink;
  command?: { command: UnitCommand; link?: Shape };
  movement?: MovementResult;
  fire?: { setup: FireSetup | undefined; sink: WarningSink; arc?: Shape };
  /** Fire pairs in the order of `ctx.enemiesOf(side)` (empty when the unit fires at nothing). */
  firePairs: FirePair[];
  charge?: ChargeSetup;
  /** Charge pairs in the order of `ctx.enemiesOf(side)`. */
  chargePairs: ChargePair[];
  chargeReach?: { shape: Shape | undefined; lookBox: BoundingBoxIn };
  /** Union of the boxes the unit's pairs depend on (a change elsewhere leaves them all). */
  pairsLook?: BoundingBoxIn;
  /** The unit's evaluation, shapes and warnings. */
  assembled?: {
    evaluation: UnitEvaluation;
    shapes: readonly Shape[];
    warnings: readonly EvaluationWarning[];
    reach?: Shape;
    check?: ReturnType<typeof maneuverCheck>;
  };
}

/** A changed unit's box (before or after the change) and its side then. */
interface ChangedBox {
  readonly box: BoundingBoxIn;
  readonly side: string;
}

function boxesMeet(a: BoundingBoxIn, b: BoundingBoxIn): boolean {
  return a.minXIn <= b.maxXIn && b.minXIn <= a.maxXIn && a.minYIn <= b.maxYIn && b.minYIn <= a.maxYIn;
}

function unionBox(...boxes: readonly BoundingBoxIn[]): BoundingBoxIn {
  const acc = emptyBox();
  for (const b of boxes) extendBox(acc, b);
  // A hair of slack: touching counts as meeting.
  return { minXIn: acc.minXIn - 1e-6, minYIn: acc.minYIn - 1e-6, maxXIn: acc.maxXIn + 1e-6, maxYIn: acc.maxYIn + 1e-6 };
}

function grown(b: BoundingBoxIn, byIn: number): BoundingBoxIn {
  return { minXIn: b.minXIn - byIn, minYIn: b.minYIn - byIn, maxXIn: b.maxXIn + byIn, maxYIn: b.maxYIn + byIn };
}

/** The table-wide fields and unit order (sameTableGlobals), and the order of the stands. */
function sameGlobals(a: TableState, b: TableState): boolean {
  if (!sameTableGlobals(a, b)) return false;
  // The order of stands is the order sight lines meet them in: a reorder starts afresh.
  if (a.stands.length !== b.stands.length) return false;
  for (let i = 0; i < a.stands.length; i++) if (a.stands[i]!.id !== b.stands[i]!.id) return false;
  return true;
}

function sameStands(a: readonly Stand[], b: readonly Stand[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !samePlainData(a[i], b[i])) return false;
  return true;
}

/** Whether a unit's stands on the table now are (or read the same as) `had`, without building the list. */
function sameStandsOf(had: readonly Stand[], unit: Unit, standById: ReadonlyMap<string, Stand>): boolean {
  let k = 0;
  for (const id of unit.standIds) {
    const s = standById.get(id);
    if (!s) continue;
    const h = had[k++];
    if (h === undefined || (h !== s && !samePlainData(h, s))) return false;
  }
  return k === had.length;
}

/** What re-tracing a pair changed: the unit's list, its shapes, its warnings (bits). */
const LIST_CHANGED = 1;
const SHAPES_CHANGED = 2;
const WARNINGS_CHANGED = 4;

/** Union of the boxes the pairs depend on (absent when none depends on anything beyond its two units). */
function pairsLookOf(firePairs: readonly FirePair[], chargePairs: readonly ChargePair[]): BoundingBoxIn | undefined {
  const acc = emptyBox();
  for (const p of firePairs) extendBox(acc, p.dependsOn);
  for (const p of chargePairs) extendBox(acc, p.dependsOn);
  return acc.minXIn <= acc.maxXIn ? acc : undefined;
}

/** Whether two pair answers read the same (then the old one, and all built from it, is kept). */
function samePair<R>(a: PairEntry<R>, b: PairEntry<R>): boolean {
  return (
    samePlainData(a.result, b.result) &&
    samePlainData(a.shape, b.shape) &&
    samePlainData(a.dependsOn, b.dependsOn) &&
    (a.sink?.list.length ?? 0) === 0 &&
    (b.sink?.list.length ?? 0) === 0
  );
}

/** The unit's shapes in evaluation order: movement, fire arrows and arc, charge arrows and reach. */
function unitShapes(c: UnitCache, reach: Shape | undefined): Shape[] {
  const out: Shape[] = [...c.movement!.shapes];
  for (const p of c.firePairs) if (p.shape) out.push(p.shape);
  if (c.fire!.arc) out.push(c.fire!.arc);
  for (const p of c.chargePairs) if (p.shape) out.push(p.shape);
  if (reach) out.push(reach);
  return out;
}

/** The unit's warnings in evaluation order: morale, formation, fire. */
function unitWarnings(c: UnitCache): EvaluationWarning[] {
  const sink = new WarningSink(c.unit.id);
  sink.replay(c.moraleSink!);
  formationWarning(c.info!, sink);
  sink.replay(c.fire!.sink);
  for (const p of c.firePairs) if (p.sink && p.sink.list.length > 0) sink.replay(p.sink);
  return sink.list;
}

/** A live Regimental Fire and Fury evaluator (see the module comment for what it recomputes). */
export function createFfrSession(): RulesSession {
  let previous: TableState | undefined;
  let units = new Map<string, UnitCache>();
  let strayStands: readonly Stand[] = [];
  let leaders: readonly LeaderPlace[] | undefined;
  let circles: readonly Shape[] = [];
  /** Each leader's own reach by commander id, with the place it was worked out for. */
  let leaderReaches = new Map<string, { readonly place: LeaderPlace; readonly reach: LeaderReach | undefined }>();
  let last: Evaluation | undefined;
  let unitStandIds: { units: readonly Unit[]; ids: ReadonlySet<string> } | undefined;

  const reset = (): void => {
    units = new Map();
    leaders = undefined;
    leaderReaches = new Map();
    last = undefined;
  };

  return {
    update(state: TableState): Evaluation {
      const standById = new Map<string, Stand>();
      for (const s of state.stands) standById.set(s.id, s);
      // A tracker that keeps the units array keeps the set of their stands too.
      if (unitStandIds?.units !== state.units) {
        const ids = new Set<string>();
        for (const u of state.units) for (const id of u.standIds) ids.add(id);
        unitStandIds = { units: state.units, ids };
      }
      const ofUnits = unitStandIds.ids;
      // Stands of no unit (commanders' own stands, markers) block sight and place leaders: any change starts afresh.
      const stray = state.stands.filter((s) => !ofUnits.has(s.id));
      if (!previous || !sameGlobals(previous, state) || !sameStands(stray, strayStands)) reset();
      previous = state;
      strayStands = stray;

      // Which units changed (added, removed, moved, status), with their old and new boxes.
      const changed = new Set<string>();
      const changedBoxes: ChangedBox[] = [];
      /** Sides of changed units, before and after (their enemies' per-target lists change). */
      const touchedSides = new Set<string>();
      /** A unit came onto or left the table, or changed side: every per-enemy list is listed again. */
      let membershipChanged = false;
      const nextUnits = new Map<string, UnitCache>();
      for (const unit of state.units) {
        const c = units.get(unit.id);
        if (c && (c.unit === unit || samePlainData(c.unit, unit)) && sameStandsOf(c.stands, unit, standById)) {
          c.unit = unit;
          nextUnits.set(unit.id, c);
          continue;
        }
        const stands: Stand[] = [];
        for (const id of unit.standIds) {
          const s = standById.get(id);
          if (s) stands.push(s);
        }
        changed.add(unit.id);
        touchedSides.add(unit.side);
        if (c) touchedSides.add(c.unit.side);
        const info = unitInfoOf(unit, standById);
        if (c?.info) changedBoxes.push({ box: c.info.box, side: c.unit.side });
        if (info) changedBoxes.push({ box: info.box, side: unit.side });
        if (!c || !c.info !== !info || c.unit.side !== unit.side) membershipChanged = true;
        // The old pairs stay for reuse by target (the unit itself traces all of them again).
        nextUnits.set(unit.id, { unit, stands, ...(info ? { info } : {}), firePairs: [], chargePairs: [] });
      }
      units.forEach((c, id) => {
        if (nextUnits.has(id)) return;
        changed.add(id);
        touchedSides.add(c.unit.side);
        membershipChanged = true;
        if (c.info) changedBoxes.push({ box: c.info.box, side: c.unit.side });
      });
      units = nextUnits;
      if (last && changed.size === 0) return last;

      const ctx: FfrContext = buildContext(state, (unit) => units.get(unit.id)!.info ?? null, standById);
      /** Whether a changed unit (of another side than `side`, when given) is or was in the box. */
      const changedIn = (box: BoundingBoxIn, otherThanSide?: string): boolean => {
        for (const c of changedBoxes) if ((otherThanSide === undefined || c.side !== otherThanSide) && boxesMeet(c.box, box)) return true;
        return false;
      };

      // Leaders: a moved leader (or the unit one is attached to) can change any unit's command.
      const places = leaderPlaces(ctx);
      const leadersMoved = !leaders || !samePlainData(leaders, places);
      if (leadersMoved) {
        leaders = places;
        circles = commandCircles(ctx, places);
      }

      // Per unit parts that read the unit alone (and the leaders).
      const effectiveness = new Map<string, Effectiveness | undefined>();
      const commandById = new Map<string, UnitCommand>();
      /** Units whose command changed: their maneuver check and charge pairs (attached leader) are redone. */
      const commandChanged = new Set<string>();
      for (const [id, c] of units) {
        const info = c.info;
        if (!info) continue;
        if (!c.morale || changed.has(id)) {
          c.moraleSink = new WarningSink(id);
          c.morale = evaluateMorale(ctx, info, c.moraleSink);
        }
        effectiveness.set(id, c.morale.effectiveness);
        if (!c.command || changed.has(id) || leadersMoved) {
          const next = unitCommand(ctx, leaders!, info);
          if (!c.command || !samePlainData(c.command, next)) {
            if (c.command && !samePlainData(c.command.command, next.command)) {
              commandChanged.add(id);
              touchedSides.add(info.unit.side);
            }
            c.command = next;
          }
        }
        commandById.set(id, c.command.command);
      }

      let sight: SightScene | undefined;
      const inputs = { sight: (): SightScene => (sight ??= buildSightScene(state)), effectiveness };
      const facts = { command: commandById, effectiveness };

      const firePair = (info: FfrUnitInfo, setup: FireSetup, target: FfrUnitInfo): FirePair => {
        const sink = new WarningSink(info.unit.id);
        const r = fireAtTarget(ctx, inputs, setup, info, target, sink);
        const dependsOn =
          r.looked === 'units'
            ? undefined
            : r.looked === 'corridor'
              ? unionBox(info.box, target.box)
              : unionBox(info.box, target.box, massedLookBox(target), grown(target.box, FALLEN_LEADER_WITHIN_IN + 1e-6));
        return { targetId: target.unit.id, result: r.result, ...(r.shape ? { shape: r.shape } : {}), ...(dependsOn ? { dependsOn } : {}), sink };
      };
      const chargePair = (info: FfrUnitInfo, setup: ChargeSetup, target: FfrUnitInfo): ChargePair => {
        const r = chargeAtTarget(ctx, facts, setup, info, target);
        return { targetId: target.unit.id, result: r.result, ...(r.shape ? { shape: r.shape } : {}), ...(r.looked === 'path' ? { dependsOn: unionBox(info.box, target.box) } : {}) };
      };
      /** Traces pair `i` of the unit again and keeps the new answer if it reads differently; which parts changed. */
      const patchFirePair = (c: UnitCache, info: FfrUnitInfo, setup: FireSetup, target: FfrUnitInfo, i: number): number => {
        const old = c.firePairs[i]!;
        const next = firePair(info, setup, target);
        if (samePair(old, next)) return 0;
        c.firePairs[i] = next;
        return (
          LIST_CHANGED |
          (samePlainData(old.shape, next.shape) ? 0 : SHAPES_CHANGED) |
          ((old.sink?.list.length ?? 0) > 0 || (next.sink?.list.length ?? 0) > 0 ? WARNINGS_CHANGED : 0)
        );
      };
      const patchChargePair = (c: UnitCache, info: FfrUnitInfo, setup: ChargeSetup, target: FfrUnitInfo, i: number): number => {
        const old = c.chargePairs[i]!;
        const next = chargePair(info, setup, target);
        if (samePair(old, next)) return 0;
        c.chargePairs[i] = next;
        return LIST_CHANGED | (samePlainData(old.shape, next.shape) ? 0 : SHAPES_CHANGED);
      };
      /** Whether a kept pair must be traced again: its target changed, or a change came into its box. */
      const stale = <R>(p: PairEntry<R>, alsoIf?: ReadonlySet<string>): boolean =>
        changed.has(p.targetId) || (alsoIf !== undefined && alsoIf.has(p.targetId)) || (p.dependsOn !== undefined && changedIn(p.dependsOn));

      /** Each enemy's place in `ctx.enemiesOf(side)` (the order of every per-enemy list), per side. */
      const enemyIndexes = new Map<string, Map<string, number>>();
      const enemyIndex = (side: string): Map<string, number> => {
        let m = enemyIndexes.get(side);
        if (!m) {
          m = new Map();
          ctx.enemiesOf(side).forEach((e, i) => m!.set(e.unit.id, i));
          enemyIndexes.set(side, m);
        }
        return m;
      };

      const evaluations: Record<string, UnitEvaluation> = {};
      const shapes: Shape[] = [];
      const warnings: EvaluationWarning[] = [];
      for (const unit of state.units) {
        const id = unit.id;
        const c = units.get(id)!;
        const info = c.info;
        if (!info) {
          if (!c.assembled || changed.has(id)) {
            const sink = new WarningSink(id);
            const evaluation = noStandsEvaluation(unit, sink);
            c.assembled = { evaluation, shapes: [], warnings: sink.list };
          }
          evaluations[id] = c.assembled.evaluation;
          for (const w of c.assembled.warnings) warnings.push(w);
          continue;
        }
        const self = changed.has(id) || !c.assembled;
        let enemyTouched = false;
        for (const side of touchedSides) if (side !== unit.side) enemyTouched = true;
        const pairsHit = c.pairsLook !== undefined && changedIn(c.pairsLook);
        const movementHit = c.movement?.lookBox !== undefined && changedIn(c.movement.lookBox, unit.side);
        const reachHit = c.chargeReach !== undefined && changedIn(c.chargeReach.lookBox, unit.side);
        // Fast path: nothing this unit's parts read changed.
        if (!self && !enemyTouched && !commandChanged.has(id) && !pairsHit && !movementHit && !reachHit) {
          const a = c.assembled!;
          evaluations[id] = a.evaluation;
          for (const s of a.shapes) shapes.push(s);
          for (const w of a.warnings) warnings.push(w);
          continue;
        }

        let movementNew = false;
        if (self || movementHit) {
          c.movement = evaluateMovement(ctx, info, new WarningSink(id));
          movementNew = true;
        }
        if (self) {
          const sink = new WarningSink(id);
          const setup = fireSetup(ctx, info, sink);
          const arc = setup ? fireArcShape(info, setup) : undefined;
          c.fire = { setup, sink, ...(arc ? { arc } : {}) };
          c.charge = chargeSetup(info);
        }
        const enemies = ctx.enemiesOf(unit.side);
        const fireSetupNow = c.fire!.setup;
        const chargeSetupNow = c.charge!;
        const chargeAll = self || commandChanged.has(id);
        let fireChanged = false;
        let chargeChanged = false;
        let shapesChanged = movementNew;
        let warningsChanged = self;
        if (self || membershipChanged) {
          // List every enemy again, reusing what still holds.
          const oldFire = new Map(c.firePairs.map((p) => [p.targetId, p]));
          const oldCharge = new Map(c.chargePairs.map((p) => [p.targetId, p]));
          const firePairs: FirePair[] = [];
          const chargePairs: ChargePair[] = [];
          for (const target of enemies) {
            const tid = target.unit.id;
            if (fireSetupNow) {
              const old = self ? undefined : oldFire.get(tid);
              firePairs.push(old && !stale(old) ? old : firePair(info, fireSetupNow, target));
            }
            const old = chargeAll ? undefined : oldCharge.get(tid);
            chargePairs.push(old && !stale(old, commandChanged) ? old : chargePair(info, chargeSetupNow, target));
          }
          c.firePairs = firePairs;
          c.chargePairs = chargePairs;
          fireChanged = chargeChanged = shapesChanged = warningsChanged = true;
        } else {
          // Same enemies in the same order: trace again only the pairs a change can touch. Without a change in
          // the boxes the pairs depend on, those are the pairs with a changed target (by its place in the list).
          let fireBits = 0;
          let chargeBits = 0;
          if (pairsHit) {
            for (let i = 0; i < c.firePairs.length; i++) if (stale(c.firePairs[i]!)) fireBits |= patchFirePair(c, info, fireSetupNow!, enemies[i]!, i);
          } else if (c.firePairs.length > 0) {
            const at = enemyIndex(unit.side);
            for (const tid of changed) {
              const i = at.get(tid);
              if (i !== undefined) fireBits |= patchFirePair(c, info, fireSetupNow!, enemies[i]!, i);
            }
          }
          if (pairsHit || chargeAll) {
            for (let i = 0; i < c.chargePairs.length; i++) {
              if (chargeAll || stale(c.chargePairs[i]!, commandChanged)) chargeBits |= patchChargePair(c, info, chargeSetupNow, enemies[i]!, i);
            }
          } else {
            const at = enemyIndex(unit.side);
            for (const tid of changed) {
              const i = at.get(tid);
              if (i !== undefined) chargeBits |= patchChargePair(c, info, chargeSetupNow, enemies[i]!, i);
            }
            for (const tid of commandChanged) {
              const i = at.get(tid);
              if (i !== undefined && !changed.has(tid)) chargeBits |= patchChargePair(c, info, chargeSetupNow, enemies[i]!, i);
            }
          }
          fireChanged = (fireBits & LIST_CHANGED) !== 0;
          chargeChanged = (chargeBits & LIST_CHANGED) !== 0;
          if ((fireBits | chargeBits) & SHAPES_CHANGED) shapesChanged = true;
          if (fireBits & WARNINGS_CHANGED) warningsChanged = true;
        }
        if (self || membershipChanged || fireChanged || chargeChanged) {
          const look = pairsLookOf(c.firePairs, c.chargePairs);
          if (look) c.pairsLook = look;
          else delete c.pairsLook;
        }

        let anyCharge = false;
        for (const p of c.chargePairs) if (p.result.ok) anyCharge = true;
        if (anyCharge && !chargeSetupNow.refusal && (!c.chargeReach || self || reachHit)) {
          c.chargeReach = { shape: chargeReachShape(ctx, info, chargeSetupNow), lookBox: lookBoxOf(info.box, chargeSetupNow.maxRateIn) };
        } else if (!anyCharge) {
          // Not drawn now: dropped, so a change near it meanwhile cannot leave it stale when it is drawn again.
          delete c.chargeReach;
        }
        const reach = anyCharge ? c.chargeReach?.shape : undefined;
        const prev = c.assembled;
        if (prev && reach !== prev.reach) shapesChanged = true;

        if (!prev || self || fireChanged || chargeChanged || movementNew || commandChanged.has(id)) {
          // The maneuver check reads the unit, its command and its effectiveness only.
          const check = prev?.check && !self && !commandChanged.has(id) ? prev.check : maneuverCheck(ctx, info, c.command!.command, c.morale!.effectiveness);
          const evaluation: FfrUnitEvaluation = {
            unitId: id,
            formation: info.formation.reading,
            movement: c.movement!.movement,
            fire: fireChanged || !prev ? c.firePairs.map((p) => p.result) : prev.evaluation.fire,
            charge: chargeChanged || !prev ? c.chargePairs.map((p) => p.result) : prev.evaluation.charge,
            rally: check.breakdown,
            command: c.command!.command.reading,
            morale: c.morale!.reading,
            maneuver: check.reading,
          };
          c.assembled = {
            evaluation,
            check,
            shapes: shapesChanged || !prev ? unitShapes(c, reach) : prev.shapes,
            warnings: warningsChanged || !prev ? unitWarnings(c) : prev.warnings,
            ...(reach ? { reach } : {}),
          };
        } else if (shapesChanged) {
          c.assembled = { ...prev, shapes: unitShapes(c, reach), ...(reach ? { reach } : {}) };
          if (!reach) delete c.assembled.reach;
        }
        const a = c.assembled!;
        evaluations[id] = a.evaluation;
        for (const s of a.shapes) shapes.push(s);
        for (const w of a.warnings) warnings.push(w);
      }
      for (const s of circles) shapes.push(s);
      for (const info of ctx.units.values()) {
        const link = units.get(info.unit.id)!.command!.link;
        if (link) shapes.push(link);
      }
      // A leader's own reach: again when he is placed otherwise, or an enemy changed where he could go.
      const nextReaches = new Map<string, { readonly place: LeaderPlace; readonly reach: LeaderReach | undefined }>();
      for (const place of leaders!) {
        const kept = leaderReaches.get(place.commander.id);
        const keep = kept !== undefined && (kept.place === place || samePlainData(kept.place, place)) && !(kept.reach && changedIn(kept.reach.lookBox, place.commander.side));
        const entry = keep ? kept : { place, reach: leaderReach(ctx, place) };
        nextReaches.set(place.commander.id, entry);
        if (entry.reach) shapes.push(entry.reach.shape);
      }
      leaderReaches = nextReaches;
      last = { rulesetId: FFR_RULESET_ID, units: evaluations, shapes, warnings };
      return last;
    },
  };
}
