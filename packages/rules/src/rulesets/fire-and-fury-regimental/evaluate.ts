/**
 * Regimental Fire and Fury (QRS II) evaluation of a whole table: context, the command pass, then per unit
 * formation, movement, fire, charge, the maneuver check and fresh/worn/spent, with shapes and warnings.
 */
import type { Evaluation, EvaluationWarning, UnitEvaluation } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { TableState, Unit } from '../../model/tableState.ts';
import { buildSightScene, type SightScene } from '../../geometry/lineOfSight.ts';
import { buildContext, WarningSink, type FfrUnitInfo } from './context.ts';
import { evaluateCommand } from './command.ts';
import { evaluateMorale, type Effectiveness } from './morale.ts';
import { evaluateMovement } from './movement.ts';
import { leaderReach } from './leaderMovement.ts';
import { evaluateFire } from './fire.ts';
import { evaluateCharge } from './charge.ts';
import { maneuverCheck, type ManeuverReading } from './maneuver.ts';

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
  if (reading.source === 'geometry' && reading.confidence < FORMATION_WARNING_CONFIDENCE) {
    sink.add('formation/uncertain', `${info.unit.name}: formation read as ${reading.name ?? reading.formation} (confidence ${reading.confidence}); dress the stands or set status.rulesetStatus.formation.`);
  }
}

export function evaluateFireAndFuryRegimental(state: TableState): Evaluation {
  const ctx = buildContext(state);
  const command = evaluateCommand(ctx);
  let sight: SightScene | undefined;
  const sightOf = (): SightScene => (sight ??= buildSightScene(state));
  const sinks = new Map<string, WarningSink>();
  const sinkOf = (id: string) => {
    let s = sinks.get(id);
    if (!s) sinks.set(id, (s = new WarningSink(id)));
    return s;
  };
  const effectiveness = new Map<string, Effectiveness | undefined>();
  const morale = new Map<string, ReturnType<typeof evaluateMorale>>();
  for (const info of ctx.units.values()) {
    const m = evaluateMorale(ctx, info, sinkOf(info.unit.id));
    morale.set(info.unit.id, m);
    effectiveness.set(info.unit.id, m.effectiveness);
  }
  const units: Record<string, UnitEvaluation> = {};
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  for (const unit of state.units) {
    const info = ctx.units.get(unit.id);
    const sink = sinkOf(unit.id);
    if (!info) {
      units[unit.id] = noStandsEvaluation(unit, sink);
      warnings.push(...sink.list);
      continue;
    }
    formationWarning(info, sink);
    const cmd = command.byUnit.get(unit.id)!;
    const movement = evaluateMovement(ctx, info, sink);
    const fire = evaluateFire(ctx, { sight: sightOf, effectiveness }, info, sink);
    const charge = evaluateCharge(ctx, { command: command.byUnit, effectiveness }, info);
    const check = maneuverCheck(ctx, info, cmd, effectiveness.get(unit.id));
    const evaluation: FfrUnitEvaluation = {
      unitId: unit.id,
      formation: info.formation.reading,
      movement: movement.movement,
      fire: fire.fire,
      charge: charge.charge,
      rally: check.breakdown,
      command: cmd.reading,
      morale: morale.get(unit.id)!.reading,
      maneuver: check.reading,
    };
    units[unit.id] = evaluation;
    shapes.push(...movement.shapes, ...fire.shapes, ...charge.shapes);
    warnings.push(...sink.list);
  }
  shapes.push(...command.shapes);
  for (const place of command.leaders) {
    const reach = leaderReach(ctx, place);
    if (reach) shapes.push(reach.shape);
  }
  return { rulesetId: FFR_RULESET_ID, units, shapes, warnings };
}
