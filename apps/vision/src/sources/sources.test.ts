import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrayFrame } from '../pipeline/types.ts';
import { createIpCameraSource, createVideoFileSource, createWebcamSource, FfmpegFrameSource, parseOutputStream } from './ffmpegSource.ts';
import type { FrameSource } from './frameSource.ts';
import { frameSourceKind, openFrameSource } from './openFrameSource.ts';
import { createFolderSource, createImageFileSource } from './stillImageSources.ts';
import { brightColumn, markedImage } from '../../../../fixtures/generator/markedImage.ts';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'muster-sources-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function take(source: FrameSource, n: number): Promise<GrayFrame[]> {
  const out: GrayFrame[] = [];
  for await (const f of source) {
    out.push(f);
    if (out.length === n) break;
  }
  return out;
}

describe('parseOutputStream', () => {
  it('reads size and rate from a complete output stream line only', () => {
    const head = "Output #0, rawvideo, to 'pipe:1':\n  Stream #0:0(und): Video: rawvideo (Y800 / 0x30303859), gray(pc, progressive), 64x48 [SAR 1:1 DAR 4:3]";
    expect(parseOutputStream(head)).toBeNull();
    expect(parseOutputStream(`${head}, q=2-31, 491 kb/s, 20 fps, 20 tbn (default)\n`)).toEqual({ widthPx: 64, heightPx: 48, fps: 20 });
  });
});

describe('folder and image sources', () => {
  it('plays a folder in numeric name order at the given rate', async () => {
    const folder = join(dir, 'frames');
    await mkdir(folder);
    // Written out of order, with a number that sorts wrongly as text (10 < 2) and a non-image file.
    for (const k of [2, 0, 10]) await writeFile(join(folder, `frame${k}.png`), await markedImage(k === 10 ? 5 : k, 'png'));
    await writeFile(join(folder, 'notes.txt'), 'not a frame');
    const frames: GrayFrame[] = [];
    for await (const f of createFolderSource(folder, { fps: 10 })) frames.push(f);
    expect(frames.map((f) => [f.seq, f.captureTimeMs, f.widthPx, f.heightPx])).toEqual([
      [0, 0, 64, 48], [1, 100, 64, 48], [2, 200, 64, 48],
    ]);
    expect(frames.map(brightColumn)).toEqual([6.5, 22.5, 46.5]);
  });

  it('reads one image file', async () => {
    const path = join(dir, 'one.jpg');
    await writeFile(path, await markedImage(3, 'jpeg'));
    const frames = await take(createImageFileSource(path), 5);
    expect(frames).toHaveLength(1);
    expect(brightColumn(frames[0]!)).toBeCloseTo(30.5, 0);
  });

  it('names what is wrong with a bad folder or image', async () => {
    await mkdir(join(dir, 'empty'));
    await expect(take(createFolderSource(join(dir, 'empty')), 1)).rejects.toThrow(/empty: no image files/);
    await expect(take(createFolderSource(join(dir, 'missing')), 1)).rejects.toThrow(/missing: cannot read the folder of frames \(ENOENT\)/);
    await writeFile(join(dir, 'broken.png'), 'not a png');
    await expect(take(createImageFileSource(join(dir, 'broken.png')), 1)).rejects.toThrow(/broken\.png: cannot decode the image/);
    expect(() => createFolderSource(dir, { fps: 0 })).toThrow(/fps must be a number > 0/);
  });
});

