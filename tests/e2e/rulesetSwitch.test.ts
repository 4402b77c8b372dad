/**
 * Protocol 4 in real Chromium against a real live service (the demo, real rules on the worker): the
 * operator page switches the rule set from its chooser and the map in another browser (no shared
 * BroadcastChannel) follows: its game strip names the new rule set and its legend lists the new rule
 * set's looks only. Then a measurement set by another ws client (not a page in the projector's browser)
 * is drawn on the projector's cloth with its reading.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, type ClientMessage, type LiveState, type ServerMessage } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { ARTIFACTS_DIR } from './helpers/pixels.ts';
import { launchChromium } from './helpers/browser.ts';

const TOKEN = 'ruleset-switch-e2e';
const W = 1280;
const H = 800;
let dataDir: string;
let live: RunningLive;
let browser: Browser;

beforeAll(async () => {
  ensureViewsBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'muster-ruleset-e2e-'));
  live = await startLive({ source: { mode: 'demo', demoSource: 'truth', fps: 10, speed: 1 }, dataDir, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: TOKEN });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await live?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${live.url}${path}`);
  await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 }).catch((e: unknown) => {
    throw new Error(`${path} never became ready: ${String(e)}; ${errors.join(' | ')}`);
  });
  return page;
}

async function snapshot(): Promise<LiveState> {
  return (await (await fetch(`${live.url}/api/snapshot`)).json()) as LiveState;
}

const legendStyles = (page: Page): Promise<string[]> => page.$$eval('.legend .legend-row[data-style]', (rows) => rows.map((r) => (r as HTMLElement).dataset.style!).sort());

describe('the rule set chosen from the operator page', () => {
  it('switches the game, and the map in another browser follows: strip and legend', async () => {
    const mapContext = await browser.newContext({ viewport: { width: W, height: H } });
    const operatorContext = await browser.newContext({ viewport: { width: W, height: H } });
    const map = await open(mapContext, '/map.html');
    const operator = await open(operatorContext, `/operator.html?token=${TOKEN}`);

    await expect.poll(() => map.locator('.hud-ruleset').textContent(), { timeout: 30_000 }).toBe('The Devil to Pay');
    await expect.poll(async () => (await legendStyles(map)).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const before = await legendStyles(map);
    // The chooser lists every installed rule set, the one in use selected.
    await expect.poll(() => operator.locator('#ruleset-select option').count(), { timeout: 20_000 }).toBe(4);
    expect(await operator.locator('#ruleset-select').inputValue()).toBe('devil-to-pay');
    expect(await operator.locator('#ruleset-apply').isDisabled()).toBe(true);

    await operator.locator('#ruleset-select').selectOption('volley-and-bayonet');
    await operator.locator('#ruleset-apply').click();
    await expect.poll(() => operator.locator('#ruleset-result').textContent(), { timeout: 20_000 }).toContain('Now playing Volley & Bayonet');
    // The operator sees what the army lacks for it, and that the rules warn about missing values.
    await expect.poll(() => operator.locator('#ruleset-problems summary').textContent(), { timeout: 20_000 }).toBe('The army lacks values this rule set asks for');
    expect(await operator.locator('#ruleset-problems li').first().textContent()).toMatch(/rulesetFields\.troop-type: missing/);
    await expect.poll(() => operator.locator('#ruleset-missing').textContent(), { timeout: 20_000 }).toMatch(/name a missing value/);

    // The service evaluates with it, and the map (another browser: only the wire tells it) follows.
    await expect.poll(async () => (await snapshot()).evaluation?.rulesetId, { timeout: 30_000 }).toBe('volley-and-bayonet');
    await expect.poll(() => map.locator('.hud-ruleset').textContent(), { timeout: 30_000 }).toContain('Volley & Bayonet');
    const drawnStyles = new Set((await snapshot()).evaluation!.shapes.map((s) => s.style));
    await expect.poll(async () => (await legendStyles(map)).every((s) => drawnStyles.has(s as never)), { timeout: 30_000 }).toBe(true);
    const after = await legendStyles(map);
    expect(after.length).toBeGreaterThan(0);
    // The Devil to Pay's charge sectors and fire arcs are gone from the legend with their shapes.
    expect(before).not.toEqual(after);
    expect(after).not.toContain('charge');
    await map.screenshot({ path: join(ARTIFACTS_DIR, 'ruleset-switch-map.png') });
    await operator.screenshot({ path: join(ARTIFACTS_DIR, 'ruleset-switch-operator.png') });
    await mapContext.close();
    await operatorContext.close();
  }, 120_000);
});

/** A ws operator client in this process (not a page): what the projector gets, it gets over the wire. */
async function operatorSocket(): Promise<{ send(m: ClientMessage): void; close(): void; next(match: (m: ServerMessage) => boolean): Promise<ServerMessage> }> {
  const ws = new WebSocket(`${live.url.replace(/^http/, 'ws')}/ws`);
  const seen: ServerMessage[] = [];
  const waiters: { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as ServerMessage;
    seen.push(m);
    for (const w of waiters.splice(0)) (w.match(m) ? w.resolve(m) : waiters.push(w));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const api = {
    send: (m: ClientMessage) => ws.send(JSON.stringify(m)),
    close: () => ws.close(),
    next: (match: (m: ServerMessage) => boolean) =>
      new Promise<ServerMessage>((resolve) => {
        const found = seen.find(match);
        if (found) resolve(found);
        else waiters.push({ match, resolve });
      }),
  };
  api.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token: TOKEN, requestId: 'h' });
  expect(await api.next((m) => m.type === 'welcome' && m.role === 'operator')).toBeTruthy();
  return api;
}

