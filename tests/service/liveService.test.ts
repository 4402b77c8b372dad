import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, PROTOCOL_VERSION, applyDelta, type LiveState } from '@muster/protocol';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { TestClient, startDemo, tempDir, type TempDir } from './helpers.ts';

const TOKEN = 'test-operator-token';
let dir: TempDir;
let live: RunningLive;
const clients: TestClient[] = [];

async function client(): Promise<TestClient> {
  const c = await TestClient.connect(live.url);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  dir = tempDir();
  live = await startDemo(dir.path, { token: TOKEN });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await live?.stop();
  dir?.remove();
});

describe('REST', () => {
  it('serves health, snapshot, roster, table profile, terrain, calibration and the log', async () => {
    const c = await client();
    await c.next('delta', (d) => d.frameSeq >= 3);
    // The rules run on a worker: their evaluation reaches the state after the poses.
    for (let i = 0; i < 100 && live.pipeline.state().evaluation === null; i++) await new Promise((r) => setTimeout(r, 50));
    const health = (await (await fetch(`${live.url}/api/health`)).json()) as Record<string, unknown>;
    // 'degraded' when the shared machine stalled the loop for seconds; never 'starting' after frames.
    expect(['ok', 'degraded'], JSON.stringify(health)).toContain(health.status);
    expect(health.trackedStands).toBe(40);
    expect(health.frameRateHz).toBeGreaterThan(0);
    // The rules' own time: there once a frame has been published after the worker's first result.
    let withRules = health;
    for (let i = 0; i < 100 && withRules.rulesMs === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      withRules = (await (await fetch(`${live.url}/api/health`)).json()) as Record<string, unknown>;
    }
    // Reported, not bounded here: how long the rules take depends on the machine's load (npm run bench -- service).
    expect(withRules.rulesMs, JSON.stringify(withRules)).toBeGreaterThan(0);
    const snapshot = (await (await fetch(`${live.url}/api/snapshot`)).json()) as LiveState;
    expect(snapshot.tableState.stands).toHaveLength(40);
    expect(snapshot.evaluation?.rulesetId).toBe('devil-to-pay');
    const roster = (await (await fetch(`${live.url}/api/roster`)).json()) as { roster: { name: string } };
    expect(roster.roster.name).toBe('Opening battle');
    const profile = (await (await fetch(`${live.url}/api/table-profile`)).json()) as { summary: { widthIn: number } };
    expect(profile.summary.widthIn).toBe(72);
    const terrain = (await (await fetch(`${live.url}/api/terrain`)).json()) as { linear: unknown[] };
    expect(terrain.linear.length).toBeGreaterThan(0);
    expect(await (await fetch(`${live.url}/api/calibration`)).json()).toBeNull();
    const log = (await (await fetch(`${live.url}/api/log?from=0&limit=5`)).json()) as { entries: { kind: string }[] };
    expect(log.entries.length).toBe(5);
    expect(log.entries[0]?.kind).toBe('pose');
    expect((await fetch(`${live.url}/api/log?from=-1`)).status).toBe(400);
    expect((await fetch(`${live.url}/api/nope`)).status).toBe(404);
  });

  it('refuses operator calls without the right token and accepts them with it', async () => {
    const roll = JSON.stringify({ type: 'roll-dice', dice: 3 });
    const none = await fetch(`${live.url}/api/actions`, { method: 'POST', body: roll });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ type: 'error', code: 'forbidden' });
    const wrong = await fetch(`${live.url}/api/actions`, { method: 'POST', body: roll, headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(403);
    const terrainBefore = await (await fetch(`${live.url}/api/terrain`)).json();
    const put = await fetch(`${live.url}/api/terrain`, { method: 'PUT', body: JSON.stringify({ areas: [], linear: [], roads: [], elevations: [] }) });
    expect(put.status).toBe(401);
    expect(await (await fetch(`${live.url}/api/terrain`)).json()).toEqual(terrainBefore);

    const ok = await fetch(`${live.url}/api/actions`, { method: 'POST', body: roll, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    const ack = (await ok.json()) as { result: { roll: { faces: number[]; hits: number } } };
    expect(ack.result.roll.faces).toHaveLength(3);
    for (const f of ack.result.roll.faces) expect(f).toBeGreaterThanOrEqual(1);
  });

  it('answers bad REST bodies with a JSON error and keeps saved data', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const before = await (await fetch(`${live.url}/api/terrain`)).json();
    const bad = await fetch(`${live.url}/api/terrain`, { method: 'PUT', headers: auth, body: '{"areas": [' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'bad-json' });
    const invalid = await fetch(`${live.url}/api/terrain`, { method: 'PUT', headers: auth, body: JSON.stringify({ areas: 'x', linear: [], roads: [], elevations: [] }) });
    expect(invalid.status).toBe(400);
    const huge = await fetch(`${live.url}/api/actions`, { method: 'POST', headers: auth, body: 'x'.repeat(LIMITS.maxRestBodyBytes + 10) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'too-large' });
    expect(await (await fetch(`${live.url}/api/terrain`)).json()).toEqual(before);
  });
});

describe('ws', () => {
  it('sends welcome and a snapshot, then deltas whose seq increases and chain from the snapshot', async () => {
    const c = await client();
    const welcome = await c.next('welcome');
    expect(welcome).toMatchObject({ role: 'viewer', protocolVersion: PROTOCOL_VERSION });
    const snapshot = await c.next('snapshot');
    expect(c.messages.findIndex((m) => m.type === 'snapshot')).toBeLessThan(c.messages.findIndex((m) => m.type === 'delta') >>> 0);
    let state = snapshot.state;
    await c.next('delta', (d) => d.seq >= snapshot.state.seq + 10);
    const deltas = c.messages.filter((m) => m.type === 'delta');
    let lastSeq = snapshot.state.seq;
    let lastCapture = snapshot.state.captureTimeMs;
    for (const d of deltas) {
      expect(d.seq).toBeGreaterThan(lastSeq);
      expect(d.captureTimeMs).toBeGreaterThanOrEqual(lastCapture);
      expect(Array.isArray(d.liveTrackIds)).toBe(true);
      lastSeq = d.seq;
      lastCapture = d.captureTimeMs;
      const next = applyDelta(state, d);
      expect(next, `delta ${d.baseSeq}→${d.seq} applies`).not.toBeNull();
      state = next!;
    }
    expect(state.tableState.stands).toHaveLength(40);
    expect(state.liveTrackIds.length).toBe(state.tracks.length);
  });

  it('refuses operator actions from a viewer and a wrong token, accepts them after hello with the token', async () => {
    const c = await client();
    await c.next('snapshot');
    expect(await c.request({ type: 'draw-card', requestId: 'd1' })).toMatchObject({ type: 'error', code: 'forbidden', requestId: 'd1' });
    expect(await c.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: 'wrong', requestId: 'h0' })).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await c.request({ type: 'set-turn', turn: 5, requestId: 's0' })).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await c.request({ type: 'hello', protocolVersion: 999, requestId: 'h1' })).toMatchObject({ type: 'error', code: 'unsupported-version' });
    expect(await c.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h2' })).toMatchObject({ type: 'welcome', role: 'operator' });
    const draw = await c.request({ type: 'draw-card', requestId: 'd2' });
    expect(draw).toMatchObject({ type: 'ack', action: 'draw-card', result: { draw: { card: { kind: expect.any(String) } } } });
    await c.next('log', (m) => m.entry.kind === 'card');
    const from = c.messages.length;
    const status = await c.request({ type: 'set-unit-status', unitId: 'al26', status: { prone: true, ordersLeft: 2 }, requestId: 'u1' });
    expect(status).toMatchObject({ type: 'ack' });
    // The change is published before the ack: the next delta carries the unit with its new status.
    const delta = await c.next('delta', (d) => (d.units?.upsert ?? []).some((u) => u.id === 'al26'), from);
    expect(delta.units?.upsert.find((u) => u.id === 'al26')?.status).toMatchObject({ prone: true, ordersLeft: 2 });
    expect(await c.request({ type: 'set-unit-status', unitId: 'nobody', status: { prone: true }, requestId: 'u2' })).toMatchObject({ type: 'error', code: 'not-found' });
    expect(await c.request({ type: 'assign-tag', markerId: 500, standId: 'nope', requestId: 'a1' })).toMatchObject({ type: 'error', code: 'not-found' });
  });

  it('answers malformed and oversized messages with an error, stays connected, and others keep receiving', async () => {
    const bystander = await client();
    const c = await client();
    await c.next('snapshot');
    await bystander.next('snapshot');
    c.send('{not json');
    expect(await c.next('error', (e) => e.code === 'bad-json')).toBeTruthy();
    c.send(JSON.stringify({ type: 'roll-dice', dice: 'many', requestId: 'bad1' }));
    expect(await c.next('error', (e) => e.requestId === 'bad1')).toMatchObject({ code: 'invalid-message' });
    c.send(JSON.stringify({ type: 'ping', requestId: 'big', pad: 'x'.repeat(LIMITS.maxClientMessageBytes + 100) }));
    expect(await c.next('error', (e) => e.code === 'too-large')).toBeTruthy();
    c.ws.send(Buffer.from([0xff, 0xfe, 0x00, 0x01]), { binary: true });
    expect(await c.next('error', (e) => e.code === 'bad-json', c.messages.length - 1)).toBeTruthy();
    expect(await c.request({ type: 'ping', requestId: 'p1', clientTimeMs: 5 })).toMatchObject({ type: 'pong', clientTimeMs: 5 });
    expect(c.closed).toBe(false);
    // The bystander still gets fresh deltas.
    const seqNow = live.pipeline.state().seq;
    await bystander.next('delta', (d) => d.seq > seqNow);
    expect(bystander.messages.some((m) => m.type === 'error')).toBe(false);
  });

  it('a client asking for resync gets a fresh snapshot', async () => {
    const c = await client();
    await c.next('snapshot');
    const from = c.messages.length;
    c.send({ type: 'resync' });
    const snap = await c.next('snapshot', () => true, from);
    expect(snap.state.seq).toBeGreaterThan(0);
  });
});
