import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calibrateLens, CalibrationInputError, type CalibrationView } from '../../apps/vision/src/calibrate/calibrateLens.ts';
import { DEFAULT_CHARUCO_BOARD as board } from '../../apps/vision/src/calibrate/charucoBoardSpec.ts';
import { loadCv, type Cv } from '../../apps/vision/src/cv/loadCv.ts';
import { createCharucoCornerDetector } from '../../apps/vision/src/calibrate/detectCharucoCorners.ts';
import { loadGrayImage } from '../../apps/vision/src/calibrate/loadGrayImage.ts';
import { LENS_CALIBRATION_FORMAT, parseLensCalibration, type LensModel } from '../../apps/vision/src/calibrate/lensModel.ts';
import { charucoCornerMm } from '../../apps/vision/src/calibrate/charucoBoardSpec.ts';
import { run as runCalibrate } from '../../apps/server/src/cli/commands/calibrate.ts';
import { poseAbout, renderPlanarView, rotationXYZ, type SheetTexture } from './renderPlanarView.ts';

// A deliberately off-centre, non-square camera with clear barrel distortion.
const trueLens: LensModel = {
  imageWidthPx: 800,
  imageHeightPx: 600,
  fxPx: 690,
  fyPx: 684,
  cxPx: 393,
  cyPx: 311,
  k1: -0.2,
  k2: 0.06,
  p1: 0.0007,
  p2: -0.0005,
  k3: 0,
};

// Tilts (deg about x, y, z) and where the board centre sits in the camera frame (mm): spread over the
// image so the outer, most distorted parts are covered.
const poses: [number, number, number, number, number, number][] = [
  [0, 0, 0, 0, 0, 420],
  [25, 0, 5, -60, -40, 430],
  [-25, 10, -5, 60, 40, 440],
  [0, 30, 90, -90, 30, 450],
  [10, -30, 90, 90, -30, 450],
  [-20, -20, 15, -80, 60, 470],
  [20, 20, -15, 80, -60, 470],
  [30, 15, 0, 0, 70, 460],
  [-15, 30, 180, 0, -70, 460],
];

const imageSize = { widthPx: trueLens.imageWidthPx, heightPx: trueLens.imageHeightPx };
let cv: Cv;
let views: CalibrationView[];
let imageDir: string;

beforeAll(async () => {
  cv = await loadCv();
  const texelsPerMm = 4;
  const widthPx = board.squaresX * board.squareLengthMm * texelsPerMm;
  const heightPx = board.squaresY * board.squareLengthMm * texelsPerMm;
  const dict = cv.getPredefinedDictionary(cv[board.dictionary]);
  const ids = new cv.Mat();
  const cvBoard = new cv.aruco_CharucoBoard(new cv.Size(board.squaresX, board.squaresY), board.squareLengthMm, board.markerLengthMm, dict, ids);
  const img = new cv.Mat();
  cvBoard.generateImage(new cv.Size(widthPx, heightPx), img, 0, 1);
  const tex: SheetTexture = { widthPx, heightPx, data: Uint8Array.from(img.data as Uint8Array), texelsPerMm, paperMarginMm: 12 };
  for (const m of [img, cvBoard, ids, dict]) m.delete();

  const centre: [number, number] = [(board.squaresX * board.squareLengthMm) / 2, (board.squaresY * board.squareLengthMm) / 2];
  const detector = createCharucoCornerDetector(cv, board);
  imageDir = mkdtempSync(join(tmpdir(), 'muster-lens-'));
  views = [];
  for (const [i, [a, b, c, x, y, z]] of poses.entries()) {
    const image = renderPlanarView(tex, poseAbout(rotationXYZ(a, b, c), centre, [x, y, z]), trueLens);
    const found = detector.detect(image);
    views.push({ label: `view${i}`, ids: found.ids, cornersPx: found.cornersPx });
    await sharp(Buffer.from(image.data), { raw: { width: image.widthPx, height: image.heightPx, channels: 1 } })
      .png()
      .toFile(join(imageDir, `view${i}.png`));
  }
  detector.delete();
});

afterAll(() => {
  rmSync(imageDir, { recursive: true, force: true });
});

