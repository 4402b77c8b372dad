/**
 * The map in real Chromium fed through a real Mosquitto's websockets listener (`?mqtt=&table=`), never
 * through the table's own ws: the demo service publishes with the table's credential, the page reads
 * with a viewer credential that the broker's ACL lets read and not write. Every unit the service
 * publishes is labelled, the page follows the deltas, and when the table stops the page says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { type Browser } from 'playwright-core';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { attachBrokerPublisher, type BrokerPublisher } from '../../apps/server/src/mqtt/brokerPublisher.ts';
import { parseBrokerUrl } from '../../apps/server/src/mqtt/brokerUrl.ts';
import { Mosquitto, Subscriber } from '../service/mosquitto.ts';
import { ensureViewsBuilt, VIEWS_DIST } from './helpers/buildViews.ts';
import { launchChromium } from './helpers/browser.ts';

// The server README's venue ACL: each table writes only its own topics (its user name is its table id),
// viewers only read.
const TABLE_ID = 'hall-a.table-3';
const TABLE = { name: TABLE_ID, password: 'table-secret', acl: [] };
const VIEWER = { name: 'viewer', password: 'viewer-pass', acl: ['topic read muster/#'] };
const ACL_PATTERNS = ['pattern readwrite muster/%u/#'];

let dataDir: string;
let broker: Mosquitto;
let live: RunningLive;
let publisher: BrokerPublisher;
let browser: Browser;
const publisherWarnings: string[] = [];

beforeAll(async () => {
  ensureViewsBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'muster-map-broker-'));
  broker = await Mosquitto.start(dataDir, { users: [TABLE, VIEWER], aclPatterns: ACL_PATTERNS });
  // 5 frames a second (10 states: poses, then their evaluation; the default is 10 frames): headless
  // Chromium on a shared machine keeps up.
  live = await startLive({ source: { mode: 'demo', demoSource: 'truth', fps: 5 }, dataDir, host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST, operatorToken: 'map-broker-e2e' });
  publisher = attachBrokerPublisher(live.pipeline, {
    broker: parseBrokerUrl(`mqtt://${TABLE.name}:${TABLE.password}@127.0.0.1:${broker.mqttPort}`, '--publish'),
    tableId: TABLE_ID,
    snapshotEveryMs: 1000,
    warn: (m) => publisherWarnings.push(m),
    info: () => {},
  });
  await publisher.whenConnected();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await publisher?.close();
  await live?.stop();
  await broker?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the map through the broker', () => {
  it('draws every unit from the broker with a read-only credential, follows the deltas, and shows the table stopping', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const params = new URLSearchParams({ mqtt: `${broker.wsUrl}/`, table: 'hall-a.table-3', user: VIEWER.name, password: VIEWER.password });
    await page.goto(`${live.url}/map.html?${params}`);
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 });

    // Every unit of the table, labelled once.
    const units = live.pipeline.state().tableState.units;
    expect(units.length).toBeGreaterThan(1);
    for (const unit of units) await expect.poll(() => page.locator('.unit-label', { hasText: unit.name }).count(), { timeout: 15_000 }).toBe(1);

    // It follows the deltas: the drawn seq moves on, and through deltas, not snapshots alone.
    const seq0 = await page.evaluate(() => window.__muster!.lastSeq);
    await expect.poll(() => page.evaluate(() => window.__muster!.lastSeq), { timeout: 15_000 }).toBeGreaterThan(seq0 + 10);
    const feedStats = () => page.evaluate(() => (window as unknown as { __musterBroker: { feed: { stats: { deltas: number; gaps: number; snapshots: number; invalid: number } } } }).__musterBroker.feed.stats);
    await expect.poll(async () => (await feedStats()).deltas, { timeout: 20_000 }).toBeGreaterThan(10);
    const stats = await feedStats();
    expect(stats.invalid).toBe(0);
    // Not through the table's own ws: the service has no ws client.
    expect(live.pipeline.state().health.clients).toBe(0);
    // The status line says which turn it is, from the broker's state.
    await expect.poll(() => page.locator('.status').first().textContent()).toMatch(/^Turn \d+ · \d+ units/);

    // The table stops: its status says so, and the page shows the banner while keeping the last picture.
    await publisher.close();
    await expect.poll(() => page.locator('#connection-banner.shown').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('.unit-label').count()).toBeGreaterThan(1);
    expect(pageErrors).toEqual([]);
    expect(publisherWarnings).toEqual([]);
    await page.close();
  }, 120_000);

  it('the stream overlay reads through the broker too; bad broker parameters are shown on the page', async () => {
    const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
    // The table stopped in the test before: start publishing again for this one.
    const again = attachBrokerPublisher(live.pipeline, {
      broker: parseBrokerUrl(`mqtt://${TABLE.name}:${TABLE.password}@127.0.0.1:${broker.mqttPort}`, '--publish'),
      tableId: TABLE_ID,
      info: () => {},
    });
    try {
      await again.whenConnected();
      const params = new URLSearchParams({ mqtt: broker.wsUrl, table: TABLE_ID, user: VIEWER.name, password: VIEWER.password });
      await page.goto(`${live.url}/overlay.html?${params}`);
      await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 });
      // It follows the deltas (the overlay draws only what changes on it, so its drawn seq may rest).
      const feedDeltas = () => page.evaluate(() => (window as unknown as { __musterBroker: { feed: { stats: { deltas: number } } } }).__musterBroker.feed.stats.deltas);
      // A page joining mid-game may start from a retained snapshot older than the deltas and wait for the
      // next one behind the deltas queued for it; on a loaded machine headless Chromium reads slowly.
      await expect.poll(feedDeltas, { timeout: 60_000 }).toBeGreaterThan(5);
      for (const [query, why] of [
        ['mqtt=http://127.0.0.1:1&table=t', /\?mqtt= takes the broker's websocket URL/],
        [`mqtt=${encodeURIComponent(broker.wsUrl)}`, /needs &table=/],
        [`mqtt=${encodeURIComponent(broker.wsUrl)}&table=a/b`, /table id takes letters/],
      ] as const) {
        await page.goto(`${live.url}/map.html?${query}`);
        await expect.poll(() => page.locator('#broker-error').textContent()).toMatch(why);
      }
    } finally {
      await again.close();
      await page.close();
    }
  }, 120_000);

  it('the viewer credential cannot publish, a table only to its own topics (the ACL), and no credential cannot connect', async () => {
    const watcher = await Subscriber.connect(broker.mqttUrl, ['muster/#'], { username: TABLE.name, password: TABLE.password });
    // MQTT 5 so the broker answers the refused publish with a reason code instead of dropping it silently.
    const viewer = await mqtt.connectAsync(broker.mqttUrl, { username: VIEWER.name, password: VIEWER.password, protocolVersion: 5, reconnectPeriod: 0 });
    await expect(viewer.publishAsync('muster/hall-a.table-3/snapshot', '{"type":"snapshot"}', { qos: 1, retain: true })).rejects.toThrow(/not authori[sz]ed|135/i);
    await viewer.endAsync();
    // A table's credential writes its own topics only.
    const table = await mqtt.connectAsync(broker.mqttUrl, { username: TABLE.name, password: TABLE.password, protocolVersion: 5, reconnectPeriod: 0 });
    await expect(table.publishAsync('muster/other-table/status', '{}', { qos: 1 })).rejects.toThrow(/not authori[sz]ed|135/i);
    await table.endAsync();
    // The table's own credential still works, and its retained snapshot is the table's, not the viewer's.
    const { received } = await watcher.next((r) => r.topic === 'muster/hall-a.table-3/snapshot' && r.retain);
    expect(JSON.parse(received.text).state.tableState.units.length).toBeGreaterThan(1);
    await watcher.close();
    await expect(mqtt.connectAsync(broker.mqttUrl, { reconnectPeriod: 0, connectTimeout: 5000 })).rejects.toThrow(/Not authorized|Bad User Name|identifier rejected/i);
  }, 60_000);
});
