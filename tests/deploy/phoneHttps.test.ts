/**
 * Why `--https` exists: a phone reaches the service by the laptop's network name or address, and there
 * a browser opens the camera only on https. Real headless Chromium with its fake camera opens
 * `/phone.html` by a non-loopback name (`muster.test`, mapped to 127.0.0.1 inside Chromium only): over
 * http the page is not a secure context and says the camera needs https; over https (the service's
 * self-signed certificate, accepted the way a person clicks through the warning) it streams frames over
 * wss and the service's frame rate rises above zero.
 */
import { type Browser } from 'playwright-core';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { storedSelfSignedCertificate } from '../../apps/server/src/config/resolveTls.ts';
import { launchChromium } from '../e2e/helpers/browser.ts';
import { ensureViewsBuilt, VIEWS_DIST } from '../e2e/helpers/buildViews.ts';
import { tempDir } from './startCli.ts';

const TOKEN = 'phone-https-token';
const NAME = 'muster.test';
const dirs = [tempDir('muster-phone-https-'), tempDir('muster-phone-http-')];
let secure: RunningLive;
let plain: RunningLive;
let browser: Browser;

function phoneStart(dataDir: string, tls?: { certPem: string; keyPem: string }): Promise<RunningLive> {
  return startLive({
    source: { mode: 'camera', spec: 'phone', tablePath: join(REPO_ROOT, 'fixtures/demo/demo-table.json'), rosterPath: join(REPO_ROOT, 'fixtures/rosters/opening-battle.yaml') },
    dataDir,
    port: 0,
    viewsDir: VIEWS_DIST,
    operatorToken: TOKEN,
    allowHosts: [NAME],
    ...(tls ? { tls } : {}),
  });
}

beforeAll(async () => {
  ensureViewsBuilt();
  const cert = storedSelfSignedCertificate(dirs[0]!.path);
  secure = await phoneStart(dirs[0]!.path, { certPem: cert.certPem, keyPem: cert.keyPem });
  plain = await phoneStart(dirs[1]!.path);
  browser = await launchChromium([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--host-resolver-rules=MAP ${NAME} 127.0.0.1`,
    // What a person does once on the phone: accept the self-signed certificate's warning.
    '--ignore-certificate-errors',
  ]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await secure?.stop();
  await plain?.stop();
  dirs.forEach((d) => d.remove());
});

const byName = (url: string): string => url.replace('127.0.0.1', NAME);

describe('the phone page by a network name', () => {
  it('over http: not a secure context, no camera', async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
    await page.goto(`${byName(plain.url)}/phone.html?token=${TOKEN}&max=640`);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    await page.waitForFunction(() => /only on https/.test(document.getElementById('status')?.textContent ?? ''), undefined, { timeout: 30_000 });
    await page.close();
  });

  it('over https (--https): a secure context that streams the camera over wss', async () => {
    expect(secure.url).toMatch(/^https:/);
    const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
    await page.goto(`${byName(secure.url)}/phone.html?token=${TOKEN}&max=640`);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    await page.waitForFunction(() => /sending \d+×\d+/.test(document.getElementById('status')?.textContent ?? ''), undefined, { timeout: 60_000 });
    const deadline = Date.now() + 30_000;
    let frameRateHz = 0;
    while (frameRateHz <= 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      frameRateHz = secure.pipeline.state().health.frameRateHz;
    }
    expect(frameRateHz).toBeGreaterThan(0);
    await page.screenshot({ path: join(REPO_ROOT, 'test-artifacts/phone-camera-https.png') });
    await page.close();
  });
});
