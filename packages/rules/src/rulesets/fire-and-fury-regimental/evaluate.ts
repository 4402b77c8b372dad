/**
 * Regimental Fire and Fury (QRS II) evaluation of a whole table, as queries (engine/incremental/query.ts),
 * each written as if it evaluated from scratch and reading the table only through the context:
 * - per unit: its facts (`context.ts`), fresh / worn / spent, command, movement, fire setup, charge setup,
 *   the maneuver check, its fire and charge lists, and its evaluation with shapes and warnings;
 * - per (unit, enemy) pair within reach by the two units' boxes: its fire and its charge;
 * - per leader: his place and his own reach; for the table: the leaders' places and command circles;
 * - the root: every unit's evaluation, shapes and warnings in the table's order.
 * `evaluateFireAndFuryRegimental` runs them once; `createEvaluator` keeps them live.
 */
import type { ChargeRefusal, Evaluation, EvaluationWarning, FireRefusal, UnitEvaluation } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { TableState, Unit } from '../../model/tableState.ts';
import { query } from '../../engine/incremental/query.ts';
import { evaluateQueries } from '../../engine/incremental/runQueries.ts';
import { makeContext, WarningSink, type FfrContext, type FfrUnitInfo, type KeyedWarning } from './context.ts';
import { commandCircles, leaderPlaceQuery, leaderPlacesQuery, unitCommand } from './command.ts';
import { evaluateMorale, type Effectiveness } from './morale.ts';
import { evaluateMovement } from './movement.ts';
import { leaderShapes } from './leaderMovement.ts';
import { fireArcShape, fireAtTarget, fireBeyondReach, fireSetup, type FfrFireOption, type FireInputs } from './fire.ts';
import { chargeAtTarget, chargeBeyondReach, chargeReachShape, chargeSetup, type FfrChargeOption, type SideFacts } from './charge.ts';
import { maneuverCheck, type ManeuverReading } from './maneuver.ts';
import { skirmishersQuery } from './skirmishers.ts';

export const FFR_RULESET_ID = 'fire-and-fury-regimental';

/** Below this formation confidence a warning asks the players to dress the stands or set the formation. */
export const FORMATION_WARNING_CONFIDENCE = 0.5;

/** A unit's evaluation with the maneuver check's effect columns. */
export interface FfrUnitEvaluation extends UnitEvaluation {
  readonly maneuver: ManeuverReading;
}

const NO_STANDS_REFUSAL = { ok: false as const, reason: 'unit/no-stands', detail: 'no stands on the table' };

/** The evaluation of a unit with no stands on the table (its warning goes to `sink`). */
export function noStandsEvaluation(unit: Unit, sink: WarningSink): UnitEvaluation {
  sink.add('unit/no-stands', `${unit.name} has no stands on the table.`);
  return {
    unitId: unit.id,
    formation: { formation: 'unknown', confidence: 0, source: 'geometry' },
    movement: NO_STANDS_REFUSAL,
    fire: [],
    charge: [],
    rally: NO_STANDS_REFUSAL,
    command: { brigadeFormationUnitIds: [], inCommand: false },
  };
}

/** Asks the players to dress the stands when the formation read from them is uncertain. */
export function formationWarning(info: FfrUnitInfo, sink: WarningSink): void {
  const reading = info.formation.reading;
  if (reading.illegal) sink.add(reading.illegal.reason, `${info.unit.name}: ${reading.illegal.detail} (${reading.illegal.section})`);
  else if (reading.source === 'geometry' && reading.confidence < FORMATION_WARNING_CONFIDENCE) {
    sink.add('formation/uncertain', `${info.unit.name}: formation read as ${reading.name ?? reading.formation} (confidence ${reading.confidence}); dress the stands or set status.rulesetStatus.formation.`);
  }
}

/** The key of the pair (unit `a`, enemy `b`): `a`'s length first, so any ids split back apart. */
function pairKey(a: string, b: string): string {
  return `${a.length}:${a}>${b}`;
}

function pairOf(key: string): [string, string] {
  const colon = key.indexOf(':');
  const n = Number(key.slice(0, colon));
  return [key.slice(colon + 1, colon + 1 + n), key.slice(colon + 2 + n)];
}

/** The facts of a unit known to have stands on the table. */
function infoOf(ctx: FfrContext, unitId: string): FfrUnitInfo {
  const info = ctx.unit(unitId);
  if (!info) throw new Error(`fire-and-fury-regimental: unit "${unitId}" has no stands on the table`);
  return info;
}

// Per unit.

