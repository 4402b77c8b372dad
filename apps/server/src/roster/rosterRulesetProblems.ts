/**
 * Checks an army file's rule-set values (`rulesetParameters`, each unit's `rulesetFields`) against the
 * rule set the game runs with, before the first frame: a typo in a troop type is a start error naming the
 * unit and the allowed values, not a silent gap in the rules' output. A required field a unit lacks (an army
 * written for another rule set) also says, in players' words, what the rules leave out for that unit and
 * what to add to the army file.
 */
import { rulesetValuesProblems, type Ruleset } from '@muster/rules';
import type { Roster } from './roster.ts';

/**
 * Lines like `units[2] (pike1).rulesetFields.troopType: missing (required ...): Pikes has no Troop type for
 * While the Devil Rules, so its formation, movement, fire, charges are left out; add rulesetFields: {
 * troop-type: … } (one of ...) to it in the army file`; empty when all fit.
 */
export function rosterRulesetProblems(roster: Roster, ruleset: Ruleset): string[] {
  const problems = rulesetValuesProblems(ruleset.parameters ?? [], roster.rulesetParameters, 'rulesetParameters', ruleset.id).map((p) => `${p.path}: ${p.message}`);
  const specs = new Map((ruleset.unitFields ?? []).map((s) => [s.id, s]));
  roster.units.forEach((u, i) => {
    const path = `units[${i}] (${u.id}).rulesetFields`;
    for (const p of rulesetValuesProblems(ruleset.unitFields ?? [], u.rulesetFields, path, ruleset.id)) {
      const spec = specs.get(p.path.slice(path.length + 1));
      if (!spec?.required || u.rulesetFields?.[spec.id] !== undefined) {
        problems.push(`${p.path}: ${p.message}`);
        continue;
      }
      const leftOut = spec.usedFor ? `, so its ${spec.usedFor} are left out` : '';
      const allowed = spec.choices ? ` (one of ${spec.choices.map((c) => c.id).join(', ')})` : '';
      problems.push(`${p.path}: ${p.message}: ${u.name} has no ${spec.label} for ${ruleset.name}${leftOut}; add rulesetFields: { ${spec.id}: … }${allowed} to it in the army file`);
    }
  });
  return problems;
}
