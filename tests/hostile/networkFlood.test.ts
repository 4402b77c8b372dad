/**
 * ws floods against a real demo service on loopback (issue: 20 clients sending 15-byte invalid messages
 * without reading made `/api/health` silent for ~40–55 s and the server's RSS grow by 700 MB; any number
 * of clients could connect). Fixed by a per-client message budget (over it: `rate-limited`, close 1008),
 * a budget for error replies, and a cap on connected clients (503 beyond it).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@muster/protocol';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { DEFAULT_MAX_CLIENTS } from '../../apps/server/src/http/createServer.ts';
import { DEFAULT_ERROR_REPLY_RATE, DEFAULT_MESSAGE_RATE } from '../../apps/server/src/http/liveHub.ts';
import { TestClient, tempDir } from '../service/helpers.ts';
import { eventually, health, rawUpgrade, spawnClients, startHostileDemo } from './networkHelpers.ts';

const dirs: { remove(): void }[] = [];
let live: RunningLive | null = null;
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  await live?.stop();
  live = null;
});
afterAll(() => dirs.forEach((d) => d.remove()));

async function start(extra: Parameters<typeof startHostileDemo>[1] = {}): Promise<RunningLive> {
  const dir = tempDir('muster-flood-');
  dirs.push(dir);
  live = await startHostileDemo(dir.path, extra);
  return live;
}

describe('message flood', () => {
  it('a client over the message rate is told (rate-limited) and closed with 1008; its invalid messages get only a few error replies', async () => {
    const { url } = await start();
    const c = await TestClient.connect(url);
    clients.push(c);
    await c.next('snapshot');
    const from = c.messages.length;
    // 1000 invalid messages at once: far over the burst (60) and the error-reply burst (10).
    for (let i = 0; i < 1000; i++) c.send('{"type":"nope"}');
    expect(await eventually(() => c.closed, 10_000), 'the server closed the socket').toBe(true);
    expect(c.closeCode).toBe(1008);
    const errors = c.messages.slice(from).filter((m): m is Extract<ServerMessage, { type: 'error' }> => m.type === 'error');
    // Without the limits: 1000 `invalid-message` replies and the socket open.
    expect(errors.filter((e) => e.code === 'invalid-message').length).toBeLessThanOrEqual(DEFAULT_ERROR_REPLY_RATE.burst + 2);
    expect(errors.at(-1)).toMatchObject({ code: 'rate-limited' });
    expect(live!.server.hub.stats().rateLimitedClients).toBe(1);
    // Others are unaffected: a new client is served.
    const other = await TestClient.connect(url);
    clients.push(other);
    expect(await other.request({ type: 'ping', requestId: 'p' })).toMatchObject({ type: 'pong' });
  });

  it('a client within the rate (an operator clicking) is never limited', async () => {
    const { url } = await start();
    const c = await TestClient.connect(url);
    clients.push(c);
    // A burst just under the budget, then a steady trickle below the rate: every request answered.
    for (let i = 0; i < DEFAULT_MESSAGE_RATE.burst - 5; i++) c.send({ type: 'ping', requestId: `b${i}` });
    expect(await c.request({ type: 'ping', requestId: 'after-burst' })).toMatchObject({ type: 'pong' });
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 1000 / (DEFAULT_MESSAGE_RATE.perSecond / 2)));
      expect(await c.request({ type: 'ping', requestId: `t${i}` })).toMatchObject({ type: 'pong' });
    }
    expect(c.closed).toBe(false);
  });

  it('20 clients flooding invalid messages without reading: all dropped, health answers throughout, memory bounded', async () => {
    const { url, server } = await start();
    await health(url);
    const rssBefore = process.memoryUsage().rss;
    const flood = spawnClients(url, 20, 'flood', 6);
    await flood.connected;
    // Health while the flood runs: every probe answered (the bound is generous; it was ~40 s before).
    const probes: number[] = [];
    let peakRss = rssBefore;
    const probing = (async () => {
      for (let i = 0; i < 10; i++) {
        const h = await health(url);
        expect(h.status).toBe(200);
        probes.push(h.ms);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    const report = await flood.done;
    await probing;
    expect(report.opened).toBe(20);
    // The server dropped every flooder during the flood (before: none, until each had 16 MiB of unread errors).
    expect(report.closedEarly).toBe(20);
    expect(server.hub.stats().rateLimitedClients).toBe(20);
    expect(await eventually(async () => (await health(url)).clients === 0)).toBe(true);
    // Before the fix the server grew by ~700 MB in 30 s of this; a few MB of socket buffers now.
    expect((peakRss - rssBefore) / 2 ** 20).toBeLessThan(200);
    console.log(`flood: ${report.sent} messages queued by the flooders; health p-max ${Math.max(...probes).toFixed(0)} ms; RSS +${((peakRss - rssBefore) / 2 ** 20).toFixed(0)} MB`);
  });
});

describe('connection cap', () => {
  it(`takes at most ${DEFAULT_MAX_CLIENTS} ws clients by default; the next gets 503 until one leaves`, async () => {
    const { url } = await start();
    const held: TestClient[] = [];
    for (let i = 0; i < DEFAULT_MAX_CLIENTS; i++) held.push(await TestClient.connect(url));
    clients.push(...held);
    expect((await health(url)).clients).toBe(DEFAULT_MAX_CLIENTS);
    const refused = await rawUpgrade(url, '/ws', { host: new URL(url).host });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatch(/too many clients/);
    // REST is not affected by the cap.
    expect((await health(url)).status).toBe(200);
    await held[0]!.close();
    expect(await eventually(async () => (await health(url)).clients === DEFAULT_MAX_CLIENTS - 1)).toBe(true);
    const again = await TestClient.connect(url);
    clients.push(again);
    await again.next('snapshot');
  });

  it('takes the cap from the options (--max-clients)', async () => {
    const { url } = await start({ maxClients: 3 });
    for (let i = 0; i < 3; i++) clients.push(await TestClient.connect(url));
    expect((await rawUpgrade(url, '/ws', { host: new URL(url).host })).status).toBe(503);
  });
});
