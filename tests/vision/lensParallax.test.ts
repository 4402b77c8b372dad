/**
 * Lens undistortion and base-thickness parallax in the frame detector, against frames rendered through a
 * 3-D pinhole camera (`pinholeCamera`): stand tags drawn on the plane of their base top (z = h) and
 * anchors on the cloth (z = 0), optionally through a distorting lens. Real opencv.js, no mocks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadTableProfile, parseTableProfile, tableProfileToJson, type TableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { createFrameDetector, type FrameDetector, type FrameDetectorOptions } from '../../apps/vision/src/detect/frameDetector.ts';
import type { LensModel } from '../../apps/vision/src/calibrate/lensModel.ts';
import type { FrameDetection } from '../../apps/vision/src/pipeline/types.ts';
import { pinholeCamera, renderTableFrame, scatterStands, type CameraSpec, type RenderedFrame, type SceneTag } from '../../fixtures/generator/renderTableFrame.ts';
import { scoreDetection } from '../../fixtures/generator/scoreDetection.ts';

const tables = fileURLToPath(new URL('../../calibration/tables/', import.meta.url));
const effects = { blurSigmaPx: 0.7, noiseSigma: 3, lightFalloff: 0.3, jpegQuality: 90 };
const W = 1920;
const H = 1080;
const HFOV = 78;
const F = W / 2 / Math.tan((HFOV * Math.PI) / 360);
/** The render camera's own camera matrix, no distortion. */
const pinholeLens: LensModel = { imageWidthPx: W, imageHeightPx: H, fxPx: F, fyPx: F, cxPx: W / 2, cyPx: H / 2, k1: 0, k2: 0, p1: 0, p2: 0, k3: 0 };
/** A cheap wide webcam: strong barrel distortion (≈ 30 px at the frame corners). */
const barrelLens: LensModel = { ...pinholeLens, fyPx: F * 1.004, cxPx: W / 2 + 7, cyPx: H / 2 - 5, k1: -0.22, k2: 0.07, p1: 0.0007, p2: -0.0005 };
/** Camera 56 in above the cloth over (35, 6), looking at (35, 22) on the cloth: 72×48 table fills 1080p. */
const pose = { centreIn: [35, 6, 56] as const, lookAtIn: [35, 22, 0] as const, hfovDeg: HFOV };
const BASE_IN = 0.25;

let base: TableProfile;
const profileWith = (baseThicknessIn: number): TableProfile =>
  parseTableProfile({ ...tableProfileToJson(base), markerSize: 1, ...(baseThicknessIn > 0 ? { baseThicknessIn } : {}) }, `1in-base${baseThicknessIn}`);

/** Scattered stands plus four at the table edges, where parallax is largest; all raised by `heightIn`. */
function stands(profile: TableProfile, heightIn: number): SceneTag[] {
  const edge = [
    { xIn: 36, yIn: 4.5, headingDeg: 0 },
    { xIn: 4, yIn: 24, headingDeg: 100 },
    { xIn: 68, yIn: 24, headingDeg: 200 },
    { xIn: 36, yIn: 43.5, headingDeg: 300 },
    { xIn: 66, yIn: 44, headingDeg: 45 },
  ];
  const scattered = scatterStands(profile, 30, 17).filter((t) => edge.every((e) => Math.hypot(e.xIn - t.xIn, e.yIn - t.yIn) > 4));
  return [...edge.map((e, i) => ({ id: 40 + i, ...e })), ...scattered].map((t) => ({ ...t, heightIn }));
}

async function detectWith(profile: TableProfile, frame: RenderedFrame['frame'], options: FrameDetectorOptions = {}): Promise<FrameDetection> {
  const det: FrameDetector = await createFrameDetector(profile, options);
  try {
    return det.detect(frame);
  } finally {
    det.dispose();
  }
}

/** Largest position error among the stands within 6 in of a table edge. */
function edgeMaxIn(d: FrameDetection, tags: readonly SceneTag[], profile: TableProfile): number {
  let max = 0;
  for (const m of d.markers) {
    const t = tags.find((s) => s.id === m.id)!;
    const nearEdge = Math.min(t.xIn, t.yIn, profile.widthIn - t.xIn, profile.heightIn - t.yIn) < 6;
    if (nearEdge) max = Math.max(max, Math.hypot(m.xIn - t.xIn, m.yIn - t.yIn));
  }
  return max;
}

beforeAll(() => {
  base = loadTableProfile(`${tables}default-72x48.json`);
});

