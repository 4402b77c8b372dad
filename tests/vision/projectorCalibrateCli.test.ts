/**
 * `muster calibrate projector` end to end: a rendered camera photo of the projected pattern written as
 * PNG, the real CLI in a child process; the saved file is validated and checked against the true map.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadTableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { applyHomography } from '@muster/table-mapping';
import { loadProjectorCalibration } from '../../apps/vision/src/calibrate/projectorCalibration.ts';
import { renderProjectedPattern, SKEWED_PROJECTOR_CORNERS_PX } from './renderProjectedPattern.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'apps/server/bin/muster.js');
const table = join(root, 'calibration/tables/default-72x48.json');
const dir = mkdtempSync(join(tmpdir(), 'muster-projector-cli-'));
const framePath = join(dir, 'pattern.png');
const plainPath = join(dir, 'plain.png');
let truth: readonly number[];

function muster(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  const profile = loadTableProfile(table);
  const scene = { profile, cameraWidthPx: 1280, cameraHeightPx: 720, projectorWidthPx: 1920, projectorHeightPx: 1080, tableCornersOnProjectorPx: SKEWED_PROJECTOR_CORNERS_PX };
  const r = await renderProjectedPattern(scene);
  truth = r.tableToProjector;
  await sharp(r.frame.data, { raw: { width: 1280, height: 720, channels: 1 } }).png().toFile(framePath);
  const plain = await renderProjectedPattern({ ...scene, project: false });
  await sharp(plain.frame.data, { raw: { width: 1280, height: 720, channels: 1 } }).png().toFile(plainPath);
});

describe('muster calibrate projector', () => {
  it('saves a valid calibration whose map is within 1 projector px of the truth', () => {
    const out = join(dir, 'out', 'projector.json');
    const r = muster('calibrate', 'projector', '--frame', framePath, '--table', table, '--projector-size', '1920x1080', '--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^saved .*projector\.json\n/);
    expect(r.stdout).toMatch(/tags +\d+ of 34 seen/);
    expect(r.stdout).toMatch(/residual +RMS \d\.\d\d px/);
    const cal = loadProjectorCalibration(out);
    expect(cal.projectorWidthPx).toBe(1920);
    expect(cal.camera.widthPx).toBe(1280);
    expect(Date.now() - Date.parse(cal.createdAt)).toBeLessThan(120_000);
    let worst = 0;
    for (const [x, y] of [[0, 0], [72, 0], [72, 48], [0, 48], [36, 24], [10, 40]] as const) {
      const a = applyHomography(cal.tableToProjector, x, y);
      const b = applyHomography(truth, x, y);
      worst = Math.max(worst, Math.hypot(a[0] - b[0], a[1] - b[1]));
    }
    expect(worst).toBeLessThan(1);
  });

  it('a bad table file: exit 2, one line naming the file and field', () => {
    const bad = join(dir, 'bad-table.json');
    writeFileSync(bad, JSON.stringify({ width: 72, height: 48, dictionary: 'DICT_4X4_50', markerSize: 0.5, anchors: [] }));
    const r = muster('calibrate', 'projector', '--frame', framePath, '--table', bad, '--out', join(dir, 'never.json'));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^muster calibrate: .*bad-table\.json: anchors/);
  });

  it('a photo without the pattern: exit 2, one clear line, and the previous calibration is kept', () => {
    const out = join(dir, 'kept.json');
    copyFileSync(join(dir, 'out', 'projector.json'), out);
    const before = readFileSync(out, 'utf8');
    const r = muster('calibrate', 'projector', '--frame', plainPath, '--table', table, '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/plain\.png: only 0 of the 34 projected tags were seen/);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('bad options: exit 2 with the reason', () => {
    expect(muster('calibrate', 'projector', '--frame', framePath, '--table', table, '--projector-size', '1920').stderr).toMatch(/--projector-size must be WIDTHxHEIGHT/);
    const missing = muster('calibrate', 'projector', '--table', table);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--frame is required/);
    const noImage = muster('calibrate', 'projector', '--frame', join(dir, 'nope.png'), '--table', table);
    expect(noImage.status).toBe(2);
    expect(noImage.stderr).toMatch(/cannot read image .*nope\.png/);
  });
});
