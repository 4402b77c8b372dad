/**
 * The demo from rendered frames: frames of the battle rendered by the project's generator, cached on disk
 * (rendered once, by a background process at low priority), replayed in a loop at `playFps` and handed
 * to the sink (detector → pipeline) one at a time. While the cache is still filling, the newest frame
 * rendered so far is replayed, so the battle advances at the renderer's pace during the first loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GrayFrame } from '../pipeline/types.ts';
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
  /** Render missing frames in the background (default true). */
  readonly render?: boolean;
  readonly onLog?: (line: string) => void;
}

export interface FramesSource {
  readonly spec: FrameCacheSpec;
  start(sink: (frame: GrayFrame) => void): void;
  cached(): number;
  stop(): Promise<void>;
}

export function createFramesSource(options: FramesSourceOptions): FramesSource {
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
