/**
 * The Devil to Pay (2018) evaluation of a whole table: builds the per-state context once, then per unit reads
 * its formation and evaluates movement, fire, charge, rally and command, collecting shapes and warnings.
 * `evaluateUnit` and `assemble` are shared with the incremental session (`session.ts`), which hands in
 * cached part sources that return exactly what `directSources` would.
 */
import type { CombinedChargeReading, DiceBreakdown, Evaluation, EvaluationWarning, FireRefusal, FireTargetOption, Refusal, UnitEvaluation } from '../../engine/evaluation.ts';
import type { Shape } from '../../engine/shapes.ts';
import type { TableState } from '../../model/tableState.ts';
import { buildContext, type DtpContext } from './context.ts';
import { evaluateFire, fireAtTarget } from './fire/fire.ts';
import { buildFireScene, type FireScene } from './fire/fireScene.ts';
import { fireShapes } from './fire/fireShapes.ts';
import { chargeOptions, combinedCharges, type ChargeOptionsResult } from './charge.ts';
import { movementOptions } from './movement/movementOptions.ts';
import type { MovementResult } from './movement/movementResult.ts';
import { evaluateRally } from './rally.ts';
import { commanderReadings, evaluateCommand } from './command.ts';
import { optionalRuleParts } from './optionalRules.ts';
import { declarationWarnings } from './declarations.ts';
import { weaponRow } from './tables/fireTables.ts';
import { weaponRangeReading } from './fire/weaponRange.ts';

export const DTP_RULESET_ID = 'devil-to-pay';

/** Below this formation confidence a warning asks the players to dress the stands or set the formation. */
export const FORMATION_WARNING_CONFIDENCE = 0.5;

/** Everything evaluated for one unit, before being put together. Sessions cache these per unit. */
export interface UnitParts {
  readonly evaluation: UnitEvaluation;
  readonly shapes: readonly Shape[];
  readonly warnings: readonly EvaluationWarning[];
}

/** Fire of one unit at one target, injected so a session can serve it from a cache. */
export type PairFire = (firerId: string, targetId: string) => FireTargetOption | FireRefusal;

/**
 * Where the per-unit parts come from. `directSources` computes everything; a session substitutes cached
 * versions that return exactly what the direct ones would.
 */
export interface UnitPartSources {
  movement(unitId: string): MovementResult;
  charge(unitId: string): ChargeOptionsResult;
  rally(unitId: string): DiceBreakdown | Refusal;
  pair: PairFire;
  /** Every fire option of a unit (`evaluateFire` through `pair`). */
  fire(unitId: string): (FireTargetOption | FireRefusal)[];
  fireShapes(unitId: string, options: readonly (FireTargetOption | FireRefusal)[]): readonly Shape[];
}

export function directSources(ctx: DtpContext, scene: FireScene): UnitPartSources {
  const pair: PairFire = (f, t) => fireAtTarget(ctx, scene, f, t);
  return {
    movement: (id) => movementOptions(ctx, id),
    charge: (id) => chargeOptions(ctx, id),
    rally: (id) => evaluateRally(ctx, id),
    pair,
    fire: (id) => evaluateFire(ctx, scene, id, pair),
    fireShapes: (id, options) => fireShapes(ctx, id, options),
  };
}

/** Evaluates one unit; the command reading comes from the brigade-wide pass. */
export function evaluateUnit(ctx: DtpContext, unitId: string, command: UnitEvaluation['command'], sources: UnitPartSources): UnitParts {
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
  const movement = sources.movement(unitId);
  const fire = sources.fire(unitId);
  const unknownWeapon = fire.find((f) => !f.ok && f.reason === 'fire/unknown-weapon');
  if (unknownWeapon && !unknownWeapon.ok) warnings.push({ code: 'fire/unknown-weapon', message: `${info.unit.name}: ${unknownWeapon.detail ?? ''}`, unitId });
  const charge = sources.charge(unitId);
  const optional = optionalRuleParts(ctx, unitId, fire);
  warnings.push(...optional.warnings);
  warnings.push(...declarationWarnings(info));
  const evaluation: UnitEvaluation = {
    unitId,
    formation: { formation: reading.formation, confidence: reading.confidence, source: reading.source },
    movement: movement.movement,
    fire,
    charge: charge.charge,
    rally: sources.rally(unitId),
    command,
    ...optional.fields,
    // The weapon's bands for the views' tape measure; none for a weapon no fire table lists.
    ...weaponRangeField(info.unit.weapon),
  };
  return { evaluation, shapes: [...movement.shapes, ...sources.fireShapes(unitId, fire), ...charge.shapes], warnings };
}

function weaponRangeField(weapon: string): Pick<UnitEvaluation, 'weaponRange'> {
  const row = weaponRow(weapon);
  return row ? { weaponRange: weaponRangeReading(row) } : {};
}

/** Puts per-unit parts and the command shapes together in state order. */
export function assemble(state: TableState, parts: ReadonlyMap<string, UnitParts>, commandShapes: readonly Shape[]): Evaluation {
  return assembleAfter(state, (place) => parts.get(state.units[place]!.id)!, commandShapes, undefined).evaluation;
}

