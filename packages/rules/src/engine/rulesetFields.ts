/**
 * Fields and parameters a rule set declares for itself: unit fields (troop type, morale, abilities), unit
 * status it tracks, and per-game parameters for numbers its document does not give. One declaration type
 * serves validation, the CLI listing (`muster rules --params`) and the warnings that name a missing value.
 */
import type { RulesetValue, RulesetValues, TableState } from '../model/tableState.ts';
import type { TableStateProblem } from '../validate/tableStateError.ts';
import type { EvaluationWarning } from './evaluation.ts';

export interface RulesetChoice {
  readonly id: string;
  readonly label: string;
}

export interface RulesetFieldSpec {
  /** Key in `rulesetFields` / `rulesetStatus` / `rulesetParameters`, kebab or camel case. */
  readonly id: string;
  /** For people, with the unit: 'Base move, commanded shot (base inches)'. */
  readonly label: string;
  /** 'choices' is a list of choice ids (special abilities); 'integer' a whole number. */
  readonly type: 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  /** Unit of a number, e.g. 'in', 'base inches', 'dice', 'strength points'. */
  readonly unit?: string;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly RulesetChoice[];
  /** A unit field every unit must have (e.g. troop type). Parameters are never required: a gap is a warning. */
  readonly required?: boolean;
  /**
   * Used when the value is absent. Only for values the document gives or for a reading of ambiguous text
   * (an option): a number the document does not give has no default.
   */
  readonly default?: RulesetValue;
  /** Section the field comes from, or where to find a value the document does not give. */
  readonly source: string;
  /** True when the rule set's own document does not give the value (it must be entered). */
  readonly notInDocument?: boolean;
  /** What the value drives, for the listing: 'movement reach of commanded shot'. */
  readonly usedFor?: string;
}

/** What a rule set declares beyond `evaluate` (all optional; The Devil to Pay declares only two status fields). */
export interface RulesetDeclarations {
  readonly parameters?: readonly RulesetFieldSpec[];
  readonly unitFields?: readonly RulesetFieldSpec[];
  readonly statusFields?: readonly RulesetFieldSpec[];
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
  return JSON.stringify(value) ?? String(value);
}

/** Problems with one value against its spec; empty when it fits. */
export function rulesetValueProblems(spec: RulesetFieldSpec, value: unknown, path: string): TableStateProblem[] {
  const bad = (message: string): TableStateProblem[] => [{ path, message }];
  const choiceIds = spec.choices?.map((c) => c.id) ?? [];
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? [] : bad(`expected true or false (${spec.label}), got ${describe(value)}`);
    case 'number':
    case 'integer': {
      const unit = spec.unit ? ` ${spec.unit}` : '';
      if (typeof value !== 'number' || !Number.isFinite(value)) return bad(`expected a number${unit} (${spec.label}), got ${describe(value)}`);
      if (spec.type === 'integer' && !Number.isInteger(value)) return bad(`expected a whole number${unit} (${spec.label}), got ${value}`);
      if (spec.min !== undefined && value < spec.min) return bad(`expected at least ${spec.min}${unit} (${spec.label}), got ${value}`);
      if (spec.max !== undefined && value > spec.max) return bad(`expected at most ${spec.max}${unit} (${spec.label}), got ${value}`);
      return [];
    }
    case 'choice':
      return typeof value === 'string' && choiceIds.includes(value)
        ? []
        : bad(`expected one of ${choiceIds.join(', ')} (${spec.label}), got ${describe(value)}`);
    case 'choices': {
      if (!Array.isArray(value)) return bad(`expected a list of ${choiceIds.join(', ')} (${spec.label}), got ${describe(value)}`);
      const unknown = value.filter((v) => typeof v !== 'string' || !choiceIds.includes(v));
      if (unknown.length > 0) return bad(`unknown ${describe(unknown)} (${spec.label}; allowed: ${choiceIds.join(', ')})`);
      const dup = value.find((v, i) => value.indexOf(v) !== i);
      return dup === undefined ? [] : bad(`"${String(dup)}" is listed twice (${spec.label})`);
    }
  }
}

/** Problems with a bag of values: unknown keys (with the allowed ones), bad values, missing required ones. */
export function rulesetValuesProblems(
  specs: readonly RulesetFieldSpec[],
  values: RulesetValues | undefined,
  path: string,
  rulesetId: string,
): TableStateProblem[] {
  const problems: TableStateProblem[] = [];
  const byId = new Map(specs.map((s) => [s.id, s]));
  for (const [key, value] of Object.entries(values ?? {})) {
    const spec = byId.get(key);
    if (!spec) {
      const allowed = specs.map((s) => s.id).join(', ') || 'none';
      problems.push({ path: `${path}.${key}`, message: `unknown to ruleset "${rulesetId}" (allowed: ${allowed})` });
      continue;
    }
    problems.push(...rulesetValueProblems(spec, value, `${path}.${key}`));
  }
  for (const spec of specs) {
    if (spec.required && values?.[spec.id] === undefined) {
      problems.push({ path: `${path}.${spec.id}`, message: `missing (required by ruleset "${rulesetId}": ${spec.label})` });
    }
  }
  return problems;
}

/**
 * Everything in a (shape-valid) table state that the rule set's declarations reject: parameters, every
 * unit's fields and status. Empty when the state fits the rule set.
 */
export function rulesetStateProblems(state: TableState, ruleset: RulesetDeclarations & { readonly id: string }): TableStateProblem[] {
  const problems = rulesetValuesProblems(ruleset.parameters ?? [], state.rulesetParameters, 'rulesetParameters', ruleset.id);
  state.units.forEach((u, i) => {
    problems.push(...rulesetValuesProblems(ruleset.unitFields ?? [], u.rulesetFields, `units[${i}].rulesetFields`, ruleset.id));
    problems.push(...rulesetValuesProblems(ruleset.statusFields ?? [], u.status?.rulesetStatus, `units[${i}].status.rulesetStatus`, ruleset.id));
  });
  return problems;
}

/** A value from a bag, or the spec's default, or undefined. */
export function rulesetValue(spec: RulesetFieldSpec, values: RulesetValues | undefined): RulesetValue | undefined {
  return values?.[spec.id] ?? spec.default;
}

/**
 * A number parameter of the table, or undefined when the operator has not entered it. Callers turn the
 * undefined into `missingParameterWarning` and skip only what needs it.
 */
export function numberParameter(state: TableState, spec: RulesetFieldSpec): number | undefined {
  const v = rulesetValue(spec, state.rulesetParameters);
  return typeof v === 'number' ? v : undefined;
}

/** The warning for a parameter the output needed but the table does not give. */
export function missingParameterWarning(spec: RulesetFieldSpec, needFor: string, unitId?: string): EvaluationWarning {
  return {
    code: 'parameter/missing',
    message: `${needFor} needs "${spec.id}" (${spec.label}), which is not in the document; enter it in rulesetParameters (${spec.source})`,
    parameterId: spec.id,
    ...(unitId !== undefined ? { unitId } : {}),
  };
}
