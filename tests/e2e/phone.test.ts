/**
 * The phone camera page in real headless Chromium with its fake camera (a moving test pattern): the page
 * opens the camera, streams JPEG frames over `/camera` with the operator token, and the service receives
 * them (its frame rate rises above zero). The pattern has no tags; that the frames' stands are tracked is
 * shown with rendered frames in tests/service/phoneCamera.test.ts.
 */
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { REPO_ROOT, type RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { tempDir } from '../service/helpers.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { launchChromium } from './helpers/browser.ts';

const TOKEN = 'phone-e2e-token';
const dir = tempDir('muster-phone-e2e-');
let live: RunningLive;
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
  browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await live?.stop();
  dir.remove();
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
