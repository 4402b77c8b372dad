/**
 * Worker thread body of `rulesWorker.ts`: one live evaluator (the engine's kept queries) lives here, so evaluating
 * the rules never blocks the frame loop. State in (whole, then as deltas from the last: tableStateDelta.ts),
 * evaluation out (both structured-cloned).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Ruleset, RulesSession, TableState } from '@muster/rules';
import { applyTableStateDelta } from './tableStateDelta.ts';
import type { RulesRequest, RulesResponse, RulesWorkerData } from './rulesWorkerProtocol.ts';

const port = parentPort;
if (!port) throw new Error('rulesWorkerMain must run in a worker thread');
const data = workerData as RulesWorkerData;

async function load(): Promise<Ruleset> {
  // Tests load a rule set from their own module (slow or crashing ones); the service uses the registry.
  if (data.moduleUrl) {
    const mod = (await import(data.moduleUrl)) as Record<string, unknown>;
    const exported = mod[data.exportName ?? 'ruleset'];
    return typeof exported === 'function' ? (exported as (d: unknown) => Ruleset)(data.moduleData) : (exported as Ruleset);
  }
  const { getRuleset } = await import('@muster/rules');
  return getRuleset(data.rulesetId);
}

const ruleset = await load();
const { createEvaluator } = await import('@muster/rules');
// The engine keeps a rule set built of queries live (recomputing only what a change meets); any other
// rule set is evaluated afresh each time.
const fresh = (): RulesSession => (ruleset.queries ? createEvaluator(ruleset) : { update: (s) => ruleset.evaluate(s) });
let session = fresh();
// The last state, which each delta is applied to: unchanged stands, units and terrain stay its own
// objects, so the session's identity tests and per-object caches hold from one state to the next.
let last: TableState | undefined;
port.on('message', (req: RulesRequest | 'close') => {
  if (req === 'close') {
    port.close();
    return;
  }
  const t0 = performance.now();
  let res: RulesResponse;
  let state: TableState;
  try {
    state = 'state' in req ? req.state : applyTableStateDelta(last!, req.delta);
  } catch (err) {
    // No last state to apply it to (or not the one it was made from): ask for the next one whole.
    last = undefined;
    port.postMessage({ id: req.id, evaluation: null, error: `rules worker lost its last table state (${(err as Error).message}); the next is sent whole`, rulesMs: performance.now() - t0, resync: true } satisfies RulesResponse);
    return;
  }
  last = state;
  try {
    res = { id: req.id, evaluation: session.update(state), error: null, rulesMs: performance.now() - t0 };
  } catch (err) {
    // A session that threw may hold half-updated caches: start a fresh one for the next state.
    session = fresh();
    res = { id: req.id, evaluation: null, error: (err as Error).message, rulesMs: performance.now() - t0 };
  }
  port.postMessage(res);
});
port.postMessage('ready');
