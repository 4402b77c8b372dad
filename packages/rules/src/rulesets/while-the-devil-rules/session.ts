/**
 * An incremental While the Devil Rules evaluator. `update(state)` returns exactly what
 * `evaluateWhileTheDevilRules(state)` would, recomputing only what a change can touch. A unit "changed" when
 * its fields or any of its stands differ (identity first, then plain data); its old and new outlines are
 * what other units' cached parts are tested against:
 * - the unit's own facts (formation, frame, outline: context.ts), formation shapes, warnings and command
 *   reading: only when the unit changed (the leaders are global, below);
 * - movement: when the unit changed or a changed unit's old or new outline comes within the distance
 *   `forbiddenRegions` (movement.ts) looks: the reach (allowance / road cost) plus both radii plus the 1"
 *   front zone; this also covers the contact test that refuses movement in combat;
 * - fire and charges per (unit, enemy) pair: when either changed, or, for a fire answer that got past the
 *   range cull, a changed unit's old or new outline box meets the box `blockersBetween` (fire.ts) reads
 *   bases from (both outlines grown by half the 2" sight gap); for a charge whose path was sought, a
 *   changed unit's outline-and-front-zone box meets the box of every sweep tested (charge.ts `looked`).
 *   The per-unit plan (can it fire or charge at all, its sources and reach) again when the unit changed or
 *   a changed enemy is (or was) within contact of it (engagement); the list again when a pair or the plan
 *   was recomputed or the enemies changed;
 * - army morale each update (a sum over units), a unit's morale reading only when it or its army changed;
 * - melee readings (melee.ts) every update: they follow chains of units in contact, and few units touch;
 * - missing-parameter requests are kept with the part that made them, and the warnings built from all of
 *   them each update (context.ts `missingParameterWarnings`).
 * A change of terrain, table, parameters, commanders, any other top-level field, the order of units, or a
 * stand that belongs to no unit (a leader's base) drops every cache.
 */
import type { CommandReading, Evaluation, EvaluationWarning, MoraleReading, UnitEvaluation } from '../../engine/evaluation.ts';
import type { RulesSession } from '../../engine/ruleset.ts';
import type { Shape } from '../../engine/shapes.ts';
import { samePlainData } from '../../engine/samePlainData.ts';
import type { Stand, TableState, Unit } from '../../model/tableState.ts';
import type { PointIn } from '../../model/units.ts';
import { emptyBox, extendBox, pointsBoundingBox, type BoundingBoxIn } from '../../geometry/polygon.ts';
import { buildContext, CONTACT_IN, engagedWith, enemiesOf, missingParameterWarnings, type MissingParameter, type UnitInfo } from './context.ts';
import { chargeAtTarget, chargePlan, chargeResult, type ChargePair, type ChargePlan, type ChargeResult, type SweepBox } from './charge.ts';
import { leaderParts, unitCommand, type LeaderParts } from './command.ts';
import { fireArcShapes, fireAtTarget, firePlan, fireResult, type FirePair, type FirePlan, type FireResult } from './fire.ts';
import { evaluateMovement, type MovementResult } from './movement.ts';
import { evaluateArmies, unitMorale, type ArmyMorale } from './morale.ts';
import { evaluateMelees } from './melee.ts';
import { formationShapes, impetuousCharge, unitEvaluation, unitWarnings, WTDR_RULESET_ID } from './evaluate.ts';
import { SIGHT_GAP_IN } from './tables/fireTables.ts';
import { LONGEST_SHORT_RANGE_IN } from './chargeFire.ts';
import { sameTableGlobals } from '../../engine/sameTableGlobals.ts';

/** Slack on every "can this change reach that" test: only more work, never a missed change. */
const SLACK_IN = 1e-6;

const NO_MISSING: readonly MissingParameter[] = [];

interface Pair<T> {
  readonly firer: UnitInfo;
  /** The target's facts it was made with (moved on to the target's new facts when remade to the same answer). */
  target: UnitInfo;
  readonly pair: T;
  readonly missing: readonly MissingParameter[];
  /** What other units' outlines it read (none: it depends on the two units alone). */
  readonly looked: BoundingBoxIn | undefined;
}

/**
 * A pair made afresh, unless it gives the same answer as the cached one and both read only the two units
 * (a far enemy a quarter inch further off): then the old pair is kept, so the unit's list and evaluation
 * are reused as they are.
 */
function remakePair<T>(cache: Map<string, Pair<T>>, info: UnitInfo, target: UnitInfo, make: (target: UnitInfo) => Pair<T>): Pair<T> {
  const p = make(target);
  const old = cache.get(target.unit.id);
  if (old && old.firer === info && !old.looked && !p.looked && samePlainData(old.pair, p.pair) && samePlainData(old.missing, p.missing)) {
    old.target = target;
    return old;
  }
  cache.set(target.unit.id, p);
  return p;
}

