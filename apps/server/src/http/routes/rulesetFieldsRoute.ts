/**
 * GET /api/rulesets/:id/fields: what an installed rule set declares beyond its evaluation (status fields,
 * unit fields, per-game parameters; `@muster/rules` engine/rulesetFields.ts), so the operator's status
 * editor can build its inputs from the declaration without the views bundling the rules. Static data:
 * the same answer for every game.
 */
import type { Router } from 'express';
import { installedRulesets, type RulesetFieldSpec } from '@muster/rules';
import { sendError } from '../sendError.ts';

/** The answer's body. */
export interface RulesetFieldsAnswer {
  readonly id: string;
  readonly name: string;
  readonly statusFields: readonly RulesetFieldSpec[];
  readonly unitFields: readonly RulesetFieldSpec[];
  readonly parameters: readonly RulesetFieldSpec[];
}

export function addRulesetFieldsRoute(api: Router): void {
  api.get('/rulesets/:id/fields', (req, res) => {
    const ruleset = installedRulesets.find((r) => r.id === req.params.id);
    if (!ruleset) {
      sendError(res, 'not-found', `no rule set "${String(req.params.id).slice(0, 64)}" (installed: ${installedRulesets.map((r) => r.id).join(', ')})`);
      return;
    }
    res.json({
      id: ruleset.id,
      name: ruleset.name,
      statusFields: ruleset.statusFields ?? [],
      unitFields: ruleset.unitFields ?? [],
      parameters: ruleset.parameters ?? [],
    } satisfies RulesetFieldsAnswer);
  });
}
