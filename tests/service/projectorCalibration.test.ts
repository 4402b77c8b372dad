/**
 * The service publishes the projector calibration: `--projector <file>` (camera mode) is checked, saved
 * in the data directory and served at `GET /api/projector`; a bad file stops the start and leaves the
 * saved one intact; later starts serve the saved one; the operator may replace it with `PUT
 * /api/projector` (validated, bad bodies change nothing). Real service on loopback, real files.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { REPO_ROOT } from '../../apps/server/src/compose/liveOptions.ts';
import { loadTableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { PROJECTOR_CALIBRATION_FORMAT, type ProjectorCalibrationJson } from '../../apps/vision/src/calibrate/projectorCalibration.ts';
import { cameraLookingDown, renderTableFrame } from '../../fixtures/generator/renderTableFrame.ts';
import { tempDir } from './helpers.ts';

const TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');
const ROSTER = join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml');
const dir = tempDir('muster-projector-service-');
const framesDir = join(dir.path, 'frames');
const goodPath = join(dir.path, 'projector.json');
const badPath = join(dir.path, 'bad-projector.json');

/** A calibration as `muster calibrate projector` writes it: table 72×48 in onto 1920×1080 px, 25 px/in, y up. */
const GOOD: ProjectorCalibrationJson = {
  format: PROJECTOR_CALIBRATION_FORMAT,
  version: 1,
  createdAt: '2026-11-22T08:00:00.000Z',
  projectorWidthPx: 1920,
  projectorHeightPx: 1080,
  tableWidthIn: 72,
  tableHeightIn: 48,
  tableToProjector: [25, 0, 60, 0, -20, 1020, 0, 0, 1],
  camera: { widthPx: 1280, heightPx: 720, projectorToCamera: [0.6, 0, 20, 0, 0.6, 10, 0, 0, 1], lens: null },
  pattern: { dictionary: 'DICT_APRILTAG_36h11', tagsShown: 34, tagsSeen: 30, cornersUsed: 120, cornersSeen: 120 },
  residuals: { rmsProjectorPx: 0.5, maxProjectorPx: 1.1, rmsTableIn: 0.02, maxTableIn: 0.05, anchorRmsIn: 0.03 },
};

beforeAll(async () => {
  const profile = loadTableProfile(TABLE);
  const { frame } = await renderTableFrame({ profile, tags: [] }, cameraLookingDown(profile, 960, 540), { seed: 1 });
  mkdirSync(framesDir, { recursive: true });
  await sharp(frame.data, { raw: { width: 960, height: 540, channels: 1 } }).png().toFile(join(framesDir, 'frame-0001.png'));
  writeFileSync(goodPath, JSON.stringify(GOOD, null, 2));
  writeFileSync(badPath, JSON.stringify({ ...GOOD, tableToProjector: [25, 0, 60, 0, 'x', 1020, 0, 0, 1] }));
});
afterAll(() => dir.remove());

const getProjector = async (url: string): Promise<unknown> => (await fetch(`${url}/api/projector`)).json();

describe('projector calibration in the service', () => {
  it('serves --projector, keeps the saved one when a bad file is given, and lets the operator replace it', async () => {
    const dataDir = join(dir.path, 'data');
    const saved = join(dataDir, 'projector.json');
    const camera = { mode: 'camera' as const, spec: framesDir, tablePath: TABLE, rosterPath: ROSTER };

    let live = await startLive({ source: { ...camera, projectorPath: goodPath }, dataDir, port: 0, operatorToken: 'operator-1' });
    try {
      expect(await getProjector(live.url)).toEqual(GOOD);
    } finally {
      await live.stop();
    }
    const savedText = readFileSync(saved, 'utf8');
    expect(JSON.parse(savedText)).toEqual(GOOD);

    // A bad file: one clear error naming the file and the field; the saved calibration is untouched.
    await expect(startLive({ source: { ...camera, projectorPath: badPath }, dataDir, port: 0 })).rejects.toThrow(
      /bad-projector\.json: tableToProjector\[4\] must be a finite number \(got "x"\)/,
    );
    await expect(startLive({ source: { ...camera, projectorPath: join(dir.path, 'missing.json') }, dataDir, port: 0 })).rejects.toThrow(
      /missing\.json: cannot read the projector calibration \(ENOENT\)/,
    );
    expect(readFileSync(saved, 'utf8')).toBe(savedText);

    // A later start without --projector serves the saved one.
    live = await startLive({ source: { mode: 'camera', spec: framesDir }, dataDir, port: 0, operatorToken: 'operator-1' });
    try {
      expect(await getProjector(live.url)).toEqual(GOOD);
      const put = (body: string, token?: string): Promise<Response> =>
        fetch(`${live.url}/api/projector`, { method: 'PUT', body, headers: token ? { authorization: `Bearer ${token}` } : {} });

      const moved = { ...GOOD, tableToProjector: [25, 0, 70, 0, -20, 1025, 0, 0, 1], createdAt: '2026-11-22T09:00:00.000Z' };
      expect((await put(JSON.stringify(moved))).status).toBe(401);
      expect((await put(JSON.stringify(moved), 'wrong-token')).status).toBe(403);
      const notJson = await put('{', 'operator-1');
      expect(notJson.status).toBe(400);
      const badField = await put(JSON.stringify({ ...moved, projectorWidthPx: -5 }), 'operator-1');
      expect(badField.status).toBe(400);
      expect(((await badField.json()) as { message: string }).message).toBe('request body: projectorWidthPx must be a positive whole number of pixels (got -5)');
      expect(readFileSync(saved, 'utf8')).toBe(savedText);
      expect(await getProjector(live.url)).toEqual(GOOD);

      const ok = await put(JSON.stringify(moved), 'operator-1');
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual(moved);
      expect(await getProjector(live.url)).toEqual(moved);
      expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual(moved);
    } finally {
      await live.stop();
    }
  });

  it('serves null without a calibration (the demo)', async () => {
    const live = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir: join(dir.path, 'demo-data'), port: 0 });
    try {
      expect(await getProjector(live.url)).toBeNull();
    } finally {
      await live.stop();
    }
  });
});
