/**
 * The evaluation's table-wide readings in the operator panel, end to end: the real server serves a table
 * the real Devil to Pay rules evaluate, where two Texas regiments of Hood's brigade may charge one Union
 * regiment together. Real headless Chromium shows Hood's orders per turn with the rulebook section, and the
 * combined charge (both attackers, the target, the one pool) under each unit it involves; when one
 * attacker marches off, the next published state (a delta) takes the combined charge away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import type { LiveState } from '@muster/protocol';
import type { Stand, TableState, Unit } from '@muster/rules';
import { startServer, type RunningServer } from '../../apps/server/src/http/createServer.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { launchChromium } from './helpers/browser.ts';
import { liveStateForTable } from './helpers/optionalRulesScene.ts';
import { SceneBackend } from './helpers/sceneBackend.ts';

const TOKEN = 'table-wide-e2e';

function line(unitId: string, xs: readonly number[], yIn: number, headingDeg: number): Stand[] {
  return xs.map((xIn, i) => ({ id: `${unitId}-s${i + 1}`, unitId, pose: { xIn, yIn, headingDeg }, widthIn: 1.5, depthIn: 1.5, role: i === 0 ? 'command' : 'base' }));
}

function table(secondTexasX: number): TableState {
  const stands = [...line('mn', [30, 31.5, 33, 34.5], 12, 90), ...line('tx1', [27, 28.5, 30, 31.5], 16, 270), ...line('tx4', [0, 1.5, 3, 4.5].map((d) => secondTexasX + d), 16, 270)];
  const ids = (u: string) => stands.filter((s) => s.unitId === u).map((s) => s.id);
  const units: Unit[] = [
    { id: 'mn', name: '1st Minnesota', side: 'union', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ids('mn') },
    { id: 'tx1', name: '1st Texas', side: 'confederate', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ids('tx1'), brigadeId: 'hood' },
    { id: 'tx4', name: '4th Texas', side: 'confederate', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ids('tx4'), brigadeId: 'hood' },
  ];
  return {
    version: 1,
    table: { widthIn: 72, depthIn: 48 },
    stands,
    units,
    commanders: [{ id: 'hood', name: 'Brig. Gen. Hood', side: 'confederate', brigadeId: 'hood', quality: 'superb' }],
    terrain: { areas: [], linear: [], roads: [], elevations: [] },
  };
}

function liveState(tableState: TableState): LiveState {
  return liveStateForTable(tableState, 'e2e combined charge');
}

let backend: SceneBackend;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  backend = new SceneBackend(liveState(table(33)));
  server = await startServer({ backend, operatorToken: TOKEN, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function select(page: Page, unitId: string): Promise<void> {
  const stand = backend.state().tableState.stands.find((s) => s.unitId === unitId && s.role === 'base')!;
  const at = await page.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), stand.pose);
  await page.mouse.click(at.xPx, at.yPx);
  await page.waitForFunction((u) => window.__muster?.selectedUnitId === u, unitId);
}

describe('operator panel: commanders and combined charges', () => {
  it('shows orders per turn and the combined charge in sentences with the section, and follows a delta', async () => {
    const ev = backend.state().evaluation!;
    // What the test relies on, as the real rules report it.
    expect(ev.combinedCharges?.map((c) => [c.targetUnitId, c.attackerUnitIds])).toEqual([['mn', ['tx1', 'tx4']]]);
    const combined = ev.combinedCharges![0]!;
    const hood = ev.commanders!.hood!;

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/operator.html?token=${TOKEN}`);
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 20_000 });

    const orders = `Brig. Gen. Hood (superb): ${hood.ordersPerTurn} orders per turn. ${hood.source}`;
    await expect.poll(() => page.locator('#commanders [data-commander="hood"]').textContent()).toBe(orders);
    const sentence = `1st Texas and 4th Texas may charge 1st Minnesota together: ${combined.attacker.dice} dice against ${combined.defender.dice} dice`;
    await expect.poll(() => page.locator('#commanders .combined-charge').textContent()).toContain(sentence);
    expect(await page.locator('#commanders .combined-charge').textContent()).toContain(combined.source);

    // Under the attacker's Charge and the target's, and the attacker's Command names its commander's orders.
    await select(page, 'tx1');
    await expect.poll(() => page.locator('#unit-panel .combined-charge').textContent()).toContain(sentence);
    expect(await page.locator('#unit-panel .commander-reading').textContent()).toBe(orders);
    await select(page, 'mn');
    await expect.poll(() => page.locator('#unit-panel .combined-charge').textContent()).toContain(sentence);
    expect(await page.locator('#unit-panel .commander-reading').count()).toBe(0);

    // The 4th Texas marches off: the rules find no combined charge, and the delta takes it away.
    backend.publish((s) => {
      const next = liveState(table(60));
      return { ...s, tableState: next.tableState, evaluation: next.evaluation };
    });
    expect(backend.state().evaluation!.combinedCharges).toBeUndefined();
    await expect.poll(() => page.locator('#unit-panel .combined-charge').count()).toBe(0);
    await expect.poll(() => page.locator('#commanders .combined-charge').count()).toBe(0);
    expect(await page.locator('#commanders [data-commander="hood"]').textContent()).toBe(orders);
    await page.close();
  });
});
