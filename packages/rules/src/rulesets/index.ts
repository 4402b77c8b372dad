/**
 * The rule-set registry: the one place that names rule sets. The engine, the CLI and the service look
 * rule sets up here by id. To add one, import its `Ruleset` and append it to `installedRulesets`.
 */
import type { Ruleset, RulesetInfo } from '../engine/ruleset.ts';
import { devilToPay } from './devil-to-pay/index.ts';
import { fireAndFuryRegimental } from './fire-and-fury-regimental/index.ts';
import { whileTheDevilRules } from './while-the-devil-rules/index.ts';
import { volleyAndBayonet } from './volley-and-bayonet/index.ts';

/** Every installed rule set, the default first. */
export const installedRulesets: readonly Ruleset[] = [devilToPay, fireAndFuryRegimental, whileTheDevilRules, volleyAndBayonet];

/** Id used when none is given. */
export const DEFAULT_RULESET_ID = 'devil-to-pay';

/** Ids and names of the installed rule sets. */
export function listRulesets(): RulesetInfo[] {
  return installedRulesets.map(({ id, name, source }) => ({ id, name, source }));
}

/** The rule set with this id; throws an error listing the installed ids when there is none. */
export function getRuleset(id: string = DEFAULT_RULESET_ID): Ruleset {
  const found = installedRulesets.find((r) => r.id === id);
  if (!found) {
    throw new Error(`unknown ruleset "${id}" (installed: ${installedRulesets.map((r) => r.id).join(', ')})`);
  }
  return found;
}
