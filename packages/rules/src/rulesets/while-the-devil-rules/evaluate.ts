/**
 * While the Devil Rules evaluation of a whole table: the context once, the command and army passes, then
 * per unit its formation, movement, fire, charges, command and status; shapes and warnings in state order.
 */
import type { ChargeRefusal, ChargeTargetOption, CommandReading, Evaluation, EvaluationWarning, MoraleReading, UnitEvaluation } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { TableState } from '../../model/tableState.ts';
import { query, type Query } from '../../engine/incremental/query.ts';
import type { QueryRuleset } from '../../engine/incremental/tableReader.ts';
import { evaluateQueries, queryContext } from '../../engine/incremental/runQueries.ts';
import { enemyIdsOf, frontZone, missingParameterWarnings, MISSING_PARAMETERS, wtdrContext, type UnitInfo, type WtdrContext } from './context.ts';
import { ENEMY_FRONT_ZONE_IN } from './tables/movementTables.ts';
import { chargeAtTarget, chargePlan, chargeResult, type ChargeResult } from './charge.ts';
import { leaderParts, unitCommand } from './command.ts';
import { fireArcShapes, fireAtTarget, firePlan, fireResult, type FireResult } from './fire.ts';
import { movementOf, type MovementResult } from './movement.ts';
import { evaluateArmies, unitMorale } from './morale.ts';
import { evaluateMelees } from './melee.ts';

export const WTDR_RULESET_ID = 'while-the-devil-rules';

/** Below this formation confidence a warning asks the players to dress the bases or set the formation. */
export const FORMATION_WARNING_CONFIDENCE = 0.5;

export function formationShapes(info: UnitInfo): Shape[] {
  if (info.hull.length === 0) return [];
  const id = info.unit.id;
  const r = info.formation.reading;
  // The 1" in front of the unit that enemies may not enter except to charge or retire (Movement).
  const zone = info.status === 'destroyed' ? [] : frontZone(info, ENEMY_FRONT_ZONE_IN);
  return [
    { id: `wtdr/${id}/formation`, kind: 'polygon', layer: 'formation', style: 'formation', unitId: id, side: info.unit.side, vertices: info.hull },
    ...(zone.length > 0 ? [{ id: `wtdr/${id}/front-zone`, kind: 'polygon' as const, layer: 'movement' as const, style: 'blocked' as const, unitId: id, side: info.unit.side, vertices: zone }] : []),
    { id: `wtdr/${id}/formation/label`, kind: 'label', layer: 'labels', style: 'label', unitId: id, side: info.unit.side, at: info.centre, text: `${info.unit.name}: ${r.name ?? r.formation}${info.status !== 'ok' ? `, ${info.status}` : ''}` },
  ];
}

/**
 * "if deployed (that is, not in march formation) they must charge the nearest formed enemy whenever
 * opportunity presents itself" (Formations): a warning naming that target when a charge at it is open.
 */
export function impetuousCharge(ctx: WtdrContext, info: UnitInfo, charge: readonly (ChargeTargetOption | ChargeRefusal)[]): EvaluationWarning | undefined {
  if (info.unit.rulesetFields?.['impetuous'] !== true || info.formation.march) return undefined;
  let nearest: ChargeTargetOption | undefined;
  for (const c of charge) {
    if (!c.ok) continue;
    const family = ctx.units.get(c.targetUnitId)?.type?.family;
    // Formed: not the swarms and irregular light horse, which "do not have regular formations" (Movement).
    if (family === 'swarm' || family === 'light-horse') continue;
    if (!nearest || c.distanceIn < nearest.distanceIn) nearest = c;
  }
  if (!nearest) return undefined;
  return { code: 'charge/impetuous', message: `${info.unit.name} is impetuous and must charge ${ctx.units.get(nearest.targetUnitId)!.unit.name}, the nearest formed enemy in reach (Formations)`, unitId: info.unit.id };
}

