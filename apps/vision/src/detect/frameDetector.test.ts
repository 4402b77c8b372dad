/**
 * The detector against rendered frames with exact ground truth (real opencv.js, no mocks). Accuracy is
 * asserted in table inches. One frame per resolution keeps this file fast; `npm run bench -- vision`
 * reports the same figures over more frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadTableProfile, parseTableProfile, tableProfileToJson, type TableProfile } from '../profile/tableProfile.ts';
import { createFrameDetector, type FrameDetector } from './frameDetector.ts';
import { loadCv } from '../cv/loadCv.ts';
import { cameraLookingDown, renderTableFrame, scatterStands, type RenderedFrame } from '../../../../fixtures/generator/renderTableFrame.ts';
import { scoreDetection, truthPredictions } from '../../../../fixtures/generator/scoreDetection.ts';

const tables = fileURLToPath(new URL('../../../../calibration/tables/', import.meta.url));
const effects = { blurSigmaPx: 0.7, noiseSigma: 3, lightFalloff: 0.3, jpegQuality: 90 };

describe('frame detector at 1920×1080, 1 in tags', () => {
  let profile: TableProfile;
  let rendered: RenderedFrame;
  let detector: FrameDetector;
  beforeAll(async () => {
    const base = loadTableProfile(`${tables}default-72x48.json`);
    profile = parseTableProfile({ ...tableProfileToJson(base), markerSize: 1 }, '1in');
    const tags = scatterStands(profile, 40, 11);
    rendered = await renderTableFrame({ profile, tags }, cameraLookingDown(profile, 1920, 1080, { rollDeg: -1.2 }), { seed: 5, ...effects });
    detector = await createFrameDetector(profile);
  });
  afterAll(() => detector?.dispose());

  it('finds the stands with position and heading error within the target', () => {
    const d = detector.detect(rendered.frame);
    expect(d.anchorIds).toEqual([0, 1, 2, 3]);
    expect(d.homographyResidualIn).toBeLessThan(0.05);
    const s = scoreDetection(d, rendered.truth);
    expect(s.expected).toBe(40);
    expect(s.falseIds).toEqual([]);
    expect(s.foundFraction).toBeGreaterThanOrEqual(0.99);
    expect(s.positionRmsIn).toBeLessThanOrEqual(0.01);
    expect(s.positionMaxIn).toBeLessThanOrEqual(0.03);
    expect(s.headingRmsDeg).toBeLessThanOrEqual(1);
    // Anchors are not stands.
    expect(d.markers.some((m) => m.id < 4)).toBe(false);
    // Corners are reported in image pixels (PointPx convention) close to the truth. ArUco's corners sit
    // on the thresholded black region, ~0.5–1 px inside the true edge (symmetric, so centre and heading
    // are unaffected): hence the pixel bound here is looser than the inch bounds above.
    let sq = 0;
    for (const m of d.markers) {
      const t = rendered.truth.tags.find((tag) => tag.id === m.id)!;
      m.cornersPx.forEach((c, k) => (sq += (c.uPx - t.cornersPx[k]!.uPx) ** 2 + (c.vPx - t.cornersPx[k]!.vPx) ** 2));
    }
    expect(Math.sqrt(sq / (4 * d.markers.length))).toBeLessThan(1.2);
  });

  it('tracked mode (windows around predicted corners) finds the same stands as the full frame', () => {
    const full = detector.detect(rendered.frame);
    // Predictions a little off, as a tracker's would be.
    const preds = truthPredictions(rendered.truth).map((p) => ({
      id: p.id,
      cornersPx: p.cornersPx.map((c) => ({ uPx: c.uPx + 3, vPx: c.vPx - 2 })) as unknown as typeof p.cornersPx,
    }));
    const tracked = detector.detect(rendered.frame, preds);
    expect(tracked.anchorIds).toEqual([0, 1, 2, 3]);
    expect(tracked.markers.map((m) => m.id)).toEqual(full.markers.map((m) => m.id));
    const s = scoreDetection(tracked, rendered.truth);
    expect(s.positionRmsIn).toBeLessThanOrEqual(0.01);
    expect(s.headingRmsDeg).toBeLessThanOrEqual(1);
    // Small prediction errors are absorbed by the edge re-measurement, no ArUco window needed.
    expect(detector.lastTrackedStats!.edgeRefined).toBeGreaterThanOrEqual(40);

    // A stand moved by half an inch since the prediction: the edge search gives up on it and the
    // ArUco window around the prediction still finds it.
    const moved = preds.map((p, i) =>
      i === 0 ? { id: p.id, cornersPx: p.cornersPx.map((c) => ({ uPx: c.uPx + 12, vPx: c.vPx + 9 })) as unknown as typeof p.cornersPx } : p,
    );
    const again = detector.detect(rendered.frame, moved);
    expect(detector.lastTrackedStats!.arucoWindows).toBeGreaterThanOrEqual(1);
    expect(again.markers.map((m) => m.id)).toEqual(full.markers.map((m) => m.id));
    expect(scoreDetection(again, rendered.truth).positionMaxIn).toBeLessThanOrEqual(0.03);
    // Tracked mode only looks where it is told: with no stand predictions, no stands come back.
    expect(detector.detect(rendered.frame, []).markers).toEqual([]);
  });

  it('filters ids the profile does not expect and says so', async () => {
    const some = parseTableProfile({ ...tableProfileToJson(profile), standIds: [4, 5, 6, 7, 8] }, 'few');
    const det = await createFrameDetector(some);
    try {
      const d = det.detect(rendered.frame);
      expect(d.markers.map((m) => m.id)).toEqual([4, 5, 6, 7, 8]);
      expect(d.warnings.join('\n')).toMatch(/ignored ids not in the table profile: 9, 10/);
    } finally {
      det.dispose();
    }
  });
});

describe('frame detector edge cases', () => {
  it('reports a duplicated id instead of crashing, and keeps the last homography when anchors are hidden', async () => {
    const profile = parseTableProfile({ ...tableProfileToJson(loadTableProfile(`${tables}default-72x48.json`)), markerSize: 1 }, '1in');
    const camera = cameraLookingDown(profile, 1280, 720);
    const tags = [
      { id: 9, xIn: 20, yIn: 20, headingDeg: 10 },
      { id: 9, xIn: 40, yIn: 30, headingDeg: 200 },
      { id: 12, xIn: 50, yIn: 12, headingDeg: 300 },
    ];
    const withAnchors = await renderTableFrame({ profile, tags }, camera, { seed: 2, blurSigmaPx: 0.5, noiseSigma: 2 });
    const hidden = await renderTableFrame({ profile, tags: tags.slice(2), drawAnchors: false }, camera, { seed: 3, blurSigmaPx: 0.5, noiseSigma: 2 });
    const det = await createFrameDetector(profile);
    try {
      const first = det.detect(withAnchors.frame);
      expect(first.duplicateIds).toEqual([9]);
      expect(first.markers.map((m) => m.id)).toEqual([12]);

      const second = det.detect(hidden.frame);
      expect(second.anchorIds).toEqual([]);
      expect(second.homographyResidualIn).toBeNull();
      expect(second.homography).toEqual(first.homography);
      expect(second.warnings.join('\n')).toMatch(/0 of 4 anchors seen \(need 3\); kept the last homography/);
      const m = second.markers.find((o) => o.id === 12)!;
      expect(Math.hypot(m.xIn - 50, m.yIn - 12)).toBeLessThan(0.03);
    } finally {
      det.dispose();
    }
    const fresh = await createFrameDetector(profile);
    try {
      const d = fresh.detect(hidden.frame);
      expect(d.homography).toBeNull();
      expect(d.markers).toEqual([]);
      expect(d.warnings.join('\n')).toMatch(/no homography yet/);
    } finally {
      fresh.dispose();
    }
  });
});

describe('frame detector memory', () => {
  it('frees every opencv.js object: repeated frames leave the WASM heap where it was', async () => {
    const cv = await loadCv();
    const profile = parseTableProfile({ ...tableProfileToJson(loadTableProfile(`${tables}default-72x48.json`)), markerSize: 1 }, '1in');
    const { frame, truth } = await renderTableFrame({ profile, tags: scatterStands(profile, 10, 3) }, cameraLookingDown(profile, 1280, 720), { seed: 6 });
    const far = truthPredictions(truth).map((p) => ({ id: p.id, cornersPx: p.cornersPx.map((c) => ({ uPx: c.uPx + 9, vPx: c.vPx })) as unknown as typeof p.cornersPx }));
    const det = await createFrameDetector(profile);
    const round = (): void => {
      det.detect(frame); // full frame: a frame-sized Mat each time
      det.detect(frame, far); // tracked with ArUco windows (a mosaic Mat each time)
    };
    try {
      // Where a 64 MB block lands: freed memory coalesces, so without a leak the block goes to the
      // same place every time; each leaked frame-sized Mat (0.9 MB) pushes it further up the heap.
      const probe = (): number => {
        const ptr = cv._malloc(64 << 20) as number;
        cv._free(ptr);
        return ptr;
      };
      for (let i = 0; i < 3; i++) round();
      const before = probe();
      for (let i = 0; i < 20; i++) round();
      expect(probe() - before).toBeLessThan(2 << 20);
      expect(det.lastTrackedStats!.arucoWindows).toBeGreaterThan(0);
    } finally {
      det.dispose();
    }
  });
});

describe('frame detector at 3840×2160, 0.5 in tags', () => {
  it('finds 150 stands within the accuracy target', async () => {
    const profile = loadTableProfile(`${tables}large-72x48.json`);
    const tags = scatterStands(profile, 150, 21);
    const { frame, truth } = await renderTableFrame({ profile, tags }, cameraLookingDown(profile, 3840, 2160), { seed: 9, ...effects });
    const det = await createFrameDetector(profile);
    try {
      const s = scoreDetection(det.detect(frame), truth);
      expect(s.expected).toBe(150);
      expect(s.falseIds).toEqual([]);
      expect(s.foundFraction).toBeGreaterThanOrEqual(0.99);
      expect(s.positionRmsIn).toBeLessThanOrEqual(0.01);
      expect(s.positionMaxIn).toBeLessThanOrEqual(0.03);
      expect(s.headingRmsDeg).toBeLessThanOrEqual(1);
    } finally {
      det.dispose();
    }
  }, 120_000);
});