describe('calibrateLens on rendered ChArUco views', () => {
  it('finds most corners in every rendered view', () => {
    for (const v of views) expect(v.ids.length, v.label).toBeGreaterThanOrEqual(18);
  });

  it('recovers focal length, principal point and distortion of the rendering camera', () => {
    const { calibration: cal, skipped } = calibrateLens(cv, views, imageSize, board);
    expect(skipped).toEqual([]);
    const [fx, , cx, , fy, cy] = cal.cameraMatrix as number[];
    expect(Math.abs(fx! - trueLens.fxPx) / trueLens.fxPx).toBeLessThan(0.01);
    expect(Math.abs(fy! - trueLens.fyPx) / trueLens.fyPx).toBeLessThan(0.01);
    expect(Math.abs(cx! - trueLens.cxPx)).toBeLessThan(5);
    expect(Math.abs(cy! - trueLens.cyPx)).toBeLessThan(5);
    expect(Math.abs(cal.distortion.k1 - trueLens.k1)).toBeLessThan(0.02);
    expect(Math.abs(cal.distortion.k2 - trueLens.k2)).toBeLessThan(0.04);
    expect(cal.rmsReprojectionErrorPx).toBeLessThan(0.3);
    expect(cal.images).toHaveLength(views.length);
    for (const im of cal.images) expect(im.rmsPx).toBeLessThan(0.5);
  });

  it('refuses with a clear message when there are too few usable views', () => {
    const few = [...views.slice(0, 2), { label: 'sparse', ids: [0, 1, 2], cornersPx: views[0]!.cornersPx.slice(0, 3) }];
    expect(() => calibrateLens(cv, few, imageSize, board)).toThrow(CalibrationInputError);
    expect(() => calibrateLens(cv, few, imageSize, board)).toThrow(/only 2 usable view/);
  });
});

describe('muster calibrate lens', () => {
  it('calibrates from a folder of photos and saves a valid calibration file', async () => {
    const out = join(imageDir, 'out', 'lens.json');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCalibrate(['lens', '--images', imageDir, '--out', out])).toBe(0);
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
    const cal = parseLensCalibration(JSON.parse(readFileSync(out, 'utf8')));
    expect(cal.images).toHaveLength(poses.length);
    expect(Math.abs(cal.cameraMatrix[0]! - trueLens.fxPx) / trueLens.fxPx).toBeLessThan(0.01);
    expect(cal.rmsReprojectionErrorPx).toBeLessThan(0.3);
  });

  it('refuses too few photos and leaves the previous calibration untouched', async () => {
    const out = join(imageDir, 'keep.json');
    writeFileSync(out, 'previous');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expect(runCalibrate(['lens', '--images', join(imageDir, 'view0.png'), join(imageDir, 'view1.png'), '--out', out]))
        .rejects.toThrow(/only 2 usable view/);
    } finally {
      err.mockRestore();
    }
    expect(readFileSync(out, 'utf8')).toBe('previous');
  });
});

/** RMS distance of detected corners from the ideal (distortion-free) pinhole projection of view `i`. */
function pinholeErrorPx(i: number, v: { ids: readonly number[]; cornersPx: readonly { uPx: number; vPx: number }[] }): number {
  const [a, b, c, x, y, z] = poses[i]!;
  const centre: [number, number] = [(board.squaresX * board.squareLengthMm) / 2, (board.squaresY * board.squareLengthMm) / 2];
  const pose = poseAbout(rotationXYZ(a, b, c), centre, [x, y, z]);
  const r = pose.r;
  let sq = 0;
  v.ids.forEach((id, k) => {
    const p = charucoCornerMm(board, id);
    const X = r[0]! * p.xMm + r[1]! * p.yMm + pose.tMm[0];
    const Y = r[3]! * p.xMm + r[4]! * p.yMm + pose.tMm[1];
    const Z = r[6]! * p.xMm + r[7]! * p.yMm + pose.tMm[2];
    const u = trueLens.fxPx * (X / Z) + trueLens.cxPx;
    const w = trueLens.fyPx * (Y / Z) + trueLens.cyPx;
    sq += (u - v.cornersPx[k]!.uPx) ** 2 + (w - v.cornersPx[k]!.vPx) ** 2;
  });
  return Math.sqrt(sq / v.ids.length);
}

describe('muster calibrate undistort', () => {
  it('straightens a distorted photo: corners land on the ideal pinhole projection', async () => {
    const lensFile = join(imageDir, 'true-lens.json');
    writeFileSync(lensFile, JSON.stringify({
      format: LENS_CALIBRATION_FORMAT, version: 1, createdAt: 'test', imageWidthPx: 800, imageHeightPx: 600,
      cameraMatrix: [trueLens.fxPx, 0, trueLens.cxPx, 0, trueLens.fyPx, trueLens.cyPx, 0, 0, 1],
      distortion: { k1: trueLens.k1, k2: trueLens.k2, p1: trueLens.p1, p2: trueLens.p2, k3: 0 },
      rmsReprojectionErrorPx: 0, images: [], board,
    }));
    const out = join(imageDir, 'straight.png');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await runCalibrate(['undistort', '--lens', lensFile, '--image', join(imageDir, 'view5.png'), '--out', out])).toBe(0);
    } finally {
      log.mockRestore();
    }
    const detector = createCharucoCornerDetector(cv, board);
    try {
      const before = detector.detect(await loadGrayImage(join(imageDir, 'view5.png')));
      const after = detector.detect(await loadGrayImage(out));
      expect(after.ids.length).toBeGreaterThanOrEqual(20);
      expect(pinholeErrorPx(5, before)).toBeGreaterThan(2);
      expect(pinholeErrorPx(5, after)).toBeLessThan(0.15);
    } finally {
      detector.delete();
    }
  });
});