/** Warnings about the unit itself: no bases, no troop type, or a formation read with low confidence. */
export function unitWarnings(info: UnitInfo): EvaluationWarning[] {
  const id = info.unit.id;
  const r = info.formation.reading;
  if (info.stands.length === 0) return [{ code: 'unit/no-stands', message: `${info.unit.name} has no bases on the table.`, unitId: id }];
  if (!info.type) return [{ code: 'unit/no-troop-type', message: `${info.unit.name}: no troop type (rulesetFields["troop-type"]); movement, fire and charges need it.`, unitId: id }];
  if (r.source === 'geometry' && r.confidence < FORMATION_WARNING_CONFIDENCE) {
    return [{ code: 'formation/uncertain', message: `${info.unit.name}: formation read as ${r.name ?? r.formation} (confidence ${r.confidence}); dress the bases or set the formation.`, unitId: id }];
  }
  return [];
}

export const RALLY_BY_APP = { ok: false, reason: 'rally/by-app', detail: 'a Regroup action is resolved by the app; the guide gives no modifiers (Actions: Rest/Regroup)' } as const;

/** A unit's parts, put together into its evaluation. */
export interface UnitParts {
  readonly info: UnitInfo;
  readonly movement: MovementResult;
  readonly fire: FireResult;
  readonly charge: ChargeResult;
  readonly command: CommandReading;
  readonly morale: MoraleReading;
}

export function unitEvaluation(p: UnitParts): UnitEvaluation {
  return {
    unitId: p.info.unit.id,
    formation: p.info.formation.reading,
    movement: p.movement.movement,
    fire: p.fire.fire,
    charge: p.charge.charge,
    rally: { ...RALLY_BY_APP },
    command: p.command,
    morale: p.morale,
  };
}

// The evaluation as queries: per unit (movement, fire and charge plans and lists, command, morale, the
// unit's whole evaluation), per pair of units (a fire or charge answer), and per table (leaders, armies,
// melees, the assembly). A pair's keys are the unit's id and the enemy's. Each reads the table only through `ctx`; the engine keeps what a change does not meet.

const info = (ctx: WtdrContext, unitId: string): UnitInfo => ctx.units.get(unitId)!;


const firePlanOf = query('wtdr/fire-plan', (ctx: WtdrContext, unitId) => firePlan(ctx, info(ctx, unitId)), { equal: 'plain' });

/** A (unit, enemy) answer under the unit's plan: asked only while that plan lets the unit act. */
function pairQuery<P extends { readonly kind: string }, K extends P['kind'], A>(
  name: string,
  planOf: Query<WtdrContext, P>,
  kind: K,
  atTarget: (ctx: WtdrContext, me: UnitInfo, plan: Extract<P, { readonly kind: K }>, target: UnitInfo) => A,
): Query<WtdrContext, A> {
  return query(
    name,
    (ctx: WtdrContext, unitId, targetId): A => {
      const plan = ctx.t.get(planOf, unitId);
      if (plan.kind !== kind) throw new Error(`${name}: ${unitId} -> ${targetId} asked of a unit whose plan is '${plan.kind}'`);
      return atTarget(ctx, info(ctx, unitId), plan as Extract<P, { readonly kind: K }>, info(ctx, targetId));
    },
    { equal: 'plain' },
  );
}

const firePairOf = pairQuery('wtdr/fire-pair', firePlanOf, 'fire', fireAtTarget);

const fireOf = query(
  'wtdr/fire',
  (ctx: WtdrContext, unitId): FireResult => {
    const me = info(ctx, unitId);
    const plan = ctx.t.get(firePlanOf, unitId);
    const enemies = enemyIdsOf(ctx, me.unit.side);
    if (plan.kind !== 'fire') return fireResult(me, plan, enemies, [], []);
    const pairs = enemies.map((e) => ctx.t.get(firePairOf, unitId, e));
    return fireResult(me, plan, enemies, pairs, fireArcShapes(me, plan));
  },
  { equal: 'identity' },
);

const chargePlanOf = query('wtdr/charge-plan', (ctx: WtdrContext, unitId) => chargePlan(ctx, info(ctx, unitId)), { equal: 'plain' });

const chargePairOf = pairQuery('wtdr/charge-pair', chargePlanOf, 'charge', chargeAtTarget);

const chargeOf = query(
  'wtdr/charge',
  (ctx: WtdrContext, unitId): ChargeResult => {
    const plan = ctx.t.get(chargePlanOf, unitId);
    const enemies = enemyIdsOf(ctx, info(ctx, unitId).unit.side);
    const pairs = plan.kind === 'charge' ? enemies.map((e) => ctx.t.get(chargePairOf, unitId, e)) : [];
    return chargeResult(plan, enemies, pairs);
  },
  { equal: 'identity' },
);

