/**
 * `muster detect` end to end: a rendered frame written as PNG, the real CLI in a child process, the JSON
 * contract checked against the ground truth.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadTableProfile, parseTableProfile, tableProfileToJson } from '../../apps/vision/src/profile/tableProfile.ts';
import { cameraLookingDown, renderTableFrame, type FrameTruth } from '../../fixtures/generator/renderTableFrame.ts';
import { applyHomography } from '../../apps/vision/src/detect/homography.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'apps/vision/bin/muster.js');
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
