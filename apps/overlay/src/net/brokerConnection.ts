/**
 * A read-only view fed through an MQTT broker's websocket listener instead of the table's own service
 * (`?mqtt=wss://broker.example/mqtt&table=table-1`): MQTT.js subscribes to the table's topics
 * (`muster/<table>/…`, protocol 5) and `BrokerFeed` folds them into the store. Reconnects on its own
 * (MQTT.js) and, after each connect, starts from the retained snapshot again. Nothing is ever
 * published: the broker may give viewers a read-only credential (`?user=&password=`, or none).
 */
import mqtt, { type MqttClient } from 'mqtt';
import { mqttTopics, parseMqttTopic, type MqttTopics } from '@muster/protocol';
import type { LiveStore } from '../state/liveStore.ts';
import { BrokerFeed } from './brokerFeed.ts';

export interface BrokerSourceOptions {
  /** The broker's websocket URL (ws:// or wss://). */
  readonly url: string;
  readonly tableId: string;
  readonly topicRoot?: string;
  readonly username?: string;
  readonly password?: string;
  /** Delay between reconnect attempts, ms. Default 1000. */
  readonly reconnectMs?: number;
  /** Called with what went wrong (refused, unreachable), for the page to show. */
  readonly onError?: (message: string) => void;
}

export class BrokerConnection {
  private client: MqttClient | null = null;
  readonly feed: BrokerFeed;
  readonly topics: MqttTopics;
  private snapshotSubscribed = false;

  constructor(
    private readonly store: LiveStore,
    private readonly options: BrokerSourceOptions,
  ) {
    this.topics = mqttTopics(options.tableId, options.topicRoot);
    this.feed = new BrokerFeed(store, (need) => this.needSnapshot(need));
  }

  start(): void {
    const { url, username, password } = this.options;
    this.store.setConnection('connecting');
    const client = mqtt.connect(url, {
      clean: true,
      reconnectPeriod: this.options.reconnectMs ?? 1000,
      connectTimeout: 10_000,
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
    });
    this.client = client;
    client.on('connect', () => {
      this.snapshotSubscribed = false;
      // QoS 1 throughout: the broker then delivers each topic in order and does not drop deltas for a
      // viewer that reads a little late (a lost one would still be a gap the next snapshot closes).
      client.subscribe({ [this.topics.status]: { qos: 1 }, [this.topics.log]: { qos: 1 }, [this.topics.delta]: { qos: 1 } });
      // After a reconnect the view may have missed anything: start again from the retained snapshot.
      this.feed.resync();
    });
    client.on('message', (topic, payload, packet) => {
      const t = parseMqttTopic(topic, this.options.topicRoot);
      if (!t || t.tableId !== this.options.tableId) return;
      this.feed.receive(t.part, new TextDecoder().decode(payload), packet.retain);
    });
    client.on('close', () => this.store.setConnection('disconnected'));
    client.on('error', (err) => this.options.onError?.(`broker ${url}: ${err.message}`));
  }

  stop(): void {
    this.client?.end(true);
    this.client = null;
  }

  private needSnapshot(need: boolean): void {
    const client = this.client;
    if (!client?.connected || need === this.snapshotSubscribed) return;
    this.snapshotSubscribed = need;
    if (need) client.subscribe(this.topics.snapshot, { qos: 1 });
    else client.unsubscribe(this.topics.snapshot);
  }
}