describe('parallax: tags on 1/4 in bases seen by a 3-D camera', () => {
  let tags: SceneTag[];
  let rendered: RenderedFrame;
  let camera: CameraSpec;
  beforeAll(async () => {
    tags = stands(profileWith(0), BASE_IN);
    camera = pinholeCamera(W, H, pose);
    rendered = await renderTableFrame({ profile: profileWith(0), tags }, camera, { seed: 31, ...effects });
  });

  it('renders raised tags where the camera sees them (truth corners differ from the cloth plane)', () => {
    // The generator itself: a tag at height h is drawn through the z = h homography, so its image centre
    // is not where the z = 0 homography puts its table position.
    const t = rendered.truth.tags.find((s) => s.id === 44)!;
    const z0 = camera.tableToImage;
    const w = z0[6]! * t.xIn + z0[7]! * t.yIn + z0[8]!;
    const u0 = (z0[0]! * t.xIn + z0[1]! * t.yIn + z0[2]!) / w;
    const v0 = (z0[3]! * t.xIn + z0[4]! * t.yIn + z0[5]!) / w;
    expect(Math.hypot(t.centerPx.uPx - u0, t.centerPx.vPx - v0)).toBeGreaterThan(2);
  });

  it('uncorrected (profile without baseThicknessIn): a large error at the edges', async () => {
    const d = await detectWith(profileWith(0), rendered.frame);
    const s = scoreDetection(d, rendered.truth);
    console.info(`parallax uncorrected: RMS ${s.positionRmsIn.toFixed(4)} max ${s.positionMaxIn.toFixed(4)} edge max ${edgeMaxIn(d, tags, profileWith(0)).toFixed(4)} found ${s.found}/${s.expected}`);
    expect(s.foundFraction).toBeGreaterThanOrEqual(0.99);
    expect(edgeMaxIn(d, tags, profileWith(0))).toBeGreaterThanOrEqual(0.1);
    expect(s.positionRmsIn).toBeGreaterThan(0.05);
  });

  it('with baseThicknessIn and the calibrated (pinhole) lens: position RMS ≤ 0.01 in', async () => {
    const profile = profileWith(BASE_IN);
    const d = await detectWith(profile, rendered.frame, { lens: pinholeLens });
    const s = scoreDetection(d, rendered.truth);
    console.info(`parallax corrected, lens: RMS ${s.positionRmsIn.toFixed(4)} max ${s.positionMaxIn.toFixed(4)} edge max ${edgeMaxIn(d, tags, profile).toFixed(4)} heading ${s.headingRmsDeg.toFixed(2)}`);
    expect(s.foundFraction).toBeGreaterThanOrEqual(0.99);
    expect(s.falseIds).toEqual([]);
    expect(s.positionRmsIn).toBeLessThanOrEqual(0.01);
    expect(s.positionMaxIn).toBeLessThanOrEqual(0.03);
    expect(s.headingRmsDeg).toBeLessThanOrEqual(1);
  });

  it('the camera pose is kept while the anchors stay put and re-solved when the camera is bumped', async () => {
    const profile = profileWith(BASE_IN);
    const bumped = await renderTableFrame({ profile: profileWith(0), tags }, pinholeCamera(W, H, { ...pose, centreIn: [36, 5, 57] }), { seed: 34, ...effects });
    const det = await createFrameDetector(profile, { lens: pinholeLens });
    try {
      det.detect(rendered.frame);
      const first = det.cameraPose!;
      det.detect(rendered.frame);
      expect(det.cameraPose).toBe(first); // same anchors: no new solvePnP
      const s = scoreDetection(det.detect(bumped.frame), bumped.truth);
      expect(det.cameraPose!.cameraCentreIn.zIn).toBeCloseTo(57, 1);
      expect(first.cameraCentreIn.zIn).toBeCloseTo(56, 1);
      expect(s.foundFraction).toBeGreaterThanOrEqual(0.99);
      expect(s.positionRmsIn).toBeLessThanOrEqual(0.01);
    } finally {
      det.dispose();
    }
  });

  it('without a lens (approximate lens, default 65° for this 78° camera): most of the parallax removed', async () => {
    const profile = profileWith(BASE_IN);
    const raw = scoreDetection(await detectWith(profileWith(0), rendered.frame), rendered.truth);
    for (const hfovDeg of [undefined, 50, 78, 90]) {
      const d = await detectWith(profile, rendered.frame, hfovDeg === undefined ? {} : { hfovDeg });
      const s = scoreDetection(d, rendered.truth);
      console.info(`parallax corrected, approx lens ${hfovDeg ?? 'default'}: RMS ${s.positionRmsIn.toFixed(4)} max ${s.positionMaxIn.toFixed(4)}`);
      // Even a field of view 28° off halves the error; the default (13° off here) removes 4/5 of it.
      expect(s.positionRmsIn).toBeLessThan(raw.positionRmsIn / 2);
      if (hfovDeg === undefined) expect(s.positionRmsIn).toBeLessThan(raw.positionRmsIn / 4);
      if (hfovDeg === 78) expect(s.positionRmsIn).toBeLessThanOrEqual(0.01);
    }
  });
});

