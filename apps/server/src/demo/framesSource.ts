/**
 * The demo from rendered frames: frames of the battle rendered by the project's generator, handed to the
 * sink (detector → pipeline) one at a time at `playFps`, the battle looping.
 *
 * Two ways to get the frames:
 * - `live` (default, 1080p and 4K): each frame is rendered when it is due, by the fast renderer
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
import type { GrayFrame } from '@muster/vision';
import type { DemoScript } from './demoScript.ts';
import { frameCacheDir, hasFrame, readFrame, type FrameCacheSpec } from './frameCache.ts';

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
      const tick = (): void => {
        if (stopped) return;
        if (newestCached >= 0) {
          const tS = (((Date.now() - t0) / 1000) * speed) % options.script.loopS;
          const k = Math.min(Math.floor(tS * cacheFps) % spec.frames, newestCached);
          try {
            // Stamped when the decoded frame is in hand, as a camera driver would deliver it.
            const frame = readFrame(spec, k, seq, 0);
            sink({ ...frame, seq: seq++, captureTimeMs: Date.now() });
          } catch (err) {
            log(`demo frame ${k}: ${(err as Error).message}`);
          }
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
 * Live mode: one fast renderer (static background rendered once), each frame rendered at the battle time
 * it is due. With `cacheFps` the battle time is stepped at that rate as in cache mode (tests use it to
 * hold one moment); without it the battle moves smoothly.
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
  return {
    mode: 'live',
    spec,
    // Nothing to wait for: every frame of the loop is available.
    cached: () => spec.frames,
    start(sink): void {
      void (async () => {
        // Loaded here so that `muster start` without frames does not load the generator.
        const [{ loadRoster }, { loadTableProfile }, { cameraLookingDown }, { createFastTableRenderer }, { DEMO_EFFECTS, demoTags }] = await Promise.all([
          import('../roster/loadRoster.ts'),
          import('@muster/vision'),
          import('../../../../fixtures/generator/renderTableFrame.ts'),
          import('../../../../fixtures/generator/fastTableRenderer.ts'),
          import('./demoFrames.ts'),
        ]);
        const roster = await loadRoster(options.rosterPath);
        const profile = loadTableProfile(options.tablePath);
        const renderer = await createFastTableRenderer(profile, cameraLookingDown(profile, options.widthPx, options.heightPx), {
          seed: 1000,
          ...DEMO_EFFECTS,
          // A little noise that changes every frame, like a camera's.
          frameNoiseSigma: 1,
        });
        if (stopped) return;
        const t0 = Date.now();
        let seq = 0;
        let next = t0;
        const tick = (): void => {
          if (stopped) return;
          let tS = (((Date.now() - t0) / 1000) * speed) % options.script.loopS;
          if (stepFps !== undefined) tS = Math.floor(tS * stepFps) / stepFps;
          try {
            const { frame } = renderer.render({ tags: demoTags(options.script, roster, tS) }, seq);
            // Stamped when the frame is in hand, as a camera driver would deliver it.
            sink({ ...frame, seq: seq++, captureTimeMs: Date.now() });
          } catch (err) {
            log(`demo frame at ${tS.toFixed(1)} s: ${(err as Error).message}`);
          }
          next += 1000 / playFps;
          const wait = next - Date.now();
          if (wait < -1000 / playFps) next = Date.now();
          timer = setTimeout(tick, Math.max(0, wait));
        };
        tick();
      })().catch((err: unknown) => log(`demo frames cannot be rendered: ${(err as Error).message}`));
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
