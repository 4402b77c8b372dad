/**
 * A rule set's own status fields (`Ruleset.statusFields`, engine/rulesetFields.ts) as editor inputs: one
 * input per declared field (a tick box for true/false, a list for a choice, a number box with its bounds,
 * tick boxes for a list of choices), read back and checked against the declaration with the rules' own
 * `rulesetValueProblems` before anything is sent. The pure half, tested in node; the DOM half is
 * rulesetStatusEditor.ts. Nothing here knows any rule set.
 */
import { rulesetValueProblems, type RulesetFieldSpec, type RulesetValue, type RulesetValues } from '@muster/rules';

export type StatusInputKind = 'checkbox' | 'select' | 'number' | 'checkboxes';

export interface StatusInput {
  readonly spec: RulesetFieldSpec;
  readonly kind: StatusInputKind;
  /** The field's label, with its unit for a number. */
  readonly label: string;
  /** Tooltip: where the field comes from and what it drives. */
  readonly title: string;
  /** For a select: '' first ("not set", naming the default when there is one), then each choice. */
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly min?: number;
  readonly max?: number;
  /** 1 for whole numbers, 'any' otherwise. */
  readonly step?: string;
  /** What the input shows now: the unit's value, else the declared default, else nothing. */
  readonly shown: boolean | string | readonly string[];
}

/** The inputs for `specs`, showing the values in `status` (a unit's `status.rulesetStatus`). */
export function statusInputs(specs: readonly RulesetFieldSpec[], status: RulesetValues | undefined): StatusInput[] {
  return specs.map((spec) => {
    const value = status?.[spec.id] ?? spec.default;
    const title = `${spec.label} (${spec.source}${spec.usedFor ? `; used for ${spec.usedFor}` : ''})`;
    switch (spec.type) {
      case 'boolean':
        return { spec, kind: 'checkbox', label: spec.label, title, options: [], shown: value === true };
      case 'choice': {
        const dflt = spec.choices?.find((c) => c.id === spec.default);
        return {
          spec,
          kind: 'select',
          label: spec.label,
          title,
          options: [{ value: '', label: dflt ? `— (${dflt.label})` : '—' }, ...(spec.choices ?? []).map((c) => ({ value: c.id, label: c.label }))],
          shown: typeof status?.[spec.id] === 'string' ? (status[spec.id] as string) : '',
        };
      }
      case 'choices':
        return {
          spec,
          kind: 'checkboxes',
          label: spec.label,
          title,
          options: (spec.choices ?? []).map((c) => ({ value: c.id, label: c.label })),
          shown: Array.isArray(value) ? value : [],
        };
      case 'number':
      case 'integer':
        return {
          spec,
          kind: 'number',
          label: spec.unit ? `${spec.label} (${spec.unit})` : spec.label,
          title,
          options: [],
          ...(spec.min !== undefined ? { min: spec.min } : {}),
          ...(spec.max !== undefined ? { max: spec.max } : {}),
          step: spec.type === 'integer' ? '1' : 'any',
          shown: typeof status?.[spec.id] === 'number' ? String(status[spec.id]) : '',
        };
    }
  });
}

export type ReadResult = { readonly ok: true; readonly value: RulesetValue | undefined } | { readonly ok: false; readonly message: string };

/**
 * What an input now holds, as the value to store (undefined: take the field off, so the rule set's
 * default applies), or why it does not fit the declaration.
 */
export function readStatusInput(spec: RulesetFieldSpec, raw: boolean | string | readonly string[]): ReadResult {
  let value: RulesetValue | undefined;
  if (spec.type === 'boolean') value = raw === true;
  else if (spec.type === 'choices') value = Array.isArray(raw) ? [...raw] : [];
  else if (typeof raw !== 'string' || raw.trim() === '') value = undefined;
  else if (spec.type === 'choice') value = raw;
  else value = Number(raw.trim());
  if (value === undefined) return { ok: true, value };
  const problems = rulesetValueProblems(spec, value, spec.id);
  return problems.length > 0 ? { ok: false, message: `${spec.label}: ${problems[0]!.message}` } : { ok: true, value };
}

/** The unit's new `rulesetStatus` with one field set or taken off; null when nothing is left. */
export function withStatusValue(status: RulesetValues | undefined, id: string, value: RulesetValue | undefined): RulesetValues | null {
  const next: Record<string, RulesetValue> = { ...(status ?? {}) };
  if (value === undefined) delete next[id];
  else next[id] = value;
  return Object.keys(next).length === 0 ? null : next;
}

/** "bases lost 2", "status: shaken", "acted", "not acted": the change in words, for the confirmation. */
export function statusChangeWords(spec: RulesetFieldSpec, value: RulesetValue | undefined): string {
  const name = spec.label.charAt(0).toLowerCase() + spec.label.slice(1);
  if (value === undefined) return `${name} cleared`;
  if (typeof value === 'boolean') return value ? name : `not ${name}`;
  const choice = (id: string) => spec.choices?.find((c) => c.id === id)?.label ?? id;
  if (Array.isArray(value)) return `${name}: ${value.map(choice).join(', ') || 'none'}`;
  return `${name}: ${typeof value === 'string' ? choice(value) : value}`;
}
