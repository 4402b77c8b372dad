/**
 * Worker thread body of `rulesWorker.ts`: one RulesSession (with its caches) lives here, so evaluating
 * the rules never blocks the frame loop. State in, evaluation out (both structured-cloned).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { shareTableState, type Ruleset, type RulesSession, type TableState } from '@muster/rules';
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
const fresh = (): RulesSession => ruleset.createSession?.() ?? { update: (s) => ruleset.evaluate(s) };
let session = fresh();
// Each state arrives as new objects (structured clone): shared with the last one, unchanged stands, units
// and terrain are the last state's own objects again, so the session's identity tests and caches hold.
let last: TableState | undefined;
port.on('message', (req: RulesRequest | 'close') => {
  if (req === 'close') {
    port.close();
    return;
  }
  const t0 = performance.now();
  let res: RulesResponse;
  try {
    const state = shareTableState(last, req.state);
    last = state;
    res = { id: req.id, evaluation: session.update(state), error: null, rulesMs: performance.now() - t0 };
  } catch (err) {
    // A session that threw may hold half-updated caches: start a fresh one for the next state.
    session = fresh();
    last = undefined;
    res = { id: req.id, evaluation: null, error: (err as Error).message, rulesMs: performance.now() - t0 };
  }
  port.postMessage(res);
});
port.postMessage('ready');