/**
 * What an assembly keeps for the next one (sessions): the parts it was put together from, in state order,
 * the units' shapes in one list with each unit's end in it, and the combined charges.
 */
export interface AssemblyMemo {
  readonly parts: readonly UnitParts[];
  readonly unitShapes: readonly Shape[];
  readonly shapeEnds: Int32Array;
  readonly combined: readonly CombinedChargeReading[];
}

/**
 * `assemble` from each unit's parts (`partsOf`, by place in `state.units`), reusing what the last assembly
 * (`memo`) put together: the units' shapes before the first and after the last unit whose parts are not the
 * same objects are kept as whole runs, and the combined charges are kept when every unit's charge list (and
 * unit) is the same. Every list returned is new; the memo's list of unit shapes is its own (written in place
 * by the next assembly when the counts allow).
 */
export function assembleAfter(
  state: TableState,
  partsOf: (place: number) => UnitParts,
  commandShapes: readonly Shape[],
  memo: AssemblyMemo | undefined,
): { evaluation: Evaluation; memo: AssemblyMemo } {
  const n = state.units.length;
  const list: UnitParts[] = new Array<UnitParts>(n);
  const units: Record<string, UnitEvaluation> = {};
  const warnings: EvaluationWarning[] = [];
  for (let i = 0; i < n; i++) {
    const id = state.units[i]!.id;
    const p = partsOf(i);
    list[i] = p;
    units[id] = p.evaluation;
    for (const w of p.warnings) warnings.push(w);
  }
  const old = memo !== undefined && memo.parts.length === n ? memo : undefined;
  // The run of units whose parts changed: [first, last]; none when first > last.
  let first = 0;
  let last = n - 1;
  if (old) {
    while (first < n && list[first] === old.parts[first]) first++;
    while (last >= first && list[last] === old.parts[last]) last--;
  }
  const shapeEnds = new Int32Array(n);
  let unitShapes: Shape[];
  if (!old) {
    unitShapes = [];
    for (let i = 0; i < n; i++) {
      for (const sh of list[i]!.shapes) unitShapes.push(sh);
      shapeEnds[i] = unitShapes.length;
    }
  } else if (first > last) {
    unitShapes = old.unitShapes as Shape[];
    shapeEnds.set(old.shapeEnds);
  } else {
    // Before `first` and after `last` the shapes are the last assembly's, kept as whole runs.
    const start = first > 0 ? old.shapeEnds[first - 1]! : 0;
    const oldEnd = old.shapeEnds[last]!;
    let middleCount = 0;
    shapeEnds.set(old.shapeEnds.subarray(0, first));
    for (let i = first; i <= last; i++) {
      middleCount += list[i]!.shapes.length;
      shapeEnds[i] = start + middleCount;
    }
    const shift = start + middleCount - oldEnd;
    for (let i = last + 1; i < n; i++) shapeEnds[i] = old.shapeEnds[i]! + shift;
    const before = old.unitShapes as Shape[];
    // The same count in the changed run (the usual case): the memo's own list (never handed out) is written
    // in place. Otherwise one list at its final length, the runs around copied in.
    unitShapes = shift === 0 ? before : new Array<Shape>(before.length + shift);
    if (shift !== 0) {
      for (let i = 0; i < start; i++) unitShapes[i] = before[i]!;
      for (let i = oldEnd, k = start + middleCount; i < before.length; i++) unitShapes[k++] = before[i]!;
    }
    let k = start;
    for (let i = first; i <= last; i++) for (const sh of list[i]!.shapes) unitShapes[k++] = sh;
  }
  const shapes = new Array<Shape>(unitShapes.length + commandShapes.length);
  for (let i = 0; i < unitShapes.length; i++) shapes[i] = unitShapes[i]!;
  for (let i = 0; i < commandShapes.length; i++) shapes[unitShapes.length + i] = commandShapes[i]!;
  let sameCharges = old !== undefined;
  for (let i = first; sameCharges && i <= last; i++) {
    const a = list[i]!.evaluation;
    const b = old!.parts[i]!.evaluation;
    sameCharges = a.unitId === b.unitId && a.charge === b.charge;
  }
  const combined = sameCharges ? old!.combined : combinedCharges(list.map((p) => p.evaluation));
  const evaluation: Evaluation = {
    rulesetId: DTP_RULESET_ID,
    units,
    shapes,
    warnings,
    // Commanders hold orders of their own (Commanders, p. 6): listed when the table has any.
    ...(state.commanders.length > 0 ? { commanders: commanderReadings(state.commanders) } : {}),
    ...(combined.length > 0 ? { combinedCharges: combined.slice() } : {}),
  };
  return { evaluation, memo: { parts: list, unitShapes, shapeEnds, combined } };
}

/** Full evaluation of a table state. Pure. */
export function evaluateDevilToPay(state: TableState): Evaluation {
  const ctx = buildContext(state);
  const scene = buildFireScene(ctx);
  const command = evaluateCommand(ctx);
  const sources = directSources(ctx, scene);
  const parts = new Map<string, UnitParts>();
  for (const u of state.units) parts.set(u.id, evaluateUnit(ctx, u.id, command.readings.get(u.id)!, sources));
  return assemble(state, parts, command.shapes);
}
