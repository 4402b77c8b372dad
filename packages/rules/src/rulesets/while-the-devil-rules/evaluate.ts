/**
 * While the Devil Rules evaluation of a whole table: the context once, the command and army passes, then
 * per unit its formation, movement, fire, charges, command and status; shapes and warnings in state order.
 */
import type { ChargeRefusal, ChargeTargetOption, CommandReading, Evaluation, EvaluationWarning, MoraleReading, UnitEvaluation } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { TableState } from '../../model/tableState.ts';
import { buildContext, frontZone, missingParameterWarnings, type UnitInfo, type WtdrContext } from './context.ts';
import { ENEMY_FRONT_ZONE_IN } from './tables/movementTables.ts';
import { evaluateCharge, type ChargeResult } from './charge.ts';
import { evaluateCommand } from './command.ts';
import { evaluateFire, type FireResult } from './fire.ts';
import { evaluateMovement, type MovementResult } from './movement.ts';
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

/** A unit's parts, as the full evaluation and the session (session.ts) both put them together. */
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

/** Full evaluation of a table state. Pure. */
export function evaluateWhileTheDevilRules(state: TableState): Evaluation {
  const ctx = buildContext(state);
  const command = evaluateCommand(ctx);
  const armies = evaluateArmies(ctx);
  const units: Record<string, UnitEvaluation> = {};
  const shapes: Shape[] = [];
  const warnings: EvaluationWarning[] = [];
  for (const u of state.units) {
    const info = ctx.units.get(u.id)!;
    warnings.push(...unitWarnings(info));
    const movement = evaluateMovement(ctx, info);
    const fire = evaluateFire(ctx, info);
    const charge = evaluateCharge(ctx, info);
    const impetuous = impetuousCharge(ctx, info, charge.charge);
    if (impetuous) warnings.push(impetuous);
    units[u.id] = unitEvaluation({ info, movement, fire, charge, command: command.readings.get(u.id)!, morale: unitMorale(info, armies.armies.get(u.side)) });
    shapes.push(...formationShapes(info), ...movement.shapes, ...fire.shapes, ...charge.shapes);
  }
  const melees = evaluateMelees(ctx);
  shapes.push(...command.shapes, ...melees.shapes, ...armies.shapes);
  return { rulesetId: WTDR_RULESET_ID, units, shapes, warnings: [...warnings, ...armies.warnings, ...missingParameterWarnings([ctx.missing.list])] };
}
