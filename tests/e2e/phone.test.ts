/**
 * The phone camera page in real headless Chromium with its fake camera (a moving test pattern): the page
 * opens the camera, streams JPEG frames over `/camera` with the operator token, and the service receives
 * them (its frame rate rises above zero). The pattern has no tags; that the frames' stands are tracked is
 * shown with rendered frames in tests/service/phoneCamera.test.ts. And the map on a 390×844 phone, over
 * the demo battle (`startLive` as `npm start` runs it): the table uses the screen's width and most of its
 * height, nothing lies over it, and every unit's name is whole on screen.
 */
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import type { LiveState } from '@muster/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { REPO_ROOT, type RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { tempDir } from '../service/helpers.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { launchChromium } from './helpers/browser.ts';

const TOKEN = 'phone-e2e-token';
const dir = tempDir('muster-phone-e2e-');
let live: RunningLive;
let demo: RunningLive;
const demoDir = tempDir('muster-phone-map-e2e-');
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  live = await startLive({
    source: { mode: 'camera', spec: 'phone', tablePath: join(REPO_ROOT, 'fixtures/demo/demo-table.json'), rosterPath: join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml') },
    dataDir: dir.path,
    port: 0,
    viewsDir: VIEWS_DIST,
    operatorToken: TOKEN,
  });
  demo = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir: demoDir.path, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: TOKEN });
  browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await live?.stop();
  await demo?.stop();
  dir.remove();
  demoDir.remove();
});

describe('phone camera page', () => {
  it('streams the camera to the service, paced by acknowledgements', async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
    await page.goto(`${live.url}/phone.html?token=${TOKEN}&max=640`);
    await page.waitForFunction(() => /sending \d+×\d+/.test(document.getElementById('status')?.textContent ?? ''), undefined, { timeout: 30_000 });
    const deadline = Date.now() + 15_000;
    let frameRateHz = 0;
    while (frameRateHz <= 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      frameRateHz = ((await (await fetch(`${live.url}/api/health`)).json()) as { frameRateHz: number }).frameRateHz;
    }
    expect(frameRateHz).toBeGreaterThan(0);
    await page.screenshot({ path: join(REPO_ROOT, 'test-artifacts/phone-camera.png') });
  });
});

describe('map on a phone', () => {
  it('uses the screen: the table at full width and most of the height, nothing over it, names whole', async () => {
    const width = 390;
    const height = 844;
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${demo.url}/`);
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 });
    // Let the legend and game strip settle (they decide the bands the table keeps clear of).
    await page.waitForTimeout(1000);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(REPO_ROOT, 'test-artifacts/phone-map.png') });
    const table = await page.evaluate(() => {
      const a = window.__muster!.tableToScreenPx(0, 0);
      const b = window.__muster!.tableToScreenPx(72, 48);
      return { left: Math.min(a.xPx, b.xPx), right: Math.max(a.xPx, b.xPx), top: Math.min(a.yPx, b.yPx), bottom: Math.max(a.yPx, b.yPx) };
    });
    const stage = (await page.locator('.stage').boundingBox())!;
    // The table turns a quarter and takes the phone's width; its height is then the 3:2 table's, two
    // thirds of the screen (it was 510 of 800 px before, floating mid-screen under the legend).
    expect(table.left).toBeGreaterThanOrEqual(0);
    expect(table.right).toBeLessThanOrEqual(width);
    expect(table.right - table.left).toBeGreaterThan(width * 0.97);
    expect((table.bottom - table.top) / height).toBeGreaterThan(0.66);
    // Right under the top bar: no empty band above it.
    expect(table.top - stage.y).toBeLessThan(10);
    // The legend and game strip sit in the spare height under the table, not over it.
    for (const selector of ['.legend', '.hud']) {
      const box = await page.locator(selector).first().boundingBox();
      expect(box, `${selector} shown`).not.toBeNull();
      expect(box!.y, `${selector} below the table`).toBeGreaterThanOrEqual(table.bottom);
      expect(box!.y + box!.height).toBeLessThanOrEqual(height);
    }
    // Every unit is named, in full, on screen: shown and inside the screen's width.
    const state = (await page.evaluate(async () => (await fetch('/api/snapshot')).json())) as LiveState;
    const labels = await page.locator('.unit-label').evaluateAll((els) =>
      els.map((e) => ({ text: e.textContent ?? '', hidden: (e as HTMLElement).style.visibility === 'hidden', left: e.getBoundingClientRect().left, right: e.getBoundingClientRect().right })),
    );
    for (const unit of state.tableState.units) {
      const label = labels.find((l) => l.text.startsWith(unit.name));
      expect(label, `a label for ${unit.name}`).toBeDefined();
      expect(label!.hidden, `${unit.name} shown`).toBe(false);
      expect(label!.left, `${unit.name} not cut on the left`).toBeGreaterThanOrEqual(0);
      expect(label!.right, `${unit.name} not cut on the right`).toBeLessThanOrEqual(width);
    }
    await context.close();
  });
});