/** A unit's pairs as last listed, with the plan they were made under and the union of what they looked at. */
interface PairList<T> {
  readonly plan: object;
  enemies: readonly UnitInfo[];
  readonly pairs: readonly Pair<T>[];
  readonly lookedBox: BoundingBoxIn;
}

function unionLooked(pairs: readonly Pair<unknown>[]): BoundingBoxIn {
  const acc = emptyBox();
  for (const p of pairs) extendBox(acc, p.looked);
  return acc;
}

interface UnitCache {
  readonly info: UnitInfo;
  /** Box of the outline (empty when the unit has no bases). */
  readonly hullBox: BoundingBoxIn;
  /** Box of the outline and its 1" front zone. */
  readonly zoneBox: BoundingBoxIn;
  readonly formationShapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
  command?: { reading: CommandReading; shape?: Shape };
  movement?: { result: MovementResult; lookIn: number; missing: readonly MissingParameter[] };
  fire?: { plan: FirePlan; engaged: readonly string[]; arcs: readonly Shape[] };
  firePairs: Map<string, Pair<FirePair>>;
  fireList?: PairList<FirePair> & { result: FireResult; missing: readonly (readonly MissingParameter[])[] };
  charge?: { plan: ChargePlan; engaged: readonly string[]; missing: readonly MissingParameter[] };
  chargePairs: Map<string, Pair<ChargePair>>;
  chargeList?: PairList<ChargePair> & { result: ChargeResult; missing: readonly (readonly MissingParameter[])[]; impetuous: EvaluationWarning | undefined };
  morale?: { reading: MoraleReading; army: ArmyMorale | undefined };
  evaluation?: { value: UnitEvaluation; movement: MovementResult; fire: FireResult; charge: ChargeResult; command: CommandReading; morale: MoraleReading };
  shapes?: { value: readonly Shape[]; movement: MovementResult; fire: FireResult; charge: ChargeResult };
}

const EMPTY_BOX: BoundingBoxIn = { minXIn: Infinity, minYIn: Infinity, maxXIn: -Infinity, maxYIn: -Infinity };

function boxOf(points: readonly PointIn[]): BoundingBoxIn {
  return points.length > 0 ? pointsBoundingBox(points) : EMPTY_BOX;
}

function boxesMeet(a: BoundingBoxIn, b: BoundingBoxIn, marginIn: number): boolean {
  return !(a.maxXIn < b.minXIn - marginIn || b.maxXIn < a.minXIn - marginIn || a.maxYIn < b.minYIn - marginIn || b.maxYIn < a.minYIn - marginIn);
}

function sameStand(a: Stand, b: Stand): boolean {
  return a === b || samePlainData(a, b);
}

/** Whether two lists name the same units in the same order (the facts of a unit may be new). */
function sameUnits(a: readonly UnitInfo[], b: readonly UnitInfo[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i]!.unit.id !== b[i]!.unit.id) return false;
  return true;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A changed unit's old or new outline, as the caches test it. */
interface Change {
  readonly side: string;
  readonly centre: PointIn;
  readonly radiusIn: number;
  readonly hullBox: BoundingBoxIn;
  readonly zoneBox: BoundingBoxIn;
}

function changeOf(c: UnitCache): Change | undefined {
  if (c.info.stands.length === 0) return undefined;
  return { side: c.info.unit.side, centre: c.info.centre, radiusIn: c.info.radiusIn, hullBox: c.hullBox, zoneBox: c.zoneBox };
}

function cacheOf(info: UnitInfo): UnitCache {
  return {
    info,
    hullBox: boxOf(info.hull),
    zoneBox: boxOf(info.zoneHull),
    formationShapes: formationShapes(info),
    warnings: unitWarnings(info),
    firePairs: new Map(),
    chargePairs: new Map(),
  };
}

