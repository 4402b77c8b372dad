/**
 * Which frame an evaluation came from, on the wire (protocol 2): a real server on loopback and a real ws
 * client that applies what it receives. Every delta names the state its evaluation was computed from
 * (`evaluatedState`); it must be there, move only forward, never be ahead of the poses beside it, and
 * name the state that really was evaluated. The gated rule set (shared memory, no timing) holds the
 * rules while frames go on, so the lag is deterministic; the demo run checks the same on a live stream.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyDelta, parseServerMessage, PROTOCOL_VERSION, type DeltaMessage, type LiveState, type ServerMessage } from '@muster/protocol';
import { startLiveServer } from '../../apps/server/src/compose/liveServer.ts';
import { stateKey } from './fixtures/gatedRuleset.ts';
import { startDemo, tempDir, TestClient } from './helpers.ts';
import { gatedDemoPipeline } from './gatedPipeline.ts';

const dir = tempDir('muster-evaluated-state-');
afterAll(() => dir.remove());


async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Applies every snapshot and delta the client received, strictly validated, keeping each state by seq. */
function replay(messages: readonly ServerMessage[]): { states: LiveState[]; deltas: DeltaMessage[] } {
  const states: LiveState[] = [];
  const deltas: DeltaMessage[] = [];
  let state: LiveState | null = null;
  for (const m of messages) {
    // What the client got must pass the protocol 2 validator (evaluatedState present and consistent).
    const parsed = parseServerMessage(JSON.stringify(m), PROTOCOL_VERSION);
    if (!parsed.ok) throw new Error(`invalid server message: ${parsed.message}`);
    if (m.type === 'snapshot') state = m.state;
    else if (m.type === 'delta') {
      if (state === null) throw new Error('delta before snapshot');
      const next = applyDelta(state, m);
      if (next === null) throw new Error(`delta ${m.baseSeq} → ${m.seq} does not fit ${state.seq}`);
      state = next;
      deltas.push(m);
    } else continue;
    states.push(state);
  }
  return { states, deltas };
}

/** The invariants every client may rely on. */
function expectEvaluatedStateInvariants(states: readonly LiveState[]): void {
  let prev: LiveState | null = null;
  for (const s of states) {
    const ev = s.evaluatedState;
    if (ev) {
      expect(ev.seq, `state ${s.seq}`).toBeLessThanOrEqual(s.seq);
      expect(ev.frameSeq, `state ${s.seq}`).toBeLessThanOrEqual(s.frameSeq);
    }
    if (prev?.evaluatedState) {
      // Once there is an evaluation, every later state names one, never an older one.
      expect(ev, `state ${s.seq}`).not.toBeNull();
      expect(ev!.seq).toBeGreaterThanOrEqual(prev.evaluatedState.seq);
      expect(ev!.frameSeq).toBeGreaterThanOrEqual(prev.evaluatedState.frameSeq);
      expect(ev!.captureTimeMs).toBeGreaterThanOrEqual(prev.evaluatedState.captureTimeMs);
    }
    prev = s;
  }
}