const leadersOf = query('wtdr/leaders', (ctx: WtdrContext) => leaderParts(ctx));

const commandOf = query('wtdr/command', (ctx: WtdrContext, unitId) => unitCommand(ctx, info(ctx, unitId), ctx.t.get(leadersOf)), { equal: 'plain' });

const armiesOf = query('wtdr/armies', (ctx: WtdrContext) => evaluateArmies(ctx));

/** One side's army morale (kept while its points and break point stay the same). */
const armyOf = query('wtdr/army', (ctx: WtdrContext, side) => ctx.t.get(armiesOf).armies.get(side), { equal: 'plain' });

const moraleOf = query('wtdr/morale', (ctx: WtdrContext, unitId) => unitMorale(info(ctx, unitId), ctx.t.get(armyOf, info(ctx, unitId).unit.side)), { equal: 'plain' });

const meleesOf = query('wtdr/melees', (ctx: WtdrContext) => evaluateMelees(ctx), { equal: 'plain' });

/** A unit's evaluation, the shapes it draws and the warnings about it, in the evaluation's order. */
const unitPartsOf = query(
  'wtdr/unit-evaluation',
  (ctx: WtdrContext, unitId): { evaluation: UnitEvaluation; shapes: Shape[]; warnings: EvaluationWarning[]; commandShape: Shape | undefined } => {
    const me = info(ctx, unitId);
    const movement = ctx.t.get(movementOf, unitId);
    const fire = ctx.t.get(fireOf, unitId);
    const charge = ctx.t.get(chargeOf, unitId);
    const command = ctx.t.get(commandOf, unitId);
    const warnings = unitWarnings(me);
    const impetuous = impetuousCharge(ctx, me, charge.charge);
    if (impetuous) warnings.push(impetuous);
    return {
      evaluation: unitEvaluation({ info: me, movement, fire, charge, command: command.reading, morale: ctx.t.get(moraleOf, unitId) }),
      shapes: [...formationShapes(me), ...movement.shapes, ...fire.shapes, ...charge.shapes],
      warnings,
      commandShape: command.shape,
    };
  },
  { equal: 'identity' },
);

/** Everything but the missing-parameter warnings, which are collected from all of this. */
const bodyOf = query('wtdr/body', (ctx: WtdrContext) => {
  const units: Record<string, UnitEvaluation> = {};
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  const commandShapes: Shape[] = [...ctx.t.get(leadersOf).shapes];
  for (const id of ctx.t.unitIds()) {
    const parts = ctx.t.get(unitPartsOf, id);
    units[id] = parts.evaluation;
    for (const w of parts.warnings) warnings.push(w);
    for (const sh of parts.shapes) shapes.push(sh);
    if (parts.commandShape) commandShapes.push(parts.commandShape);
  }
  const melees = ctx.t.get(meleesOf);
  const armies = ctx.t.get(armiesOf);
  for (const sh of commandShapes) shapes.push(sh);
  for (const sh of melees.shapes) shapes.push(sh);
  for (const sh of armies.shapes) shapes.push(sh);
  for (const w of armies.warnings) warnings.push(w);
  return { units, shapes, warnings };
});

const evaluationOf = query('wtdr/evaluation', (ctx: WtdrContext): Evaluation => {
  const body = ctx.t.get(bodyOf);
  const missing = missingParameterWarnings([ctx.t.reported(MISSING_PARAMETERS, bodyOf)]);
  return { rulesetId: WTDR_RULESET_ID, units: body.units, shapes: body.shapes, warnings: missing.length > 0 ? [...body.warnings, ...missing] : body.warnings };
});

/** While the Devil Rules as queries, for the engine (engine/incremental). */
export const WTDR_QUERIES: QueryRuleset<WtdrContext, Evaluation> = { context: wtdrContext, root: evaluationOf };

/** Full evaluation of a table state. Pure. */
export function evaluateWhileTheDevilRules(state: TableState): Evaluation {
  return evaluateQueries(WTDR_QUERIES, state);
}

/** The rule set's context over one state, to call its rule functions directly (tests). */
export function buildContext(state: TableState): WtdrContext {
  return queryContext(WTDR_QUERIES, state);
}
