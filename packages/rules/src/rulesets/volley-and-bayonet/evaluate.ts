/**
 * Volley & Bayonet: At War in the Americas, the evaluation of a whole table: the context once, command for
 * every stand (it is fixed at the start of the turn), brigade exhaustion, then per unit its order
 * (formation), movement, fire, charges, rally and morale; the danger zones of the guns; shapes and warnings.
 */
import type { Evaluation, EvaluationWarning, FormationReading, MoraleReading, UnitEvaluation } from '../../engine/evaluation.ts';
import { appendAll } from '../../engine/appendAll.ts';
import { missingParameterWarning } from '../../engine/rulesetFields.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { TableState, Unit } from '../../model/tableState.ts';
import { buildContext, type UnitReading, type VbContext, type VbUnit } from './context.ts';
import { evaluateCommand, type CommandResult } from './command.ts';
import { evaluateCharge, type ChargeResult } from './charge.ts';
import { SAVE_PARAMS } from './declarations.ts';
import { evaluateFire, fireSettings, type FireResult, type FireSettings } from './fire/fire.ts';
import { readFormation } from './formation.ts';
import { brigadeMorale, dangerZones, evaluateRally, moraleReading, type BrigadeMorale, type DangerZones } from './morale.ts';
import { evaluateMovement, type MovementResult } from './movement/movement.ts';
import { buildTerrain, type VbTerrain } from './movement/terrainScene.ts';
import type { SaveCondition } from './tables/combat.ts';

export const VB_RULESET_ID = 'volley-and-bayonet';

/** Below this formation confidence a warning asks the players to check the bases or set the formation. */
export const FORMATION_WARNING_CONFIDENCE = 0.5;

/**
 * Where the incremental session (session.ts) plugs in: the context may reuse unchanged units, and each
 * per-unit part may come from a cache. Without hooks every part is computed afresh.
 */
export interface EvaluationHooks {
  readonly reuse?: (u: Unit) => UnitReading | undefined;
  /**
   * Command for every unit, in place of `evaluateCommand` (the session keeps each unit's, and the whole
   * answer when no unit's changed).
   */
  readonly commandAll?: (ctx: VbContext) => CommandResult;
  /** Called once the context, command and brigade morale are known, before any unit's parts. */
  readonly prepared?: (ctx: VbContext, terrain: VbTerrain, command: CommandResult, exhausted: (unitId: string) => boolean) => void;
  readonly movement?: (info: VbUnit) => MovementResult;
  readonly fire?: (info: VbUnit, settings: FireSettings) => FireResult;
  readonly charge?: (info: VbUnit) => ChargeResult;
  readonly formation?: (info: VbUnit) => FormationReading;
  readonly morale?: (info: VbUnit, brigade: BrigadeMorale | undefined) => MoraleReading;
  /** Called after every unit's parts. */
  readonly danger?: (ctx: VbContext) => DangerZones;
}

export function evaluateVolleyAndBayonet(state: TableState, hooks: EvaluationHooks = {}): Evaluation {
  const ctx = buildContext(state, hooks.reuse);
  const terrain = buildTerrain(state);
  const command = hooks.commandAll ? hooks.commandAll(ctx) : evaluateCommand(ctx);
  const morale = brigadeMorale(ctx);
  const exhausted = (unitId: string): boolean => {
    const b = ctx.units.get(unitId)?.unit.brigadeId;
    return b !== undefined && morale.brigades.get(b)?.exhausted === true;
  };
  hooks.prepared?.(ctx, terrain, command, exhausted);
  const fireCfg = fireSettings(ctx);
  const warnings: EvaluationWarning[] = [...ctx.warnings, ...fireCfg.warnings, ...morale.warnings];
  const shapes: Shape[] = [];
  const units: Record<string, UnitEvaluation> = {};
  const missingSaves = new Set<SaveCondition>();
  for (const u of state.units) {
    const info = ctx.units.get(u.id)!;
    const formation = hooks.formation ? hooks.formation(info) : readFormation(info);
    if (info.stands.length === 0) warnings.push({ code: 'unit/no-stands', message: `${u.name} has no stands on the table.`, unitId: u.id });
    else if (formation.source === 'geometry' && formation.confidence < FORMATION_WARNING_CONFIDENCE) {
      warnings.push({ code: 'formation/uncertain', message: `${u.name}: read as ${formation.name ?? formation.formation} (confidence ${formation.confidence}); check the bases or set the formation.`, unitId: u.id });
    }
    const movement = hooks.movement ? hooks.movement(info) : evaluateMovement(ctx, terrain, info, command.standInCommand);
    const settings = fireCfg.settings;
    const fire = settings ? (hooks.fire ? hooks.fire(info, settings) : evaluateFire(ctx, settings, info, command.standInCommand, exhausted)) : undefined;
    if (fire) for (const c of fire.missingSaves) missingSaves.add(c);
    const charge = hooks.charge ? hooks.charge(info) : evaluateCharge(ctx, terrain, info, command.standInCommand, exhausted);
    appendAll(warnings, movement.warnings);
    appendAll(warnings, charge.warnings);
    const b = u.brigadeId !== undefined ? morale.brigades.get(u.brigadeId) : undefined;
    units[u.id] = {
      unitId: u.id,
      formation,
      movement: movement.movement,
      fire: fire?.fire ?? [],
      charge: charge.charge,
      rally: evaluateRally(ctx, info),
      command: command.readings.get(u.id)!,
      morale: hooks.morale ? hooks.morale(info, b) : moraleReading(ctx, info, b),
    };
    appendAll(shapes, movement.shapes);
    if (fire) appendAll(shapes, fire.shapes);
    appendAll(shapes, charge.shapes);
  }
  const danger = hooks.danger ? hooks.danger(ctx) : dangerZones(ctx);
  appendAll(shapes, danger.shapes);
  appendAll(shapes, command.shapes);
  appendAll(warnings, danger.warnings);
  appendAll(warnings, command.warnings);
  for (const c of Object.keys(SAVE_PARAMS) as SaveCondition[]) {
    if (missingSaves.has(c)) warnings.push(missingParameterWarning(SAVE_PARAMS[c], 'A save named on the fire dice'));
  }
  return { rulesetId: VB_RULESET_ID, units, shapes, warnings };
}