describe('evaluatedState on the wire', () => {
  it('names the frame each evaluation came from: stuck rules lag the poses, then the newest state is evaluated', async () => {
    const ctl = new Int32Array(new SharedArrayBuffer(12)); // gate closed: the rule set blocks
    const { pipeline, session, frame } = await gatedDemoPipeline(join(dir.path, 'gated'), ctl);
    const live = await startLiveServer(pipeline, { host: '127.0.0.1', port: 0, operatorToken: 'tok', viewsDir: join(dir.path, 'no-views') });
    const client = await TestClient.connect(live.server.url);
    try {
      await client.next('snapshot');
      pipeline.process(frame(0));
      await until('the worker to start on frame 0', () => Atomics.load(ctl, 1) >= 1);
      for (let seq = 1; seq <= 5; seq++) pipeline.process(frame(seq));
      await client.next('delta', (d) => d.frameSeq === 5);
      // Poses of all six frames are out; no evaluation yet, and the wire says so.
      let { states, deltas } = replay(client.messages);
      expect(deltas.map((d) => d.frameSeq)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(deltas.every((d) => d.evaluatedState === null)).toBe(true);

      Atomics.store(ctl, 0, 1); // open the gate
      Atomics.notify(ctl, 0);
      await client.next('delta', (d) => d.evaluatedState?.frameSeq === 5);
      ({ states, deltas } = replay(client.messages));
      expectEvaluatedStateInvariants(states);
      // Frame 0 (in flight when the gate opened), then only the newest waiting state (frame 5): frames
      // 1–4 were replaced while they waited, never evaluated late.
      const evaluatedFrames = [...new Set(deltas.flatMap((d) => (d.evaluatedState ? [d.evaluatedState.frameSeq] : [])))];
      expect(evaluatedFrames).toEqual([0, 5]);
      const first = deltas.find((d) => d.evaluatedState !== null)!;
      // When frame 0's evaluation arrived the poses were 5 frames ahead: what "rules lag 5 frames" shows.
      expect(first.frameSeq - first.evaluatedState!.frameSeq).toBe(5);
      expect(first.evaluatedState!.captureTimeMs).toBe(1_000_000);
      // Each evaluation is of the very state it names: the gated rule set stamps the evaluated stands.
      const bySeq = new Map(states.map((s) => [s.seq, s]));
      for (const s of states) {
        if (!s.evaluatedState || !s.evaluation) continue;
        const evaluated = bySeq.get(s.evaluatedState.seq);
        expect(evaluated, `state ${s.evaluatedState.seq} reached the client`).toBeDefined();
        expect(s.evaluation.rulesetId).toBe(stateKey(evaluated!.tableState));
        expect(evaluated!.frameSeq).toBe(s.evaluatedState.frameSeq);
        expect(evaluated!.captureTimeMs).toBe(s.evaluatedState.captureTimeMs);
      }
    } finally {
      await client.close();
      await live.server.close();
      pipeline.close();
      session.close();
    }
  });

  it('a protocol 1 client is still served (welcome, not unsupported-version); a newer one is refused', async () => {
    const live = await startDemo(join(dir.path, 'versions'));
    const client = await TestClient.connect(live.url);
    try {
      expect(await client.request({ type: 'hello', protocolVersion: 1, requestId: 'v1' })).toMatchObject({ type: 'welcome', protocolVersion: PROTOCOL_VERSION });
      expect(await client.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, requestId: 'v2' })).toMatchObject({ type: 'welcome' });
      expect(await client.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION + 1, requestId: 'v3' })).toMatchObject({ type: 'error', code: 'unsupported-version' });
    } finally {
      await client.close();
      await live.stop();
    }
  });

  it('on the live demo stream: present in every delta once the rules ran, monotonic, never ahead of the poses', async () => {
    const live = await startDemo(join(dir.path, 'demo'), { fps: 20, speed: 4 });
    const client = await TestClient.connect(live.url);
    try {
      const snapshot = await client.next('snapshot');
      const from = snapshot.state.frameSeq;
      // Sixty frames of the battle through the real tracker, roster and the rules on their worker.
      await client.next('delta', (d) => d.frameSeq >= from + 60, 0, 30_000);
      const { states, deltas } = replay(client.messages);
      expectEvaluatedStateInvariants(states);
      const evaluated = deltas.filter((d) => d.evaluatedState !== null);
      expect(evaluated.length).toBeGreaterThan(0);
      // Every delta after the first evaluation carries one.
      expect(deltas.slice(deltas.indexOf(evaluated[0]!)).every((d) => d.evaluatedState !== null)).toBe(true);
      // Evaluations keep coming (the rules follow the stream rather than stopping at the first).
      expect(new Set(evaluated.map((d) => d.evaluatedState!.frameSeq)).size).toBeGreaterThan(5);
      // An evaluation is always of an earlier published state than the delta carrying it (worker).
      expect(evaluated.every((d) => d.evaluatedState!.seq < d.seq)).toBe(true);
    } finally {
      await client.close();
      await live.stop();
    }
  });
});