/** Fresh / worn / spent and its warnings. */
const moraleQuery = query(
  'ffr/morale',
  (ctx: FfrContext, unitId): ReturnType<typeof evaluateMorale> & { warnings: KeyedWarning[] } => {
    const info = infoOf(ctx, unitId);
    // A skirmisher detachment takes its regiment's fresh / worn / spent ("A player must look at the
    // regiment's label to determine the current effectiveness ... for both units", Skirmishers).
    const regimentId = ctx.t.get(skirmishersQuery, unitId).regimentId;
    if (regimentId && ctx.unit(regimentId)) {
      const r = ctx.t.get(moraleQuery, regimentId);
      return { reading: r.reading, ...(r.effectiveness ? { effectiveness: r.effectiveness } : {}), warnings: [] };
    }
    let detached = 0;
    for (const id of ctx.t.unitIds()) {
      if (id === unitId) continue;
      const u = ctx.t.unit(id);
      if (!u || u.side !== info.unit.side || u.brigadeId !== info.unit.brigadeId || ctx.unitField(u, 'skirmishers') !== true) continue;
      if (ctx.t.get(skirmishersQuery, id).regimentId === unitId) detached += ctx.unit(id)?.stands.length ?? 0;
    }
    const sink = new WarningSink(unitId);
    const m = evaluateMorale(ctx, info, sink, detached);
    return { ...m, warnings: sink.keyed };
  },
  { equal: 'plain' },
);

const effectivenessQuery = query('ffr/effectiveness', (ctx: FfrContext, unitId): Effectiveness | undefined => ctx.t.get(moraleQuery, unitId).effectiveness);

/** The unit's command and the link drawn to its leader. */
const commandQuery = query('ffr/command', (ctx: FfrContext, unitId) => unitCommand(ctx, ctx.t.get(leaderPlacesQuery), infoOf(ctx, unitId)), { equal: 'plain' });

const attachedLeaderQuery = query('ffr/attached-leader', (ctx: FfrContext, unitId): boolean => ctx.t.get(commandQuery, unitId).command.attachedLeader !== undefined);

const movementQuery = query('ffr/movement', (ctx: FfrContext, unitId) => evaluateMovement(ctx, infoOf(ctx, unitId)), { equal: 'plain' });

const maneuverQuery = query(
  'ffr/maneuver',
  (ctx: FfrContext, unitId) => maneuverCheck(ctx, infoOf(ctx, unitId), ctx.t.get(commandQuery, unitId).command, ctx.t.get(effectivenessQuery, unitId)),
  { equal: 'plain' },
);

/** What the unit fires with, its warnings and its arc. */
const fireSetupQuery = query('ffr/fire-setup', (ctx: FfrContext, unitId) => {
  const info = infoOf(ctx, unitId);
  const sink = new WarningSink(unitId);
  const setup = fireSetup(ctx, info, sink);
  const arc = setup ? fireArcShape(info, setup) : undefined;
  return { setup, warnings: sink.keyed, ...(arc ? { arc } : {}) };
});

const chargeSetupQuery = query('ffr/charge-setup', (ctx: FfrContext, unitId) => chargeSetup(infoOf(ctx, unitId)));

// Per (unit, enemy) pair within reach by their boxes.

function fireInputs(ctx: FfrContext): FireInputs {
  return { effectiveness: (id) => ctx.t.get(effectivenessQuery, id) };
}

function sideFacts(ctx: FfrContext): SideFacts {
  return { effectiveness: (id) => ctx.t.get(effectivenessQuery, id), attachedLeader: (id) => ctx.t.get(attachedLeaderQuery, id) };
}

const firePairQuery = query(
  'ffr/fire-pair',
  (ctx: FfrContext, key): { result: FfrFireOption | FireRefusal; shape?: Shape; warnings: KeyedWarning[] } => {
    const [unitId, targetId] = pairOf(key);
    const sink = new WarningSink(unitId);
    const r = fireAtTarget(ctx, fireInputs(ctx), ctx.t.get(fireSetupQuery, unitId).setup!, infoOf(ctx, unitId), infoOf(ctx, targetId), sink);
    return { result: r.result, ...(r.shape ? { shape: r.shape } : {}), warnings: sink.keyed };
  },
  { equal: 'plain' },
);

const chargePairQuery = query(
  'ffr/charge-pair',
  (ctx: FfrContext, key): { result: FfrChargeOption | ChargeRefusal; shape?: Shape } => {
    const [unitId, targetId] = pairOf(key);
    const r = chargeAtTarget(ctx, sideFacts(ctx), ctx.t.get(chargeSetupQuery, unitId), infoOf(ctx, unitId), infoOf(ctx, targetId));
    return { result: r.result, ...(r.shape ? { shape: r.shape } : {}) };
  },
  { equal: 'plain' },
);

/** The charge reach drawn when some charge is possible. */
const chargeReachQuery = query('ffr/charge-reach', (ctx: FfrContext, unitId) => chargeReachShape(ctx, infoOf(ctx, unitId), ctx.t.get(chargeSetupQuery, unitId)), { equal: 'plain' });

/**
 * A unit's evaluation, its shapes, its warnings (morale, formation, fire: in that order, each once) and the
 * link drawn to its leader. Its fire and charge lists have one entry per enemy, in id order: an enemy out
 * of reach by the two units' boxes is refused here, the others are the pairs' answers.
 */
