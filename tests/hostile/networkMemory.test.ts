/**
 * Memory against clients that never read, on a real demo service on loopback (issue: after 50 large
 * terrain edits, ~200 KB each, every snapshot was 10.4 MB, because each terrain edit is a log entry and
 * the newest 50 go with every snapshot; 40 clients that never read then took the server to ~1.1 GB).
 * Fixed by `LIMITS.maxTerrainBytes` (64 KiB of JSON per terrain, for `set-terrain` and PUT /api/terrain)
 * and by one serialised snapshot Buffer shared by every client that is sent it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS, PROTOCOL_VERSION, type ServerMessage } from '@muster/protocol';
import { TestClient, tempDir } from '../service/helpers.ts';
import { TOKEN, eventually, health, spawnClients, startHostileDemo } from './networkHelpers.ts';

const dirs: { remove(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));

/** A valid terrain of `pieces` woods of `points` vertices each (~26 bytes a vertex), ids tagged with `k`. */
function terrainOf(k: number, pieces: number, points: number): unknown {
  return {
    areas: Array.from({ length: pieces }, (_, p) => ({
      id: `woods-${k}-${p}`,
      kind: 'open-woods',
      vertices: Array.from({ length: points }, (_, i) => ({ xIn: Math.round((20 + 10 * Math.cos(i / 7)) * 100) / 100, yIn: Math.round((20 + 10 * Math.sin(i / 7)) * 100) / 100 })),
    })),
    linear: [],
    roads: [],
    elevations: [],
  };
}

async function putTerrain(url: string, terrain: unknown): Promise<{ status: number; body: { code?: string; message?: string } }> {
  const res = await fetch(`${url}/api/terrain`, { method: 'PUT', headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(terrain) });
  return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
}

/** Size of the snapshot a new ws client is sent, bytes. */
async function snapshotBytes(url: string): Promise<number> {
  const c = await TestClient.connect(url);
  let bytes = 0;
  c.ws.on('message', (data: Buffer) => {
    if (bytes === 0 && data.toString('utf8', 0, 30).includes('"snapshot"')) bytes = data.length;
  });
  await c.next('snapshot');
  await c.close();
  return bytes;
}

describe('terrain size and clients that never read', () => {
  it('refuses a terrain over LIMITS.maxTerrainBytes over REST and ws, leaving the terrain as it was', async () => {
    const dir = tempDir('muster-terrain-cap-');
    dirs.push(dir);
    const live = await startHostileDemo(dir.path);
    try {
      const before = await (await fetch(`${live.url}/api/terrain`)).json();
      // ~200 KB: what the hostile test sent 50 times (under the 256 KiB message limit, so it used to pass).
      const big = terrainOf(0, 4, 1900);
      expect(JSON.stringify(big).length).toBeGreaterThan(LIMITS.maxTerrainBytes);
      const put = await putTerrain(live.url, big);
      expect(put.status).toBe(400);
      expect(put.body.message).toMatch(/terrain: at most 65536 bytes/);
      const c = await TestClient.connect(live.url);
      expect(await c.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h' })).toMatchObject({ type: 'welcome', role: 'operator' });
      expect(await c.request({ type: 'set-terrain', terrain: big as never, requestId: 't' })).toMatchObject({ type: 'error', code: 'invalid-message' });
      await c.close();
      expect(await (await fetch(`${live.url}/api/terrain`)).json()).toEqual(before);
      // Just under the limit is taken.
      expect((await putTerrain(live.url, terrainOf(1, 4, 600))).status).toBe(200);
    } finally {
      await live.stop();
    }
  });

  it('after 50 terrain edits at the limit, a snapshot stays a few MB and 40 clients that never read cost little memory', async () => {
    const dir = tempDir('muster-nonreaders-');
    dirs.push(dir);
    const live = await startHostileDemo(dir.path);
    try {
      // 50 edits as large as allowed, then 50 over it (refused).
      const statuses: number[] = [];
      for (let k = 0; k < 50; k++) statuses.push((await putTerrain(live.url, terrainOf(k, 4, 600))).status);
      for (let k = 0; k < 50; k++) statuses.push((await putTerrain(live.url, terrainOf(k, 4, 1900))).status);
      expect(statuses.slice(0, 50).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(50).every((s) => s === 400)).toBe(true);
      const snapshot = await snapshotBytes(live.url);
      // 50 log entries of ≤ 64 KiB plus the state (was 10.4 MB).
      expect(snapshot).toBeLessThan(51 * LIMITS.maxTerrainBytes + 512 * 1024);

      const rssBefore = process.memoryUsage().rss;
      const idle = spawnClients(live.url, 40, 'idle', 8);
      await idle.connected;
      let peak = rssBefore;
      let healthMaxMs = 0;
      await eventually(async () => {
        peak = Math.max(peak, process.memoryUsage().rss);
        const h = await health(live.url);
        expect(h.status).toBe(200);
        healthMaxMs = Math.max(healthMaxMs, h.ms);
        return false;
      }, 6000);
      const stats = live.server.hub.stats();
      expect(stats.clients).toBe(40);
      // Each client holds at most the high-water mark plus one message unsent.
      expect(stats.maxBufferedBytes).toBeLessThanOrEqual(256 * 1024 + snapshot);
      expect((peak - rssBefore) / 2 ** 20).toBeLessThan(150);
      console.log(`snapshot ${(snapshot / 2 ** 20).toFixed(2)} MiB; 40 non-readers: RSS +${((peak - rssBefore) / 2 ** 20).toFixed(0)} MB, health max ${healthMaxMs.toFixed(0)} ms`);
      const report = await idle.done;
      expect(report.opened).toBe(40);
      // Deltas kept flowing to a reading client meanwhile.
      const reader = await TestClient.connect(live.url);
      const snap = await reader.next('snapshot');
      await reader.next('delta', (d) => d.seq > (snap as Extract<ServerMessage, { type: 'snapshot' }>).state.seq);
      await reader.close();
    } finally {
      await live.stop();
    }
  });
});
