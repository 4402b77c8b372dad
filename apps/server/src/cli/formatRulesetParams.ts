/**
 * The text of `muster rules --params <ruleset>`: every per-game parameter, unit field and status field a
 * rule set declares, with type, unit, range, default and where the value comes from, so an operator knows
 * what to enter before a game (and which numbers the document does not give).
 */
import type { Ruleset, RulesetFieldSpec } from '@muster/rules';

function typeText(spec: RulesetFieldSpec): string {
  const unit = spec.unit ? ` ${spec.unit}` : '';
  const range =
    spec.min !== undefined && spec.max !== undefined
      ? ` ${spec.min}..${spec.max}`
      : spec.min !== undefined
        ? ` >= ${spec.min}`
        : spec.max !== undefined
          ? ` <= ${spec.max}`
          : '';
  switch (spec.type) {
    case 'choice':
      return `one of ${spec.choices?.map((c) => c.id).join(' | ') ?? ''}`;
    case 'choices':
      return `list of ${spec.choices?.map((c) => c.id).join(', ') ?? ''}`;
    case 'boolean':
      return 'true | false';
    default:
      return `${spec.type === 'integer' ? 'whole number' : 'number'}${unit}${range}`;
  }
}

function section(title: string, where: string, specs: readonly RulesetFieldSpec[]): string[] {
  if (specs.length === 0) return [];
  const out = ['', `${title} (${where}):`];
  for (const s of specs) {
    const flags = [s.required ? 'required' : '', s.notInDocument ? 'not in the document' : '', s.default !== undefined ? `default ${JSON.stringify(s.default)}` : '']
      .filter(Boolean)
      .join(', ');
    out.push(`  ${s.id}: ${s.label}`);
    out.push(`      ${typeText(s)}${flags ? `  (${flags})` : ''}`);
    if (s.usedFor) out.push(`      used for: ${s.usedFor}`);
    out.push(`      ${s.notInDocument ? 'find it in' : 'source'}: ${s.source}`);
  }
  return out;
}

/** Plain text listing of what a rule set reads beyond the common table state. */
export function formatRulesetParams(ruleset: Ruleset): string {
  const params = ruleset.parameters ?? [];
  const out = [`${ruleset.name} (${ruleset.id}), ${ruleset.source}`];
  out.push(...section('Parameters', 'table state "rulesetParameters", or "rulesetParameters" in the roster', params));
  out.push(...section('Unit fields', 'each unit\'s "rulesetFields"', ruleset.unitFields ?? []));
  out.push(...section('Status fields', 'each unit\'s "status.rulesetStatus"', ruleset.statusFields ?? []));
  if (params.length + (ruleset.unitFields?.length ?? 0) + (ruleset.statusFields?.length ?? 0) === 0) {
    out.push('', 'No parameters: every number this rule set uses is in its document.');
  }
  const missing = params.filter((p) => p.notInDocument && p.default === undefined).length;
  if (missing > 0) out.push('', `${missing} parameter${missing === 1 ? '' : 's'} must be entered for the output that needs ${missing === 1 ? 'it' : 'them'}; until then that output is a warning naming the parameter.`);
  return out.join('\n');
}
