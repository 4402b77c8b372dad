/**
 * The Devil to Pay (2018) evaluation of a whole table, as queries of the incremental engine
 * (`engine/incremental/`). Each piece is written as if it evaluated from scratch and reads the table only
 * through the context (`context.ts`):
 * - per unit: its facts and formation (`context.ts`), movement, fire list, charge, rally, command reading,
 *   and its evaluation (those parts put together with its fire shapes and warnings);
 * - per pair: fire of one unit at one enemy (`firePairQuery`, fire/fire.ts);
 * - per brigade: the command pass (`brigadeQuery`, command.ts);
 * - the whole table: combined charges, command shapes, and the root, which lists every unit's evaluation
 *   in state order.
 * `evaluate` runs them once; a live evaluator (`createEvaluator`) keeps them and recomputes only what a
 * change meets.
 */
import type { Evaluation, EvaluationWarning, UnitEvaluation } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { TableState } from '../../model/tableState.ts';
import { query } from '../../engine/incremental/query.ts';
import type { QueryRuleset } from '../../engine/incremental/tableReader.ts';
import { evaluateQueries } from '../../engine/incremental/runQueries.ts';
import { dtpContext, type DtpContext } from './context.ts';
import { fireListQuery } from './fire/fire.ts';
import { fireShapesQuery } from './fire/fireShapes.ts';
import { chargeCandidates, chargeOptions, combinedCharges } from './charge.ts';
import { movementOptions } from './movement/movementOptions.ts';
import { evaluateRally } from './rally.ts';
import { commanderReadings, commandReadingQuery, commandShapesQuery } from './command.ts';
import { optionalRuleParts } from './optionalRules.ts';
import { declarationWarnings } from './declarations.ts';
import { weaponRow } from './tables/fireTables.ts';
import { weaponRangeReading } from './fire/weaponRange.ts';

export const DTP_RULESET_ID = 'devil-to-pay';

/** Below this formation confidence a warning asks the players to dress the stands or set the formation. */
export const FORMATION_WARNING_CONFIDENCE = 0.5;

/** Everything evaluated for one unit, before being put together. */
export interface UnitParts {
  readonly evaluation: UnitEvaluation;
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
}

/** A unit's movement options and shapes (movement/). */
export const movementQuery = query('dtp/movement', (ctx: DtpContext, unitId) => movementOptions(ctx, unitId), { equal: 'plain' });

/** A unit's charge options and shapes (charge.ts). */
export const chargeQuery = query('dtp/charge', (ctx: DtpContext, unitId) => chargeOptions(ctx, unitId, { candidates: ctx.t.get(chargeCandidatesQuery, unitId) }), { equal: 'plain' });

/** The enemies that may give a unit a charge entry (charge.ts `chargeCandidates`): ids, cut off early. */
const chargeCandidatesQuery = query('dtp/charge-candidates', (ctx: DtpContext, unitId) => chargeCandidates(ctx, unitId), { equal: 'plain' });

/** A unit's rally dice or refusal (rally.ts). */
export const rallyQuery = query('dtp/rally', (ctx: DtpContext, unitId) => evaluateRally(ctx, unitId), { equal: 'plain' });

