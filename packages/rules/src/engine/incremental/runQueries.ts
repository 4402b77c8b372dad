/**
 * Running a rule set built of queries: once over one state (`evaluateQueries`), or live over a changing
 * table (`createQuerySession`), where each update recomputes only what the change meets.
 */
import type { TableState } from '../../model/tableState.ts';
import type { Evaluation } from '../evaluation.ts';
import type { Ruleset } from '../ruleset.ts';
import type { QueryRuleset } from './tableReader.ts';
import { QueryEngine, type EngineStats } from './queryEngine.ts';

/** The root's answer for one state, every query computed at most once and nothing kept. */
export function evaluateQueries<C, V>(ruleset: QueryRuleset<C, V>, state: TableState): V {
  const engine = new QueryEngine(ruleset, { tracking: false });
  try {
    return engine.evaluate(state);
  } finally {
    engine.release();
  }
}

/**
 * The rule set's context over one state, for calling its rule functions directly (tests, tools): reads
 * go through a one-shot engine, so queries it reaches are computed once and kept for this state.
 */
export function queryContext<C, V>(ruleset: QueryRuleset<C, V>, state: TableState): C {
  return new QueryEngine(ruleset, { tracking: false }).contextFor(state);
}

export interface QuerySession<V> {
  update(state: TableState): V;
  /** What the engine did so far (queries run, kept, invalidated). */
  readonly stats: EngineStats;
  /** Tests only: stop recording box reads, to prove that the chains catch a read the engine missed. */
  forgetBoxReads(): void;
}

/** A live evaluator: the same answers as `evaluateQueries`, recomputing only what each change meets. */
export function createQuerySession<C, V>(ruleset: QueryRuleset<C, V>): QuerySession<V> {
  const engine = new QueryEngine(ruleset, { tracking: true });
  return {
    update: (state) => engine.evaluate(state),
    stats: engine.stats,
    forgetBoxReads: () => {
      engine.recordBoxReads = false;
    },
  };
}

/**
 * A `Ruleset` from its queries: `evaluate` runs them once, `createEvaluator` (engine/evaluate.ts) keeps them
 * live. The root must label its evaluation with the rule set's id.
 */
export function queryRuleset<C>(info: Omit<Ruleset, 'evaluate' | 'queries'>, queries: QueryRuleset<C, Evaluation>): Ruleset {
  return { ...info, queries, evaluate: (state) => evaluateQueries(queries, state) };
}
