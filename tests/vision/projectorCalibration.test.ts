/**
 * Projector calibration end to end with real opencv.js: the pattern the projector page draws is shone
 * through a known table → projector homography onto a rendered table (anchors by the project's generator),
 * seen by a known camera; the solver must give back table → projector within a stated tolerance.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCv, type Cv } from '../../apps/vision/src/cv/loadCv.ts';
import { loadTableProfile, type TableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { applyHomography, invertHomography, type Homography } from '@muster/table-mapping';
import { calibrateProjector, projectorCalibrationJson, ProjectorCalibrationInputError } from '../../apps/vision/src/calibrate/calibrateProjector.ts';
import { parseProjectorCalibration } from '../../apps/vision/src/calibrate/projectorCalibration.ts';
import type { LensModel } from '../../apps/vision/src/calibrate/lensModel.ts';
import { renderProjectedPattern, SKEWED_PROJECTOR_CORNERS_PX, type ProjectedFrame } from './renderProjectedPattern.ts';

const tables = fileURLToPath(new URL('../../calibration/tables/', import.meta.url));
/** Asserted: worst distance over a grid of table points between the recovered and true map, projector px. */
const TOLERANCE_PX = 1.0;

/** Worst |a(p) − b(p)| in projector px over a 7×5 grid covering the whole table (edges included). */
function worstErrorPx(a: Homography, b: Homography, profile: TableProfile): number {
  let worst = 0;
  for (let i = 0; i <= 6; i++) {
    for (let j = 0; j <= 4; j++) {
      const x = (profile.widthIn * i) / 6;
      const y = (profile.heightIn * j) / 4;
      const [ua, va] = applyHomography(a, x, y);
      const [ub, vb] = applyHomography(b, x, y);
      const d = Math.hypot(ua - ub, va - vb);
      worst = Math.max(worst, Number.isFinite(d) ? d : Infinity);
    }
  }
  return worst;
}

const transpose = (h: Homography): number[] => [h[0]!, h[3]!, h[6]!, h[1]!, h[4]!, h[7]!, h[2]!, h[5]!, h[8]!];

let cv: Cv;
let profile: TableProfile;
let skewed: ProjectedFrame;

beforeAll(async () => {
  cv = await loadCv();
  profile = loadTableProfile(`${tables}default-72x48.json`);
  skewed = await renderProjectedPattern({
    profile, cameraWidthPx: 1280, cameraHeightPx: 720, projectorWidthPx: 1920, projectorHeightPx: 1080, tableCornersOnProjectorPx: SKEWED_PROJECTOR_CORNERS_PX,
  });
});