const unitEvaluationQuery = query(
  'ffr/unit-evaluation',
  (ctx: FfrContext, unitId): { evaluation: UnitEvaluation; shapes: readonly Shape[]; warnings: readonly EvaluationWarning[]; link?: Shape } => {
    const sink = new WarningSink(unitId);
    const info = ctx.unit(unitId);
    if (!info) {
      const evaluation = noStandsEvaluation(ctx.t.unit(unitId)!, sink);
      return { evaluation, shapes: [], warnings: sink.list };
    }
    const morale = ctx.t.get(moraleQuery, unitId);
    sink.addAll(morale.warnings);
    formationWarning(info, sink);
    for (const [code, message] of ctx.t.get(skirmishersQuery, unitId).warnings) sink.add(code, message);
    const movement = ctx.t.get(movementQuery, unitId);
    const shapes: Shape[] = [...movement.shapes];
    const chargeShapes: Shape[] = [];

    const { setup, warnings: setupWarnings, arc } = ctx.t.get(fireSetupQuery, unitId);
    sink.addAll(setupWarnings);
    const charging = ctx.t.get(chargeSetupQuery, unitId);
    const fire: (FfrFireOption | FireRefusal)[] = [];
    const charge: (FfrChargeOption | ChargeRefusal)[] = [];
    let anyCharge = false;
    for (const target of ctx.enemyBoxesOf(info.unit.side)) {
      const targetId = target.id;
      if (setup) {
        const far = fireBeyondReach(setup, info, target);
        if (far) fire.push(far);
        else {
          const pair = ctx.t.get(firePairQuery, pairKey(unitId, targetId));
          fire.push(pair.result);
          if (pair.shape) shapes.push(pair.shape);
          sink.addAll(pair.warnings);
        }
      }
      // Cannot charge at all, or out of reach by the boxes: the refusal alone.
      const far = chargeBeyondReach(charging, info, target);
      if (far) charge.push(far);
      else {
        const pair = ctx.t.get(chargePairQuery, pairKey(unitId, targetId));
        charge.push(pair.result);
        if (pair.result.ok) anyCharge = true;
        if (pair.shape) chargeShapes.push(pair.shape);
      }
    }
    if (arc) shapes.push(arc);
    for (const s of chargeShapes) shapes.push(s);
    if (anyCharge) {
      const reach = ctx.t.get(chargeReachQuery, unitId);
      if (reach) shapes.push(reach);
    }
    const command = ctx.t.get(commandQuery, unitId);
    const check = ctx.t.get(maneuverQuery, unitId);
    const evaluation: FfrUnitEvaluation = {
      unitId,
      formation: info.formation.reading,
      movement: movement.movement,
      fire,
      charge,
      rally: check.breakdown,
      command: command.command.reading,
      morale: morale.reading,
      maneuver: check.reading,
    };
    return { evaluation, shapes, warnings: sink.list, ...(command.link ? { link: command.link } : {}) };
  },
);

// Leaders.

const commandCirclesQuery = query('ffr/command-circles', (ctx: FfrContext) => commandCircles(ctx, ctx.t.get(leaderPlacesQuery)), { equal: 'plain' });

/** A leader's own reach and road reach (none for one attached to a unit). */
const leaderReachQuery = query(
  'ffr/leader-reach',
  (ctx: FfrContext, commanderId): Shape[] => {
    const place = ctx.t.get(leaderPlaceQuery, commanderId);
    return place ? leaderShapes(ctx, place) : [];
  },
  { equal: 'plain' },
);

/** The whole table: units in the table's order, then command circles and links, then leaders' reaches. */
const evaluationQuery = query('ffr/evaluation', (ctx: FfrContext): Evaluation => {
  const units: Record<string, UnitEvaluation> = {};
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  const links: Shape[] = [];
  for (const id of ctx.t.unitIds()) {
    const u = ctx.t.get(unitEvaluationQuery, id);
    units[id] = u.evaluation;
    for (const s of u.shapes) shapes.push(s);
    for (const w of u.warnings) warnings.push(w);
    if (u.link) links.push(u.link);
  }
  for (const s of ctx.t.get(commandCirclesQuery)) shapes.push(s);
  for (const s of links) shapes.push(s);
  for (const place of ctx.t.get(leaderPlacesQuery)) {
    for (const s of ctx.t.get(leaderReachQuery, place.commander.id)) shapes.push(s);
  }
  return { rulesetId: FFR_RULESET_ID, units, shapes, warnings };
});

/** The rule set as queries: the context over the engine's reader, and the root. */
export const FFR_QUERIES = { context: makeContext, root: evaluationQuery };

export function evaluateFireAndFuryRegimental(state: TableState): Evaluation {
  return evaluateQueries(FFR_QUERIES, state);
}