/** A live While the Devil Rules evaluator (see the module comment for what it recomputes). */
export function createWtdrSession(): RulesSession {
  let previous: TableState | undefined;
  let units = new Map<string, UnitCache>();
  /** Corners per stand object: a tracker that re-sends unchanged stands as the same objects skips them. */
  const corners = new WeakMap<Stand, readonly PointIn[]>();
  /** Stands of no unit, per `state.units` array (a tracker that keeps the array skips rebuilding the set). */
  let unitStandIds: { units: readonly Unit[]; ids: ReadonlySet<string> } | undefined;
  let looseStands: readonly Stand[] = [];
  let leaders: LeaderParts | undefined;
  let last: Evaluation | undefined;
  let previousArmies: ReadonlyMap<string, ArmyMorale> | undefined;

  return {
    update(state: TableState): Evaluation {
      if (unitStandIds?.units !== state.units) unitStandIds = { units: state.units, ids: new Set(state.units.flatMap((u) => u.standIds)) };
      const ofUnits = unitStandIds.ids;
      const loose = state.stands.filter((s) => !ofUnits.has(s.id));
      if (
        previous === undefined ||
        !sameTableGlobals(previous, state) ||
        loose.length !== looseStands.length ||
        loose.some((s, i) => !sameStand(s, looseStands[i]!))
      ) {
        units = new Map();
        leaders = undefined;
        previousArmies = undefined;
        last = undefined;
      }
      previous = state;
      looseStands = loose;

      const changed = new Set<string>();
      const ctx = buildContext(state, {
        corners: (stand) => corners.get(stand),
        unit: (unit: Unit, stands: readonly Stand[]) => {
          const c = units.get(unit.id);
          if (c && (c.info.unit === unit || samePlainData(c.info.unit, unit)) && c.info.stands.length === stands.length && c.info.stands.every((s, i) => sameStand(s, stands[i]!))) return c.info;
          changed.add(unit.id);
          return undefined;
        },
      });
      for (const s of state.stands) if (!corners.has(s)) corners.set(s, ctx.corners.get(s.id)!);

      // Old and new outlines of every changed unit.
      const changes: Change[] = [];
      for (const id of changed) {
        const old = units.get(id);
        const oldChange = old ? changeOf(old) : undefined;
        if (oldChange) changes.push(oldChange);
        const c = cacheOf(ctx.units.get(id)!);
        units.set(id, c);
        const now = changeOf(c);
        if (now) changes.push(now);
      }
      if (last && changed.size === 0) return last;

      const within = (info: UnitInfo, distanceIn: number, ch: Change): boolean =>
        Math.hypot(ch.centre.xIn - info.centre.xIn, ch.centre.yIn - info.centre.yIn) - ch.radiusIn - info.radiusIn <= distanceIn + SLACK_IN;
      /** Whether a changed enemy of `info` is (or was) within contact: its engagement may differ. */
      const contactChanged = (info: UnitInfo): boolean => {
        if (info.stands.length === 0) return false;
        for (const ch of changes) if (ch.side !== info.unit.side && within(info, CONTACT_IN, ch)) return true;
        return false;
      };
      const withMissing = <T>(list: MissingParameter[], f: () => T): T => {
        const saved = ctx.missing.list;
        ctx.missing.list = list;
        try {
          return f();
        } finally {
          ctx.missing.list = saved;
        }
      };

      /**
       * The unit's pair for every enemy, in enemy order. A cached pair stands unless its target (or the unit)
       * changed or a change's box meets what it looked at. When no change meets any of the list's boxes and
       * the enemies are the same units, only the pairs of changed targets are made again (no per-pair tests).
       */
      const pairsFor = <T>(
        cache: Map<string, Pair<T>>,
        info: UnitInfo,
        enemies: readonly UnitInfo[],
        prev: PairList<T> | undefined,
        boxOfChange: (ch: Change) => BoundingBoxIn,
        make: (target: UnitInfo) => Pair<T>,
      ): readonly Pair<T>[] => {
        // The unit is unchanged here (a changed unit starts with an empty cache and no list).
        if (prev && prev.pairs.length === enemies.length && !changes.some((ch) => boxesMeet(boxOfChange(ch), prev.lookedBox, SLACK_IN))) {
          let out: Pair<T>[] | undefined;
          let sameOrder = true;
          for (let i = 0; i < enemies.length && sameOrder; i++) {
            const target = enemies[i]!;
            const before = prev.enemies[i]!;
            if (target === before) continue;
            if (target.unit.id !== before.unit.id) sameOrder = false;
            else {
              const p = remakePair(cache, info, target, make);
              if (p !== prev.pairs[i]) (out ??= prev.pairs.slice())[i] = p;
            }
          }
          if (sameOrder) return out ?? prev.pairs;
        }
        const pairs: Pair<T>[] = [];
        for (const target of enemies) {
          let p = cache.get(target.unit.id);
          if (p && (p.target !== target || p.firer !== info)) p = undefined;
          if (p?.looked && changes.some((ch) => boxesMeet(boxOfChange(ch), p!.looked!, SLACK_IN))) p = undefined;
          pairs.push(p ?? remakePair(cache, info, target, make));
        }
        return pairs;
      };

      /**
       * How far beyond a charge's sweep its fire lines look: the longest short range, then a unit touching
       * that firer (or the target) anywhere round its outline (at most the largest unit across).
       */
      let chargeFireLook: number | undefined;
      const chargeFireLookIn = (): number => {
        if (chargeFireLook === undefined) {
          let largest = 0;
          for (const u of ctx.units.values()) largest = Math.max(largest, u.radiusIn);
          chargeFireLook = LONGEST_SHORT_RANGE_IN + CONTACT_IN + 2 * largest + 1;
        }
        return chargeFireLook;
      };

      leaders ??= leaderParts(ctx);
      const armies = evaluateArmies(ctx);
      /** Sides whose army reading is as before (a unit's morale reading shows its army's points). */
      const armySame = new Map<string, boolean>();
      for (const [side, army] of armies.armies) armySame.set(side, previousArmies?.get(side) !== undefined && samePlainData(previousArmies.get(side), army));

      const movementOf = (c: UnitCache, isChanged: boolean): MovementResult => {
        const info = c.info;
        let stale = isChanged || !c.movement;
        // forbiddenRegions skips units whose centre distance less radius less 1" exceeds reach + radius.
        for (let i = 0; !stale && i < changes.length; i++) stale = within(info, c.movement!.lookIn + 1, changes[i]!);
        if (stale) {
          const missing: MissingParameter[] = [];
          const result = withMissing(missing, () => evaluateMovement(ctx, info));
          c.movement = { result, lookIn: result.lookIn, missing: missing.length > 0 ? missing : NO_MISSING };
        }
        return c.movement!.result;
      };

      const fireOf = (c: UnitCache, isChanged: boolean): FireResult => {
        const info = c.info;
        const enemies = enemiesOf(ctx, info);
        let plan = c.fire;
        if (isChanged || !plan) {
          const p = firePlan(ctx, info);
          plan = c.fire = { plan: p, engaged: engagedWith(ctx, info), arcs: p.kind === 'fire' ? fireArcShapes(info, p) : [] };
          c.firePairs.clear();
        } else if (contactChanged(info)) {
          const engaged = engagedWith(ctx, info);
          if (!sameList(engaged, plan.engaged)) {
            const p = firePlan(ctx, info);
            plan = c.fire = { plan: p, engaged, arcs: p.kind === 'fire' ? fireArcShapes(info, p) : [] };
            c.firePairs.clear();
          }
        }
        const fp = plan.plan;
        const prev = c.fireList;
        const pairs: readonly Pair<FirePair>[] =
          fp.kind !== 'fire'
            ? []
            : pairsFor(c.firePairs, info, enemies, prev?.plan === plan ? prev : undefined, (ch) => ch.hullBox, (target) => {
                const missing: MissingParameter[] = [];
                const pair = withMissing(missing, () => fireAtTarget(ctx, info, fp, target));
                // blockersBetween reads bases of other units within half the sight gap of both outlines' box.
                const looked = pair.looked ? grow(boxOf([...info.hull, ...target.hull]), SIGHT_GAP_IN / 2) : undefined;
                return { firer: info, target, pair, missing: missing.length > 0 ? missing : NO_MISSING, looked };
              });
        if (prev && !isChanged && prev.plan === plan && sameUnits(prev.enemies, enemies) && sameList(prev.pairs, pairs)) {
          prev.enemies = enemies;
          return prev.result;
        }
        const result = fireResult(info, fp, enemies, pairs.map((p) => p.pair), plan.arcs);
        c.fireList = { plan, result, enemies, pairs, missing: pairs.filter((p) => p.missing.length > 0).map((p) => p.missing), lookedBox: unionLooked(pairs) };
        return result;
      };

      const chargeOf = (c: UnitCache, isChanged: boolean): ChargeResult => {
        const info = c.info;
        const enemies = enemiesOf(ctx, info);
        let plan = c.charge;
        let engaged: readonly string[] | undefined;
        if (isChanged || !plan) engaged = engagedWith(ctx, info);
        else if (contactChanged(info)) {
          const now = engagedWith(ctx, info);
          if (!sameList(now, plan.engaged)) engaged = now;
        }
        if (engaged !== undefined) {
          const missing: MissingParameter[] = [];
          const p = withMissing(missing, () => chargePlan(ctx, info));
          c.chargePairs.clear();
          plan = c.charge = { plan: p, engaged, missing: missing.length > 0 ? missing : NO_MISSING };
        }
        if (!plan) throw new Error('unreachable: a unit without a charge plan');
        const cp = plan.plan;
        const prev = c.chargeList;
        const pairs: readonly Pair<ChargePair>[] =
          cp.kind !== 'charge'
            ? []
            : pairsFor(c.chargePairs, info, enemies, prev?.plan === plan ? prev : undefined, (ch) => ch.zoneBox, (target) => {
                const missing: MissingParameter[] = [];
                const pair = withMissing(missing, () => chargeAtTarget(ctx, info, cp, target));
                const swept = pair.looked ? sweepBoxIn(pair.looked) : undefined;
                // An option names who may fire at the charge (chargeFire.ts): units whose short-range arc meets the
                // sweep, and the target, unless acted or in combat with a unit touching them.
                const looked = swept && pair.entry.ok ? grow(swept, chargeFireLookIn()) : swept;
                return { firer: info, target, pair, missing: missing.length > 0 ? missing : NO_MISSING, looked };
              });
        if (prev && !isChanged && prev.plan === plan && sameUnits(prev.enemies, enemies) && sameList(prev.pairs, pairs)) {
          prev.enemies = enemies;
          return prev.result;
        }
        const result = chargeResult(cp, enemies, pairs.map((p) => p.pair));
        c.chargeList = { plan, result, enemies, pairs, missing: pairs.filter((p) => p.missing.length > 0).map((p) => p.missing), lookedBox: unionLooked(pairs), impetuous: impetuousCharge(ctx, info, result.charge) };
        return result;
      };

      const unitsOut: Record<string, UnitEvaluation> = {};
      const shapes: Shape[] = [];
      const warnings: EvaluationWarning[] = [];
      const missingLists: (readonly MissingParameter[])[] = [];
      const commandShapes: Shape[] = [...leaders.shapes];
      for (const u of state.units) {
        const c = units.get(u.id)!;
        const info = c.info;
        const isChanged = changed.has(u.id);
        warnings.push(...c.warnings);
        const movement = movementOf(c, isChanged);
        const fire = fireOf(c, isChanged);
        const charge = chargeOf(c, isChanged);
        const impetuous = c.chargeList?.impetuous;
        if (impetuous) warnings.push(impetuous);
        if (isChanged || !c.command) c.command = unitCommand(ctx, info, leaders);
        if (c.command.shape) commandShapes.push(c.command.shape);
        const army = armies.armies.get(u.side);
        if (isChanged || !c.morale || armySame.get(u.side) !== true) c.morale = { reading: unitMorale(info, army), army };
        const e = c.evaluation;
        if (!e || isChanged || e.movement !== movement || e.fire !== fire || e.charge !== charge || e.command !== c.command.reading || e.morale !== c.morale.reading) {
          c.evaluation = {
            value: unitEvaluation({ info, movement, fire, charge, command: c.command.reading, morale: c.morale.reading }),
            movement,
            fire,
            charge,
            command: c.command.reading,
            morale: c.morale.reading,
          };
        }
        unitsOut[u.id] = c.evaluation!.value;
        for (const s of c.formationShapes) shapes.push(s);
        for (const s of movement.shapes) shapes.push(s);
        for (const s of fire.shapes) shapes.push(s);
        for (const s of charge.shapes) shapes.push(s);
        if (c.movement!.missing.length > 0) missingLists.push(c.movement!.missing);
        if (c.charge!.missing.length > 0) missingLists.push(c.charge!.missing);
        for (const m of c.fireList?.missing ?? []) missingLists.push(m);
        for (const m of c.chargeList?.missing ?? []) missingLists.push(m);
      }
      // Melee readings depend on whole chains of units in contact: made afresh each update (few units touch).
      const meleeMissing: MissingParameter[] = [];
      const melees = withMissing(meleeMissing, () => evaluateMelees(ctx));
      if (meleeMissing.length > 0) missingLists.push(meleeMissing);
      for (const s of commandShapes) shapes.push(s);
      for (const s of melees.shapes) shapes.push(s);
      for (const s of armies.shapes) shapes.push(s);
      previousArmies = armies.armies;
      last = { rulesetId: WTDR_RULESET_ID, units: unitsOut, shapes, warnings: [...warnings, ...armies.warnings, ...missingParameterWarnings(missingLists)] };
      return last;
    },
  };
}

function grow(b: BoundingBoxIn, byIn: number): BoundingBoxIn {
  return { minXIn: b.minXIn - byIn, minYIn: b.minYIn - byIn, maxXIn: b.maxXIn + byIn, maxYIn: b.maxYIn + byIn };
}

function sweepBoxIn(b: SweepBox): BoundingBoxIn | undefined {
  return b.minX <= b.maxX ? { minXIn: b.minX, minYIn: b.minY, maxXIn: b.maxX, maxYIn: b.maxY } : undefined;
}
