/**
 * The real views (built apps/overlay in headless Chromium) on a replay of a real record: the map draws
 * every unit of the replayed state, and follows the replay as it is moved to another moment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { LiveState } from '@muster/protocol';
import { startReplay, type RunningReplay } from '../../apps/server/src/replay/startReplay.ts';
import { launchChromium } from '../e2e/helpers/browser.ts';
import { ensureViewsBuilt, VIEWS_DIST } from '../e2e/helpers/buildViews.ts';
import { recordGame, type RecordedGameDir } from './recordGame.ts';

let game: RecordedGameDir;
let replay: RunningReplay;
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  game = await recordGame(4, 8);
  replay = await startReplay({ dataDir: game.dataDir, port: 0, speed: 0, from: 'turn:2', viewsDir: VIEWS_DIST });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await replay?.stop();
  game?.dir.remove();
});

describe('views on a replay', () => {
  it('the map draws every unit of the replayed moment, and follows the replay to another one', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${replay.url}/map.html`);
    await page.waitForFunction(() => (globalThis as { __muster?: { ready?: boolean } }).__muster?.ready === true, undefined, { timeout: 30_000 });
    const state = (await page.evaluate(async () => (await fetch('/api/snapshot')).json())) as LiveState;
    expect(state.turn).toBe(2);
    // Units with a stand on the table get a label (the state lists the army's other units with none).
    const placed = (s: LiveState) => s.tableState.units.filter((u) => u.standIds.length > 0);
    expect(placed(state).length).toBeGreaterThan(1);
    for (const unit of placed(state)) {
      await expect.poll(() => page.locator('.unit-label', { hasText: unit.name }).count()).toBe(1);
    }
    // Back to the first entries: only the stands placed by then are on the table, and the map follows.
    replay.backend.moveTo(5);
    const early = replay.backend.state();
    const shown = new Set(placed(early).map((u) => u.name));
    const hidden = placed(state).filter((u) => !shown.has(u.name));
    expect(hidden.length).toBeGreaterThan(0);
    for (const unit of hidden) await expect.poll(() => page.locator('.unit-label', { hasText: unit.name }).count()).toBe(0);
    for (const name of shown) await expect.poll(() => page.locator('.unit-label', { hasText: name }).count()).toBe(1);
    await page.close();
  }, 120_000);
});
