import { describe, expect, it } from 'vitest';
import { distortNormalized, projectCameraPointPx, undistortNormalized, undistortPointsPx, type LensModel } from './lensModel.ts';

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
