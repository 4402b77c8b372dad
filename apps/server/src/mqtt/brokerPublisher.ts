/**
 * Publishes the live state to an MQTT broker (MQTT.js) under `muster/<table>/…` (topics and messages:
 * `packages/protocol/src/mqtt.ts`), so a broker fans it out to any number of viewers while the table
 * sends every message once. See README.md.
 *
 * - On every (re)connect: `status` online, a retained `snapshot`, `health`, `ruleset` and `strip`.
 * - Every published state: a `delta` from the state published before (so its `baseSeq` is what every
 *   subscriber following the deltas holds); the retained snapshot again every `snapshotEveryMs` (a new
 *   or gapped subscriber waits at most that long for a current one) and after every log entry (the
 *   snapshot's recent log and the strip change).
 * - The last will, set at connect: `status` offline, `reason: 'lost'`, retained. A clean stop publishes
 *   `reason: 'stopped'` itself.
 *
 * The broker never stops the table: nothing here throws after start; an unreachable broker, refused
 * credentials or a lost connection are logged once per kind, and MQTT.js retries every `reconnectMs`.
 * Nothing is queued while disconnected (the state of the moment is sent on reconnect), and while the
 * socket to the broker holds more than `highWaterBytes` unsent, states are skipped and the next delta
 * spans them (so a slow link costs one backlog, never a queue that grows).
 */
import mqtt, { type MqttClient } from 'mqtt';
import {
  PROTOCOL_VERSION,
  diffLiveState,
  gameStripOf,
  jsonEqual,
  mqttTopics,
  type GameLogEntry,
  type HealthMessage,
  type LiveState,
  type MqttTopics,
  type RulesetMessage,
  type ServerMessage,
  type TableStatusMessage,
} from '@muster/protocol';
import { log as serviceLog } from '../log/logger.ts';
import type { BrokerUrl } from './brokerUrl.ts';

/** What the publisher reads: the live pipeline (`ServiceBackend`) has all three. */
export interface PublishedLive {
  state(): LiveState;
  recentLog(): readonly GameLogEntry[];
  subscribe(listener: (event: { readonly kind: 'state' } | { readonly kind: 'log'; readonly entry: GameLogEntry }) => void): () => void;
}

export interface BrokerPublisherOptions {
  readonly broker: BrokerUrl;
  /** The table's topic level (`tableIdProblem` must accept it). */
  readonly tableId: string;
  /** First topic level. Default `muster`. */
  readonly topicRoot?: string;
  /** The retained snapshot is republished at least this often, ms. Default 5000. */
  readonly snapshotEveryMs?: number;
  /** Health is published when it changed, at most this often, ms. Default 1000. */
  readonly healthEveryMs?: number;
  /** MQTT keep-alive, s: the broker sends the will at most 1.5 × this after the table goes silent. Default 10. */
  readonly keepaliveS?: number;
  /** Delay between reconnect attempts, ms. Default 2000. */
  readonly reconnectMs?: number;
  /** Unsent bytes to the broker above which states are skipped. Default 1 MiB. */
  readonly highWaterBytes?: number;
  /** The table's own pages (put in `status` for an index to link). */
  readonly viewsUrl?: string;
  /** Extra TLS settings for mqtts/wss (a venue's own CA). */
  readonly ca?: string;
  /** One-time warnings (network, broker). Default: the service log, level warn. */
  readonly warn?: (message: string) => void;
  /** Progress (connected). Default: the service log, level info. */
  readonly info?: (message: string) => void;
}

export interface BrokerPublisherStats {
  readonly connected: boolean;
  readonly connects: number;
  readonly snapshots: number;
  readonly deltas: number;
  /** States not sent on their own because the link was backlogged (the next delta spans them). */
  readonly statesSkipped: number;
  /** Payload and topic bytes handed to the broker connection. */
  readonly bytesPublished: number;
  /** Bytes the table's sockets to the broker wrote, MQTT framing and acks included (TCP/TLS sockets; 0 where the transport does not count). */
  readonly socketBytesWritten: number;
}

export interface BrokerPublisher {
  /** `mqtt://host:port` (no password), for the banner. */
  readonly target: string;
  readonly topics: MqttTopics;
  stats(): BrokerPublisherStats;
  /** Resolves when connected and the first snapshot is handed to the socket (for tests and the banner). */
  whenConnected(): Promise<void>;
  /** Publishes `status` offline (`stopped`), then disconnects. Idempotent; never throws. */
  close(): Promise<void>;
}

const CLOSE_TIMEOUT_MS = 2000;

function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    const e = err as { code: string; message?: string };
    return e.message && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : (e.message ?? e.code);
  }
  return err instanceof Error ? err.message : String(err);
}

