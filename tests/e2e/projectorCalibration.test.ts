/**
 * The projector page and its calibration in real headless Chromium (SwiftShader), served by the real
 * server: `?calibrate=1` shows the pattern the solver expects (found by the solver's own detector in a
 * screenshot, at the projector pixels the pattern module says), and without URL parameters the page
 * draws through the calibration the service serves at `GET /api/projector`; URL parameters override it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { loadCv } from '../../apps/vision/src/cv/loadCv.ts';
import { detectPatternTags } from '../../apps/vision/src/calibrate/calibrateProjector.ts';
import { projectorPattern } from '@muster/table-mapping';
import { PROJECTOR_CALIBRATION_FORMAT, type ProjectorCalibrationJson } from '../../apps/vision/src/calibrate/projectorCalibration.ts';
import type { ProjectorCalibrationSource } from '../../apps/server/src/persist/projectorCalibrationStore.ts';
import { STYLE_PAINT } from '../../apps/overlay/src/views/palette.ts';
// Also brings the page's `window.__musterProjectorPattern` declaration into the type-check.
import type { ProjectorPatternHook } from '../../apps/overlay/src/pages/projectorCalibrationPattern.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { CLOTH_PROBE, UNION_REACH_PROBE, fixtureLiveState } from './helpers/fixtureScene.ts';
import { blend, colorDistance, decodeShot, describe as rgba, hexRgb, type Rgba } from './helpers/pixels.ts';
import { SceneBackend } from './helpers/sceneBackend.ts';
import { launchChromium } from './helpers/browser.ts';

const W = 1280;
const H = 800;
/** A projector 1280×800 looking at the table slightly keystoned (table inches → projector px). */
const SERVED_H = [15.5, 1.2, 70, 0.4, -15.2, 760, 0.0006, 0.0011, 1];
const URL_H = [14, 0, 100, 0, -14, 740, 0, 0, 1];
const REACH = STYLE_PAINT.reach.stroke;

const served: ProjectorCalibrationJson = {
  format: PROJECTOR_CALIBRATION_FORMAT,
  version: 1,
  createdAt: '2026-11-22T08:00:00.000Z',
  projectorWidthPx: W,
  projectorHeightPx: H,
  tableWidthIn: 72,
  tableHeightIn: 48,
  tableToProjector: SERVED_H,
  camera: { widthPx: 1280, heightPx: 720, projectorToCamera: [0.6, 0, 20, 0, 0.6, 10, 0, 0, 1], lens: null },
  pattern: { dictionary: 'DICT_APRILTAG_36h11', tagsShown: 34, tagsSeen: 30, cornersUsed: 120, cornersSeen: 120 },
  residuals: { rmsProjectorPx: 0.5, maxProjectorPx: 1.1, rmsTableIn: 0.02, maxTableIn: 0.05, anchorRmsIn: 0.03 },
};

let current: ProjectorCalibrationJson | null = served;
const projector: ProjectorCalibrationSource = { get: () => current, put: () => { throw new Error('not in this test'); } };
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  server = await startServer({ backend: new SceneBackend(fixtureLiveState()), operatorToken: 'e2e-operator-token', host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, projector });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: W, height: H }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}${path}`);
  return page;
}

const apply = (h: readonly number[], x: number, y: number): [number, number] => {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
};

function expectColour(actual: Rgba, expected: Rgba | number, tolerance: number, what: string): void {
  const e = typeof expected === 'number' ? hexRgb(expected) : expected;
  expect(colorDistance(actual, e), `${what}: got ${rgba(actual)}, want ${rgba(e)}`).toBeLessThanOrEqual(tolerance);
}

describe('projector page and calibration', () => {
  it('?calibrate=1 shows the pattern the solver expects, at the projector pixels it expects', async () => {
    const page = await open('/projector.html?calibrate=1');
    await page.waitForFunction(() => (window.__musterProjectorPattern?.draws ?? 0) > 0, undefined, { timeout: 20_000 });
    const hook: ProjectorPatternHook = await page.evaluate(() => window.__musterProjectorPattern!);
    expect([hook.widthPx, hook.heightPx]).toEqual([W, H]);
    const png = await page.screenshot();
    await decodeShot(png, 1, 'projector-calibration-pattern.png');
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const cv = await loadCv();
    const found = detectPatternTags(cv, { widthPx: info.width, heightPx: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) });
    const pattern = projectorPattern(W, H);
    expect(hook.tagIds).toEqual(pattern.tags.map((t) => t.id));
    expect(found.map((f) => f.id).sort((a, b) => a - b)).toEqual(pattern.tags.map((t) => t.id).sort((a, b) => a - b));
    let worst = 0;
    for (const f of found) {
      const t = pattern.tags.find((x) => x.id === f.id)!;
      t.cornersPx.forEach((c, k) => {
        worst = Math.max(worst, Math.hypot(f.cornersPx[2 * k]! - c.xPx, f.cornersPx[2 * k + 1]! - c.yPx));
      });
    }
    expect(worst).toBeLessThan(1);
    await page.context().close();
  });

  it('draws through the served calibration; URL parameters override it', async () => {
    current = served;
    let page = await open('/projector.html?show=all');
    await page.waitForFunction(() => window.__muster?.ready === true && document.body.dataset.calibration === 'service', undefined, { timeout: 20_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const probe = await page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), UNION_REACH_PROBE);
    const [ex, ey] = apply(SERVED_H, UNION_REACH_PROBE.xIn, UNION_REACH_PROBE.yIn);
    expect(probe.xPx).toBeCloseTo(ex, 3);
    expect(probe.yPx).toBeCloseTo(ey, 3);
    const shot = await decodeShot(await page.screenshot(), 1, 'projector-served-calibration.png');
    // The unit's reach is outlined at the projector pixels the calibration gives (the left edge of its
    // polygon), with no wash inside; open table stays black.
    const [rx, ry] = apply(SERVED_H, 8, 14);
    expectColour(shot.at(rx, ry), blend(0x000000, REACH.color, REACH.opacity), 40, 'reach outline at the calibrated pixel');
    expectColour(shot.at(ex, ey), 0x000000, 2, 'no wash inside the reach');
    const [bx, by] = apply(SERVED_H, CLOTH_PROBE.xIn, CLOTH_PROBE.yIn);
    expectColour(shot.at(bx, by), 0x000000, 2, 'open table');
    await page.context().close();

    page = await open(`/projector.html?h=${URL_H.join(',')}&w=${W}&hpx=${H}`);
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 20_000 });
    expect(await page.evaluate(() => document.body.dataset.calibration)).toBe('url');
    const viaUrl = await page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), UNION_REACH_PROBE);
    const [ux, uy] = apply(URL_H, UNION_REACH_PROBE.xIn, UNION_REACH_PROBE.yIn);
    expect(viaUrl.xPx).toBeCloseTo(ux, 3);
    expect(viaUrl.yPx).toBeCloseTo(uy, 3);
    await page.context().close();

    // Without a calibration anywhere: the table is fitted to the screen.
    current = null;
    page = await open('/projector.html');
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 20_000 });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.body.dataset.calibration)).toBe('fit');
    await page.context().close();
  });
});
