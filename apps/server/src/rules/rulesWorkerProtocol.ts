/**
 * What passes between `rulesWorker.ts` (main thread) and `rulesWorkerMain.ts` (the worker): the worker's
 * start data and the request/response messages. Its own module so that neither side imports the other.
 */
import type { Evaluation, TableState } from '@muster/rules';

export interface RulesWorkerData {
  readonly rulesetId?: string;
  /** Load the rule set from this module's export instead of the registry (tests). */
  readonly moduleUrl?: string;
  /** The export: a Ruleset, or a function called with `moduleData` that returns one. */
  readonly exportName?: string;
  /** Handed to that function (structured-cloned; a SharedArrayBuffer stays shared). */
  readonly moduleData?: unknown;
}

export interface RulesRequest {
  readonly id: number;
  readonly state: TableState;
}

export interface RulesResponse {
  readonly id: number;
  readonly evaluation: Evaluation | null;
  /** The rule set threw on this state (the worker lives on with a fresh session). */
  readonly error: string | null;
  /** Time the worker spent evaluating, ms. */
  readonly rulesMs: number;
}
