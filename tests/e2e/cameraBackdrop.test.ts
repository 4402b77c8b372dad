/**
 * The operator view's camera backdrop against the whole service running the demo from rendered frames
 * (`demoSource: 'frames'`: real detector, real image→table homography, `GET /api/frame.jpg` serving the
 * rendered frame). With the Camera toggle on, the photo must lie where the table is: a known tag (corner
 * anchor 2, 2" square at table (70, 46)) shows its dark and white cells at the screen position the
 * table→screen map gives, the cloth just beside it is plain, and open table shows the rendered frame's
 * grey cloth instead of the map's green. Turned off, the same spots are the map's green again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { TABLE_CLOTH } from '../../apps/overlay/src/views/palette.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { colorDistance, decodeShot, describe as rgba, hexRgb, type Rgba, type Shot } from './helpers/pixels.ts';
import { launchChromium } from './helpers/browser.ts';

const TOKEN = 'camera-backdrop-e2e';
/**
 * Corner anchor 2 of fixtures/demo/demo-table.json: centre (70, 46), 2" across, on open cloth (the demo's
 * terrain covers the other three corners, and the map draws stands opaque over their own tags).
 */
const ANCHOR = { xIn: 70, yIn: 46, sizeIn: 2 };
let live: RunningLive;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  ensureViewsBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'muster-camera-backdrop-'));
  live = await startLive({ source: { mode: 'demo', demoSource: 'frames', fps: 2 }, dataDir, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: TOKEN });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await live?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const luminance = (c: Rgba): number => 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;

/** Colours on a grid of table points (inches), read from a shot through the page's table→screen map. */
async function sampleTable(page: Page, shot: Shot, points: readonly { xIn: number; yIn: number }[]): Promise<Rgba[]> {
  const px = await page.evaluate((pts) => pts.map((p) => window.__muster!.tableToScreenPx(p.xIn, p.yIn)), points);
  return px.map((p) => shot.at(p.xPx, p.yPx));
}

function squareGrid(cx: number, cy: number, halfIn: number, stepIn: number): { xIn: number; yIn: number }[] {
  const out: { xIn: number; yIn: number }[] = [];
  for (let y = cy - halfIn; y <= cy + halfIn + 1e-9; y += stepIn) for (let x = cx - halfIn; x <= cx + halfIn + 1e-9; x += stepIn) out.push({ xIn: x, yIn: y });
  return out;
}

const twoFrames = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

describe('camera backdrop in the operator view', () => {
  it('lays the newest camera frame on the table through the camera homography', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${live.url}/operator.html?token=${TOKEN}`);
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 60_000 });
    // The toggle waits for the service's camera solution (the detector must see the corner anchors).
    await page.waitForFunction(() => (document.getElementById('camera-backdrop') as HTMLInputElement | null)?.disabled === false, undefined, { timeout: 90_000 });
    // Annotations off, so only cloth, terrain, stands and (later) the photo are drawn.
    await page.evaluate(() => {
      for (const box of document.querySelectorAll<HTMLInputElement>('details.layers input[type=checkbox]')) box.click();
    });
    await twoFrames(page);

    // Inside the anchor (its inner 80%) and a ring of open table around it, 1" out from its edge.
    const inside = squareGrid(ANCHOR.xIn, ANCHOR.yIn, ANCHOR.sizeIn * 0.4, 0.1);
    const beside = [
      { xIn: ANCHOR.xIn - 2.5, yIn: ANCHOR.yIn }, { xIn: ANCHOR.xIn, yIn: ANCHOR.yIn - 2.5 },
      { xIn: ANCHOR.xIn - 2.5, yIn: ANCHOR.yIn - 2.5 }, { xIn: ANCHOR.xIn - 4, yIn: ANCHOR.yIn - 1 },
    ];
    // Open table: grid points the map draws as bare cloth (no terrain, no stand) with the camera off.
    const candidates = squareGrid(36, 24, 30, 3);
    const mapShot = await decodeShot(await page.screenshot(), 1, 'camera-backdrop-map.png');
    const mapColours = await sampleTable(page, mapShot, candidates);
    const open = candidates.filter((_, i) => colorDistance(mapColours[i]!, hexRgb(TABLE_CLOTH)) <= 6);
    expect(open.length, 'the demo table should have open cloth').toBeGreaterThan(20);
    for (const c of await sampleTable(page, mapShot, inside)) expect(colorDistance(c, hexRgb(TABLE_CLOTH)), `map under the anchor ${rgba(c)}`).toBeLessThanOrEqual(6);

    await page.locator('#camera-backdrop').check();
    await page.waitForFunction(() => (document.getElementById('camera-backdrop') as HTMLInputElement).dataset.frameSeq !== undefined, undefined, { timeout: 30_000 });
    await twoFrames(page);
    const shot = await decodeShot(await page.screenshot(), 1, 'camera-backdrop-operator.png');

    // The anchor in the photo: both black and white cells where the table→screen map puts it.
    const tag = (await sampleTable(page, shot, inside)).map(luminance);
    expect(Math.min(...tag), 'dark cells of the anchor').toBeLessThan(60);
    expect(Math.max(...tag), 'white cells of the anchor').toBeGreaterThan(190);
    const darkShare = tag.filter((l) => l < 90).length / tag.length;
    expect(darkShare, 'an ArUco tag is mostly its black border and cells').toBeGreaterThan(0.3);
    // Right beside it, plain cloth: a photo shifted by an inch or more would put tag cells here.
    const besideColours = await sampleTable(page, shot, beside);
    for (const c of besideColours) expect(Math.abs(luminance(c) - luminance(besideColours[0]!)), `cloth beside the anchor ${rgba(c)}`).toBeLessThan(25);
    for (const c of besideColours) expect(luminance(c), `cloth beside the anchor ${rgba(c)}`).toBeGreaterThan(90);

    // Open table is the rendered frame's grey cloth, not the map's green (allowing for a few spots where
    // the photo shows something the map does not, e.g. a stand mid-march in a frame a moment old).
    const grey = (c: Rgba) => Math.max(c.r, c.g, c.b) - Math.min(c.r, c.g, c.b) <= 24 && colorDistance(c, hexRgb(TABLE_CLOTH)) > 30;
    const openColours = await sampleTable(page, shot, open);
    const greyShare = openColours.filter(grey).length / open.length;
    expect(greyShare, `grey cloth on open table; e.g. ${openColours.slice(0, 4).map(rgba).join(', ')}`).toBeGreaterThan(0.85);

    // Off again: the map's own cloth comes back under the anchor.
    await page.locator('#camera-backdrop').uncheck();
    await twoFrames(page);
    const offShot = await decodeShot(await page.screenshot(), 1);
    for (const c of await sampleTable(page, offShot, inside.slice(0, 5))) expect(colorDistance(c, hexRgb(TABLE_CLOTH))).toBeLessThanOrEqual(6);
    await page.close();
  }, 240_000);

  it('says why the toggle is off in the ground-truth demo (no camera frames)', async () => {
    const truthDir = mkdtempSync(join(tmpdir(), 'muster-camera-backdrop-truth-'));
    const truth = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir: truthDir, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: TOKEN });
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
      await page.goto(`${truth.url}/operator.html?token=${TOKEN}`);
      await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 });
      await expect.poll(() => page.locator('#camera-backdrop').isDisabled()).toBe(true);
      await expect.poll(() => page.locator('label.camera-toggle').getAttribute('title')).toMatch(/no frames/);
      await page.close();
    } finally {
      await truth.stop();
      rmSync(truthDir, { recursive: true, force: true });
    }
  }, 120_000);
});
