import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveState } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { REPO_ROOT, type RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { loadTableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { loadDemoScript } from '../../apps/server/src/demo/demoScript.ts';
import { truthDetection } from '../../apps/server/src/demo/truthSource.ts';
import { cameraLookingDown, renderTableFrame } from '../../fixtures/generator/renderTableFrame.ts';
import { tempDir } from './helpers.ts';
import { ensureViewsBuilt } from '../e2e/helpers/buildViews.ts';

const TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');
const ROSTER = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const dir = tempDir('muster-camera-');
const framesDir = join(dir.path, 'frames');
const dataDir = join(dir.path, 'data');

beforeAll(async () => {
  // One 1080p frame of the opening battle at t = 60 s, as a camera folder.
  const roster = await loadRoster(ROSTER);
  const script = loadDemoScript(join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json'), roster);
  const profile = loadTableProfile(TABLE);
  const tags = truthDetection(script, roster, 60, 0, 0).markers.map((m) => ({ id: m.id, xIn: m.xIn, yIn: m.yIn, headingDeg: m.headingDeg }));
  const { frame } = await renderTableFrame({ profile, tags }, cameraLookingDown(profile, 1920, 1080), { seed: 3, blurSigmaPx: 0.6, noiseSigma: 1.5 });
  mkdirSync(framesDir, { recursive: true });
  await sharp(frame.data, { raw: { width: frame.widthPx, height: frame.heightPx, channels: 1 } }).png().toFile(join(framesDir, 'frame-0001.png'));
});
afterAll(() => dir.remove());

async function stands(live: RunningLive, want: number): Promise<LiveState> {
  const deadline = Date.now() + 60_000;
  while (live.pipeline.state().tableState.stands.length < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return live.pipeline.state();
}

describe('camera mode (a folder of frames as the camera)', () => {
  it('detects the stands, saves roster and table profile, and a later start without them continues', async () => {
    let live = await startLive({ source: { mode: 'camera', spec: framesDir, tablePath: TABLE, rosterPath: ROSTER }, dataDir, port: 0, operatorToken: 'camera-token' });
    try {
      const state = await stands(live, 40);
      expect(state.tableState.stands).toHaveLength(40);
      expect(state.profile.source).toBe('camera');
    } finally {
      await live.stop();
    }
    // A broken roster on the command line is refused and does not replace the saved one.
    const broken = join(dir.path, 'broken.yaml');
    writeFileSync(broken, 'units: [ { id: x');
    await expect(startLive({ source: { mode: 'camera', spec: framesDir, rosterPath: broken }, dataDir, port: 0 })).rejects.toThrow(/broken\.yaml/);
    live = await startLive({ source: { mode: 'camera', spec: framesDir }, dataDir, port: 0, operatorToken: 'camera-token' });
    try {
      const state = await stands(live, 40);
      expect(state.tableState.stands).toHaveLength(40);
      expect(state.roster.name).toBe('Opening battle');
      const profile = (await (await fetch(`${live.url}/api/table-profile`)).json()) as { profile: { markerSize: number } };
      expect(profile.profile.markerSize).toBe(1);
      // Camera mode serves the same built views as the demo (it used to fall back to the "build the views" page).
      ensureViewsBuilt();
      const mapPage = await fetch(`${live.url}/map.html`);
      expect(mapPage.status).toBe(200);
      expect(await mapPage.text()).toContain('<title>Muster');
      // The folder held one frame: once it has run out, health says so instead of staying 'ok': the
      // camera ended at once, and after 3 s no frames came.
      const deadline = Date.now() + 10_000;
      type HealthJson = { status: string; warnings: string[]; camera?: { state: string } };
      let health = (await (await fetch(`${live.url}/api/health`)).json()) as HealthJson;
      while (!(health.status === 'degraded' && /no frames for \d+ s/.test(health.warnings.join(' '))) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        health = (await (await fetch(`${live.url}/api/health`)).json()) as HealthJson;
      }
      expect(health.status).toBe('degraded');
      expect(health.warnings.join(' ')).toMatch(/no frames for \d+ s/);
      expect(health.camera?.state).toBe('ended');
      expect(health.warnings.join(' ')).toMatch(/camera .*frames: ended \d+ s ago \(end of the recording\)/);
    } finally {
      await live.stop();
    }
  });

  it('refuses to start without a roster and table the first time', async () => {
    const empty = tempDir('muster-camera-empty-');
    try {
      await expect(startLive({ source: { mode: 'camera', spec: framesDir }, dataDir: empty.path, port: 0 })).rejects.toThrow(/--table and --roster/);
    } finally {
      empty.remove();
    }
  });
});
