/**
 * Rules on a worker thread. Evaluating The Devil to Pay takes 5–80 ms on this machine; done in the frame
 * loop it delays every pose update by that much. Here the loop submits each new table state and carries
 * on; the worker evaluates one state at a time, and while it is busy only the newest submitted state is
 * kept (older ones would be stale before they were done), so results arrive in submission order and are
 * never older than the previous one. A crashed worker is reported and replaced.
 */
import { Worker } from 'node:worker_threads';
import type { Evaluation, TableState } from '@muster/rules';
import type { RulesRequest, RulesResponse, RulesWorkerData } from './rulesWorkerProtocol.ts';
import { RULES_WORKER_RESOURCE_LIMITS } from './rulesWorkerHeap.ts';
import { encodeTableStateDelta } from './tableStateDelta.ts';

export interface RulesResult<T> {
  /** What the caller submitted with the state (e.g. which frame it came from). */
  readonly tag: T;
  readonly evaluation: Evaluation | null;
  readonly error: string | null;
  readonly rulesMs: number;
  /** From `submit` to the state being posted to the worker (it was busy with the one before), ms. */
  readonly waitedMs: number;
  /** From the worker finishing (round trip minus `rulesMs`) to the result being handled here, ms. */
  readonly returnMs: number;
}

export interface RulesWorkerOptions<T> extends RulesWorkerData {
  onResult(result: RulesResult<T>): void;
  /** A crash, a restart, or giving up (after `maxRestarts` crashes in a row without a result). */
  onWarning(message: string): void;
  /** Default 5. */
  readonly maxRestarts?: number;
}

export interface RulesWorker<T> {
  /** Evaluate this state when the worker is free; replaces any state still waiting. */
  submit(state: TableState, tag: T): void;
  /** Resolves when the first worker has loaded its rule set. */
  readonly ready: Promise<void>;
  /** Whether a state is being evaluated or waiting. */
  busy(): boolean;
  /** Null while running; why it stopped after too many crashes. */
  failed(): string | null;
  close(): Promise<void>;
}

export function createRulesWorker<T>(options: RulesWorkerOptions<T>): RulesWorker<T> {
  const data: RulesWorkerData = {
    ...(options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {}),
    ...(options.moduleUrl !== undefined ? { moduleUrl: options.moduleUrl } : {}),
    ...(options.exportName !== undefined ? { exportName: options.exportName } : {}),
    ...(options.moduleData !== undefined ? { moduleData: options.moduleData } : {}),
  };
  const maxRestarts = options.maxRestarts ?? 5;
  let worker: Worker;
  let ready = false;
  let closing = false;
  let failure: string | null = null;
  let crashesInARow = 0;
  let nextId = 1;
  let inFlight: { id: number; tag: T; submittedMs: number; postedMs: number } | null = null;
  /** Newest-wins: at most one state waits; a newer submit replaces it unevaluated. */
  let pending: { state: TableState; tag: T; submittedMs: number } | null = null;
  /** The state the worker was last posted (deltas are from it). */
  let lastPosted: TableState | undefined;
  let markReady: () => void = () => {};
  const firstReady = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const sendPending = (): void => {
    if (!ready || inFlight || !pending || failure || closing) return;
    const { state, tag, submittedMs } = pending;
    pending = null;
    inFlight = { id: nextId++, tag, submittedMs, postedMs: performance.now() };
    // After the first, only what changed since the state posted before (the worker keeps that one).
    const req: RulesRequest = lastPosted ? { id: inFlight.id, delta: encodeTableStateDelta(lastPosted, state) } : { id: inFlight.id, state };
    lastPosted = state;
    worker.postMessage(req);
  };

  const spawn = (): void => {
    ready = false;
    // A new worker has no last state: its first is posted whole.
    lastPosted = undefined;
    const w = new Worker(new URL('./rulesWorker.mjs', import.meta.url), { workerData: data, resourceLimits: RULES_WORKER_RESOURCE_LIMITS });
    worker = w;
    let lastError: Error | null = null;
    w.on('message', (msg: RulesResponse | 'ready') => {
      if (w !== worker) return;
      if (msg === 'ready') {
        ready = true;
        markReady();
        sendPending();
        return;
      }
      const receivedMs = performance.now();
      const done = inFlight;
      inFlight = null;
      if (msg.resync) lastPosted = undefined;
      crashesInARow = 0;
      // The newest waiting state goes to the worker before this result is published, so the worker
      // evaluates while the main thread sends.
      sendPending();
      if (done && done.id === msg.id) {
        options.onResult({
          tag: done.tag,
          evaluation: msg.evaluation,
          error: msg.error,
          rulesMs: msg.rulesMs,
          waitedMs: done.postedMs - done.submittedMs,
          returnMs: Math.max(0, receivedMs - done.postedMs - msg.rulesMs),
        });
      }
    });
    w.on('error', (err) => {
      lastError = err;
    });
    w.on('exit', (code) => {
      if (w !== worker || closing) return;
      crashesInARow++;
      const why = lastError ? lastError.message : `exit code ${code}`;
      // The state being evaluated is dropped, not retried: if it is what crashed the rule set, retrying
      // would crash again. The next submitted state (frames keep coming) is evaluated by the new worker.
      inFlight = null;
      if (crashesInARow > maxRestarts) {
        failure = `rules worker crashed ${crashesInARow} times in a row (last: ${why}); rules stopped`;
        options.onWarning(failure);
        markReady();
        return;
      }
      options.onWarning(`rules worker crashed (${why}); restarted`);
      spawn();
    });
  };
  spawn();

  return {
    ready: firstReady,
    submit(state, tag) {
      if (failure || closing) return;
      pending = { state, tag, submittedMs: performance.now() };
      sendPending();
    },
    busy: () => inFlight !== null || pending !== null,
    failed: () => failure,
    async close() {
      closing = true;
      pending = null;
      await worker.terminate();
    },
  };
}
