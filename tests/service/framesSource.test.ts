import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEFAULT_DEMO_SCRIPT, DEFAULT_DEMO_TABLE, REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { loadDemoScript } from '../../apps/server/src/demo/demoScript.ts';
import { createFramesSource, type FramesSource, type FramesSourceOptions } from '../../apps/server/src/demo/framesSource.ts';
import { readFrame } from '../../apps/server/src/demo/frameCache.ts';
import type { GrayFrame } from '../../apps/vision/src/pipeline/types.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { tempDir } from './helpers.ts';

const rosterPath = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const dir = tempDir('muster-frames-source-');
let source: FramesSource | null = null;
afterEach(async () => {
  await source?.stop();
  source = null;
});
afterAll(() => dir.remove());

async function options(extra: Partial<FramesSourceOptions>): Promise<FramesSourceOptions> {
  const script = loadDemoScript(DEFAULT_DEMO_SCRIPT, await loadRoster(rosterPath));
  return { script, scriptPath: DEFAULT_DEMO_SCRIPT, rosterPath, tablePath: DEFAULT_DEMO_TABLE, dataDir: dir.path, widthPx: 1920, heightPx: 1080, ...extra };
}

function collect(s: FramesSource, count: number, timeoutMs: number): Promise<GrayFrame[]> {
  return new Promise((resolve, reject) => {
    const frames: GrayFrame[] = [];
    const timer = setTimeout(() => reject(new Error(`only ${frames.length} of ${count} frames in ${timeoutMs} ms`)), timeoutMs);
    s.start((f) => {
      if (frames.length < count) frames.push(f);
      if (frames.length === count) {
        clearTimeout(timer);
        resolve(frames);
      }
    });
  });
}

describe('demo frames source', () => {
  it('renders live by default at 1080p: frames at the play rate, no cache, the battle moving', async () => {
    // 20× speed: 5 s of battle between frames at 4 fps, so consecutive frames must differ.
    source = createFramesSource(await options({ playFps: 4, speed: 20 }));
    expect(source.mode).toBe('live');
    expect(source.cached()).toBe(source.spec.frames);
    const frames = await collect(source, 6, 30_000);
    expect(frames.map((f) => f.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const f of frames) expect(f).toMatchObject({ widthPx: 1920, heightPx: 1080 });
    expect(frames[0]!.data.length).toBe(1920 * 1080);
    expect(Buffer.compare(frames[1]!.data, frames[5]!.data)).not.toBe(0);
    // Paced: 5 intervals at 4 fps are scheduled 1.25 s apart; unpaced, 5 renders take ~0.1-0.2 s. Frames
    // are stamped after rendering, so the first (cold, slower) render eats into the span: allow 450 ms of it.
    expect(frames[5]!.captureTimeMs - frames[0]!.captureTimeMs).toBeGreaterThanOrEqual(800);
  }, 60_000);

  it('with live: false renders the loop into the cache in the background and replays it', async () => {
    // One frame per loop (battle time 0), rendered by the reference renderer in a child process.
    source = createFramesSource(await options({ live: false, cacheFps: 1 / 150, playFps: 5 }));
    expect(source.mode).toBe('cache');
    expect(source.spec.frames).toBe(1);
    const [first] = await collect(source, 1, 120_000);
    expect(source.cached()).toBe(1);
    expect(Buffer.compare(first!.data, readFrame(source.spec, 0, 0, 0).data)).toBe(0);
  }, 150_000);
});
