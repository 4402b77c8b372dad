/**
 * Camera faults that once went unseen (hostile test "camera failures are invisible"): a refused or hung
 * IP camera left health at 'starting' with no warning; an RTSP server that accepts and never answers held
 * ffmpeg for 70 s+ with no retry; after a source ended, the warning froze at "no frames for 4 s" and the
 * frame rate stayed at its last value. Real ffmpeg, real loopback servers (127.0.0.1 only), the real
 * service. Every wait is for a condition, with a timeout sized for a loaded machine; no duration is
 * asserted beyond "not before the timeout that causes it" (how soon: `npm run bench -- hostile`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health } from '@muster/protocol';
import { parseServerMessage } from '../../packages/protocol/src/validate.ts';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { REPO_ROOT, type RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { createIpCameraSource, createVideoFileSource } from '../../apps/vision/src/sources/ffmpegSource.ts';
import { tempDir } from '../service/helpers.ts';
import { measureStallRecovery, refusedPort, startHungServer, startMjpegCamera, until, watchSource, type RecoveryTimes } from './cameraFaults.ts';

const run = promisify(execFile);
const TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');
const ROSTER = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const dir = tempDir('muster-hostile-camera-');
let clip: string;

beforeAll(async () => {
  // Two seconds of ffmpeg's test pattern: a camera that is a recording, and ends.
  clip = join(dir.path, 'ends.mp4');
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-frames:v', '20', '-pix_fmt', 'yuv420p', clip]);
});
afterAll(() => dir.remove());

/** Recovery times measured in this file, printed at the end (the report quotes them). */
const measured: { what: string; times: RecoveryTimes }[] = [];
afterAll(() => {
  for (const m of measured) {
    console.log(`recovery ${m.what}: detected ${m.times.detectMs} ms, reopened +${m.times.reopenMs} ms, first frame +${m.times.firstFrameMs} ms, total ${m.times.totalMs} ms (${m.times.error})`);
  }
});

let started = 0;
async function startCameraService(spec: string, dataDir = join(dir.path, `data-${started++}`)): Promise<RunningLive> {
  return startLive({ source: { mode: 'camera', spec, tablePath: TABLE, rosterPath: ROSTER }, dataDir, host: '127.0.0.1', port: 0 });
}

async function act(live: RunningLive, action: unknown): Promise<number> {
  const res = await fetch(`${live.url}/api/actions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${live.operatorToken}` },
    body: JSON.stringify(action),
  });
  await res.text();
  return res.status;
}

async function health(live: RunningLive): Promise<Health> {
  return (await (await fetch(`${live.url}/api/health`)).json()) as Health;
}

describe('the ffmpeg source watches its camera', { timeout: 240_000 }, () => {
  for (const scheme of ['rtsp', 'http'] as const) {
    it(`restarts ffmpeg when an ${scheme}:// camera accepts and never answers`, async () => {
      const hung = await startHungServer();
      const source = createIpCameraSource(`${scheme}://127.0.0.1:${hung.port}/stream`, { backoff: { initialMs: 100, maxMs: 400 } });
      const watched = watchSource(source);
      const startMs = Date.now();
      try {
        // ffmpeg's own I/O timeout (3 s) ends the open; the source reopens with its backoff.
        await until('a reopen', () => watched.events.some(([, k]) => k === 'reopen'), 45_000);
        await until('a second connection to the camera', () => hung.accepted() >= 2, 45_000);
        const firstError = watched.events.find(([, k]) => k === 'error')!;
        // Not before ffmpeg's I/O timeout (how long after it: npm run bench -- hostile, not asserted here).
        expect(firstError[0] - startMs).toBeGreaterThanOrEqual(2000);
        expect(firstError[2]).toMatch(/no answer for \d/);
        expect(source.status()).toMatchObject({ state: 'reconnecting', lastError: expect.stringMatching(/no answer/) });
      } finally {
        await watched.stop();
        await hung.close();
      }
      expect(source.status().state).toBe('ended');
    });
  }

  it('recovers by itself from an MJPEG camera that stalls with the connection open', async () => {
    const camera = await startMjpegCamera({ fps: 20 });
    const source = createIpCameraSource(camera.url, { backoff: { initialMs: 100, maxMs: 400 } });
    const watched = watchSource(source);
    try {
      // One connection hangs (the camera answers a new one): the source alone.
      const one = await measureStallRecovery(watched, camera, { which: 'this-connection', timeoutMs: 45_000 });
      measured.push({ what: 'MJPEG, one connection hung', times: one });
      expect(one.error).toMatch(/stalled|no frame data/);
      expect(one.detectMs).toBeGreaterThanOrEqual(2000); // not before the stall timeout (3 s, less timer slack)
      // The whole camera stops for 5 s, then resumes: frames flow again without anyone doing anything.
      const all = await measureStallRecovery(watched, camera, { which: 'all', resumeAfterMs: 5000, timeoutMs: 45_000 });
      measured.push({ what: 'MJPEG, camera silent 5 s', times: all });
      expect(all.totalMs).toBeGreaterThanOrEqual(4500);
      const framesBefore = watched.frames();
      await until('frames flowing again', () => watched.frames() >= framesBefore + 10, 30_000);
      expect(source.status().state).toBe('streaming');
      expect(camera.connections()).toBeGreaterThanOrEqual(3);
    } finally {
      await watched.stop();
      await camera.close();
    }
  });

  it('says a recording ended', async () => {
    const watched = watchSource(createVideoFileSource(clip));
    try {
      await until('the end', () => watched.events.some(([, k, d]) => k === 'status' && d.startsWith('ended')), 10_000);
      expect(watched.frames()).toBe(20);
      expect(watched.events.filter(([, k]) => k === 'status').map(([, , d]) => d)).toEqual([
        'streaming: frames arriving',
        'ended: end of the recording',
      ]);
    } finally {
      await watched.stop();
    }
  });
});

