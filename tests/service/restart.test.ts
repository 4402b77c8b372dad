import { afterAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type LiveState } from '@muster/protocol';
import { TestClient, startDemo, tempDir } from './helpers.ts';

const TOKEN = 'restart-token';
const dir = tempDir('muster-restart-');
afterAll(() => dir.remove());

describe('persistence across a restart', () => {
  it('terrain, unit status, turn, tag bindings and the game log survive a restart', async () => {
    const terrain = { areas: [], linear: [{ id: 'wall-1', kind: 'wall', points: [{ xIn: 1, yIn: 2 }, { xIn: 30, yIn: 2 }] }], roads: [], elevations: [] };
    let logCount = 0;
    {
      const live = await startDemo(dir.path, { token: TOKEN });
      const c = await TestClient.connect(live.url);
      try {
        await c.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h' });
        expect(await c.request({ type: 'set-terrain', terrain: terrain as never, requestId: 't' })).toMatchObject({ type: 'ack' });
        expect(await c.request({ type: 'set-unit-status', unitId: 'us2', status: { prone: true, ordersLeft: 1 }, requestId: 's' })).toMatchObject({ type: 'ack' });
        expect(await c.request({ type: 'set-turn', turn: 3, requestId: 'turn' })).toMatchObject({ type: 'ack', result: { turn: 3 } });
        expect(await c.request({ type: 'assign-tag', markerId: 777, standId: 'us2-3', requestId: 'a' })).toMatchObject({ type: 'ack' });
        expect(await c.request({ type: 'roll-dice', dice: 4, reason: 'volley', requestId: 'r' })).toMatchObject({ type: 'ack' });
        await c.next('delta', (d) => d.turn === 3 || d.seq > 5);
        logCount = (await (await fetch(`${live.url}/api/log?from=0&limit=10000`)).json() as { entries: unknown[] }).entries.length;
        expect(logCount).toBeGreaterThan(5);
      } finally {
        await c.close();
        await live.stop();
      }
    }
    {
      const live = await startDemo(dir.path, { token: TOKEN });
      try {
        const c = await TestClient.connect(live.url);
        await c.next('delta', (d) => d.frameSeq >= 2);
        await c.close();
        const snap = (await (await fetch(`${live.url}/api/snapshot`)).json()) as LiveState;
        expect(snap.turn).toBe(3);
        expect(snap.tableState.terrain).toEqual(terrain);
        expect(snap.tableState.units.find((u) => u.id === 'us2')?.status).toMatchObject({ prone: true, ordersLeft: 1 });
        expect(snap.roster.bindings).toContainEqual({ markerId: 777, standId: 'us2-3' });
        // us2-3's own tag (62) is free now, so us2 stands on the table lack that stand (tag 777 is not on the table).
        expect(snap.tableState.stands.some((s) => s.id === 'us2-3')).toBe(false);
        const log = (await (await fetch(`${live.url}/api/log?from=0&limit=10000`)).json()) as { entries: { index: number; kind: string }[] };
        expect(log.entries.length).toBeGreaterThanOrEqual(logCount);
        expect(log.entries.map((e) => e.kind)).toEqual(expect.arrayContaining(['terrain', 'unit-status', 'turn', 'assign-tag', 'dice', 'pose']));
        log.entries.forEach((e, i) => expect(e.index).toBe(i));
      } finally {
        await live.stop();
      }
    }
  });
});

describe('one service per data directory', () => {
  it('a second demo on the same data directory keeps its game apart instead of sharing files', async () => {
    const shared = tempDir('muster-lock-');
    const a = await startDemo(shared.path);
    try {
      const b = await startDemo(shared.path);
      try {
        expect(a.store.dir).toBe(`${shared.path}/demo`);
        expect(b.store.dir).toBe(`${shared.path}/demo-${process.pid}`);
        expect(b.sourceDescription).toMatch(/keeps its game apart/);
      } finally {
        await b.stop();
      }
    } finally {
      await a.stop();
      shared.remove();
    }
  });
});
