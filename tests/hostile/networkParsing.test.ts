/**
 * Deeply nested JSON against a real demo service on loopback (issue: `PUT /api/terrain` with 100k nested
 * `[`, under 256 KiB, answered 500: it parsed, then a recursion on the value ran out of stack). Fixed by
 * a scan of the nesting depth before parsing (`LIMITS.maxJsonDepth`, 32): REST answers 400
 * `invalid-message`, ws answers `error { code: 'invalid-message' }` and the connection stays usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, PROTOCOL_VERSION } from '@muster/protocol';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { TestClient, tempDir } from '../service/helpers.ts';
import { TOKEN, startHostileDemo } from './networkHelpers.ts';

const dir = tempDir('muster-deep-');
let live: RunningLive;
beforeAll(async () => {
  // One peer sends every case, over a connection per role; a new connection starts with the message budget
  // its address left (issue 32), so the sustained rate is raised: these cases test parsing, not the limits.
  live = await startHostileDemo(dir.path, { serverLimits: { messageRate: { perSecond: 10_000, burst: 60 } } });
});
afterAll(async () => {
  await live.stop();
  dir.remove();
});

const DEPTH = 100_000;
const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const auth = { authorization: `Bearer ${TOKEN}` };

async function send(method: string, path: string, body: string): Promise<{ status: number; body: { type?: string; code?: string; message?: string } }> {
  const res = await fetch(`${live.url}${path}`, { method, headers: auth, body });
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

describe('deeply nested JSON', () => {
  it('REST: 400 invalid-message for every body route, never 500; the terrain is unchanged', async () => {
    const terrainBefore = await (await fetch(`${live.url}/api/terrain`)).json();
    const bodies = {
      'bare array': deepArray(DEPTH),
      'bare object': deepObject(25_000),
      'as the terrain': `{"areas":${deepArray(DEPTH)},"linear":[],"roads":[],"elevations":[]}`,
      'in a field': `{"areas":[],"linear":[],"roads":[],"elevations":[],"x":${deepArray(DEPTH)}}`,
    };
    for (const [what, body] of Object.entries(bodies)) {
      expect(body.length, what).toBeLessThan(LIMITS.maxRestBodyBytes);
      for (const [method, path] of [
        ['PUT', '/api/terrain'],
        ['PUT', '/api/projector'],
        ['POST', '/api/actions'],
      ] as const) {
        const r = await send(method, path, body);
        expect(r.status, `${method} ${path} ${what}`).toBe(400);
        expect(r.body, `${method} ${path} ${what}`).toMatchObject({ type: 'error', code: 'invalid-message', message: expect.stringMatching(/nested deeper than 32/) });
      }
    }
    const wrapped = await send('POST', '/api/actions', `{"type":"set-terrain","terrain":${deepArray(DEPTH)}}`);
    expect(wrapped.status).toBe(400);
    expect(await (await fetch(`${live.url}/api/terrain`)).json()).toEqual(terrainBefore);
    // Nesting up to the limit is only refused for what it is (a wrong shape), not for its depth.
    const atLimit = await send('PUT', '/api/terrain', deepArray(LIMITS.maxJsonDepth));
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.message).not.toMatch(/nested/);
    expect((await fetch(`${live.url}/api/health`)).status).toBe(200);
  });

  it('ws: an invalid-message error, for viewers and the operator, and the connection stays usable', async () => {
    // Within one connection's burst (a 200 KB message costs 13 of its 60 tokens): one connection per role.
    const messages = [
      deepArray(DEPTH),
      deepObject(5000),
      `{"type":"set-terrain","requestId":"deep-1","terrain":${deepArray(5000)}}`,
      `{"type":"ping","requestId":"deep-2","clientTimeMs":${deepArray(5000)}}`,
    ];
    for (const role of ['viewer', 'operator'] as const) {
      const c = await TestClient.connect(live.url);
      try {
        if (role === 'operator') {
          expect(await c.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'op' })).toMatchObject({ role: 'operator' });
        }
        for (const [i, text] of messages.entries()) {
          const from = c.messages.length;
          c.send(text);
          const err = await c.next('error', () => true, from);
          expect(err, `${role} message ${i}`).toMatchObject({ code: 'invalid-message', message: expect.stringMatching(/nested deeper than 32/) });
          expect(await c.request({ type: 'ping', requestId: `${role}-after-${i}` })).toMatchObject({ type: 'pong' });
        }
        // As a binary frame too.
        const from = c.messages.length;
        c.ws.send(Buffer.from(deepArray(DEPTH)), { binary: true });
        expect(await c.next('error', () => true, from)).toMatchObject({ code: 'invalid-message' });
        expect(await c.request({ type: 'ping', requestId: `${role}-end` })).toMatchObject({ type: 'pong' });
        expect(c.closed).toBe(false);
      } finally {
        await c.close();
      }
    }
  });
});
