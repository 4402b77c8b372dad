import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CHARUCO_BOARD } from './charucoBoardSpec.ts';
import {
  distortNormalized, loadLensModel, projectCameraPointPx, undistortFlatPx, undistortNormalized, undistortPointsPx,
  LENS_CALIBRATION_FORMAT, type LensModel,
} from './lensModel.ts';

const lens: LensModel = {
  imageWidthPx: 1920, imageHeightPx: 1080, fxPx: 1400, fyPx: 1390, cxPx: 955, cyPx: 547,
  k1: -0.32, k2: 0.12, p1: 0.0012, p2: -0.0009, k3: -0.02,
};

describe('undistortNormalized', () => {
  it('inverts the distortion model to 1e-9 over the whole image (corners included)', () => {
    let worst = 0;
    for (let x = -0.7; x <= 0.7; x += 0.05) {
      for (let y = -0.4; y <= 0.4; y += 0.05) {
        const [xd, yd] = distortNormalized(x, y, lens);
        const [xu, yu] = undistortNormalized(xd, yd, lens);
        worst = Math.max(worst, Math.hypot(xu - x, yu - y));
      }
    }
    expect(worst).toBeLessThan(1e-9);
  });
});

describe('undistortPointsPx', () => {
  it('maps distorted projections back onto the ideal pinhole projection', () => {
    const pts: [number, number, number][] = [[-300, -160, 500], [280, 150, 480], [120, -60, 700], [310, -170, 520]];
    const seen = pts.map(([x, y, z]) => projectCameraPointPx(x, y, z, lens));
    const fixed = undistortPointsPx(seen, lens);
    pts.forEach(([x, y, z], i) => {
      const ideal = { u: lens.fxPx * (x / z) + lens.cxPx, v: lens.fyPx * (y / z) + lens.cyPx };
      // The test is meaningful: the distortion moved these points by many pixels.
      expect(Math.hypot(seen[i]!.uPx - ideal.u, seen[i]!.vPx - ideal.v)).toBeGreaterThan(3);
      expect(Math.hypot(fixed[i]!.uPx - ideal.u, fixed[i]!.vPx - ideal.v)).toBeLessThan(1e-6);
    });
  });
});

describe('undistortFlatPx', () => {
  it('agrees with undistortPointsPx on flat corner arrays', () => {
    const pts = [{ uPx: 10, vPx: 20 }, { uPx: 1900, vPx: 1070 }, { uPx: 960, vPx: 30 }];
    const flat = undistortFlatPx(pts.flatMap((p) => [p.uPx, p.vPx]), lens);
    undistortPointsPx(pts, lens).forEach((p, i) => {
      expect(flat[2 * i]).toBeCloseTo(p.uPx, 9);
      expect(flat[2 * i + 1]).toBeCloseTo(p.vPx, 9);
    });
  });
});

describe('loadLensModel', () => {
  it('reads a saved calibration and names the file in errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'muster-lensfile-'));
    try {
      const good = join(dir, 'lens.json');
      writeFileSync(good, JSON.stringify({
        format: LENS_CALIBRATION_FORMAT, version: 1, createdAt: 'x', imageWidthPx: 1920, imageHeightPx: 1080,
        cameraMatrix: [1400, 0, 955, 0, 1390, 547, 0, 0, 1], distortion: { k1: -0.3, k2: 0.1, p1: 0, p2: 0, k3: 0 },
        rmsReprojectionErrorPx: 0.2, images: [], board: DEFAULT_CHARUCO_BOARD,
      }));
      const m = loadLensModel(good);
      expect([m.fxPx, m.fyPx, m.cxPx, m.cyPx, m.k1]).toEqual([1400, 1390, 955, 547, -0.3]);
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ format: LENS_CALIBRATION_FORMAT, version: 1, cameraMatrix: [1, 2] }));
      expect(() => loadLensModel(bad)).toThrow(/bad\.json: .*cameraMatrix must be 9 numbers/);
      expect(() => loadLensModel(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
