/**
 * Volley & Bayonet: At War in the Americas, the evaluation of a whole table as the root of the rule set's
 * queries: command for every stand (it is fixed at the start of the turn), brigade exhaustion, then per
 * unit its order (formation), movement, fire, charges, rally and morale; the danger zones of the guns;
 * shapes and warnings. The pieces are in queries.ts and context.ts.
 */
import type { Evaluation, EvaluationWarning, UnitEvaluation } from '../../engine/evaluation.ts';
import { appendAll } from '../../engine/appendAll.ts';
import { missingParameterWarning } from '../../engine/rulesetFields.ts';
import type { Shape } from '../../engine/shapes.ts';
import { query } from '../../engine/incremental/query.ts';
import type { QueryRuleset } from '../../engine/incremental/tableReader.ts';
import { evaluateQueries } from '../../engine/incremental/runQueries.ts';
import type { TableState } from '../../model/tableState.ts';
import { makeContext, unitReadingQuery, type VbContext } from './context.ts';
import { SAVE_PARAMS } from './declarations.ts';
import { readFormation } from './formation.ts';
import { townBlocks } from './occupancy.ts';
import { evaluateRally, moraleReading } from './morale.ts';
import { blockOccupancyQuery, brigadeMoraleQuery, brigadeQuery, chargeQuery, commanderMovementQuery, commanderZonesQuery, commandQuery, dangerQuery, fireQuery, fireSettingsQuery, movementQuery } from './queries.ts';
import type { SaveCondition } from './tables/combat.ts';

export const VB_RULESET_ID = 'volley-and-bayonet';

/** Below this formation confidence a warning asks the players to check the bases or set the formation. */
export const FORMATION_WARNING_CONFIDENCE = 0.5;

/**
 * One unit's evaluation, with the shapes and warnings of its parts, the saves its fire names unentered, and
 * what the root lists apart: the warnings of reading it, its guns' danger zones and its command.
 */
interface UnitPiece {
  readonly evaluation: UnitEvaluation;
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
  readonly missingSaves: readonly SaveCondition[];
  readonly readingWarnings: readonly EvaluationWarning[];
  readonly danger: { readonly shapes: readonly Shape[]; readonly warnings: readonly EvaluationWarning[] };
  readonly command: { readonly shapes: readonly Shape[]; readonly warnings: readonly EvaluationWarning[] };
}

const unitEvaluationQuery = query('vb/unit-evaluation', (ctx: VbContext, unitId: string): UnitPiece => {
  const info = ctx.units.get(unitId)!;
  const u = info.unit;
  const warnings: EvaluationWarning[] = [];
  const shapes: Shape[] = [];
  const formation = readFormation(info);
  if (info.stands.length === 0) warnings.push({ code: 'unit/no-stands', message: `${u.name} has no stands on the table.`, unitId: u.id });
  else if (formation.source === 'geometry' && formation.confidence < FORMATION_WARNING_CONFIDENCE) {
    warnings.push({ code: 'formation/uncertain', message: `${u.name}: read as ${formation.name ?? formation.formation} (confidence ${formation.confidence}); check the bases or set the formation.`, unitId: u.id });
  }
  const movement = ctx.t.get(movementQuery, unitId);
  const fire = ctx.t.get(fireQuery, unitId);
  const charge = ctx.t.get(chargeQuery, unitId);
  appendAll(warnings, movement.warnings);
  appendAll(warnings, charge.warnings);
  const b = u.brigadeId !== undefined ? ctx.t.get(brigadeQuery, u.brigadeId) : undefined;
  const command = ctx.t.get(commandQuery, unitId);
  const evaluation: UnitEvaluation = {
    unitId: u.id,
    formation,
    movement: movement.movement,
    fire: fire?.fire ?? [],
    charge: charge.charge,
    rally: evaluateRally(ctx, info),
    command: command.reading,
    morale: moraleReading(ctx, info, b),
  };
  appendAll(shapes, movement.shapes);
  if (fire) appendAll(shapes, fire.shapes);
  appendAll(shapes, charge.shapes);
  return {
    evaluation,
    shapes,
    warnings,
    missingSaves: fire?.missingSaves ?? [],
    readingWarnings: ctx.t.get(unitReadingQuery, unitId)!.warnings,
    danger: ctx.t.get(dangerQuery, unitId),
    command,
  };
});

/**
 * The whole evaluation: the units as read (their warnings), the fire parameters and brigades, every unit's
 * evaluation in the state's order, then the guns' danger zones, command, and the saves fire named unentered.
 */
const evaluationQuery = query('vb/evaluation', (ctx: VbContext): Evaluation => {
  const pieces = ctx.t.unitIds().map((id) => ctx.t.get(unitEvaluationQuery, id));
  const warnings: EvaluationWarning[] = [];
  for (const p of pieces) appendAll(warnings, p.readingWarnings);
  appendAll(warnings, ctx.t.get(fireSettingsQuery).warnings);
  appendAll(warnings, ctx.t.get(brigadeMoraleQuery).warnings);
  const shapes: Shape[] = [];
  const units: Record<string, UnitEvaluation> = {};
  const missingSaves = new Set<SaveCondition>();
  for (const p of pieces) {
    units[p.evaluation.unitId] = p.evaluation;
    appendAll(warnings, p.warnings);
    appendAll(shapes, p.shapes);
    for (const c of p.missingSaves) missingSaves.add(c);
  }
  // Superior commanders' own movement (Movement, p. 2: "Commanders 24").
  for (const c of ctx.commanders) appendAll(shapes, ctx.t.get(commanderMovementQuery, c.commander.id));
  for (const p of pieces) appendAll(shapes, p.danger.shapes);
  appendAll(shapes, ctx.t.get(commanderZonesQuery));
  for (const p of pieces) appendAll(shapes, p.command.shapes);
  for (const p of pieces) appendAll(warnings, p.danger.warnings);
  for (const p of pieces) appendAll(warnings, p.command.warnings);
  for (const block of townBlocks(ctx.t.terrain().areas)) appendAll(warnings, ctx.t.get(blockOccupancyQuery, block.id));
  for (const c of Object.keys(SAVE_PARAMS) as SaveCondition[]) {
    if (missingSaves.has(c)) warnings.push(missingParameterWarning(SAVE_PARAMS[c], 'A save named on the fire dice'));
  }
  return { rulesetId: VB_RULESET_ID, units, shapes, warnings };
});

/** The rule set's queries: the context over the reader, and the root. */
export const vbQueries: QueryRuleset<VbContext, Evaluation> = { context: makeContext, root: evaluationQuery };

/** The evaluation of one state: the queries run once, nothing kept. */
export function evaluateVolleyAndBayonet(state: TableState): Evaluation {
  return evaluateQueries(vbQueries, state);
}
