/**
 * Rules stage of the live pipeline. Inline (`evaluate` runs the rule set's session on each state), on a
 * worker thread (`submit` after the poses are out; results come through `onResult`, the newest so far
 * standing in meanwhile), or none (no rule set: evaluation null, a health warning says why). Keeps the
 * last rules failure and worker warning for health.
 */
import { createEvaluator, type Evaluation, type Ruleset, type RulesSession, type TableState } from '@muster/rules';
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
  /** Whether results come from a worker thread (false inline and without rules). */
  readonly onWorker: boolean;
  /** The rule set in use; null without rules. */
  ruleset(): Ruleset | null;
  /** Inline: this state's evaluation (null when it threw); worker: `newestSoFar`; no rules: null. */
  evaluate(tableState: TableState, newestSoFar: Evaluation | null): Evaluation | null;
  /** Which state the evaluation published with state `self` is of: itself inline, the worker's last, or none. */
  evaluatedState(previous: EvaluatedStateRef | null, self: EvaluatedStateRef): EvaluatedStateRef | null;
  /** Worker: evaluate this state when free (coalesced while busy). */
  submit(tableState: TableState, ref: EvaluatedStateRef): void;
  /**
   * From now on evaluate with `ruleset` (a live rule-set switch): a fresh session, or a fresh worker
   * loading it from the registry. Until the new rule set's first evaluation, states carry none
   * (evaluation and evaluatedState null), never the old rule set's; a late result of the old worker is dropped.
   */
  switchTo(ruleset: Ruleset): void;
  /** The last evaluation's failure ('rules failed: …'), null when it went well. */
  error(): string | null;
  /** Why the worker stopped after too many crashes (null/undefined while it runs or without one). */
  failed(): string | null | undefined;
  /** Health warnings at time `t`: no rule set, the last failure, a recent (or final) worker crash. */
  warnings(t: number): string[];
  close(): void;
}

/** The engine keeps a rule set built of queries live; any other rule set is evaluated afresh each time. */
function freshSession(ruleset: Ruleset): RulesSession {
  return ruleset.queries ? createEvaluator(ruleset) : { update: (s) => ruleset.evaluate(s) };
}

export function createRulesStage(options: RulesStageOptions): RulesStage {
  let ruleset = options.ruleset;
  // A start with a worker but no rule set (the one asked for is not installed) still switches onto one.
  const useWorker = options.rulesWorker !== undefined;
  let onWorker = ruleset !== null && useWorker;
  let session: RulesSession | null = ruleset && !onWorker ? freshSession(ruleset) : null;
  let rulesError: string | null = null;
  let workerWarning: { message: string; atMs: number } | null = null;
  /** Bumped by every switch: a result of an older worker is dropped. */
  let generation = 0;
  /** Switched and nothing evaluated with the new rule set yet: publish no evaluation meanwhile. */
  let awaitingFirst = false;

  function spawnWorker(data: RulesWorkerData): RulesWorker<EvaluatedStateRef> {
    const mine = generation;
    return createRulesWorker<EvaluatedStateRef>({
      ...data,
      onResult: (r) => {
        if (mine !== generation) return;
        awaitingFirst = false;
        rulesError = r.error === null ? null : `rules failed: ${r.error}`;
        options.onResult(r);
      },
      onWarning: (message) => {
        if (mine !== generation) return;
        workerWarning = { message, atMs: options.now() };
        log.warn(message);
      },
    });
  }

  let worker: RulesWorker<EvaluatedStateRef> | null = onWorker ? spawnWorker(options.rulesWorker!) : null;
  return {
    get onWorker() {
      return onWorker;
    },
    ruleset: () => ruleset,
    evaluate(tableState, newestSoFar) {
      // With the worker, this state keeps the newest evaluation so far; its own follows when ready.
      if (!session) return onWorker && !awaitingFirst ? newestSoFar : null;
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
    evaluatedState: (previous, self) => (onWorker ? (awaitingFirst ? null : previous) : session ? self : null),
    submit: (tableState, ref) => worker?.submit(tableState, ref),
    switchTo(next) {
      generation++;
      ruleset = next;
      rulesError = null;
      workerWarning = null;
      if (useWorker) {
        void worker?.close();
        // The registry's rule set by id (a test module given at start is not switched to).
        worker = spawnWorker({ rulesetId: next.id });
        onWorker = true;
        session = null;
        awaitingFirst = true;
      } else {
        session = freshSession(next);
      }
    },
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
