/**
 * What passes between `rulesWorker.ts` (main thread) and `rulesWorkerMain.ts` (the worker): the worker's
 * start data and the request/response messages. Its own module so that neither side imports the other.
 */
import type { Evaluation, TableState } from '@muster/rules';
import type { TableStateDelta } from './tableStateDelta.ts';

export interface RulesWorkerData {
  readonly rulesetId?: string;
  /** Load the rule set from this module's export instead of the registry (tests). */
  readonly moduleUrl?: string;
  /** The export: a Ruleset, or a function called with `moduleData` that returns one. */
  readonly exportName?: string;
  /** Handed to that function (structured-cloned; a SharedArrayBuffer stays shared). */
  readonly moduleData?: unknown;
}

/**
 * A table state to evaluate: whole (the first after the worker starts), or as what changed since the one
 * posted before it (tableStateDelta.ts).
 */
export type RulesRequest = { readonly id: number; readonly state: TableState } | { readonly id: number; readonly delta: TableStateDelta };

export interface RulesResponse {
  readonly id: number;
  readonly evaluation: Evaluation | null;
  /** The rule set threw on this state (the worker lives on with a fresh session). */
  readonly error: string | null;
  /** Time the worker spent evaluating, ms. */
  readonly rulesMs: number;
  /** The worker could not apply a delta (it has no matching last state): send the next state whole. */
  readonly resync?: boolean;
}
