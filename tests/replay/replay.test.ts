/**
 * `muster replay` on a real record: the demo battle played by the live service on a temp data directory,
 * with operator actions sent over its REST API (`recordGame.ts`), then served again by the replay through
 * the same server on loopback. Checks that the views get the game as it was (ws snapshot, deltas, log
 * messages; the state at the end equals the record), that `--from` seeks, that nothing can change the
 * record and that the data directory is never written.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type GameLogEntry, type LiveState } from '@muster/protocol';
import { startReplay, type RunningReplay } from '../../apps/server/src/replay/startReplay.ts';
import { createReplayTimeline } from '../../apps/server/src/replay/replayTimeline.ts';
import { parseReplayPosition } from '../../apps/server/src/replay/replayPosition.ts';
import { TestClient } from '../service/helpers.ts';
import { dirFingerprint } from './dirFingerprint.ts';
import { recordGame, type RecordedGameDir } from './recordGame.ts';

const here = dirname(fileURLToPath(import.meta.url));
const MUSTER = join(here, '../../apps/server/bin/muster.js');
const TOKEN = 'replay-operator-token-1';

/** The last pose of each stand in `entries` (removed stands left out). */
function lastPoses(entries: readonly GameLogEntry[]): Map<string, GameLogEntry & { kind: 'pose' }> {
  const out = new Map<string, GameLogEntry & { kind: 'pose' }>();
  for (const e of entries) {
    if (e.kind === 'pose') out.set(e.standId, e);
    else if (e.kind === 'stand-removed') out.delete(e.standId);
  }
  return out;
}

let game: RecordedGameDir;
let before: Record<string, string>;

beforeAll(async () => {
  game = await recordGame(6, 8);
  before = dirFingerprint(game.dataDir);
}, 120_000);

afterAll(() => {
  game?.dir.remove();
});

describe('the record', () => {
  it('is a real game: poses of 40 stands, operator actions, two turns', () => {
    expect(lastPoses(game.entries).size).toBe(40);
    expect(game.entries.filter((e) => e.kind === 'dice')).toHaveLength(2);
    expect(game.entries.some((e) => e.kind === 'turn' && e.turn === 2)).toBe(true);
  });
});

