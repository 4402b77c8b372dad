import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GhostFeed } from './ghostFeed.ts';
import type { Ghost } from '../geometry/ghostMarks.ts';

// A real HTTP server on loopback that answers like GET /api/ghosts, counting requests.
let server: Server;
let url = '';
let requests = 0;
let status = 200;
beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    const n = requests;
    // Slow enough that later requests pile up behind this one.
    setTimeout(() => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ghosts: [{ standId: `s${n}`, unitId: 'u', from: { pose: { xIn: n, yIn: 0, headingDeg: 0 } } }] }));
    }, 40);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ghosts`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GhostFeed', () => {
  it('coalesces a burst of changes into one request under way and one after, the newest answer last', async () => {
    requests = 0;
    const got: Ghost[][] = [];
    const feed = new GhostFeed((g) => got.push(g), url, 20);
    for (let i = 0; i < 10; i++) feed.request();
    await expect.poll(() => got.length, { timeout: 5000 }).toBe(2);
    await sleep(150);
    expect(requests).toBe(2);
    expect(got.map((g) => g[0]!.standId)).toEqual(['s1', 's2']);
    feed.stop();
    feed.request();
    await sleep(100);
    expect(requests).toBe(2);
  });

  it('keeps the last ghosts when a request fails', async () => {
    requests = 0;
    status = 500;
    const got: Ghost[][] = [];
    const feed = new GhostFeed((g) => got.push(g), url, 0);
    feed.request();
    await expect.poll(() => requests, { timeout: 5000 }).toBe(1);
    await sleep(150);
    expect(got).toEqual([]);
    status = 200;
    feed.request();
    await expect.poll(() => got.length, { timeout: 5000 }).toBe(1);
    expect(got).toEqual([[{ standId: 's2', unitId: 'u', from: { xIn: 2, yIn: 0, headingDeg: 0 } }]]);
    feed.stop();
  });
});
