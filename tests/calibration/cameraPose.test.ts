import type { PointIn } from '@muster/rules';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approximateLensModel, cameraPoseFromRt, correctParallaxIn, pixelToTableIn, projectTablePointPx, solveCameraPose, type CameraPose,
} from '../../apps/vision/src/calibrate/cameraPose.ts';
import { undistortPointsPx, type LensModel } from '../../apps/vision/src/calibrate/lensModel.ts';
import { loadCv, type Cv } from '../../apps/vision/src/cv/loadCv.ts';
import { applyHomography, homographyFromPoints } from '@muster/table-mapping';

const lens: LensModel = {
  imageWidthPx: 1920, imageHeightPx: 1080, fxPx: 1350, fyPx: 1345, cxPx: 962, cyPx: 536,
  k1: -0.28, k2: 0.09, p1: 0.0008, p2: -0.0006, k3: 0,
};

/** A camera at `c` (table inches) looking at `target`, image x along table +x (as over the near edge). */
function lookAt(c: [number, number, number], target: [number, number, number]): CameraPose {
  const norm = (v: number[]): number[] => v.map((x) => x / Math.hypot(...v));
  const cross = (a: number[], b: number[]): number[] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  const zc = norm(target.map((t, i) => t - c[i]!));
  const xc = norm(cross(zc, [0, 0, 1]));
  const yc = cross(zc, xc);
  const r = [...xc, ...yc, ...zc];
  const t = [0, 1, 2].map((i) => -(r[3 * i]! * c[0] + r[3 * i + 1]! * c[1] + r[3 * i + 2]! * c[2])) as [number, number, number];
  return cameraPoseFromRt(r, t);
}

// 72×48 in table; 2 in anchors near the corners, corners in OpenCV order (TL, TR, BR, BL seen from above).
const anchorCentres: [number, number][] = [[3, 3], [69, 3], [69, 45], [3, 45]];
const anchorCornersIn: PointIn[] = anchorCentres.flatMap(([x, y]) => [
  { xIn: x - 1, yIn: y + 1 }, { xIn: x + 1, yIn: y + 1 }, { xIn: x + 1, yIn: y - 1 }, { xIn: x - 1, yIn: y - 1 },
]);

// Deterministic ±0.25 px detection noise.
let seed = 12345;
const noise = (): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return (seed / 2147483648 - 0.5) * 0.5;
};

const truePose = lookAt([30, -14, 58], [36, 24, 0]);
let cv: Cv;
beforeAll(async () => {
  cv = await loadCv();
});

describe('solveCameraPose', () => {
  it('recovers the camera centre from noisy anchor corners', () => {
    const seen = anchorCornersIn.map((p) => {
      const q = projectTablePointPx(p.xIn, p.yIn, 0, truePose, lens);
      return { uPx: q.uPx + noise(), vPx: q.vPx + noise() };
    });
    const pose = solveCameraPose(cv, seen, anchorCornersIn, lens);
    const c = pose.cameraCentreIn;
    const t = truePose.cameraCentreIn;
    expect(Math.hypot(c.xIn - t.xIn, c.yIn - t.yIn, c.zIn - t.zIn)).toBeLessThan(0.1);
    expect(pose.reprojectionRmsPx).toBeLessThan(0.4);
  });

  it('rejects too few points', () => {
    expect(() => solveCameraPose(cv, [{ uPx: 1, vPx: 1 }], [{ xIn: 0, yIn: 0 }], lens)).toThrow(/at least 4/);
  });
});

describe('parallax correction for raised tags', () => {
  // Tag points spread over the table, including the far corners where parallax is largest.
  const tagPoints: PointIn[] = [[10, 8], [36, 24], [64, 40], [70, 46], [2, 44], [50, 12]].map(([x, y]) => ({ xIn: x!, yIn: y! }));

  it('homography + correctParallaxIn puts a tag on a thick base back where it is', () => {
    const seenAnchors = anchorCornersIn.map((p) => projectTablePointPx(p.xIn, p.yIn, 0, truePose, lens));
    const pose = solveCameraPose(cv, seenAnchors, anchorCornersIn, lens);
    // What the detector does: undistort, fit the z = 0 homography on the anchors, map the tag through it.
    const h = homographyFromPoints(
      undistortPointsPx(seenAnchors, lens).map((p) => [p.uPx, p.vPx] as [number, number]),
      anchorCornersIn.map((p) => [p.xIn, p.yIn] as [number, number]),
    );
    for (const heightIn of [0.125, 0.5]) {
      let worstRaw = 0;
      let worstCorrected = 0;
      for (const truth of tagPoints) {
        const [u] = undistortPointsPx([projectTablePointPx(truth.xIn, truth.yIn, heightIn, truePose, lens)], lens);
        const [x, y] = applyHomography(h, u!.uPx, u!.vPx);
        const corrected = correctParallaxIn({ xIn: x, yIn: y }, pose, heightIn);
        worstRaw = Math.max(worstRaw, Math.hypot(x - truth.xIn, y - truth.yIn));
        worstCorrected = Math.max(worstCorrected, Math.hypot(corrected.xIn - truth.xIn, corrected.yIn - truth.yIn));
      }
      // Uncorrected error grows with height (≈ h · distance from the camera foot / camera height).
      expect(worstRaw).toBeGreaterThan(heightIn * 0.4);
      expect(worstCorrected).toBeLessThan(0.005);
    }
  });

  it('pixelToTableIn intersects the camera ray with the tag plane', () => {
    for (const truth of tagPoints) {
      const px = projectTablePointPx(truth.xIn, truth.yIn, 0.25, truePose, lens);
      const p = pixelToTableIn(px, truePose, lens, 0.25);
      expect(Math.hypot(p.xIn - truth.xIn, p.yIn - truth.yIn)).toBeLessThan(1e-6);
      const onCloth = pixelToTableIn(px, truePose, lens, 0);
      expect(Math.hypot(onCloth.xIn - truth.xIn, onCloth.yIn - truth.yIn)).toBeGreaterThan(0.05);
    }
  });

  it('refuses a height at or above the camera', () => {
    expect(() => correctParallaxIn({ xIn: 1, yIn: 1 }, truePose, 100)).toThrow(/not above/);
  });
});

describe('parallax correction without a lens calibration', () => {
  it('approximateLensModel with a field of view 5° off still removes most of the parallax', () => {
    const pinhole = { ...approximateLensModel(1920, 1080, 60) };
    const seen = anchorCornersIn.map((p) => projectTablePointPx(p.xIn, p.yIn, 0, truePose, pinhole));
    const pose = solveCameraPose(cv, seen, anchorCornersIn, approximateLensModel(1920, 1080, 65));
    const h = homographyFromPoints(seen.map((p) => [p.uPx, p.vPx] as [number, number]), anchorCornersIn.map((p) => [p.xIn, p.yIn] as [number, number]));
    const heightIn = 0.25;
    let worstRaw = 0;
    let worstCorrected = 0;
    for (const truth of [[10, 8], [36, 24], [64, 40], [70, 46], [2, 44]] as const) {
      const px = projectTablePointPx(truth[0], truth[1], heightIn, truePose, pinhole);
      const [x, y] = applyHomography(h, px.uPx, px.vPx);
      const c = correctParallaxIn({ xIn: x, yIn: y }, pose, heightIn);
      worstRaw = Math.max(worstRaw, Math.hypot(x - truth[0], y - truth[1]));
      worstCorrected = Math.max(worstCorrected, Math.hypot(c.xIn - truth[0], c.yIn - truth[1]));
    }
    expect(worstCorrected).toBeLessThan(worstRaw / 4);
  });
});
