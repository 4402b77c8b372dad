/**
 * Camera mode with a lens calibration (`npm start -- --camera … --lens lens.json`): frames from a camera
 * with strong barrel distortion are undistorted before their tags are mapped to the table, the lens is
 * saved in the data directory for later starts, and a bad lens file stops the start without touching it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { LENS_CALIBRATION_FORMAT, type LensCalibrationJson, type LensModel } from '../../apps/vision/src/calibrate/lensModel.ts';
import { DEFAULT_CHARUCO_BOARD } from '../../apps/vision/src/calibrate/charucoBoardSpec.ts';
import { pinholeCamera, renderTableFrame } from '../../fixtures/generator/renderTableFrame.ts';
import { tempDir } from './helpers.ts';

const TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');
const ROSTER = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const W = 1920;
const H = 1080;
const F = W / 2 / Math.tan((78 * Math.PI) / 360);
const LENS: LensModel = { imageWidthPx: W, imageHeightPx: H, fxPx: F, fyPx: F, cxPx: W / 2 + 4, cyPx: H / 2 - 3, k1: -0.22, k2: 0.07, p1: 0, p2: 0, k3: 0 };

const dir = tempDir('muster-camera-lens-');
const framesDir = join(dir.path, 'frames');
const lensPath = join(dir.path, 'lens.json');
let truthByMarker = new Map<number, { xIn: number; yIn: number }>();

function calibrationJson(l: LensModel): LensCalibrationJson {
  return {
    format: LENS_CALIBRATION_FORMAT,
    version: 1,
    createdAt: '2026-11-22T00:00:00Z',
    imageWidthPx: l.imageWidthPx,
    imageHeightPx: l.imageHeightPx,
    cameraMatrix: [l.fxPx, 0, l.cxPx, 0, l.fyPx, l.cyPx, 0, 0, 1],
    distortion: { k1: l.k1, k2: l.k2, p1: l.p1, p2: l.p2, k3: l.k3 },
    rmsReprojectionErrorPx: 0.1,
    images: [],
    board: DEFAULT_CHARUCO_BOARD,
  };
}

beforeAll(async () => {
  // One distorted 1080p frame of the opening battle at t = 60 s, as a camera folder.
  const roster = await loadRoster(ROSTER);
  const script = loadDemoScript(join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json'), roster);
  const profile = loadTableProfile(TABLE);
  const tags = truthDetection(script, roster, 60, 0, 0).markers.map((m) => ({ id: m.id, xIn: m.xIn, yIn: m.yIn, headingDeg: m.headingDeg }));
  truthByMarker = new Map(tags.map((t) => [t.id, { xIn: t.xIn, yIn: t.yIn }]));
  const camera = pinholeCamera(W, H, { centreIn: [36, -4, 50], lookAtIn: [36, 24, 0], lens: LENS });
  const { frame } = await renderTableFrame({ profile, tags }, camera, { seed: 5, blurSigmaPx: 0.6, noiseSigma: 1.5 });
  mkdirSync(framesDir, { recursive: true });
  await sharp(frame.data, { raw: { width: W, height: H, channels: 1 } }).png().toFile(join(framesDir, 'frame-0001.png'));
  writeFileSync(lensPath, JSON.stringify(calibrationJson(LENS)));
});
afterAll(() => dir.remove());

async function tracked(live: RunningLive, want: number): Promise<LiveState> {
  const deadline = Date.now() + 60_000;
  while (live.pipeline.state().tracks.filter((t) => t.standId !== null).length < want && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return live.pipeline.state();
}

/** Worst distance, inches, between each tracked stand tag and where the script put it. */
function worstErrorIn(state: LiveState): number {
  let worst = 0;
  for (const t of state.tracks) {
    const truth = truthByMarker.get(t.markerId);
    if (!truth || t.standId === null) continue;
    worst = Math.max(worst, Math.hypot(t.pose.xIn - truth.xIn, t.pose.yIn - truth.yIn));
  }
  return worst;
}

describe('camera mode with a lens calibration', () => {
  it('undistorts the camera frames, saves the lens, and refuses a bad lens file without losing it', async () => {
    const dataDir = join(dir.path, 'data');
    const source = { mode: 'camera' as const, spec: framesDir, tablePath: TABLE, rosterPath: ROSTER };

    let live = await startLive({ source: { ...source, lensPath }, dataDir, port: 0, operatorToken: 't' });
    let withLensErrorIn: number;
    try {
      const state = await tracked(live, 38);
      expect(state.tracks.filter((t) => t.standId !== null).length).toBeGreaterThanOrEqual(38);
      withLensErrorIn = worstErrorIn(state);
      expect(withLensErrorIn).toBeLessThan(0.05);
      const calibration = (await (await fetch(`${live.url}/api/calibration`)).json()) as { calibration: { format: string } | null };
      expect(JSON.stringify(calibration)).toContain(LENS_CALIBRATION_FORMAT);
    } finally {
      await live.stop();
    }

    // A file that is not a lens calibration stops the start and leaves the saved lens in place.
    const notLens = join(dir.path, 'not-a-lens.json');
    writeFileSync(notLens, readFileSync(TABLE, 'utf8'));
    await expect(startLive({ source: { ...source, lensPath: notLens }, dataDir, port: 0 })).rejects.toThrow(/not-a-lens\.json/);

    // A later start without --lens uses the saved one: same accuracy.
    live = await startLive({ source: { mode: 'camera', spec: framesDir }, dataDir, port: 0, operatorToken: 't' });
    try {
      const state = await tracked(live, 38);
      expect(worstErrorIn(state)).toBeLessThan(0.05);
    } finally {
      await live.stop();
    }

    // Without the lens (a fresh data directory), the same frame lands inches off at the edges: the lens
    // really is what makes the difference above.
    live = await startLive({ source, dataDir: join(dir.path, 'data-no-lens'), port: 0, operatorToken: 't' });
    try {
      const state = await tracked(live, 20);
      expect(worstErrorIn(state)).toBeGreaterThan(0.3);
    } finally {
      await live.stop();
    }
  });
});