async function litAt(page: Page, name: string, pointsPx: readonly { xPx: number; yPx: number }[]): Promise<boolean[]> {
  const png = await page.screenshot({ path: join(ARTIFACTS_DIR, name) });
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return pointsPx.map(({ xPx, yPx }) => {
    const i = (Math.round(yPx) * info.width + Math.round(xPx)) * 3;
    return data[i]! > 24 || data[i + 1]! > 24 || data[i + 2]! > 24;
  });
}

describe('a measurement shared over the wire', () => {
  it('set by another client is drawn on the projector with its reading, and cleared again', async () => {
    const context = await browser.newContext({ viewport: { width: W, height: H } });
    const projector = await open(context, '/projector.html');
    // A stretch of open table along the near edge: every stand is masked black, so keep the tape off them.
    const state = await snapshot();
    const { widthIn, depthIn } = state.tableState.table;
    const clear = (x0: number, yIn: number) => state.tableState.stands.every((s) => s.pose.yIn < yIn - 3 || s.pose.yIn > yIn + 3 || s.pose.xIn < x0 - 3 || s.pose.xIn > x0 + 15);
    let spot: { x0: number; yIn: number } | undefined;
    for (let yIn = 2; yIn < depthIn - 2 && !spot; yIn += 1) for (let x0 = 2; x0 + 14 < widthIn && !spot; x0 += 2) if (clear(x0, yIn)) spot = { x0, yIn };
    expect(spot, 'a 12" stretch of open table').toBeDefined();
    const { x0, yIn: y } = spot!;
    const from = { xIn: x0, yIn: y };
    const to = { xIn: x0 + 12, yIn: y };
    const along = await projector.evaluate((pts) => pts.map((p) => window.__muster!.tableToScreenPx(p.xIn, p.yIn)), [2, 5.5, 9].map((dx) => ({ xIn: x0 + dx, yIn: y })));
    expect(await litAt(projector, 'shared-tape-before.png', along)).toEqual([false, false, false]);

    const op = await operatorSocket();
    try {
      op.send({ type: 'set-focus', unitId: null, measure: { from: { ...from, standId: null }, to: { ...to, standId: null } }, requestId: 'f' });
      expect(await op.next((m) => (m.type === 'ack' || m.type === 'error') && m.requestId === 'f')).toMatchObject({ type: 'ack', action: 'set-focus' });
      await expect.poll(async () => (await litAt(projector, 'shared-tape.png', along)).every(Boolean), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => projector.locator('.measure-label').first().textContent(), { timeout: 10_000 }).toBe('12.0"');

      op.send({ type: 'set-focus', unitId: null, measure: null, requestId: 'c' });
      await expect.poll(async () => (await litAt(projector, 'shared-tape-cleared.png', along)).some(Boolean), { timeout: 15_000 }).toBe(false);

      // With a unit selected whose rules publish weapon bands (The Devil to Pay), the cloth's tape carries
      // them too, labelled, as on the operator's screen; without a selection it is plain again.
      op.send({ type: 'set-ruleset', rulesetId: 'devil-to-pay', requestId: 'r' });
      await op.next((m) => (m.type === 'ack' || m.type === 'error') && m.requestId === 'r');
      let banded: { unitId: string; bands: number } | undefined;
      await expect
        .poll(async () => {
          const st = await snapshot();
          if (st.evaluation?.rulesetId !== 'devil-to-pay') return false;
          const hit = Object.values(st.evaluation.units).find((u) => (u.weaponRange?.bands.length ?? 0) > 0);
          banded = hit ? { unitId: hit.unitId, bands: hit.weaponRange!.bands.length } : undefined;
          return banded !== undefined;
        }, { timeout: 20_000 })
        .toBe(true);
      const far = { xIn: Math.min(widthIn - 1, x0 + 40), yIn: y };
      op.send({ type: 'set-focus', unitId: banded!.unitId, measure: { from: { ...from, standId: null }, to: { ...far, standId: null } }, requestId: 'b' });
      await expect.poll(() => projector.locator('.band-label').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const bandTexts = await projector.locator('.band-label').allTextContents();
      expect(bandTexts.length).toBeLessThanOrEqual(banded!.bands);
      expect(bandTexts.join(' ')).toMatch(/\d+"/);
      op.send({ type: 'set-focus', unitId: null, measure: { from: { ...from, standId: null }, to: { ...far, standId: null } }, requestId: 'p' });
      await expect.poll(() => projector.locator('.band-label').count(), { timeout: 15_000 }).toBe(0);
      await expect.poll(() => projector.locator('.measure-label').count(), { timeout: 15_000 }).toBe(1);
    } finally {
      op.close();
      await context.close();
    }
  }, 120_000);
});

describe('the operator page shares its selection over the wire', () => {
  it('a unit clicked on the operator page is lit on a projector in another browser', async () => {
    const operatorContext = await browser.newContext({ viewport: { width: W, height: H } });
    const projectorContext = await browser.newContext({ viewport: { width: W, height: H } });
    const projector = await open(projectorContext, '/projector.html');
    const operator = await open(operatorContext, `/operator.html?token=${TOKEN}`);
    try {
      const state = await snapshot();
      const unit = state.tableState.units[0]!;
      expect(await projector.locator('.unit-label', { hasText: unit.name }).count()).toBe(0);
      const stand = state.tableState.stands.find((st) => st.unitId === unit.id)!;
      const at = await operator.evaluate(({ xIn, yIn }) => window.__muster!.tableToScreenPx(xIn, yIn), stand.pose);
      await operator.mouse.click(at.xPx, at.yPx);
      await operator.waitForFunction((u) => window.__muster?.selectedUnitId === u, unit.id);
      // Only the service links the two browsers: the projector lights the unit the operator selected.
      await expect.poll(() => projector.locator('.unit-label', { hasText: unit.name }).count(), { timeout: 20_000 }).toBe(1);
      expect((await snapshot()).focus?.unitId).toBe(unit.id);
    } finally {
      await operatorContext.close();
      await projectorContext.close();
    }
  }, 120_000);
});
