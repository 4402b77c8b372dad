/**
 * Rendering the demo's frames live (`fixtures/generator/fastTableRenderer.ts`), as `npm start` does:
 * - the demo battle (its stands and chips at 8 battle times through the loop) at 1080p and 4K with the
 *   demo's effects, and 60 scattered stands at 1080p (the brief's target: ≤ 30 ms per 1080p frame);
 * - the one-off cost of creating the renderer (static background);
 * - the reference renderer (`renderTableFrame`) on one demo frame, for scale.
 * Medians (and p95) over repeated renders, wall-clock and process CPU, in milliseconds.
 */
import { join } from 'node:path';
import { DEFAULT_DEMO_SCRIPT, DEFAULT_DEMO_TABLE, REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { loadDemoScript } from '../../apps/server/src/demo/demoScript.ts';
import { DEMO_EFFECTS, demoTags, type DemoTag } from '../../apps/server/src/demo/demoFrames.ts';
import { loadTableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { createFastTableRenderer } from '../../fixtures/generator/fastTableRenderer.ts';
import { cameraLookingDown, renderTableFrame, scatterStands } from '../../fixtures/generator/renderTableFrame.ts';
import { median, percentile, round } from './stats.ts';

const FRAMES = 40;

async function timeLive(widthPx: number, heightPx: number, scenes: readonly (readonly DemoTag[])[], frameNoise: number): Promise<Record<string, unknown>> {
  const profile = loadTableProfile(DEFAULT_DEMO_TABLE);
  const camera = cameraLookingDown(profile, widthPx, heightPx);
  const t0 = performance.now();
  const renderer = await createFastTableRenderer(profile, camera, { seed: 1000, ...DEMO_EFFECTS, frameNoiseSigma: frameNoise });
  const createMs = performance.now() - t0;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let k = -5; k < FRAMES; k++) {
    const tags = scenes[((k % scenes.length) + scenes.length) % scenes.length]!;
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    renderer.render({ tags }, k);
    const w = performance.now() - w0;
    const c = process.cpuUsage(c0);
    if (k < 0) continue; // warm-up
    wall.push(w);
    cpu.push((c.user + c.system) / 1000);
  }
  return {
    size: `${widthPx}x${heightPx}`,
    stands: round(median(scenes.map((s) => s.length)), 0),
    frameNoiseSigma: frameNoise,
    createMs: round(createMs, 0),
    wallMedianMs: round(median(wall), 1),
    wallP95Ms: round(percentile(wall, 95), 1),
    cpuMedianMs: round(median(cpu), 1),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const roster = await loadRoster(join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml'));
  const script = loadDemoScript(DEFAULT_DEMO_SCRIPT, roster);
  const demo = Array.from({ length: 8 }, (_, k) => demoTags(script, roster, (k * script.loopS) / 8));
  const profile = loadTableProfile(DEFAULT_DEMO_TABLE);
  const sixty = [scatterStands(profile, 60, 5), scatterStands(profile, 60, 6)];
  const out: Record<string, unknown> = {
    demo1080p: await timeLive(1920, 1080, demo, 1),
    sixty1080p: await timeLive(1920, 1080, sixty, 1),
    sixty1080pNoFrameNoise: await timeLive(1920, 1080, sixty, 0),
    demo4k: await timeLive(3840, 2160, demo, 1),
  };
  const w0 = performance.now();
  await renderTableFrame({ profile, tags: demo[3]! }, cameraLookingDown(profile, 1920, 1080), { seed: 1000, ...DEMO_EFFECTS });
  out['reference1080pOneFrameMs'] = round(performance.now() - w0, 0);
  return out;
}
