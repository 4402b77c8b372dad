/**
 * Rules stage of the live pipeline. Inline (`evaluate` runs the rule set's session on each state), on a
 * worker thread (`submit` after the poses are out; results come through `onResult`, the newest so far
 * standing in meanwhile), or none (no rule set: evaluation null, a health warning says why). Keeps the
 * last rules failure and worker warning for health.
 */
import type { Evaluation, Ruleset, RulesSession, TableState } from '@muster/rules';
import type { EvaluatedStateRef } from '@muster/protocol';
import { createRulesWorker, type RulesResult, type RulesWorker } from '../rules/rulesWorker.ts';
import type { RulesWorkerData } from '../rules/rulesWorkerProtocol.ts';
import { log } from '../log/logger.ts';

/** How long a rules-worker crash stays among the health warnings. */
const WORKER_WARNING_MS = 60_000;

export interface RulesStageOptions {
  readonly ruleset: Ruleset | null;
  readonly rulesUnavailableReason?: string | undefined;
  /** Evaluate on a worker thread loading this rule set (only when `ruleset` is non-null). */
  readonly rulesWorker?: RulesWorkerData | undefined;
  readonly now: () => number;
  /** A worker's evaluation (the stage's `error()` already reflects it). */
  onResult(result: RulesResult<EvaluatedStateRef>): void;
}

export interface RulesStage {
  readonly onWorker: boolean;
  /** Inline: this state's evaluation (null when it threw); worker: `newestSoFar`; no rules: null. */
  evaluate(tableState: TableState, newestSoFar: Evaluation | null): Evaluation | null;
  /** Which state the evaluation published with state `self` is of: itself inline, the worker's last, or none. */
  evaluatedState(previous: EvaluatedStateRef | null, self: EvaluatedStateRef): EvaluatedStateRef | null;
  /** Worker: evaluate this state when free (coalesced while busy). */
  submit(tableState: TableState, ref: EvaluatedStateRef): void;
  /** The last evaluation's failure ('rules failed: …'), null when it went well. */
  error(): string | null;
  /** Why the worker stopped after too many crashes (null/undefined while it runs or without one). */
  failed(): string | null | undefined;
  /** Health warnings at time `t`: no rule set, the last failure, a recent (or final) worker crash. */
  warnings(t: number): string[];
  close(): void;
}

function freshSession(ruleset: Ruleset): RulesSession {
  return ruleset.createSession?.() ?? { update: (s) => ruleset.evaluate(s) };
}

export function createRulesStage(options: RulesStageOptions): RulesStage {
  const { ruleset } = options;
  const onWorker = ruleset !== null && options.rulesWorker !== undefined;
  let session: RulesSession | null = ruleset && !onWorker ? freshSession(ruleset) : null;
  let rulesError: string | null = null;
  let workerWarning: { message: string; atMs: number } | null = null;
  const worker: RulesWorker<EvaluatedStateRef> | null = onWorker
    ? createRulesWorker<EvaluatedStateRef>({
        ...options.rulesWorker,
        onResult: (r) => {
          rulesError = r.error === null ? null : `rules failed: ${r.error}`;
          options.onResult(r);
        },
        onWarning: (message) => {
          workerWarning = { message, atMs: options.now() };
          log.warn(message);
        },
      })
    : null;
  return {
    onWorker,
    evaluate(tableState, newestSoFar) {
      // With the worker, this state keeps the newest evaluation so far; its own follows when ready.
      if (!session) return onWorker ? newestSoFar : null;
      try {
        const evaluation = session.update(tableState);
        rulesError = null;
        return evaluation;
      } catch (err) {
        rulesError = `rules failed: ${(err as Error).message}`;
        // A session that threw may hold half-updated caches: start a fresh one next frame.
        session = ruleset ? freshSession(ruleset) : null;
        return null;
      }
    },
    // Inline rules evaluate this very state; the worker's result for it comes as a later state.
    evaluatedState: (previous, self) => (onWorker ? previous : session ? self : null),
    submit: (tableState, ref) => worker?.submit(tableState, ref),
    error: () => rulesError,
    failed: () => worker?.failed(),
    warnings: (t) => [
      ...(ruleset ? [] : [options.rulesUnavailableReason ?? 'no rule set loaded']),
      ...(rulesError ? [rulesError] : []),
      ...(workerWarning && (worker?.failed() || t - workerWarning.atMs < WORKER_WARNING_MS) ? [workerWarning.message] : []),
    ],
    close: () => void worker?.close(),
  };
}
