/**
 * The rule-set registry of @muster/rules (`packages/rules/src/rulesets/index.ts`). Imported by path in this
 * one place until the rules package exports it from its index; switch to `from '@muster/rules'` then.
 */
export { getRuleset, listRulesets, DEFAULT_RULESET_ID } from '../../../../packages/rules/src/rulesets/index.ts';
