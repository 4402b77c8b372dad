/**
 * Checks an army file's rule-set values (`rulesetParameters`, each unit's `rulesetFields`) against the
 * rule set the game runs with, before the first frame: a typo in a troop type is a start error naming the
 * unit and the allowed values, not a silent gap in the rules' output.
 */
import { rulesetValuesProblems, type Ruleset } from '@muster/rules';
import type { Roster } from './roster.ts';

/** Lines like `units[2] (pike1).rulesetFields.troopType: missing (required ...)`; empty when all fit. */
export function rosterRulesetProblems(roster: Roster, ruleset: Ruleset): string[] {
  const problems = rulesetValuesProblems(ruleset.parameters ?? [], roster.rulesetParameters, 'rulesetParameters', ruleset.id);
  roster.units.forEach((u, i) => {
    const found = rulesetValuesProblems(ruleset.unitFields ?? [], u.rulesetFields, `units[${i}] (${u.id}).rulesetFields`, ruleset.id);
    problems.push(...found);
  });
  return problems.map((p) => `${p.path}: ${p.message}`);
}
