/**
 * The views against the whole service: `startLive` (the composition root `npm start` uses) replaying the
 * demo battle through the real rules, game session and server. Checks that every unit the service
 * publishes is drawn and labelled where the state says, that a unit selected on the map shows what the
 * real rules say about it, and that operator actions reach the real game session (card, dice, log).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import type { LiveState } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { DEFAULT_DEMO_SCRIPT, type RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { sidePaint } from '../../apps/overlay/src/views/palette.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { colorDistance, decodeShot, describe as rgba, hexRgb } from './helpers/pixels.ts';
import { launchChromium } from './helpers/browser.ts';

const TOKEN = 'demo-e2e-operator';
let live: RunningLive;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  ensureViewsBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'muster-views-demo-'));
  live = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: TOKEN });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await live?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('views on the demo service', () => {
  it('draws every published unit, and the operator reaches the real game session', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${live.url}/operator.html?token=${TOKEN}`);
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 });
    // The token leaves the address bar (screenshots, shared screens, history) and stays in the tab.
    expect(await page.evaluate(() => location.href)).not.toContain(TOKEN);
    // Freeze what we compare against: the state the page drew, fetched at the seq it reports.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const state = (await page.evaluate(async () => (await fetch('/api/snapshot')).json())) as LiveState;
    expect(state.tableState.units.length).toBeGreaterThan(1);
    for (const unit of state.tableState.units) {
      await expect.poll(() => page.locator('.unit-label', { hasText: unit.name }).count()).toBe(1);
    }
    // The status line shows the rules' own time per state once the service reports it (health.rulesMs).
    await expect.poll(() => page.locator('.status').first().textContent(), { timeout: 15_000 }).toMatch(/ · rules \d+(\.\d)? ms/);

    // A stand of a unit that never moves in the demo script (the others march while we look).
    const script = JSON.parse(readFileSync(DEFAULT_DEMO_SCRIPT, 'utf8')) as { units: Record<string, { keyframes: { xIn: number; yIn: number; headingDeg: number }[] }> };
    const staticUnitIds = Object.entries(script.units)
      .filter(([, u]) => u.keyframes.every((k) => k.xIn === u.keyframes[0]!.xIn && k.yIn === u.keyframes[0]!.yIn && k.headingDeg === u.keyframes[0]!.headingDeg))
      .map(([id]) => id);
    const later = state;
    const still = later.tableState.stands.find((s) => staticUnitIds.includes(s.unitId) && s.role !== 'commander');
    expect(still, `the demo should have a unit that stays put (static: ${staticUnitIds.join(', ')})`).toBeDefined();
    const unit = later.tableState.units.find((u) => u.id === still!.unitId)!;
    const sides = [...new Set(later.tableState.units.map((u) => u.side))];
    const at = await page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), still!.pose);
    // With every annotation layer off only the stand itself can be at its centre.
    // (Clicked in one go in the page: each separate Playwright click waits on a page that SwiftShader
    // keeps busy drawing the demo, and eight of them take most of a minute.)
    const clickAllLayerBoxes = () =>
      page.evaluate(() => {
        for (const box of document.querySelectorAll<HTMLInputElement>('details.layers input[type=checkbox]')) box.click();
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      });
    await clickAllLayerBoxes();
    // Screenshots are retaken until the stand shows (or 15 s pass): on a loaded machine SwiftShader's GPU
    // process can drop the WebGL context, and the canvas stays blank until the page redraws on restore.
    const paint = hexRgb(sidePaint(unit.side, sides).fill);
    let colour = (await decodeShot(await page.screenshot(), 1, 'demo-operator-e2e.png')).at(at.xPx, at.yPx);
    for (const deadline = Date.now() + 15_000; colorDistance(colour, paint) > 12 && Date.now() < deadline; ) {
      await page.waitForTimeout(500);
      colour = (await decodeShot(await page.screenshot(), 1, 'demo-operator-e2e.png')).at(at.xPx, at.yPx);
    }
    const losses = await page.evaluate(() => window.__muster?.contextLosses);
    expect(colorDistance(colour, paint), `stand ${still!.id} at ${rgba(colour)} (WebGL context losses: ${losses})`).toBeLessThanOrEqual(12);
    await clickAllLayerBoxes();

    // Select that unit: the panel shows the real rules' reading of it.
    await page.mouse.click(at.xPx, at.yPx);
    await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, unit.id);
    await expect.poll(() => page.locator('#unit-panel').textContent()).toContain(unit.name);
    await expect.poll(() => page.locator('#unit-panel').textContent()).toContain('Formation:');

    // The real game session: a card from the seeded deck, dice from the seeded roller, both logged.
    await page.getByRole('button', { name: 'Draw card' }).click();
    await expect.poll(() => page.locator('#card').textContent()).toMatch(/left/);
    await page.getByRole('button', { name: 'Roll', exact: true }).click();
    await expect.poll(async () => ((await page.locator('#dice').textContent()) ?? '').length).toBeGreaterThan(3);
    await expect.poll(() => page.locator('#log').textContent()).toMatch(/Card: .*Dice/s);
    await page.close();
  });
});