describe('ffmpeg sources', () => {
  it('decodes every frame of a video file, stamped by its frame rate', async () => {
    const path = join(dir, 'clip.mp4');
    // 12 frames at 12 fps of ffmpeg's test pattern, which scrolls, so consecutive frames differ.
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=96x64:rate=12', '-frames:v', '12', '-pix_fmt', 'yuv420p', path]);
    const frames: GrayFrame[] = [];
    const source = createVideoFileSource(path);
    let closed = false;
    source.on('close', () => (closed = true));
    for await (const f of source) frames.push(f);
    expect(frames).toHaveLength(12);
    expect(frames.every((f) => f.widthPx === 96 && f.heightPx === 64 && f.data.length === 96 * 64)).toBe(true);
    expect(frames.map((f) => f.seq)).toEqual([...Array(12).keys()]);
    expect(frames[3]!.captureTimeMs).toBeCloseTo(250, 6);
    expect(Buffer.from(frames[0]!.data).equals(Buffer.from(frames[11]!.data))).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(true);

    const scaled = await take(createVideoFileSource(path, { widthPx: 48, heightPx: 32 }), 2);
    expect(scaled.map((f) => [f.widthPx, f.heightPx, f.data.length])).toEqual([[48, 32, 1536], [48, 32, 1536]]);
  });

  it('loops a video at its own speed when asked', async () => {
    const path = join(dir, 'short.mp4');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=20', '-frames:v', '4', '-pix_fmt', 'yuv420p', path]);
    const start = Date.now();
    const frames = await take(createVideoFileSource(path, { loop: true, realtime: true }), 10);
    const elapsedMs = Date.now() - start;
    expect(frames.map((f) => f.seq)).toEqual([...Array(10).keys()]);
    // Ten frames from a four-frame clip: it looped; stamps keep rising across the loop.
    expect(frames[9]!.captureTimeMs).toBeCloseTo(450, 6);
    expect(Buffer.from(frames[0]!.data).equals(Buffer.from(frames[4]!.data))).toBe(true);
    // At 20 fps, ten frames cannot arrive before ~9 frame times have passed (loose: only a lower bound).
    expect(elapsedMs).toBeGreaterThanOrEqual(350);
  });

  it('says clearly when ffmpeg is missing or the file is bad', async () => {
    await expect(take(createVideoFileSource(join(dir, 'clip.mp4'), { ffmpegPath: join(dir, 'no-ffmpeg') }), 1)).rejects.toThrow(
      /ffmpeg not found .*sudo apt install ffmpeg/,
    );
    await writeFile(join(dir, 'bad.mp4'), 'not a video');
    await expect(take(createVideoFileSource(join(dir, 'bad.mp4')), 1)).rejects.toThrow(/bad\.mp4: ffmpeg exited with code \d+: .*Invalid data/);
  });

  it('reopens a live source whose ffmpeg is killed', async () => {
    const source = new FfmpegFrameSource({
      inputArgs: ['-re', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=25'],
      description: 'live test pattern',
      live: true,
      backoff: { initialMs: 50, maxMs: 200 },
    });
    const errors: string[] = [];
    const reopens: number[] = [];
    source.on('error', (e) => errors.push(e.message));
    source.on('reopen', (attempt) => reopens.push(attempt));
    const seqs: number[] = [];
    let firstPid: number | undefined;
    for await (const f of source) {
      seqs.push(f.seq);
      if (seqs.length === 3) {
        firstPid = source.pid;
        process.kill(firstPid!, 'SIGKILL');
      }
      if (seqs.length === 8) break;
    }
    expect(errors.join('\n')).toMatch(/live test pattern: ffmpeg was killed \(SIGKILL\)/);
    expect(reopens).toEqual([1]);
    expect(source.opens).toBe(2);
    // Sequence numbers keep counting across the reopen.
    expect(seqs.slice(1).every((s, i) => s > seqs[i]!)).toBe(true);
    expect(source.pid).toBeUndefined(); // closed by the loop's break
  });
});

describe('USB webcam', () => {
  it('keeps retrying, with growing waits, a camera that is not plugged in', async () => {
    const source = createWebcamSource('/dev/video97', { widthPx: 640, heightPx: 480, fps: 30, backoff: { initialMs: 20, maxMs: 80 } });
    const errors: string[] = [];
    const delays: number[] = [];
    source.on('error', (e) => errors.push(e.message));
    source.on('reopen', (_attempt, delayMs) => delays.push(delayMs));
    while (delays.length < 4) await new Promise((r) => setTimeout(r, 20));
    await source.close();
    expect(errors[0]).toMatch(/^\/dev\/video97: ffmpeg exited with code \d+: .*video97/);
    expect(delays.slice(0, 4)).toEqual([20, 40, 80, 80]);
    expect(source.opens).toBeGreaterThanOrEqual(4);
    expect(await take(source, 1)).toEqual([]); // closed: the iterator is done
  });
});

describe('stall watchdog (live ffmpeg sources)', () => {
  /** A stand-in for ffmpeg: describes a 16×16 gray output, writes `frames` frames, then hangs. */
  async function hangingFfmpeg(name: string, frames: number): Promise<string> {
    const path = join(dir, name);
    await writeFile(
      path,
      '#!/bin/sh\n' +
        `printf "Output #0, rawvideo, to 'pipe:1':\\n  Stream #0:0: Video: rawvideo (Y800 / 0x30303859), gray, 16x16, q=2-31, 25 fps, 25 tbn\\n" >&2\n` +
        (frames > 0 ? `head -c ${frames * 256} /dev/zero\n` : '') +
        'exec sleep 30\n',
      { mode: 0o755 },
    );
    return path;
  }

  it('kills and reopens an ffmpeg whose frames stop (a hung driver), saying so in its status', async () => {
    const source = createWebcamSource('/dev/video0', { ffmpegPath: await hangingFfmpeg('stalls.sh', 2), stallTimeoutMs: 400, backoff: { initialMs: 50, maxMs: 100 } });
    const errors: string[] = [];
    const states: string[] = [];
    source.on('error', (e) => errors.push(e.message));
    source.on('status', (s) => {
      if (states[states.length - 1] !== s.state) states.push(s.state); // a new detail in the same state is emitted too
    });
    const frames = await take(source, 4); // two per open: only a reopen gives the last two
    await source.close();
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3]);
    expect(errors[0]).toMatch(/^\/dev\/video0: stalled: no frame data for \d+ ms; ffmpeg restarted$/);
    expect(source.opens).toBeGreaterThanOrEqual(2);
    expect(states.slice(0, 3)).toEqual(['streaming', 'reconnecting', 'streaming']);
    expect(source.status()).toMatchObject({ state: 'ended', detail: 'closed' });
  });

  it('kills and reopens an ffmpeg that never gives a first frame', async () => {
    const source = createWebcamSource('/dev/video0', { ffmpegPath: await hangingFfmpeg('silent.sh', 0), openTimeoutMs: 300, backoff: { initialMs: 50, maxMs: 100 } });
    const reopens: number[] = [];
    source.on('reopen', (attempt) => reopens.push(attempt));
    source.on('error', () => {});
    expect(source.status()).toMatchObject({ state: 'connecting', attempt: 0 });
    while (reopens.length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(source.status()).toMatchObject({ state: 'reconnecting', lastError: 'no frame within 300 ms of opening; ffmpeg restarted' });
    await source.close();
    expect(reopens.slice(0, 2)).toEqual([1, 2]);
  });

  it('never watches a recording (its reader may be paused for as long as the consumer likes)', async () => {
    const source = new FfmpegFrameSource({ inputArgs: ['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=25', '-frames:v', '30'], description: 'paused recording', live: false, stallTimeoutMs: 200 });
    const first = await take(source, 1).catch(() => []);
    expect(first).toHaveLength(1);
    expect(source.opens).toBe(1);
  });
});