describe('health says what the camera is doing', { timeout: 240_000 }, () => {
  it('a hung rtsp:// camera: degraded while connecting, then reconnecting with the error, ffmpeg restarted', async () => {
    const hung = await startHungServer();
    const spec = `rtsp://viewer:secret@127.0.0.1:${hung.port}/stream`;
    const live = await startCameraService(spec);
    try {
      // No longer 'starting', and the warning names the camera (password hidden). (How soon: npm run
      // bench -- hostile; on a loaded machine the first look may already find it reconnecting.)
      const early = await until('health to leave "starting"', async () => {
        const h = await health(live);
        return h.status === 'degraded' ? h : null;
      }, 45_000);
      expect(early.camera).toMatchObject({ state: expect.stringMatching(/^(connecting|reconnecting)$/), source: `rtsp://viewer:***@127.0.0.1:${hung.port}/stream` });
      expect(early.warnings.join('\n')).toMatch(new RegExp(`camera rtsp://viewer:\\*\\*\\*@127\\.0\\.0\\.1:${hung.port}/stream: (connecting|reconnecting) for \\d+ s`));
      // ffmpeg gives up after its 3 s I/O timeout; health says so, and the camera is opened again.
      const reconnecting = await until('health to say reconnecting', async () => {
        const h = await health(live);
        return h.camera?.state === 'reconnecting' ? h : null;
      }, 45_000);
      expect(reconnecting.status).toBe('degraded');
      expect(reconnecting.warnings.join('\n')).toMatch(/camera rtsp:\/\/viewer:\*\*\*@[^ ]+: reconnecting for \d+ s \(attempt \d+.*no answer for \d/);
      expect(JSON.stringify(reconnecting)).not.toContain('secret');
      await until('ffmpeg to connect again', () => hung.accepted() >= 2, 45_000);
      // The wire's validator takes the new field.
      expect(parseServerMessage(JSON.stringify({ type: 'snapshot', state: live.pipeline.state(), recentLog: [] })).ok).toBe(true);
    } finally {
      await live.stop();
      await hung.close();
    }
  });

  it('a hung http:// camera: the same', async () => {
    const hung = await startHungServer();
    const live = await startCameraService(`http://127.0.0.1:${hung.port}/stream.mjpg`);
    try {
      await until('health to say reconnecting', async () => (await health(live)).camera?.state === 'reconnecting', 45_000);
      const h = await health(live);
      expect(h.status).toBe('degraded');
      expect(h.warnings.join('\n')).toMatch(/camera http:\/\/127\.0\.0\.1:\d+\/stream\.mjpg: reconnecting .*(no answer|timed out)/);
      await until('ffmpeg to connect again', () => hung.accepted() >= 2, 45_000);
    } finally {
      await live.stop();
      await hung.close();
    }
  });

  it('a refused camera: a warning naming the camera and the error', async () => {
    const port = await refusedPort();
    const live = await startCameraService(`http://127.0.0.1:${port}/stream.mjpg`);
    try {
      const h = await until('the refusal in health', async () => {
        const x = await health(live);
        return x.warnings.some((w) => w.includes(`camera http://127.0.0.1:${port}/stream.mjpg`) && /refused/i.test(w)) ? x : null;
      }, 45_000);
      expect(h.status).toBe('degraded');
      expect(h.camera?.state).toBe('reconnecting');
      expect(h.camera?.detail).toMatch(/attempt \d+.*Connection refused/);
    } finally {
      await live.stop();
    }
  });

  it('a camera that ends: health says ended, the frame rate falls to 0, "no frames for N s" keeps counting', async () => {
    const live = await startCameraService(clip);
    try {
      await until('frames', () => live.pipeline.state().health.frameRateHz > 0, 30_000);
      const ended = await until('the camera to be ended', async () => {
        const h = await health(live);
        return h.camera?.state === 'ended' ? h : null;
      }, 45_000);
      expect(ended.status).toBe('degraded');
      expect(ended.warnings.join('\n')).toMatch(/camera .*ends\.mp4: ended \d+ s ago \(end of the recording\)/);
      // Within a few seconds the rate is 0 and the count is running.
      const first = await until('"no frames for N s" with rate 0', async () => {
        const h = await health(live);
        const n = /no frames for (\d+) s/.exec(h.warnings.join('\n'));
        return n && h.frameRateHz === 0 ? Number(n[1]) : null;
      }, 45_000);
      // The count keeps running (waited for, not slept for).
      const later = await until('the count to go on', async () => {
        const h = await health(live);
        const n = Number(/no frames for (\d+) s/.exec(h.warnings.join('\n'))?.[1]);
        return n >= first + 2 ? h : null;
      }, 45_000);
      expect(later.frameRateHz).toBe(0);
      expect(later.status).toBe('degraded');
    } finally {
      await live.stop();
    }
  });

  it('an MJPEG camera that stalls and resumes: reconnecting in health, then streaming again by itself', async () => {
    const camera = await startMjpegCamera({ fps: 10 });
    const live = await startCameraService(camera.url);
    try {
      await until('streaming', async () => {
        const h = await health(live);
        return h.camera?.state === 'streaming' && h.frameRateHz > 0;
      }, 45_000);
      const stallMs = Date.now();
      camera.stall('all');
      await until('reconnecting in health', async () => (await health(live)).camera?.state === 'reconnecting', 45_000);
      const detectedMs = Date.now() - stallMs;
      camera.resume();
      const back = await until('streaming again, frames counted', async () => {
        const h = await health(live);
        return h.camera?.state === 'streaming' && h.status === 'ok' && h.frameRateHz > 0 ? h : null;
      }, 45_000);
      expect(back.warnings.some((w) => /camera|no frames/.test(w))).toBe(false);
      console.log(`service: MJPEG stall seen in health after ${detectedMs} ms; streaming and ok again ${Date.now() - stallMs} ms after the stall`);
    } finally {
      await live.stop();
      await camera.close();
    }
  });

  it("the game session's warnings (a save that failed): in health, degraded, even with no frame to carry them", async () => {
    const dataDir = join(dir.path, 'data-session');
    const live = await startCameraService(clip, dataDir);
    const gameFile = join(dataDir, 'game.json');
    try {
      // The recording ends: from then on only the watchdog publishes.
      await until('the camera to be ended', async () => (await health(live)).camera?.state === 'ended', 30_000);
      const before = existsSync(gameFile) ? readFileSync(gameFile, 'utf8') : null;
      rmSync(gameFile, { force: true });
      mkdirSync(join(gameFile, 'blocker'), { recursive: true }); // game.json can no longer be replaced
      expect(await act(live, { type: 'set-turn', turn: 7 })).toBe(500);
      const h = await until('the save warning in health', async () => {
        const x = await health(live);
        return x.warnings.some((w) => /could not save .*game\.json/.test(w)) ? x : null;
      }, 45_000);
      expect(h.status).toBe('degraded');
      // The folder goes: the next save works and the warning leaves health.
      rmSync(gameFile, { recursive: true });
      if (before !== null) writeFileSync(gameFile, before);
      expect(await act(live, { type: 'set-turn', turn: 7 })).toBe(200);
      await until('the warning gone', async () => !(await health(live)).warnings.some((w) => /could not save/.test(w)), 45_000);
    } finally {
      await live.stop();
    }
  });
});
