/**
 * Publishing through a real Mosquitto broker (started here on free loopback ports): the demo service
 * publishes; a subscriber that comes later has the retained snapshot, status, health, rule set and game
 * strip at once, then deltas in order that rebuild exactly the state of every later snapshot; a view
 * that misses a delta waits for the next snapshot and then follows again; an unreachable broker and a
 * broker restarted mid-game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDelta, jsonEqual, parseBrokerMessage, parseMqttTopic, type DeltaMessage, type LiveState, type SnapshotMessage } from '@muster/protocol';
import { attachBrokerPublisher, type BrokerPublisher } from '../../apps/server/src/mqtt/brokerPublisher.ts';
import { parseBrokerUrl } from '../../apps/server/src/mqtt/brokerUrl.ts';
import { BrokerFeed } from '../../apps/overlay/src/net/brokerFeed.ts';
import { LiveStore } from '../../apps/overlay/src/state/liveStore.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { freePort, Mosquitto, Subscriber, type Received } from './mosquitto.ts';
import { startDemo, tempDir, type TempDir } from './helpers.ts';

const parse = (r: Received) => {
  const t = parseMqttTopic(r.topic)!;
  const m = parseBrokerMessage(t.part, r.text);
  if (!m.ok) throw new Error(`${r.topic}: ${m.message}`);
  return m.value;
};

describe('publishing to a Mosquitto broker', () => {
  let dir: TempDir;
  let broker: Mosquitto;
  let live: RunningLive;
  let publisher: BrokerPublisher;
  const warnings: string[] = [];

  beforeAll(async () => {
    dir = tempDir('muster-mqtt-');
    broker = await Mosquitto.start(dir.path);
    live = await startDemo(dir.path, { fps: 20, speed: 4 });
    // Snapshots every 500 ms so the gap test waits for one briefly; the default is 5 s.
    publisher = attachBrokerPublisher(live.pipeline, { broker: parseBrokerUrl(broker.mqttUrl, '--publish'), tableId: 'table-1', snapshotEveryMs: 500, warn: (m) => warnings.push(m), info: () => {} });
    await publisher.whenConnected();
  }, 60_000);

  afterAll(async () => {
    await publisher?.close();
    await live?.stop();
    await broker?.stop();
    dir?.remove();
  });

  it('a new subscriber has the retained snapshot, status, health, rule set and strip at once, then deltas in order', async () => {
    // Let the table publish for a while first, so the retained messages are what a late subscriber gets.
    const early = await Subscriber.connect(broker.mqttUrl, ['muster/table-1/delta']);
    await early.next((r) => r.topic.endsWith('/delta'), 3);
    await early.close();

    const sub = await Subscriber.connect(broker.mqttUrl, ['muster/table-1/#']);
    for (const part of ['status', 'snapshot', 'health', 'ruleset', 'strip']) {
      const { received } = await sub.next((r) => r.topic === `muster/table-1/${part}` && r.retain);
      const m = parse(received);
      if (m.type === 'table-status') expect(m).toMatchObject({ online: true, reason: 'started', tableId: 'table-1' });
      if (m.type === 'health') expect(['ok', 'starting', 'degraded']).toContain(m.health.status);
      if (m.type === 'ruleset') expect(m.ruleset?.current?.id).toBeTruthy();
      if (m.type === 'game-strip') expect(m.turn).toBeGreaterThanOrEqual(1);
    }
    const snapshot = parse((await sub.next((r) => r.topic.endsWith('/snapshot') && r.retain)).received) as SnapshotMessage;
    expect(snapshot.state.tableState.stands.length).toBeGreaterThan(0);

    // Deltas: every one continues the chain of the one before, and the chain rebuilds each later
    // snapshot's state exactly (the first delta after the retained snapshot may start later: that
    // snapshot is up to snapshotEveryMs old).
    let chain: LiveState | null = null;
    let checkedSnapshots = 0;
    let deltas = 0;
    let from = 0;
    while (checkedSnapshots < 3) {
      const { received, index } = await sub.next((r) => (r.topic.endsWith('/delta') || (r.topic.endsWith('/snapshot') && !r.retain)), from);
      from = index + 1;
      const m = parse(received);
      if (m.type === 'delta') {
        const d = m as DeltaMessage;
        if (chain === null) continue;
        expect(d.baseSeq, 'deltas arrive in order, each from the state of the one before').toBe(chain.seq);
        chain = applyDelta(chain, d);
        expect(chain).not.toBeNull();
        deltas++;
      } else if (m.type === 'snapshot') {
        if (chain === null) chain = m.state;
        else {
          expect(m.state.seq).toBe(chain.seq);
          expect(jsonEqual(m.state, chain), 'the deltas rebuild the snapshot exactly').toBe(true);
          checkedSnapshots++;
        }
      }
    }
    expect(deltas).toBeGreaterThan(3);
    await sub.close();
    expect(warnings).toEqual([]);
  }, 60_000);

  it('a view that misses a delta waits for the next snapshot, then follows the deltas again', async () => {
    const store = new LiveStore();
    const needs: boolean[] = [];
    const feed = new BrokerFeed(store, (need) => needs.push(need));
    const sub = await Subscriber.connect(broker.mqttUrl, ['muster/table-1/snapshot', 'muster/table-1/delta']);
    let from = 0;
    const feedNext = async (match: (r: Received) => boolean = () => true): Promise<Received> => {
      const { received, index } = await sub.next(match, from);
      from = index + 1;
      feed.receive(parseMqttTopic(received.topic)!.part, received.text, received.retain);
      return received;
    };
    // The retained snapshot starts the view.
    await feedNext((r) => r.topic.endsWith('/snapshot'));
    expect(feed.waitingForSnapshot).toBe(false);
    expect(store.snapshot.state).not.toBeNull();
    // Follow until a delta applies (the retained snapshot may be older than the deltas: then the view
    // waits for a live snapshot first, which is the same path).
    while (feed.stats.deltas < 2) await feedNext();
    // Drop one delta on the floor: the next one does not fit.
    const { index: dropped } = await sub.next((r) => r.topic.endsWith('/delta'), from);
    from = dropped + 1;
    const heldSeq = store.snapshot.state!.seq;
    const gapsBefore = feed.stats.gaps;
    await feedNext((r) => r.topic.endsWith('/delta'));
    expect(feed.stats.gaps).toBe(gapsBefore + 1);
    expect(feed.waitingForSnapshot).toBe(true);
    expect(needs[needs.length - 1]).toBe(true);
    expect(store.snapshot.state!.seq, 'the view keeps what it had while it waits').toBe(heldSeq);
    // More deltas change nothing until a snapshot comes.
    let received: Received;
    do {
      received = await feedNext();
      if (received.topic.endsWith('/delta')) expect(store.snapshot.state!.seq).toBe(heldSeq);
    } while (!received.topic.endsWith('/snapshot'));
    expect(feed.waitingForSnapshot).toBe(false);
    const resumedAt = store.snapshot.state!.seq;
    expect(resumedAt).toBeGreaterThan(heldSeq);
    const deltasBefore = feed.stats.deltas;
    await feedNext((r) => r.topic.endsWith('/delta'));
    expect(feed.stats.deltas, 'the next delta applies').toBe(deltasBefore + 1);
    expect(store.snapshot.state!.seq).toBeGreaterThan(resumedAt);
    await sub.close();
  }, 60_000);
});

describe('broker trouble never stops the table', () => {
  it('an unreachable broker is reported once, clearly, and the service runs on; it publishes once the broker is up', async () => {
    const dir = tempDir('muster-mqtt-down-');
    const port = await freePort();
    const live = await startDemo(dir.path, { fps: 20, speed: 4 });
    const warnings: string[] = [];
    const publisher = attachBrokerPublisher(live.pipeline, { broker: parseBrokerUrl(`mqtt://127.0.0.1:${port}`, '--publish'), tableId: 't2', reconnectMs: 200, warn: (m) => warnings.push(m), info: () => {} });
    let broker: Mosquitto | null = null;
    try {
      const deadline = Date.now() + 10_000;
      while (warnings.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(warnings[0]).toMatch(new RegExp(`cannot publish to mqtt://127.0.0.1:${port}: .*ECONNREFUSED.*nothing listens there.*the table's own service runs on`));
      // The table's own service answers meanwhile.
      const health = await fetch(`${live.url}/api/health`);
      expect(health.status).toBe(200);
      const seqBefore = live.pipeline.state().seq;
      // Several retries later, still one line.
      const seqWait = Date.now() + 10_000;
      while (live.pipeline.state().seq < seqBefore + 20 && Date.now() < seqWait) await new Promise((r) => setTimeout(r, 50));
      expect(live.pipeline.state().seq).toBeGreaterThanOrEqual(seqBefore + 20);
      expect(warnings.filter((w) => /ECONNREFUSED/.test(w))).toHaveLength(1);
      // The broker comes up on that port: the publisher connects and the retained snapshot is there.
      broker = await Mosquitto.start(dir.path, { mqttPort: port });
      await publisher.whenConnected();
      const sub = await Subscriber.connect(broker.mqttUrl, ['muster/t2/snapshot']);
      await sub.next((r) => r.retain);
      await sub.close();
    } finally {
      await publisher.close();
      await live.stop();
      await broker?.stop();
      dir.remove();
    }
  }, 60_000);

  it('a broker restarted mid-game: the service reconnects and republishes, and a viewer resumes without starting over', async () => {
    const dir = tempDir('muster-mqtt-restart-');
    let broker = await Mosquitto.start(dir.path);
    const live = await startDemo(dir.path, { fps: 20, speed: 4 });
    const warnings: string[] = [];
    const publisher = attachBrokerPublisher(live.pipeline, { broker: parseBrokerUrl(broker.mqttUrl, '--publish'), tableId: 't3', reconnectMs: 200, snapshotEveryMs: 500, warn: (m) => warnings.push(m), info: () => {} });
    const store = new LiveStore();
    const feed = new BrokerFeed(store);
    // A viewer as the views are: reconnecting on its own, resubscribing, starting from a snapshot after each connect.
    const viewer = await Subscriber.connect(broker.mqttUrl, [], { reconnectPeriod: 200 });
    const subscribe = () => {
      feed.resync();
      void viewer.client.subscribeAsync(['muster/t3/snapshot', 'muster/t3/delta'], { qos: 1 });
    };
    viewer.client.on('connect', subscribe);
    subscribe();
    let from = 0;
    const pump = async (until: () => boolean): Promise<void> => {
      while (!until()) {
        const { received, index } = await viewer.next(() => true, from, 20_000);
        from = index + 1;
        feed.receive(parseMqttTopic(received.topic)!.part, received.text, received.retain);
      }
    };
    try {
      await publisher.whenConnected();
      await pump(() => feed.stats.deltas >= 3);
      const seqBeforeRestart = store.snapshot.state!.seq;
      await broker.stop();
      broker = await Mosquitto.start(dir.path, { mqttPort: broker.mqttPort, wsPort: broker.wsPort });
      const deltasBefore = feed.stats.deltas;
      // The viewer's state goes on past what it had, through a new snapshot and deltas again.
      await pump(() => feed.stats.deltas >= deltasBefore + 3 && store.snapshot.state!.seq > seqBeforeRestart);
      expect(publisher.stats().connects).toBeGreaterThanOrEqual(2);
      expect(warnings.some((w) => /connection to mqtt:\/\/127\.0\.0\.1:\d+ was lost; reconnecting/.test(w))).toBe(true);
    } finally {
      await viewer.close();
      await publisher.close();
      await live.stop();
      await broker.stop();
      dir.remove();
    }
  }, 90_000);
});
