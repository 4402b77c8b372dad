/**
 * `muster detect` end to end: a rendered frame written as PNG, the real CLI in a child process, the JSON
 * contract checked against the ground truth.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadTableProfile, parseTableProfile, tableProfileToJson } from '../../apps/vision/src/profile/tableProfile.ts';
import { cameraLookingDown, pinholeCamera, renderTableFrame, type FrameTruth } from '../../fixtures/generator/renderTableFrame.ts';
import { LENS_CALIBRATION_FORMAT, type LensCalibrationJson, type LensModel } from '../../apps/vision/src/calibrate/lensModel.ts';
import { DEFAULT_CHARUCO_BOARD } from '../../apps/vision/src/calibrate/charucoBoardSpec.ts';
import { applyHomography } from '@muster/table-mapping';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'apps/server/bin/muster.js');
const dir = mkdtempSync(join(tmpdir(), 'muster-detect-'));
const tablePath = join(dir, 'table.json');
const imagePath = join(dir, 'frame.png');

function muster(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('muster detect', () => {
  let truth: FrameTruth;
  beforeAll(async () => {
    const base = loadTableProfile(join(root, 'calibration/tables/default-72x48.json'));
    const json = { ...tableProfileToJson(base), markerSize: 1 };
    writeFileSync(tablePath, JSON.stringify(json));
    const profile = parseTableProfile(json, tablePath);
    const tags = [
      { id: 17, xIn: 12.34, yIn: 20.1, headingDeg: 90 },
      { id: 5, xIn: 50, yIn: 30, headingDeg: 225 },
    ];
    const r = await renderTableFrame({ profile, tags }, cameraLookingDown(profile, 1920, 1080), { seed: 4, blurSigmaPx: 0.6, noiseSigma: 2 });
    truth = r.truth;
    await sharp(r.frame.data, { raw: { width: 1920, height: 1080, channels: 1 } }).png().toFile(imagePath);
  });

  it('--json prints one object: anchors, image→table homography, markers in inches with image corners', () => {
    const r = muster('detect', imagePath, '--table', tablePath, '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as {
      anchors: number[];
      homography: number[];
      markers: { id: number; x: number; y: number; heading: number; corners: number[][] }[];
    };
    expect(out.anchors).toEqual([0, 1, 2, 3]);
    expect(out.homography).toHaveLength(9);
    expect(out.markers.map((m) => m.id)).toEqual([5, 17]);
    const m17 = out.markers[1]!;
    expect(Math.hypot(m17.x - 12.34, m17.y - 20.1)).toBeLessThan(0.03);
    // One tag's heading (the 1° bound is on the RMS over many tags, see the detector tests).
    expect(Math.abs(m17.heading - 90)).toBeLessThan(2);
    expect(Math.abs(out.markers[0]!.heading - 225)).toBeLessThan(2);
    // The homography maps the reported image corners to the tag's corners on the table.
    const t17 = truth.tags.find((t) => t.id === 17)!;
    m17.corners.forEach(([u, v], k) => {
      const [x, y] = applyHomography(out.homography, u!, v!);
      const [tx, ty] = applyHomography(truth.imageToTable, t17.cornersPx[k]!.uPx, t17.cornersPx[k]!.vPx);
      expect(Math.hypot(x - tx, y - ty)).toBeLessThan(0.06);
    });
  });

  it('without --json prints a readable table', () => {
    const r = muster('detect', imagePath, '--table', tablePath);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/2 stand tag\(s\), anchors 0, 1, 2, 3/);
    const row = r.stdout.split('\n').find((l) => /^\s+17\s/.test(l));
    const [, x, y, heading] = (row ?? '').trim().split(/\s+/).map(Number);
    expect(Math.abs(x! - 12.34)).toBeLessThan(0.03);
    expect(Math.abs(y! - 20.1)).toBeLessThan(0.03);
    expect(Math.abs(heading! - 90)).toBeLessThan(2);
  });

  it('a bad image or profile is one line on stderr and exit code 2', () => {
    const notImage = join(dir, 'notes.png');
    writeFileSync(notImage, 'not a png');
    const badTable = join(dir, 'bad.json');
    writeFileSync(badTable, JSON.stringify({ width: 72, height: 48, dictionary: 'DICT_4X4_50', markerSize: 0.5, anchors: [] }));
    for (const [args, message] of [
      [[notImage, '--table', tablePath], /notes\.png: cannot read as an image/],
      [[join(dir, 'missing.png'), '--table', tablePath], /missing\.png: no such image file/],
      [[imagePath, '--table', badTable], /bad\.json: anchors must be a list of at least 4 tags/],
      [[imagePath, '--table', join(dir, 'nope.json')], /nope\.json: cannot read the table profile/],
    ] as const) {
      const r = muster('detect', ...args);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('muster detect --lens', () => {
  const W = 1920;
  const H = 1080;
  const F = W / 2 / Math.tan((78 * Math.PI) / 360);
  const lens: LensModel = { imageWidthPx: W, imageHeightPx: H, fxPx: F, fyPx: F, cxPx: W / 2 + 4, cyPx: H / 2 - 3, k1: -0.22, k2: 0.07, p1: 0, p2: 0, k3: 0 };
  const lensPath = join(dir, 'lens.json');
  const wrongLensPath = join(dir, 'lens-720p.json');
  const distortedPath = join(dir, 'distorted.png');
  const calibration = (l: LensModel): LensCalibrationJson => ({
    format: LENS_CALIBRATION_FORMAT, version: 1, createdAt: '2026-11-22T00:00:00Z', imageWidthPx: l.imageWidthPx, imageHeightPx: l.imageHeightPx,
    cameraMatrix: [l.fxPx, 0, l.cxPx, 0, l.fyPx, l.cyPx, 0, 0, 1], distortion: { k1: l.k1, k2: l.k2, p1: l.p1, p2: l.p2, k3: l.k3 },
    rmsReprojectionErrorPx: 0.1, images: [], board: DEFAULT_CHARUCO_BOARD,
  });
  const tags = [
    { id: 8, xIn: 5, yIn: 24, headingDeg: 30 },
    { id: 9, xIn: 66, yIn: 42, headingDeg: 300 },
  ];
  beforeAll(async () => {
    const profile = parseTableProfile(JSON.parse(readFileSync(tablePath, 'utf8')), tablePath);
    const r = await renderTableFrame({ profile, tags }, pinholeCamera(W, H, { centreIn: [35, 6, 56], lookAtIn: [35, 22, 0], lens }), { seed: 8, blurSigmaPx: 0.6, noiseSigma: 2 });
    await sharp(r.frame.data, { raw: { width: W, height: H, channels: 1 } }).png().toFile(distortedPath);
    writeFileSync(lensPath, JSON.stringify(calibration(lens)));
    writeFileSync(wrongLensPath, JSON.stringify(calibration({ ...lens, imageWidthPx: 1280, imageHeightPx: 720 })));
  });

  it('undistorts: positions within 0.03 in with --lens, far off without', () => {
    const error = (args: string[]): number => {
      const r = muster('detect', distortedPath, '--table', tablePath, ...args, '--json');
      // The far side of this tilted view is at the edge of the reliable tag size (16 px): that warning may show.
      expect(r.stderr.split('\n').filter((l) => l !== '' && !/stand tags \(1"\) are \d+–\d+ px across/.test(l))).toEqual([]);
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout) as { markers: { id: number; x: number; y: number }[] };
      expect(out.markers.map((m) => m.id)).toEqual([8, 9]);
      return Math.max(...out.markers.map((m) => { const t = tags.find((s) => s.id === m.id)!; return Math.hypot(m.x - t.xIn, m.y - t.yIn); }));
    };
    expect(error(['--lens', lensPath])).toBeLessThan(0.03);
    expect(error([])).toBeGreaterThan(0.2);
  });

  it('a lens file for another resolution, or not a lens file: one line on stderr, exit code 2', () => {
    for (const [file, message] of [
      [wrongLensPath, /distorted\.png is 1920×1080 px but .*lens-720p\.json is a calibration for 1280×720/],
      [tablePath, /table\.json: lens calibration: "format" must be/],
    ] as const) {
      const r = muster('detect', distortedPath, '--table', tablePath, '--lens', file);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  });

  it('muster track --lens undistorts a recording the same way (within 0.03 in; far off without)', () => {
    const frames = join(dir, 'recording');
    mkdirSync(frames, { recursive: true });
    for (let i = 0; i < 3; i++) copyFileSync(distortedPath, join(frames, `frame-${i}.png`));
    const worst = (args: string[]): number => {
      const r = muster('track', frames, '--table', tablePath, ...args, '--json');
      expect(r.status).toBe(0);
      const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { markers?: { id: number; x: number; y: number }[] });
      const perFrame = lines.filter((l) => l.markers !== undefined);
      expect(perFrame).toHaveLength(3);
      const last = perFrame[2]!.markers!;
      expect(last.map((m) => m.id).sort()).toEqual([8, 9]);
      return Math.max(...last.map((m) => { const t = tags.find((s) => s.id === m.id)!; return Math.hypot(m.x - t.xIn, m.y - t.yIn); }));
    };
    expect(worst(['--lens', lensPath])).toBeLessThan(0.03);
    expect(worst([])).toBeGreaterThan(0.2);
    const wrong = muster('track', frames, '--table', tablePath, '--lens', wrongLensPath);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/lens calibration is for 1280×720/);
  });
});
