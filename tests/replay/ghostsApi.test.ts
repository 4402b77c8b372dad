/**
 * `GET /api/ghosts` and `GET|POST /api/replay` on a replay of a known record (real writer, real server on
 * loopback), and `/api/replay` on a service that is not a replay.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveState } from '@muster/protocol';
import { startReplay, type RunningReplay } from '../../apps/server/src/replay/startReplay.ts';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { SceneBackend } from '../e2e/helpers/sceneBackend.ts';
import { fixtureLiveState } from '../e2e/helpers/fixtureScene.ts';
import type { TempDir } from '../service/helpers.ts';
import { GHOST_SCRIPT, POSE_A, POSE_B, POSE_C, writeGhostRecord } from './ghostRecord.ts';

const TOKEN = 'ghosts-api-operator-token';
let dir: TempDir;
let replay: RunningReplay;

beforeAll(async () => {
  dir = await writeGhostRecord();
  replay = await startReplay({ dataDir: dir.path, port: 0, speed: 0, from: String(GHOST_SCRIPT.length - 1), operatorToken: TOKEN });
});

afterAll(async () => {
  await replay?.stop();
  dir?.remove();
});

const get = async (path: string): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${replay.url}${path}`);
  return { status: res.status, body: await res.json() };
};
const post = async (body: unknown, token: string | null = TOKEN): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${replay.url}/api/replay`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

describe('GET /api/ghosts', () => {
  it('lists, for every stand on the table, where it stood before its last move', async () => {
    const { status, body } = await get('/api/ghosts');
    expect(status).toBe(200);
    expect(body.at).toMatchObject({ index: 10, turn: 2 });
    // al19-2 came back onto the table (no "before"); us1-1 never moved.
    expect(body.ghosts).toEqual([{ standId: 'al19-1', unitId: 'al19', from: expect.objectContaining({ index: 5, pose: POSE_B }), to: expect.objectContaining({ index: 8, pose: POSE_C }) }]);
    // The same answer as GET /api/history for that stand.
    const history = await get('/api/history?stand=al19-1');
    expect(history.body.stands[0].lastMove.from).toEqual(body.ghosts[0].from);
  });

  it('as of an earlier moment, and refuses bad questions', async () => {
    const early = await get('/api/ghosts?index=6');
    expect(early.body.ghosts.map((g: any) => [g.standId, g.from.pose])).toEqual([['al19-1', POSE_A]]);
    expect((await get('/api/ghosts?index=1')).body.ghosts).toEqual([]);
    const bad = await get('/api/ghosts?index=x');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/index must be a log index/);
    expect((await get('/api/ghosts?gapS=0')).status).toBe(400);
    expect((await get('/api/ghosts?at=1&index=2')).status).toBe(400);
  });
});

describe('/api/replay', () => {
  it('gives the timeline: turns where they begin, the actions, where it is', async () => {
    const { status, body } = await get('/api/replay');
    expect(status).toBe(200);
    expect(body).toMatchObject({ position: 11, length: 11, playing: false, logCursor: 10 });
    expect(body.turns.map((t: any) => [t.turn, t.position, t.entries])).toEqual([[1, 1, 7], [2, 8, 4]]);
    expect(body.actions.map((a: any) => [a.position, a.entry.kind])).toEqual([[7, 'dice'], [8, 'turn']]);
  });

  it('seeks and pauses with the operator token only, and says what it takes', async () => {
    expect((await post({ action: 'seek', turn: 1 }, null)).status).toBe(401);
    expect((await post({ action: 'seek', turn: 1 }, 'wrong')).status).toBe(403);
    const seek = await post({ action: 'seek', turn: 1 });
    expect(seek.status).toBe(200);
    expect(seek.body).toMatchObject({ position: 1, playing: false, logCursor: 0 });
    const snap = (await get('/api/snapshot')).body as LiveState;
    expect(snap.frameSeq).toBe(0);
    expect((await get('/api/ghosts')).body.ghosts).toEqual([]);
    expect((await post({ action: 'seek', index: 7 })).body).toMatchObject({ position: 8, logCursor: 7 });
    expect((await get('/api/ghosts')).body.ghosts.map((g: any) => g.from.pose)).toEqual([POSE_A]);
    const noTurn = await post({ action: 'seek', turn: 9 });
    expect(noTurn.status).toBe(404);
    expect(noTurn.body.message).toMatch(/no turn 9 .*turns: 1, 2/);
    expect((await post({ action: 'jump' })).body.message).toMatch(/action must be "pause", "play" or "seek"/);
    expect((await post({ action: 'seek' })).status).toBe(400);
    expect((await post({ action: 'play', speed: -1 })).status).toBe(400);
    expect((await post('{not json')).status).toBe(400);
    // Play then pause: the player runs, then stops where it is.
    expect((await post({ action: 'play', speed: 1 })).body.playing).toBe(true);
    const paused = await post({ action: 'pause' });
    expect(paused.body.playing).toBe(false);
    expect((await post({ action: 'seek', position: 999 })).body.position).toBe(11);
  });

  it('is 404 on a service that is not a replay', async () => {
    const server: RunningServer = await startServer({ backend: new SceneBackend(fixtureLiveState()), operatorToken: TOKEN, host: '127.0.0.1', port: 0, viewsDir: dir.path });
    try {
      const res = await fetch(`${server.url}/api/replay`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toMatch(/not a replay/);
    } finally {
      await server.close();
    }
  });
});

describe('the replay control token', () => {
  it("is the data directory's own operator token when it keeps one (read, never written)", async () => {
    const own = await writeGhostRecord();
    writeFileSync(join(own.path, 'operator-token'), 'the-recorded-service-token\n', { mode: 0o600 });
    const r = await startReplay({ dataDir: own.path, port: 0, speed: 0 });
    try {
      expect(r.operatorToken).toBe('the-recorded-service-token');
      const res = await fetch(`${r.url}/api/replay`, { method: 'POST', headers: { authorization: 'Bearer the-recorded-service-token' }, body: JSON.stringify({ action: 'seek', turn: 2 }) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { position: number }).position).toBe(8);
    } finally {
      await r.stop();
      own.remove();
    }
    // Without one: a random token, not the other record's.
    const plain = await startReplay({ dataDir: dir.path, port: 0, speed: 0 });
    try {
      expect(plain.operatorToken).not.toBe('the-recorded-service-token');
      expect(plain.operatorToken.length).toBeGreaterThanOrEqual(16);
    } finally {
      await plain.stop();
    }
  });
});