describe('lens: a frame through a strongly distorting lens', () => {
  let tags: SceneTag[];
  let rendered: RenderedFrame;
  beforeAll(async () => {
    tags = stands(profileWith(0), 0);
    rendered = await renderTableFrame({ profile: profileWith(0), tags }, pinholeCamera(W, H, { ...pose, lens: barrelLens }), { seed: 32, ...effects });
  });

  it('the rendered distortion is real: truth corners far from the pinhole projection at the frame edge', () => {
    const pin = pinholeCamera(W, H, { ...pose, lens: { ...barrelLens, k1: 0, k2: 0, p1: 0, p2: 0 } });
    const t = rendered.truth.tags.find((s) => s.id === 41)!; // (4, 24): left edge of the table
    const h = pin.tableToImage;
    const w = h[6]! * t.xIn + h[7]! * t.yIn + h[8]!;
    const u = (h[0]! * t.xIn + h[1]! * t.yIn + h[2]!) / w;
    expect(Math.abs(t.centerPx.uPx - u)).toBeGreaterThan(10);
  });

  it('without the lens: bent geometry, errors far above the target; with it: position RMS ≤ 0.01 in', async () => {
    const profile = profileWith(0);
    const without = scoreDetection(await detectWith(profile, rendered.frame), rendered.truth);
    const d = await detectWith(profile, rendered.frame, { lens: barrelLens });
    const s = scoreDetection(d, rendered.truth);
    console.info(`lens: without RMS ${without.positionRmsIn.toFixed(4)} max ${without.positionMaxIn.toFixed(4)} found ${without.found}/${without.expected}; with RMS ${s.positionRmsIn.toFixed(4)} max ${s.positionMaxIn.toFixed(4)} heading ${s.headingRmsDeg.toFixed(2)} found ${s.found}/${s.expected}`);
    expect(without.positionRmsIn).toBeGreaterThan(0.05);
    expect(s.foundFraction).toBeGreaterThanOrEqual(0.99);
    expect(s.falseIds).toEqual([]);
    expect(s.positionRmsIn).toBeLessThanOrEqual(0.01);
    expect(s.positionMaxIn).toBeLessThanOrEqual(0.03);
    expect(s.headingRmsDeg).toBeLessThanOrEqual(1);
    // Reported corners stay in the raw (distorted) image, where the overlay and the tracker use them.
    let sq = 0;
    for (const m of d.markers) {
      const t = rendered.truth.tags.find((tag) => tag.id === m.id)!;
      m.cornersPx.forEach((c, k) => (sq += (c.uPx - t.cornersPx[k]!.uPx) ** 2 + (c.vPx - t.cornersPx[k]!.vPx) ** 2));
    }
    expect(Math.sqrt(sq / (4 * d.markers.length))).toBeLessThan(1.2);
  });

  it('refuses a frame of another size than the calibration', async () => {
    const det = await createFrameDetector(profileWith(0), { lens: { ...barrelLens, imageWidthPx: 1280, imageHeightPx: 720 } });
    try {
      expect(() => det.detect(rendered.frame)).toThrow(/frame is 1920×1080 px but the lens calibration is for 1280×720/);
    } finally {
      det.dispose();
    }
  });
});

describe('lens and parallax together', () => {
  it('tags on 1/4 in bases through the distorting lens: position RMS ≤ 0.01 in, also in tracked mode', async () => {
    const tags = stands(profileWith(0), BASE_IN);
    const { frame, truth } = await renderTableFrame({ profile: profileWith(0), tags }, pinholeCamera(W, H, { ...pose, lens: barrelLens }), { seed: 33, ...effects });
    const profile = profileWith(BASE_IN);
    const det = await createFrameDetector(profile, { lens: barrelLens });
    try {
      const full = det.detect(frame);
      const s = scoreDetection(full, truth);
      // Tracked: predictions from the full frame's (raw) corners, a little off.
      const tracked = det.detect(frame, full.markers.map((m) => ({ id: m.id, cornersPx: m.cornersPx.map((c) => ({ uPx: c.uPx + 1, vPx: c.vPx - 1 })) as unknown as typeof m.cornersPx })));
      const st = scoreDetection(tracked, truth);
      console.info(`lens+parallax: full RMS ${s.positionRmsIn.toFixed(4)} max ${s.positionMaxIn.toFixed(4)}; tracked RMS ${st.positionRmsIn.toFixed(4)} max ${st.positionMaxIn.toFixed(4)}; camera z ${det.cameraPose!.cameraCentreIn.zIn.toFixed(3)}`);
      expect(Math.abs(det.cameraPose!.cameraCentreIn.zIn - pose.centreIn[2])).toBeLessThan(0.3);
      for (const x of [s, st]) {
        // At most one miss: the far tag 19 (~17 px/in there) is missed by ArUco's own full-frame pass in
        // some noise seeds, with or without lens and height (seen in `detectRaw`), like the odd miss in
        // the README's 1080p figures; every tag found is within the bounds below.
        expect(x.expected - x.found).toBeLessThanOrEqual(1);
        expect(x.falseIds).toEqual([]);
        expect(x.positionRmsIn).toBeLessThanOrEqual(0.01);
        expect(x.positionMaxIn).toBeLessThanOrEqual(0.03);
      }
    } finally {
      det.dispose();
    }
  });
});
