/**
 * Die modifiers for the app's fields. The guide names the fields ("Fire is at Short Range", "Actor is
 * Disordered/Demoralized", force ratios, Cover/Ground, "Leader with Actor", "Actor is Charging") but not
 * their values, which the app shows; each value is a parameter, and a missing one is listed as not entered.
 */
import type { DiceBreakdown, DiceModifier } from '../../engine/evaluation.ts';
import { modifierParamSpec, type ModifierId } from './declarations.ts';
import type { WtdrContext } from './context.ts';

export interface ModifierFactor {
  readonly id: ModifierId;
  /** The field as the app or guide names it. */
  readonly label: string;
  /** Section of the guide that makes the factor apply. */
  readonly section: string;
}

/**
 * A 'modifier' breakdown (net modifier to one die): one line per factor present. A factor whose value is not
 * entered counts 0, says so in its label, and leaves a parameter warning.
 */
export function modifierBreakdown(ctx: WtdrContext, factors: readonly ModifierFactor[], needFor: string, unitId: string): DiceBreakdown {
  const modifiers: DiceModifier[] = [];
  let total = 0;
  for (const f of factors) {
    const spec = modifierParamSpec(f.id);
    const v = ctx.param(spec, needFor, unitId);
    const source = `${f.section}; value: ${spec.id} (from the app)`;
    if (v === undefined) {
      modifiers.push({ label: `${f.label} (value not entered: ${spec.id})`, dice: 0, source });
    } else {
      modifiers.push({ label: f.label, dice: v, source });
      total += v;
    }
  }
  return { kind: 'modifier', baseDice: 0, modifiers, dice: total, limits: [] };
}
