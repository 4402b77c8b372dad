/**
 * Writes the README pictures in this folder from what the code draws today: the demo battle as
 * `npm start` serves it (`startLive`, scripted poses, real rules), the views rebuilt if stale, headless
 * Chromium (SwiftShader) at 1280×800, and the map on a 390×844 phone.
 *
 *   node --import tsx tests/docs/takeScreenshots.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import type { LiveState } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { ensureViewsBuilt, VIEWS_DIST } from '../e2e/helpers/buildViews.ts';
import { launchChromium } from '../e2e/helpers/browser.ts';

/** Where the pictures go: this folder, or `MUSTER_DOCS_OUT` (to look before replacing them). */
const DOCS = process.env.MUSTER_DOCS_OUT ?? join(dirname(fileURLToPath(import.meta.url)), '../../apps/overlay/docs');
const TOKEN = 'docs-screenshots';
/** The unit the operator and projector pictures select (the README names it). */
const UNIT_NAME = '19th Alabama';

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 60_000 });
  // Let the demo run a little so the game strip and ghosts have something, then settle two frames.
  await page.waitForTimeout(1500);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function clickUnit(page: Page): Promise<void> {
  const state = (await page.evaluate(async () => (await fetch('/api/snapshot')).json())) as LiveState;
  const unit = state.tableState.units.find((u) => u.name.includes(UNIT_NAME));
  if (!unit) throw new Error(`the demo has no unit called ${UNIT_NAME}`);
  const stand = state.tableState.stands.find((s) => s.unitId === unit.id && s.role !== 'commander')!;
  const at = await page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), stand.pose);
  await page.mouse.click(at.xPx, at.yPx);
  await page.waitForFunction((id) => window.__muster?.selectedUnitId === id, unit.id);
}

ensureViewsBuilt();
const dataDir = mkdtempSync(join(tmpdir(), 'muster-docs-'));
const live = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: TOKEN });
const browser = await launchChromium();
try {
  // The phone first: the operator's selection below is shared with every view.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  const phoneMap = await phone.newPage();
  await phoneMap.goto(`${live.url}/`);
  await ready(phoneMap);
  await phoneMap.screenshot({ path: join(DOCS, 'map-phone.png') });
  await phone.close();
  const desktop = { viewport: { width: 1280, height: 800 } };
  const context = await browser.newContext(desktop);
  const map = await context.newPage();
  await map.goto(`${live.url}/`);
  await ready(map);
  await map.screenshot({ path: join(DOCS, 'map.png') });

  const operator = await context.newPage();
  await operator.goto(`${live.url}/operator.html?token=${TOKEN}`);
  await ready(operator);
  // The projector in the same browser lights the unit the operator selects.
  const projector = await context.newPage();
  await projector.goto(`${live.url}/projector.html`);
  await ready(projector);
  await operator.bringToFront();
  await clickUnit(operator);
  await operator.waitForTimeout(800);
  // The unit's reading at the top of the panel (a click can leave it scrolled).
  await operator.evaluate(() => document.querySelector('.panel')?.scrollTo(0, 0));
  await operator.screenshot({ path: join(DOCS, 'operator.png') });
  await projector.bringToFront();
  await projector.waitForTimeout(800);
  await projector.screenshot({ path: join(DOCS, 'projector.png') });

  const overlay = await context.newPage();
  // A grey stand-in for the video under the transparent page, as OBS would composite it.
  await overlay.goto(`${live.url}/overlay.html`);
  await ready(overlay);
  await overlay.evaluate(() => document.documentElement.style.setProperty('background', '#6b6f73'));
  await overlay.screenshot({ path: join(DOCS, 'overlay.png') });
  await context.close();

  process.stdout.write(`wrote map.png, operator.png, projector.png, overlay.png, map-phone.png in ${DOCS}\n`);
} finally {
  await browser.close();
  await live.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