describe('muster replay (in process)', () => {
  let replay: RunningReplay;
  afterAll(async () => {
    await replay?.stop();
  });

  it('plays the game through the live server: snapshot, deltas in log order, log messages, the end as recorded', async () => {
    replay = await startReplay({ dataDir: game.dataDir, port: 0, speed: 8, operatorToken: TOKEN });
    const client = await TestClient.connect(replay.url);
    const snapshot = await client.next('snapshot');
    const last = game.entries[game.entries.length - 1]!;
    const end = await client.next('delta', (d) => d.frameSeq === last.index, 0, 30_000);
    const deltas = client.messages.filter((m) => m.type === 'delta');
    // Each delta brings the views to a later entry of the record, stamped with that entry's time.
    for (let i = 1; i < deltas.length; i++) expect(deltas[i]!.frameSeq).toBeGreaterThanOrEqual(deltas[i - 1]!.frameSeq);
    expect(end.captureTimeMs).toBe(last.timeMs);
    // The operator's entries reached the views as log messages, in order.
    expect(snapshot.state.frameSeq).toBeLessThan(last.index);
    const logged = [...snapshot.recentLog.map((e) => e.index), ...client.messages.filter((m) => m.type === 'log').map((m) => (m.type === 'log' ? m.entry.index : -1))];
    const expected = game.entries.filter((e) => e.kind !== 'pose' && e.kind !== 'stand-removed').map((e) => e.index);
    expect(logged).toEqual(expected);
    await client.close();

    const state = (await (await fetch(`${replay.url}/api/snapshot`)).json()) as LiveState;
    expect(state.frameSeq).toBe(last.index);
    expect(state.turn).toBe(2);
    const poses = lastPoses(game.entries);
    expect(state.tableState.stands).toHaveLength(poses.size);
    for (const s of state.tableState.stands) {
      const p = poses.get(s.id)!.pose;
      expect(Math.abs(s.pose.xIn - p.xIn)).toBeLessThan(1e-9);
      expect(Math.abs(s.pose.yIn - p.yIn)).toBeLessThan(1e-9);
      expect(Math.abs(((s.pose.headingDeg - p.headingDeg + 540) % 360) - 180)).toBeLessThan(1e-9);
    }
    expect(state.tableState.units.find((u) => u.id === 'al26')?.status?.disordered).toBe(true);
    expect(state.tableState.terrain.areas.map((a) => a.id)).toEqual(['wood-1']);
    // The rules ran on the replayed table: every unit on it evaluated, with shapes to draw.
    expect(Object.keys(state.evaluation?.units ?? {}).sort()).toEqual(state.tableState.units.map((u) => u.id).sort());
    expect(state.evaluation?.shapes.length).toBeGreaterThan(0);
    expect(state.evaluatedState?.frameSeq).toBe(last.index);
    expect(state.health.warnings[0]).toMatch(/^replay of .*demo \(read-only\): entry \d+ of \d+, .*turn 2; ended/);
    // GET /api/log serves the record as the live service did.
    const served = (await (await fetch(`${replay.url}/api/log?from=0&limit=10000`)).json()) as { entries: GameLogEntry[] };
    expect(served.entries).toEqual(game.entries);
  }, 60_000);

  it('refuses every operator action, over ws and REST, even with its token; nothing is written', async () => {
    const client = await TestClient.connect(replay.url);
    await client.next('snapshot');
    const hello = await client.request({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h' });
    expect(hello).toMatchObject({ type: 'welcome', role: 'operator' });
    for (const msg of [
      { type: 'roll-dice', dice: 3, requestId: 'r' },
      { type: 'draw-card', requestId: 'c' },
      { type: 'set-turn', turn: 5, requestId: 't' },
      { type: 'set-unit-status', unitId: 'al19', status: { disordered: true }, requestId: 's' },
    ] as const) {
      const reply = await client.request(msg);
      expect(reply).toMatchObject({ type: 'error', code: 'forbidden', requestId: msg.requestId });
      expect((reply as { message: string }).message).toMatch(/replay of a recorded game .*read-only/);
    }
    await client.close();
    const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const post = await fetch(`${replay.url}/api/actions`, { method: 'POST', headers: auth, body: JSON.stringify({ type: 'roll-dice', dice: 2 }) });
    expect(post.status).toBe(403);
    const terrain = await fetch(`${replay.url}/api/terrain`, { method: 'PUT', headers: auth, body: JSON.stringify({ areas: [], linear: [], roads: [], elevations: [] }) });
    expect(terrain.status).toBe(403);
    const projector = await fetch(`${replay.url}/api/projector`, { method: 'PUT', headers: auth, body: '{}' });
    expect(projector.status).toBe(404);
    expect(dirFingerprint(game.dataDir)).toEqual(before);
  });
});

describe('--from', () => {
  it('names a position by index, turn, offset and time', () => {
    const timeline = createReplayTimeline(game.entries);
    const turnEntry = game.entries.find((e) => e.kind === 'turn')!;
    expect(parseReplayPosition('turn:2', timeline)).toBe(game.entries.indexOf(turnEntry) + 1);
    expect(parseReplayPosition('300', timeline)).toBe(game.entries.findIndex((e) => e.index > 300));
    const t0 = game.entries[0]!.timeMs;
    const at2s = parseReplayPosition('+2s', timeline);
    expect(game.entries[at2s - 1]!.timeMs).toBeLessThanOrEqual(t0 + 2000);
    expect(game.entries[at2s]!.timeMs).toBeGreaterThan(t0 + 2000);
    expect(parseReplayPosition(new Date(t0 + 2000).toISOString(), timeline)).toBe(at2s);
    expect(() => parseReplayPosition('turn:9', timeline)).toThrow(/turn 9 is not in the record \(it ends in turn 2\)/);
    expect(() => parseReplayPosition('soon', timeline)).toThrow(/"soon" is not a position in the record; give a log index \(120\), turn:N/);
  });

  it('the real command starts held at turn 2 and says where; Ctrl+C stops it; the data directory is untouched', async () => {
    const child = spawn(process.execPath, [MUSTER, 'replay', game.dataDir, '--port', '0', '--speed', '0', '--from', 'turn:2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out} ${err}`)), 60_000);
      child.stdout.on('data', () => {
        const m = /map: +(http:\/\/127\.0\.0\.1:\d+)\/map\.html/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    expect(out).toMatch(/^Muster is replaying .*demo \(read-only\): \d+ entries, .* turns 1–2/);
    expect(out).toMatch(/from: +entry \d+, held/);
    const state = (await (await fetch(`${url}/api/snapshot`)).json()) as LiveState;
    const turnEntry = game.entries.find((e) => e.kind === 'turn')!;
    expect(state.turn).toBe(2);
    expect(state.frameSeq).toBe(turnEntry.index);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(dirFingerprint(game.dataDir)).toEqual(before);
  }, 90_000);

  it('a directory without a record, or a bad position, is one line on stderr and exit code 2', async () => {
    const run = (args: string[]) => promisify(execFile)(process.execPath, [MUSTER, 'replay', ...args], { timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
    const missing = (await run([join(game.dataDir, 'nothing-here')])) as { code: number; stderr: string };
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/muster replay: .*nothing-here: no such directory; give the data directory of a game/);
    const notGame = (await run([here])) as { code: number; stderr: string };
    expect(notGame.code).toBe(2);
    expect(notGame.stderr).toMatch(/no game-log\.jsonl: not the data directory of a game/);
    const bad = (await run([game.dataDir, '--from', 'yesterday', '--port', '0'])) as { code: number; stderr: string };
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"yesterday" is not a position in the record/);
    expect(dirFingerprint(game.dataDir)).toEqual(before);
  }, 90_000);
});

describe('ports', () => {
  it('a taken port: the next free one when allowed (beside a live service), else EADDRINUSE and the command says so', async () => {
    const held = createServer();
    held.listen(0, '127.0.0.1');
    await once(held, 'listening');
    const port = (held.address() as AddressInfo).port;
    try {
      await expect(startReplay({ dataDir: game.dataDir, port, speed: 0 })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      const next = await startReplay({ dataDir: game.dataDir, port, nextPorts: 5, speed: 0 });
      expect(Number(new URL(next.url).port)).toBeGreaterThan(port);
      await next.stop();
      const cli = await promisify(execFile)(process.execPath, [MUSTER, 'replay', game.dataDir, '--port', String(port)], { timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
      expect(cli).toMatchObject({ code: 2 });
      expect((cli as { stderr: string }).stderr).toMatch(new RegExp(`muster replay: port ${port} is in use; pick another with --port`));
    } finally {
      held.close();
    }
    expect(dirFingerprint(game.dataDir)).toEqual(before);
  }, 60_000);
});