describe('calibrateProjector on a rendered frame', () => {
  it('recovers table → projector within 1 projector px over the whole table (1080p projector, 720p camera)', async () => {
    const r = await calibrateProjector(cv, profile, skewed.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080 });
    const worst = worstErrorPx(r.tableToProjector, skewed.tableToProjector, profile);
    console.log(
      `projector 1920×1080, camera 1280×720: ${r.fit.tagsSeen}/${r.fit.tagsShown} tags, ${r.fit.cornersUsed}/${r.fit.cornersSeen} corners; ` +
        `residual RMS ${r.fit.rmsProjectorPx.toFixed(3)} px (max ${r.fit.maxProjectorPx.toFixed(3)}), ${r.rmsTableIn.toFixed(4)} in (max ${r.maxTableIn.toFixed(4)}); ` +
        `anchors ${r.anchorRmsIn?.toFixed(4)} in; worst error vs truth ${worst.toFixed(3)} px`,
    );
    expect(worst).toBeLessThan(TOLERANCE_PX);
    expect(r.fit.tagsSeen).toBeGreaterThanOrEqual(20);
    expect(r.fit.rmsProjectorPx).toBeLessThan(1);
    expect(r.rmsTableIn).toBeLessThan(0.05);
    // The check can fail: a transposed or inverted (projector → table) map is far off.
    expect(worstErrorPx(transpose(r.tableToProjector), skewed.tableToProjector, profile)).toBeGreaterThan(50);
    expect(worstErrorPx(invertHomography(r.tableToProjector), skewed.tableToProjector, profile)).toBeGreaterThan(50);
    // And the file it makes validates.
    const json = projectorCalibrationJson(r, {
      createdAt: '2026-01-02T03:04:05.000Z', projectorWidthPx: 1920, projectorHeightPx: 1080, cameraWidthPx: 1280, cameraHeightPx: 720, profile, lens: null,
    });
    expect(parseProjectorCalibration(JSON.parse(JSON.stringify(json)), 'x.json').tableToProjector).toHaveLength(9);
    expect(worstErrorPx(json.tableToProjector, skewed.tableToProjector, profile)).toBeLessThan(TOLERANCE_PX);
  });

  it('recovers another geometry (1280×800 projector, rotated, table smaller than the throw) given the camera → table map', async () => {
    const corners = [[210, 700], [1150, 760], [1120, 120], [180, 90]] as const;
    const f = await renderProjectedPattern({
      profile, cameraWidthPx: 1280, cameraHeightPx: 720, projectorWidthPx: 1280, projectorHeightPx: 800, tableCornersOnProjectorPx: corners, seed: 4, ambient: 0.4,
    });
    const cameraToTable = invertHomography(f.tableToCamera);
    const r = await calibrateProjector(cv, profile, f.frame, { projectorWidthPx: 1280, projectorHeightPx: 800, cameraToTable });
    const worst = worstErrorPx(r.tableToProjector, f.tableToProjector, profile);
    console.log(`projector 1280×800: ${r.fit.tagsSeen}/${r.fit.tagsShown} tags, RMS ${r.fit.rmsProjectorPx.toFixed(3)} px, worst vs truth ${worst.toFixed(3)} px`);
    expect(r.anchorRmsIn).toBeNull();
    expect(worst).toBeLessThan(TOLERANCE_PX);
  });

  it('refuses a frame where the pattern was shown at another size than --projector-size', async () => {
    const f = await renderProjectedPattern({
      profile, cameraWidthPx: 1280, cameraHeightPx: 720, projectorWidthPx: 1920, projectorHeightPx: 1080, tableCornersOnProjectorPx: SKEWED_PROJECTOR_CORNERS_PX,
      patternSizePx: { widthPx: 1280, heightPx: 720 }, seed: 2,
    });
    await expect(calibrateProjector(cv, profile, f.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080 })).rejects.toThrow(
      /(only \d+ of the 34 projected tags|do not fit one projector|tag corners fit one).*1920×1080/,
    );
  });

  it('says so when too few tags are seen (no projection in the frame)', async () => {
    const f = await renderProjectedPattern({
      profile, cameraWidthPx: 1280, cameraHeightPx: 720, projectorWidthPx: 1920, projectorHeightPx: 1080, tableCornersOnProjectorPx: SKEWED_PROJECTOR_CORNERS_PX, project: false,
    });
    const err = await calibrateProjector(cv, profile, f.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProjectorCalibrationInputError);
    expect((err as Error).message).toMatch(/^only 0 of the 34 projected tags were seen \(need 6\): show projector\.html\?calibrate=1/);
  });

  it('refuses a poor fit with the residual and the limit', async () => {
    await expect(calibrateProjector(cv, profile, skewed.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080, maxRmsProjectorPx: 0.01 })).rejects.toThrow(
      /fit is poor: RMS residual \d\.\d\d projector px \(limit 0\.01\)/,
    );
  });

  it('refuses a frame of another size than the lens calibration, and an anchors frame of another size', async () => {
    const lens: LensModel = { imageWidthPx: 1920, imageHeightPx: 1080, fxPx: 1500, fyPx: 1500, cxPx: 960, cyPx: 540, k1: 0, k2: 0, p1: 0, p2: 0, k3: 0 };
    await expect(calibrateProjector(cv, profile, skewed.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080, lens })).rejects.toThrow(
      'the frame is 1280×720 px but the lens calibration is for 1920×1080',
    );
    const small = { widthPx: 640, heightPx: 360, data: new Uint8Array(640 * 360) };
    await expect(calibrateProjector(cv, profile, skewed.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080, anchorsFrame: small })).rejects.toThrow(
      'the anchors frame is 640×360 px but the pattern frame is 1280×720',
    );
  });

  it('says which anchors it saw when the table cannot be located', async () => {
    const blank = { widthPx: 1280, heightPx: 720, data: new Uint8Array(1280 * 720).fill(120) };
    await expect(calibrateProjector(cv, profile, skewed.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080, anchorsFrame: blank })).rejects.toThrow(
      /table anchors were not found \(seen: none of 0, 1, 2, 3\)/,
    );
  });

  it('frees every opencv.js object: repeated solves leave the WASM heap where it was', async () => {
    const cameraToTable = invertHomography(skewed.tableToCamera);
    const round = (): Promise<unknown> => calibrateProjector(cv, profile, skewed.frame, { projectorWidthPx: 1920, projectorHeightPx: 1080, cameraToTable });
    // Where a 64 MB block lands: without a leak freed memory coalesces and it lands in the same place.
    const probe = (): number => {
      const ptr = cv._malloc(64 << 20) as number;
      cv._free(ptr);
      return ptr;
    };
    for (let i = 0; i < 2; i++) await round();
    const before = probe();
    for (let i = 0; i < 8; i++) await round();
    // One leaked 1280×720 frame Mat is 0.9 MB.
    expect(probe() - before).toBeLessThan(512 << 10);
  });
});
