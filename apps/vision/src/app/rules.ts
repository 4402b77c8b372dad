/**
 * The rule-set registry of @muster/rules (`packages/rules/src/rulesets/index.ts`), imported by path in
 * this one place until the rules package exports it from its index. Loaded lazily: a rule set that fails
 * to load (a bug, a syntax error mid-edit) leaves the service running without rules, with a health
 * warning, instead of stopping it.
 */
import type { Ruleset } from '@muster/rules';

export interface LoadedRules {
  readonly ruleset: Ruleset | null;
  /** Name and source of the rule set, or why there is none. */
  readonly note: string;
}

export async function loadRuleset(id: string | undefined): Promise<LoadedRules> {
  try {
    const registry = await import('../../../../packages/rules/src/rulesets/index.ts');
    const ruleset = registry.getRuleset(id);
    return { ruleset, note: `${ruleset.name} (${ruleset.source})` };
  } catch (err) {
    return { ruleset: null, note: `no rules: ${(err as Error).message.split('\n')[0]}` };
  }
}
