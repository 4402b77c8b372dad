/**
 * The Devil to Pay, Optional Rules (rulebook "OPTIONAL RULES"), the parts that are read per unit rather than
 * inside fire, melee or command: Sharpshooters' warnings (loose order; removed at one stand), Split Fire
 * pools, and the MOVE actions Constructing Hasty Works would take. Sharpshooters' range and orders live in
 * `fire.ts` and `command.ts`; Trained and Veteran Troops in `universalModifiers.ts`.
 *
 * Everything here is a pure function of the context and the unit's (already prioritised) fire options.
 */
import type { EvaluationWarning, FireRefusal, FireTargetOption, HastyWorksReading, SplitFireOption } from '../../engine/evaluation.ts';
import type { AreaTerrainKind, Formation } from '../../model/tableState.ts';
import type { DtpContext } from './context.ts';

export const SRC_SHARPSHOOTERS = 'Optional Rules, Sharpshooters';
export const SRC_SPLIT_FIRE = 'Optional Rules, Split Fire';
export const SRC_HASTY_WORKS = 'Optional Rules, Constructing Hasty Works';

/** "This is accomplished by the unit expending four MOVE actions" (Constructing Hasty Works). */
export const HASTY_WORKS_MOVE_ACTIONS = 4;
/** "When in woods, only three MOVE actions are required" (Constructing Hasty Works). */
export const HASTY_WORKS_MOVE_ACTIONS_IN_WOODS = 3;
/** Area kinds that are woods for hasty works: open and thick woods (Terrain, Area Terrain names both "woods"). */
const WOODS: ReadonlySet<AreaTerrainKind> = new Set(['open-woods', 'thick-woods']);

/**
 * Formations a sharpshooter unit is warned about: the fighting formations other than loose order (Line,
 * Double Line, Attack Column). March column is a moving formation and cannot fire at all; disordered and
 * unknown are not a chosen formation.
 */
const NOT_LOOSE: ReadonlySet<Formation> = new Set(['line', 'double-line', 'attack-column']);
/**
 * A formation read from the stands counts as recognised from this confidence (the same threshold below
 * which the evaluation already warns that the formation is uncertain, `FORMATION_WARNING_CONFIDENCE`).
 */
const RECOGNISED_CONFIDENCE = 0.5;

/** Which optional rules a table has switched on. */
function hasRule(ctx: DtpContext, rule: 'split-fire' | 'hasty-works'): boolean {
  return ctx.state.optionalRules?.includes(rule) === true;
}

/**
 * Warnings for a sharpshooter unit (Optional Rules, Sharpshooters): "Sharpshooters must fight in loose
 * order" (a recognised line, double line or attack column) and "If a Sharpshooter unit is reduced to one
 * stand it is removed" (exactly one stand on the table). Empty for other units.
 */
export function sharpshooterWarnings(ctx: DtpContext, unitId: string): EvaluationWarning[] {
  const info = ctx.units.get(unitId)!;
  if (!info.unit.sharpshooters) return [];
  const out: EvaluationWarning[] = [];
  if (info.stands.length === 1) {
    out.push({
      code: 'sharpshooters/removed',
      message: `${info.unit.name} is a sharpshooter unit reduced to one stand: it is removed (${SRC_SHARPSHOOTERS}).`,
      unitId,
    });
  } else if (info.stands.length > 1) {
    const reading = ctx.formationOf(unitId);
    if (NOT_LOOSE.has(reading.formation) && (reading.source === 'status' || reading.confidence >= RECOGNISED_CONFIDENCE)) {
      out.push({
        code: 'sharpshooters/not-loose-order',
        message: `${info.unit.name} is in ${reading.formation}; sharpshooters must fight in loose order (${SRC_SHARPSHOOTERS}).`,
        unitId,
      });
    }
  }
  return out;
}

/**
 * Split fire pools (Optional Rules, Split Fire): "1. Calculate the number of dice to be rolled based upon
 * the most difficult target 2. Allocate those dice between the two targets". One entry per pair of targets
 * the unit may fire at (options that are `ok`, after target priority), with the harder target's dice and
 * breakdown. Pairs whose pool is under 2 dice are left out: one die cannot be allocated between two targets.
 *
 * @param options the unit's fire options in evaluation order
 */
export function splitFireOptions(options: readonly (FireTargetOption | FireRefusal)[]): SplitFireOption[] {
  const ok = options.filter((o): o is FireTargetOption => o.ok);
  const out: SplitFireOption[] = [];
  for (let i = 0; i < ok.length; i++) {
    for (let j = i + 1; j < ok.length; j++) {
      const a = ok[i]!, b = ok[j]!;
      const harder = b.breakdown.dice < a.breakdown.dice ? b : a;
      if (harder.breakdown.dice < 2) continue;
      out.push({
        targetUnitIds: [a.targetUnitId, b.targetUnitId],
        harderTargetUnitId: harder.targetUnitId,
        dice: harder.breakdown.dice,
        breakdown: harder.breakdown,
        source: SRC_SPLIT_FIRE,
      });
    }
  }
  return out;
}

/**
 * MOVE actions a stationary unit must spend to build hasty works where it stands: four, or three in woods
 * (Constructing Hasty Works). Undefined for a unit with no stands on the table.
 */
export function hastyWorksReading(ctx: DtpContext, unitId: string): HastyWorksReading | undefined {
  if (ctx.units.get(unitId)!.stands.length === 0) return undefined;
  const area = ctx.areaOf(unitId);
  const inWoods = area !== undefined && WOODS.has(area.kind);
  return { moveActions: inWoods ? HASTY_WORKS_MOVE_ACTIONS_IN_WOODS : HASTY_WORKS_MOVE_ACTIONS, inWoods, source: SRC_HASTY_WORKS };
}

/** The optional-rule fields of a unit's evaluation and its warnings; empty when no optional rule applies. */
export function optionalRuleParts(
  ctx: DtpContext,
  unitId: string,
  fire: readonly (FireTargetOption | FireRefusal)[],
): { readonly fields: { splitFire?: readonly SplitFireOption[]; hastyWorks?: HastyWorksReading }; readonly warnings: EvaluationWarning[] } {
  const fields: { splitFire?: readonly SplitFireOption[]; hastyWorks?: HastyWorksReading } = {};
  if (hasRule(ctx, 'split-fire')) fields.splitFire = splitFireOptions(fire);
  if (hasRule(ctx, 'hasty-works')) {
    const h = hastyWorksReading(ctx, unitId);
    if (h) fields.hastyWorks = h;
  }
  return { fields, warnings: sharpshooterWarnings(ctx, unitId) };
}
