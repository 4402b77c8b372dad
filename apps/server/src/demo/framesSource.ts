/**
 * The demo from rendered frames: frames of the battle rendered by the project's generator, handed to the
 * sink (detector → pipeline) one at a time at `playFps`, the battle looping.
 *
 * Two ways to get the frames:
 * - `live` (default, 1080p and 4K): each frame is rendered when it is due, on a render thread, by the fast renderer
 *   (`fixtures/generator/fastTableRenderer.ts`; `npm run bench -- demoRender`: 16–20 ms per 1080p frame of
 *   the demo, 36–70 ms at 4K, after 1–2.5 s / 4–8 s to render the static background once), at the battle
 *   time of that moment. No cache, no wait.
 * - `cache` (`live: false`): rendered once with the reference renderer (`renderTableFrame`, 1–5 s per
 *   1080p frame) by a background process at low priority into `<data>/frame-cache/`, then replayed.
 *   While the cache is still filling, the newest frame rendered so far is replayed, so the battle
 *   advances at the renderer's pace during the first loop. Kept for frames the fast renderer does not
 *   model (lens distortion, JPEG) and for larger frames than 4K.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GrayFrame } from '@muster/vision';
import type { DemoScript } from './demoScript.ts';
import { frameCacheDir, hasFrame, readFrameAsync, type FrameCacheSpec } from './frameCache.ts';
import type { FromRenderWorker, RenderWorkerData, ToRenderWorker } from './renderWorkerMain.ts';

export interface FramesSourceOptions {
  readonly script: DemoScript;
  readonly scriptPath: string;
  readonly rosterPath: string;
  readonly tablePath: string;
  readonly dataDir: string;
  readonly widthPx: number;
  readonly heightPx: number;
  /** Frames per second of battle time in the cache. Default 2. */
  readonly cacheFps?: number;
  /** Frames handed to the sink per second. Default 5. */
  readonly playFps?: number;
  readonly speed?: number;
  /** Render missing frames in the background (default true; cache mode). */
  readonly render?: boolean;
  /** Render each frame live (default: up to 3840×2160) or replay the cache. */
  readonly live?: boolean;
  readonly onLog?: (line: string) => void;
}

export interface FramesSource {
  /** `live`: rendered as played; `cache`: replayed from `spec.dir`. */
  readonly mode: 'live' | 'cache';
  /** The loop's frames (live mode: `frames` is the loop at `cacheFps` when given, nothing on disk). */
  readonly spec: FrameCacheSpec;
  start(sink: (frame: GrayFrame) => void): void;
  cached(): number;
  stop(): Promise<void>;
}

/** Largest frame rendered live by default: 4K renders in 36–70 ms (wall, loaded machine), inside a 5 fps frame. */
const LIVE_MAX_PIXELS = 3840 * 2160;

export function createFramesSource(options: FramesSourceOptions): FramesSource {
  const live = options.live ?? options.widthPx * options.heightPx <= LIVE_MAX_PIXELS;
  if (live) return createLiveFramesSource(options);
  const cacheFps = options.cacheFps ?? 2;
  const playFps = options.playFps ?? 5;
  const speed = options.speed ?? 1;
  const hash = createHash('sha256');
  for (const f of [options.scriptPath, options.rosterPath, options.tablePath]) hash.update(readFileSync(f));
  const spec: FrameCacheSpec = {
    dir: frameCacheDir(options.dataDir, hash.digest('hex').slice(0, 12), options.widthPx, options.heightPx, cacheFps),
    widthPx: options.widthPx,
    heightPx: options.heightPx,
    fps: cacheFps,
    frames: Math.round(options.script.loopS * cacheFps),
  };
  let newestCached = -1;
  const refreshCached = (): void => {
    while (newestCached + 1 < spec.frames && hasFrame(spec, newestCached + 1)) newestCached++;
  };
  refreshCached();
  let child: ChildProcess | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const log = options.onLog ?? (() => {});

  function startRenderer(): void {
    if (newestCached + 1 >= spec.frames || options.render === false) return;
    const script = join(dirname(fileURLToPath(import.meta.url)), 'renderCache.ts');
    const tsx = import.meta.resolve('tsx');
    child = spawn(
      process.execPath,
      ['--import', tsx, script, options.scriptPath, options.rosterPath, options.tablePath, spec.dir, String(spec.widthPx), String(spec.heightPx), String(cacheFps)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, 15);
      } catch {
        // not permitted: it still works, just competes for the CPU
      }
    }
    log(`rendering ${spec.frames - newestCached - 1} demo frames (${spec.widthPx}×${spec.heightPx}) into ${spec.dir} in the background`);
    child.stdout?.on('data', () => refreshCached());
    child.on('exit', (code, signal) => {
      refreshCached();
      if (!stopped && code !== 0) log(`demo frame renderer stopped (${signal ?? code}); ${newestCached + 1}/${spec.frames} frames cached`);
      child = null;
    });
  }

  return {
    mode: 'cache',
    spec,
    cached: () => newestCached + 1,
    start(sink): void {
      startRenderer();
      const t0 = Date.now();
      let seq = 0;
      let next = t0;
      let reading = false;
      const tick = (): void => {
        if (stopped) return;
        // Read and inflated off the main thread; a tick while the last frame is still being read is skipped.
        if (newestCached >= 0 && !reading) {
          const tS = (((Date.now() - t0) / 1000) * speed) % options.script.loopS;
          const k = Math.min(Math.floor(tS * cacheFps) % spec.frames, newestCached);
          reading = true;
          readFrameAsync(spec, k, seq, 0).then(
            (frame) => {
              reading = false;
              // Stamped when the decoded frame is in hand, as a camera driver would deliver it.
              if (!stopped) sink({ ...frame, seq: seq++, captureTimeMs: Date.now() });
            },
            (err: unknown) => {
              reading = false;
              log(`demo frame ${k}: ${(err as Error).message}`);
            },
          );
        }
        next += 1000 / playFps;
        const wait = next - Date.now();
        if (wait < -1000 / playFps) next = Date.now();
        timer = setTimeout(tick, Math.max(0, wait));
      };
      timer = setTimeout(tick, 0);
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      const c = child;
      if (c && c.exitCode === null && c.signalCode === null) {
        await new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
          setTimeout(() => {
            c.kill('SIGKILL');
            resolve();
          }, 3000).unref();
        });
      }
    },
  };
}

