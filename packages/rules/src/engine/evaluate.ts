/**
 * The engine: runs a rule set over a table state. It knows rule sets only through the `Ruleset`
 * interface; which rule sets exist is the registry's business (`rulesets/index.ts`).
 */
import type { TableState } from '../model/tableState.ts';
import type { Evaluation } from './evaluation.ts';
import type { Ruleset, RulesSession } from './ruleset.ts';
import { createQuerySession } from './incremental/runQueries.ts';

/**
 * Evaluate a (validated) table state with a rule set: what each unit may do, with reasons and dice,
 * plus shapes to draw. Pure: same state in, same evaluation out.
 * @example evaluate(parseTableState(JSON.parse(text)), getRuleset('devil-to-pay'))
 */
export function evaluate(state: TableState, ruleset: Ruleset): Evaluation {
  const result = ruleset.evaluate(state);
  if (result.rulesetId !== ruleset.id) {
    // A rule set reporting someone else's id is a bug in the rule set, not bad input.
    throw new Error(`ruleset "${ruleset.id}" returned an evaluation labelled "${result.rulesetId}"`);
  }
  return result;
}

/**
 * A reusable evaluator for a changing table (one per camera feed or game). Uses the rule set's
 * incremental session when it has one, otherwise re-runs `evaluate` each time. Same results either way.
 * Table states are immutable: handing it the very same state object again returns the previous
 * evaluation without work (a still table re-published every frame costs nothing).
 */
export function createEvaluator(ruleset: Ruleset): RulesSession & { readonly ruleset: Ruleset; readonly incremental: boolean } {
  const session = ruleset.queries ? createQuerySession(ruleset.queries) : undefined;
  let lastState: TableState | undefined;
  let lastEvaluation: Evaluation | undefined;
  return {
    ruleset,
    incremental: session !== undefined,
    update(state: TableState): Evaluation {
      if (state === lastState && lastEvaluation) return lastEvaluation;
      const ev = session ? session.update(state) : evaluate(state, ruleset);
      lastState = state;
      lastEvaluation = ev;
      return ev;
    },
  };
}