/** Evaluates one unit: its parts put together, its shapes (movement, fire, charge) and its warnings. */
export function evaluateUnit(ctx: DtpContext, unitId: string): UnitParts {
  const info = ctx.units.get(unitId)!;
  const reading = ctx.formationOf(unitId);
  const warnings: EvaluationWarning[] = [];
  if (info.stands.length === 0) {
    warnings.push({ code: 'unit/no-stands', message: `${info.unit.name} has no stands on the table.`, unitId });
  } else if (reading.source === 'geometry' && reading.confidence < FORMATION_WARNING_CONFIDENCE) {
    warnings.push({
      code: 'formation/uncertain',
      message: `${info.unit.name}: formation read as ${reading.formation} (confidence ${reading.confidence}); dress the stands or set the formation.`,
      unitId,
    });
  }
  const movement = ctx.t.get(movementQuery, unitId);
  const fire = ctx.t.get(fireListQuery, unitId);
  const unknownWeapon = fire.find((f) => !f.ok && f.reason === 'fire/unknown-weapon');
  if (unknownWeapon && !unknownWeapon.ok) warnings.push({ code: 'fire/unknown-weapon', message: `${info.unit.name}: ${unknownWeapon.detail ?? ''}`, unitId });
  const charge = ctx.t.get(chargeQuery, unitId);
  const optional = optionalRuleParts(ctx, unitId, fire);
  warnings.push(...optional.warnings);
  warnings.push(...declarationWarnings(info));
  const evaluation: UnitEvaluation = {
    unitId,
    formation: { formation: reading.formation, confidence: reading.confidence, source: reading.source },
    movement: movement.movement,
    fire,
    charge: charge.charge,
    rally: ctx.t.get(rallyQuery, unitId),
    command: ctx.t.get(commandReadingQuery, unitId),
    ...optional.fields,
    // The weapon's bands for the views' tape measure; none for a weapon no fire table lists.
    ...weaponRangeField(info.unit.weapon),
  };
  return { evaluation, shapes: [...movement.shapes, ...ctx.t.get(fireShapesQuery, unitId), ...charge.shapes], warnings };
}

function weaponRangeField(weapon: string): Pick<UnitEvaluation, 'weaponRange'> {
  const row = weaponRow(weapon);
  return row ? { weaponRange: weaponRangeReading(row) } : {};
}

/** One unit's evaluation (`evaluateUnit`). */
export const unitPartsQuery = query('dtp/unit-evaluation', (ctx: DtpContext, unitId) => evaluateUnit(ctx, unitId));

/** The combined charges of every unit's charge options (charge.ts), in state order. */
const combinedChargesQuery = query(
  'dtp/combined-charges',
  (ctx: DtpContext) => combinedCharges(ctx.t.unitIds().map((unitId) => ({ unitId, charge: ctx.t.get(chargeQuery, unitId).charge }))),
  { equal: 'plain' },
);

/** The whole evaluation: every unit's in state order, then the command links; shapes in the same order. */
const evaluationQuery = query('dtp/evaluation', (ctx: DtpContext): Evaluation => {
  const ids = ctx.t.unitIds();
  const parts = ids.map((id) => ctx.t.get(unitPartsQuery, id));
  const units: Record<string, UnitEvaluation> = {};
  const warnings: EvaluationWarning[] = [];
  const commandShapes = ctx.t.get(commandShapesQuery);
  // The shapes in one list of its final length (a few thousand on a big table).
  let count = commandShapes.length;
  for (const p of parts) count += p.shapes.length;
  const shapes = new Array<Shape>(count);
  let k = 0;
  for (let i = 0; i < ids.length; i++) {
    const p = parts[i]!;
    units[ids[i]!] = p.evaluation;
    for (const sh of p.shapes) shapes[k++] = sh;
    for (const w of p.warnings) warnings.push(w);
  }
  for (const sh of commandShapes) shapes[k++] = sh;
  const commanders = ctx.state.commanders;
  const combined = ctx.t.get(combinedChargesQuery);
  return {
    rulesetId: DTP_RULESET_ID,
    units,
    shapes,
    warnings,
    // Commanders hold orders of their own (Commanders, p. 6): listed when the table has any.
    ...(commanders.length > 0 ? { commanders: commanderReadings(commanders) } : {}),
    ...(combined.length > 0 ? { combinedCharges: combined.slice() } : {}),
  };
});

/** The Devil to Pay as queries: the context and the root. */
export const dtpQueries: QueryRuleset<DtpContext, Evaluation> = { context: dtpContext, root: evaluationQuery };

/** Full evaluation of a table state. Pure. */
export function evaluateDevilToPay(state: TableState): Evaluation {
  return evaluateQueries(dtpQueries, state);
}