/** Why a connect failed, in words an operator can act on. */
function explain(err: unknown): string {
  const text = errorText(err);
  if (/ECONNREFUSED/.test(text)) return `${text} (nothing listens there: is the broker running, and is that its port?)`;
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return `${text} (the broker's host name does not resolve)`;
  if (/Not authorized|Bad User Name or Password|bad user name or password/i.test(text)) return `${text} (the broker refused the user or password)`;
  if (/certificate|self.signed|unable to verify/i.test(text)) return `${text} (for a venue's own CA set NODE_EXTRA_CA_CERTS to its PEM)`;
  return text;
}

export function attachBrokerPublisher(source: PublishedLive, options: BrokerPublisherOptions): BrokerPublisher {
  const topics = mqttTopics(options.tableId, options.topicRoot);
  const snapshotEveryMs = options.snapshotEveryMs ?? 5000;
  const healthEveryMs = options.healthEveryMs ?? 1000;
  const keepaliveS = options.keepaliveS ?? 10;
  const highWaterBytes = options.highWaterBytes ?? 1024 * 1024;
  const warnSink = options.warn ?? ((m: string) => serviceLog.warn(m));
  const info = options.info ?? ((m: string) => serviceLog.info(m));
  const target = options.broker.shown;
  const warned = new Set<string>();
  const warnOnce = (key: string, message: string): void => {
    if (warned.has(key)) return;
    warned.add(key);
    try {
      warnSink(message);
    } catch {
      // A logger that throws must not stop the table.
    }
  };

  const will: TableStatusMessage = { type: 'table-status', protocolVersion: PROTOCOL_VERSION, tableId: options.tableId, online: false, reason: 'lost', sinceMs: null, keepaliveS };
  const client: MqttClient = mqtt.connect(options.broker.url, {
    clientId: `muster-table-${options.tableId}`,
    clean: true,
    keepalive: keepaliveS,
    reconnectPeriod: options.reconnectMs ?? 2000,
    connectTimeout: 10_000,
    reconnectOnConnackError: true,
    // Nothing waits for a connection: the state of the moment goes out on connect.
    queueQoSZero: false,
    will: { topic: topics.status, payload: Buffer.from(JSON.stringify(will)), qos: 1, retain: true },
    ...(options.broker.username !== undefined ? { username: options.broker.username } : {}),
    ...(options.broker.password !== undefined ? { password: options.broker.password } : {}),
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
  });

  let connected = false;
  let closed = false;
  let closing: Promise<void> | null = null;
  let connects = 0;
  let snapshots = 0;
  let deltas = 0;
  let statesSkipped = 0;
  let bytesPublished = 0;
  /** The state the delta chain is at (what a subscriber following it holds); null: next is a snapshot. */
  let chainState: LiveState | null = null;
  let lastSnapshotMs = 0;
  let lastHealthMs = 0;
  let lastHealth: unknown = null;
  let lastRuleset: unknown = undefined;
  let lastStripKey = '';
  let retryTimer: NodeJS.Timeout | null = null;
  let lastSkippedSeq = -1;
  // Bytes written by sockets of earlier connections, and the socket of this one.
  let earlierSocketsBytes = 0;
  let countedSocket: { bytesWritten?: number } | null = null;
  const socketBytesWritten = (): number => earlierSocketsBytes + (countedSocket?.bytesWritten ?? 0);
  const connectedWaiters: (() => void)[] = [];

  function backlogBytes(): number {
    const stream = client.stream as { writableLength?: number } | undefined;
    return stream?.writableLength ?? 0;
  }

  function send(topic: string, msg: object, retain: boolean): void {
    const text = JSON.stringify(msg);
    bytesPublished += Buffer.byteLength(text) + topic.length;
    client.publish(topic, text, { qos: 1, retain }, (err) => {
      if (err && !closed) warnOnce(`publish:${errorText(err)}`, `MQTT: publishing to ${target} failed (${errorText(err)}); reported once, still publishing`);
    });
  }

  function publishSnapshot(state: LiveState, now: number): void {
    send(topics.snapshot, { type: 'snapshot', protocolVersion: PROTOCOL_VERSION, state, recentLog: source.recentLog(), sentTimeMs: now } satisfies ServerMessage, true);
    snapshots++;
    lastSnapshotMs = now;
  }

  function publishParts(state: LiveState, now: number, force: boolean): void {
    if (force || (now - lastHealthMs >= healthEveryMs && !jsonEqual(state.health, lastHealth))) {
      send(topics.health, { type: 'health', protocolVersion: PROTOCOL_VERSION, seq: state.seq, health: state.health, sentTimeMs: now } satisfies HealthMessage, true);
      lastHealth = state.health;
      lastHealthMs = now;
    }
    const ruleset = state.ruleset ?? null;
    if (force || (ruleset !== lastRuleset && !jsonEqual(ruleset, lastRuleset))) {
      send(topics.ruleset, { type: 'ruleset', protocolVersion: PROTOCOL_VERSION, ruleset, sentTimeMs: now } satisfies RulesetMessage, true);
      lastRuleset = ruleset;
    }
    const strip = gameStripOf(state, source.recentLog(), now);
    const stripKey = JSON.stringify({ ...strip, sentTimeMs: 0 });
    if (force || stripKey !== lastStripKey) {
      send(topics.strip, strip, true);
      lastStripKey = stripKey;
    }
  }

  function retryWhenDrained(): void {
    if (retryTimer || closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      guarded(publishState);
    }, 50);
    retryTimer.unref();
  }

  /** Brings the broker up to the newest state: a delta (and a snapshot when one is due). */
  function publishState(): void {
    if (!connected || closed) return;
    const state = source.state();
    if (state === chainState) return;
    if (backlogBytes() > highWaterBytes) {
      // Counted once per state, not per retry.
      if (state.seq !== lastSkippedSeq) statesSkipped++;
      lastSkippedSeq = state.seq;
      retryWhenDrained();
      return;
    }
    const now = Date.now();
    if (chainState === null) publishSnapshot(state, now);
    else {
      send(topics.delta, diffLiveState(chainState, state, now), false);
      deltas++;
      if (now - lastSnapshotMs >= snapshotEveryMs) publishSnapshot(state, now);
    }
    chainState = state;
    publishParts(state, now, false);
  }

  function onConnected(): void {
    connects++;
    const socket = client.stream as unknown as { bytesWritten?: number };
    if (countedSocket !== null && countedSocket !== socket) earlierSocketsBytes += countedSocket.bytesWritten ?? 0;
    countedSocket = socket;
    connected = true;
    warned.clear();
    const now = Date.now();
    const status: TableStatusMessage = {
      type: 'table-status',
      protocolVersion: PROTOCOL_VERSION,
      tableId: options.tableId,
      online: true,
      reason: 'started',
      sinceMs: now,
      keepaliveS,
      ...(options.viewsUrl !== undefined ? { viewsUrl: options.viewsUrl } : {}),
    };
    send(topics.status, status, true);
    // Subscribers may hold anything (the broker or we restarted): the chain starts again from a snapshot.
    chainState = null;
    publishParts(source.state(), now, true);
    publishState();
    info(`MQTT: connected to ${target}; publishing ${topics.snapshot.replace(/snapshot$/, '…')}`);
    for (const w of connectedWaiters.splice(0)) w();
  }

  function guarded(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      warnOnce(`bug:${errorText(err)}`, `MQTT: publishing failed (${err instanceof Error ? (err.stack ?? err.message) : String(err)}); the table runs on`);
    }
  }

  client.on('connect', () => guarded(onConnected));
  client.on('error', (err) => {
    warnOnce(`error:${errorText(err)}`, `MQTT: cannot publish to ${target}: ${explain(err)}; retrying every ${(options.reconnectMs ?? 2000) / 1000} s, the table's own service runs on`);
  });
  const lost = (): void => {
    if (connected && !closed) warnOnce('lost', `MQTT: the connection to ${target} was lost; reconnecting (viewers through the broker keep the last state meanwhile)`);
    connected = false;
  };
  client.on('close', lost);
  client.on('offline', lost);

  const unsubscribe = source.subscribe((event) => {
    if (event.kind === 'state') guarded(publishState);
    else {
      guarded(() => {
        if (!connected || closed) return;
        send(topics.log, { type: 'log', entry: event.entry } satisfies ServerMessage, false);
        // The retained snapshot carries the recent log: keep it true for the next subscriber.
        const state = source.state();
        publishState();
        if (chainState === state) publishSnapshot(state, Date.now());
        publishParts(state, Date.now(), false);
      });
    }
  });

  return {
    target,
    topics,
    stats: () => ({ connected, connects, snapshots, deltas, statesSkipped, bytesPublished, socketBytesWritten: socketBytesWritten() }),
    whenConnected: () => (connected ? Promise.resolve() : new Promise<void>((resolve) => connectedWaiters.push(resolve))),
    close() {
      if (closing) return closing;
      unsubscribe();
      if (retryTimer) clearTimeout(retryTimer);
      closing = (async () => {
        if (connected) {
          const stopped: TableStatusMessage = { ...will, reason: 'stopped', sinceMs: Date.now() };
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
            client.publish(topics.status, JSON.stringify(stopped), { qos: 1, retain: true }, () => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        closed = true;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            client.end(true);
            resolve();
          }, CLOSE_TIMEOUT_MS);
          // A clean DISCONNECT: the broker discards the will (the status above already says why).
          client.end(false, {}, () => {
            clearTimeout(timer);
            resolve();
          });
        });
      })();
      return closing;
    },
  };
}