describe('MJPEG over HTTP', () => {
  let server: Server;
  let url: string;
  let connections = 0;
  const live = new Set<ServerResponse>();

  beforeAll(async () => {
    const jpegs = await Promise.all([0, 1, 2, 3].map((k) => markedImage(k, 'jpeg')));
    server = createServer((req, res) => {
      connections += 1;
      const boundary = 'musterframe';
      res.writeHead(200, { 'Content-Type': `multipart/x-mixed-replace; boundary=${boundary}` });
      live.add(res);
      let k = 0;
      const timer = setInterval(() => {
        const jpeg = jpegs[k++ % jpegs.length]!;
        res.write(`--${boundary}\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`);
        res.write(jpeg);
        res.write('\r\n');
      }, 40);
      res.on('close', () => {
        clearInterval(timer);
        live.delete(res);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream.mjpg`;
  });
  afterAll(async () => {
    for (const res of live) res.destroy();
    await new Promise((r) => server.close(r));
  });

  it('reads frames from a real loopback MJPEG server and reconnects when the stream drops', async () => {
    const source = createIpCameraSource(url, { backoff: { initialMs: 50, maxMs: 200 } });
    const errors: string[] = [];
    source.on('error', (e) => errors.push(e.message));
    const frames: GrayFrame[] = [];
    for await (const f of source) {
      frames.push(f);
      if (frames.length === 4) for (const res of live) res.destroy(); // the camera drops the connection
      if (frames.length === 8) break;
    }
    expect(frames.every((f) => f.widthPx === 64 && f.heightPx === 48)).toBe(true);
    const cols = frames.map(brightColumn);
    // Each frame is one of the four served images (bright square at 6.5, 14.5, 22.5 or 30.5).
    for (const c of cols) expect([6.5, 14.5, 22.5, 30.5].some((x) => Math.abs(c - x) < 1.5)).toBe(true);
    expect(new Set(cols.map(Math.round)).size).toBeGreaterThan(1);
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(source.opens).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBeGreaterThanOrEqual(1);
  });

  it('rejects a URL it cannot use', () => {
    expect(() => createIpCameraSource('ftp://camera/stream')).toThrow(/starts with rtsp:\/\/, rtsps:\/\/, http:\/\/ or https:\/\//);
  });
});

describe('openFrameSource', () => {
  it('picks the source from the spec', async () => {
    expect(await frameSourceKind(join(dir, 'frames'))).toBe('folder');
    expect(await frameSourceKind(join(dir, 'one.jpg'))).toBe('image');
    expect(await frameSourceKind(join(dir, 'clip.mp4'))).toBe('video');
    expect(await frameSourceKind('/dev/video0')).toBe('webcam');
    expect(await frameSourceKind('rtsp://10.0.0.2/stream')).toBe('ip-camera');
    await expect(frameSourceKind(join(dir, 'nothing-here'))).rejects.toThrow(/no such file, folder or device \(ENOENT\)/);
    const frames = await take(await openFrameSource(join(dir, 'frames'), { fps: 5 }), 3);
    expect(frames.map((f) => f.captureTimeMs)).toEqual([0, 200, 400]);
  });
});
