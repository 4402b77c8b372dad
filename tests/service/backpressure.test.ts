import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { applyDelta, type LiveState, type ServerMessage } from '@muster/protocol';
import type { Stand } from '@muster/rules';
import type { BackendEvent, ServiceBackend } from '../../apps/server/src/http/backend.ts';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { TestClient } from './helpers.ts';
import { emptyLiveState } from '../../fixtures/protocol/emptyLiveState.ts';

/** A backend that publishes a large, fully changing state every few ms: the worst case for a slow viewer. */
function floodBackend(stands: number): ServiceBackend & { publish(): void } {
  const listeners = new Set<(e: BackendEvent) => void>();
  let seq = 0;
  const make = (): LiveState => {
    seq++;
    const list: Stand[] = Array.from({ length: stands }, (_, i) => ({
      id: `stand-${i}`,
      unitId: `unit-${i % 40}`,
      pose: { xIn: (seq * 0.01 + i) % 72, yIn: i % 48, headingDeg: (seq + i) % 360 },
      widthIn: 1.5,
      depthIn: 1.5,
      role: 'base',
    }));
    const empty = emptyLiveState(seq);
    return emptyLiveState(seq, {
      captureTimeMs: Date.now(),
      tableState: { ...empty.tableState, stands: list },
      health: { ...empty.health, frameRateHz: 100, trackedStands: stands },
    });
  };
  let state = make();
  return {
    state: () => state,
    recentLog: () => [],
    log: () => [],
    roster: () => null,
    tableProfile: () => null,
    calibration: () => null,
    perform: () => undefined,
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    publish(): void {
      state = make();
      for (const l of listeners) l({ kind: 'state' });
    },
  };
}

let server: RunningServer | null = null;
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) {
    (c.ws as unknown as { _socket: Socket })._socket.resume();
    await c.close();
  }
  await server?.close();
  server = null;
});

describe('backpressure', () => {
  it('a paused viewer never holds more than the high-water mark plus one message, and catches up with one coalesced delta', async () => {
    const backend = floodBackend(1000);
    const highWater = 256 * 1024;
    server = await startServer({ backend, operatorToken: 'tok-tok-tok', host: '127.0.0.1', port: 0, hub: { highWaterBytes: highWater } });
    const slow = await TestClient.connect(server.url);
    const fast = await TestClient.connect(server.url);
    clients.push(slow, fast);
    await slow.next('snapshot');
    await fast.next('snapshot');
    const messageBytes = JSON.stringify(backend.state()).length;

    (slow.ws as unknown as { _socket: Socket })._socket.pause();
    const publishes = 400;
    let maxBuffered = 0;
    for (let i = 0; i < publishes; i++) {
      backend.publish();
      maxBuffered = Math.max(maxBuffered, server.hub.stats().maxBufferedBytes);
      await new Promise((r) => setTimeout(r, 5));
    }
    const stats = server.hub.stats();
    // Unbounded queueing would hold hundreds of ~100 KB deltas (tens of MB) for the paused client.
    expect(stats.deltasSkipped).toBeGreaterThan(0);
    expect(maxBuffered).toBeLessThanOrEqual(highWater + 2 * messageBytes);
    // The fast viewer kept up meanwhile.
    await fast.next('delta', (d) => d.seq === backend.state().seq);

    (slow.ws as unknown as { _socket: Socket })._socket.resume();
    const newest = backend.state().seq;
    await slow.next('delta', (d) => d.seq === newest, 0, 20_000);
    const received = slow.messages.filter((m): m is Extract<ServerMessage, { type: 'delta' }> => m.type === 'delta');
    expect(received.length).toBeLessThan(publishes / 2);
    // Every delta it did get applies to what it held: the chain is unbroken.
    const snap = slow.messages.find((m) => m.type === 'snapshot');
    let state: LiveState | null = snap && snap.type === 'snapshot' ? snap.state : null;
    for (const d of received) {
      state = state && applyDelta(state, d);
      expect(state, `delta ${d.baseSeq}→${d.seq}`).not.toBeNull();
    }
    expect(state!.seq).toBe(newest);
    expect(state!.tableState.stands[5]).toEqual(backend.state().tableState.stands[5]);
  });
});
