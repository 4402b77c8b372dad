/**
 * The operator panel with The Devil to Pay's optional rules in play, end to end: the real server serves a
 * table with `optionalRules: ['split-fire', 'hasty-works']` and a sharpshooter unit, evaluated by the real
 * rules (tests/e2e/helpers/optionalRulesScene.ts); real headless Chromium selects the sharpshooters by
 * clicking a stand and reads the panel: the split fire pair with its pool and source, hasty works in woods,
 * orders per turn, and the loose-order warning. A unit without them shows none of it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { SHARPSHOOTERS, TEXAS, optionalRulesLiveState } from './helpers/optionalRulesScene.ts';
import { ARTIFACTS_DIR } from './helpers/pixels.ts';
import { SceneBackend } from './helpers/sceneBackend.ts';
import { launchChromium } from './helpers/browser.ts';

const TOKEN = 'e2e-optional-rules-token';
let backend: SceneBackend;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  backend = new SceneBackend(optionalRulesLiveState());
  server = await startServer({ backend, operatorToken: TOKEN, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openOperator(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}/operator.html?token=${TOKEN}`);
  await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 20_000 }).catch((e: unknown) => {
    throw new Error(`operator page never became ready: ${String(e)}; page errors: ${errors.join(' | ')}`);
  });
  return page;
}

async function selectUnitByClick(page: Page, unitId: string): Promise<void> {
  const stand = backend.state().tableState.stands.find((s) => s.unitId === unitId && s.role === 'base')!;
  const at = await page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), stand.pose);
  await page.mouse.click(at.xPx, at.yPx);
  await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, unitId);
}

describe('operator panel: DTP optional rules', () => {
  it('shows split fire, hasty works, orders per turn and the sharpshooter warning for the selected unit', async () => {
    const reading = backend.state().evaluation!.units[SHARPSHOOTERS]!;
    // The scene is what the test relies on: the real rules report all of it.
    expect(reading.splitFire?.length).toBe(1);
    expect(reading.hastyWorks).toMatchObject({ moveActions: 3, inWoods: true });
    expect(reading.command.ordersPerTurn).toBe(3);

    const page = await openOperator();
    await selectUnitByClick(page, SHARPSHOOTERS);
    const panel = page.locator('#unit-panel');
    await expect.poll(() => panel.textContent()).toContain('1st U.S. Sharpshooters');

    const warning = page.locator('#unit-warnings li[data-code="sharpshooters/not-loose-order"]');
    expect(await warning.textContent()).toContain('sharpshooters must fight in loose order');
    expect(await warning.isVisible()).toBe(true);

    expect(await page.locator('#hasty-works').textContent()).toContain('Hasty works: 3 move actions (in woods)');
    expect(await page.locator('#hasty-works').textContent()).toContain('Optional Rules, Constructing Hasty Works');

    const split = page.locator('details.split-fire');
    expect(await split.count()).toBe(1);
    const pool = reading.splitFire![0]!.dice;
    expect(await split.locator('summary').textContent()).toContain(`1st Texas + 28th Virginia · ${pool} dice`);
    const splitText = (await split.textContent())!;
    expect(splitText).toContain(`pool ${pool} dice, from 1st Texas (the harder target)`);
    expect(splitText).toContain('Optional Rules, Split Fire');
    // Unfold the harder target's breakdown: its modifiers and their sources.
    await split.locator('summary').click({ position: { x: 8, y: 8 } });
    expect(await split.locator('table.breakdown').isVisible()).toBe(true);
    expect(await split.locator('table.breakdown').textContent()).toContain('Sharpshooters: no range penalty');

    expect(await page.locator('#unit-panel .command').textContent()).toContain('Orders per turn: 3.');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'operator-optional-rules.png') });

    // The split pool rolls through the service's roller, like a fire row's.
    await split.locator('button', { hasText: `Roll ${pool}` }).click();
    await expect.poll(() => page.locator('#log').textContent()).toContain('split fire: 1st U.S. Sharpshooters → 1st Texas + 28th Virginia');

    // A unit with none of these readings shows none of the blocks.
    await selectUnitByClick(page, TEXAS);
    await expect.poll(() => panel.textContent()).toContain('1st Texas');
    expect(await page.locator('#unit-warnings').count()).toBe(0);
    expect(await page.locator('#unit-panel .command').textContent()).not.toContain('Orders per turn');
    await page.context().close();
  });
});
