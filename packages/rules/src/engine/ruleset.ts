/**
 * The one interface a rule set implements. The engine and the apps import rule sets only through the
 * registry (`rulesets/index.ts`), never by name.
 */
import type { TableState } from '../model/tableState.ts';
import type { Evaluation } from './evaluation.ts';
import type { ActionDeckDefinition } from './actionDeck.ts';
import type { RulesetDeclarations } from './rulesetFields.ts';
import type { QueryRuleset } from './incremental/tableReader.ts';
import type { RulesetResolution } from './resolve/resolution.ts';

export interface RulesetInfo {
  /** Stable id used on the command line and in saved games, e.g. 'devil-to-pay'. */
  readonly id: string;
  readonly name: string;
  /** Edition or source, e.g. 'The Devil to Pay, 2018 edition'. */
  readonly source: string;
}

/**
 * A live evaluator for a changing table (`createEvaluator`): the engine keeps a rule set's queries between
 * calls and recomputes only what a change meets. Same result as `evaluate`.
 */
export interface RulesSession {
  update(state: TableState): Evaluation;
}

/**
 * A rule set: `evaluate` plus what it declares about itself. `parameters`, `unitFields` and `statusFields`
 * (engine/rulesetFields.ts) list the values it reads from `TableState.rulesetParameters`,
 * `Unit.rulesetFields` and `UnitStatus.rulesetStatus`; `parseTableStateFor` checks a state against them.
 */
export interface Ruleset extends RulesetInfo, RulesetDeclarations {
  /** Pure: same state in, same evaluation out. No I/O, no clock, no randomness. */
  evaluate(state: TableState): Evaluation;
  /**
   * The rule set as queries (engine/incremental/): the engine evaluates them once for `evaluate` and keeps
   * them live for a changing table, recomputing only what a change meets. Use `defineQueryRuleset`.
   */
  readonly queries?: QueryRuleset<any, Evaluation>;
  /**
   * Action decks, for rule sets whose turns run on cards or chits; the first is the default. Plain data: a
   * service shuffles and draws them with `shuffleActionDeck` / `drawActionCard` (`engine/actionDeck.ts`).
   */
  readonly actionDecks?: readonly ActionDeckDefinition[];
  /**
   * After the roll (engine/resolve/): the actions this rule set resolves, the dice each needs and the outcome
   * of given faces. Call it through `resolveAction` / `diceForAction`, which check the request first.
   */
  readonly resolution?: RulesetResolution;
}