/**
 * Live mode: one fast renderer (static background rendered once) on a render thread of its own
 * (`renderWorkerMain.ts`), each frame rendered at the battle time it is due. The main thread only asks
 * for a frame and hands the pixels on; a tick that comes while the last frame is still being rendered
 * is skipped (the renderer cannot keep up: newest wins, as with a camera). With `cacheFps` the battle time
 * is stepped at that rate as in cache mode (tests use it to hold one moment); without it the battle moves
 * smoothly.
 */
function createLiveFramesSource(options: FramesSourceOptions): FramesSource {
  const playFps = options.playFps ?? 5;
  const speed = options.speed ?? 1;
  const stepFps = options.cacheFps;
  const log = options.onLog ?? (() => {});
  const spec: FrameCacheSpec = {
    dir: '', // no cache folder
    widthPx: options.widthPx,
    heightPx: options.heightPx,
    fps: stepFps ?? playFps,
    frames: Math.max(1, Math.round(options.script.loopS * (stepFps ?? playFps))),
  };
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let worker: Worker | null = null;
  return {
    mode: 'live',
    spec,
    // Nothing to wait for: every frame of the loop is available.
    cached: () => spec.frames,
    start(sink): void {
      const workerData: RenderWorkerData = {
        scriptPath: options.scriptPath,
        rosterPath: options.rosterPath,
        tablePath: options.tablePath,
        widthPx: options.widthPx,
        heightPx: options.heightPx,
      };
      const w = new Worker(new URL('./renderWorker.mjs', import.meta.url), { workerData });
      worker = w;
      let rendering = false;
      let seq = 0;
      w.on('error', (err) => log(`demo frames cannot be rendered: ${err.message}`));
      w.on('message', (m: FromRenderWorker) => {
        if (stopped) return;
        if (m.type === 'ready') {
          startTicking();
          return;
        }
        rendering = false;
        if (m.type === 'failed') {
          log(`demo frame ${m.seq}: ${m.message}`);
          return;
        }
        // Stamped when the frame is in hand, as a camera driver would deliver it.
        sink({ widthPx: options.widthPx, heightPx: options.heightPx, data: new Uint8Array(m.data), seq: m.seq, captureTimeMs: Date.now() });
      });
      const startTicking = (): void => {
        const t0 = Date.now();
        let next = t0;
        const tick = (): void => {
          if (stopped) return;
          let tS = (((Date.now() - t0) / 1000) * speed) % options.script.loopS;
          if (stepFps !== undefined) tS = Math.floor(tS * stepFps) / stepFps;
          if (!rendering) {
            rendering = true;
            const request: ToRenderWorker = { type: 'render', seq: seq++, tS };
            w.postMessage(request);
          }
          next += 1000 / playFps;
          const wait = next - Date.now();
          if (wait < -1000 / playFps) next = Date.now();
          timer = setTimeout(tick, Math.max(0, wait));
        };
        tick();
      };
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await worker?.terminate();
      worker = null;
    },
  };
}
