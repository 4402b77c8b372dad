/**
 * The rule-set registry of @muster/rules, looked up by id. A rule set that is missing or fails to load
 * leaves the service running without rules, with a health warning, instead of stopping it.
 */
import type { Ruleset } from '@muster/rules';

export interface LoadedRules {
  readonly ruleset: Ruleset | null;
  /** Name and source of the rule set, or why there is none. */
  readonly note: string;
}

export async function loadRuleset(id: string | undefined): Promise<LoadedRules> {
  try {
    const registry = await import('@muster/rules');
    const ruleset = registry.getRuleset(id);
    return { ruleset, note: `${ruleset.name} (${ruleset.source})` };
  } catch (err) {
    return { ruleset: null, note: `no rules: ${(err as Error).message.split('\n')[0]}` };
  }
}
