/**
 * The tables of a venue as its MQTT broker knows them (`muster tables --mqtt <url>`): one subscription
 * to `muster/+/status`, `+/health`, `+/ruleset` and `+/strip` (all retained, so a hub started late has
 * every table at once), instead of polling each table's REST. A table appears when its first `status`
 * arrives and is down when its service stops or the broker publishes its last will (the connection was
 * lost: killed, crashed, network gone), within 1.5 × its keep-alive. `onChange` tells each coming and
 * going (the command prints it).
 */
import mqtt, { type MqttClient } from 'mqtt';
import {
  mqttAllTablesTopic,
  parseBrokerMessage,
  parseMqttTopic,
  type GameStripMessage,
  type HealthMessage,
  type RulesetMessage,
  type TableStatusMessage,
} from '@muster/protocol';
import type { BrokerUrl } from '../mqtt/brokerUrl.ts';
import type { HubTable } from './tableList.ts';
import type { TableStatus } from './tableStatus.ts';

interface Known {
  status: TableStatusMessage | null;
  health: HealthMessage | null;
  ruleset: RulesetMessage | null;
  strip: GameStripMessage | null;
}

export interface BrokerTableChange {
  readonly tableId: string;
  readonly online: boolean;
  readonly reason: TableStatusMessage['reason'];
  readonly viewsUrl?: string;
}

export interface BrokerTablesOptions {
  readonly broker: BrokerUrl;
  readonly topicRoot?: string;
  /** Each table's arrival and each change of online/offline. */
  readonly onChange?: (change: BrokerTableChange) => void;
  /** Trouble with the broker (unreachable, refused), once per kind until connected again. */
  readonly warn?: (message: string) => void;
  readonly reconnectMs?: number;
}

export interface BrokerTables {
  /** The tables seen so far, by id, and their statuses (same order), for the index page. */
  list(): { tables: HubTable[]; statuses: TableStatus[] };
  /** Whether the hub is connected to the broker now. */
  connected(): boolean;
  /** Resolves once connected and subscribed (the retained statuses then arrive at once). */
  whenConnected(): Promise<void>;
  close(): Promise<void>;
}

const PARTS = ['status', 'health', 'ruleset', 'strip'] as const;

function reasonText(status: TableStatusMessage): string {
  if (status.reason === 'stopped') return 'stopped';
  if (status.reason === 'lost') return `connection lost (the broker's last will after ${status.keepaliveS * 1.5} s at most)`;
  return 'offline';
}

export function watchBrokerTables(options: BrokerTablesOptions): BrokerTables {
  const known = new Map<string, Known>();
  const warned = new Set<string>();
  const warn = (key: string, message: string): void => {
    if (warned.has(key)) return;
    warned.add(key);
    options.warn?.(message);
  };
  let isConnected = false;
  let subscribed = false;
  const waiters: (() => void)[] = [];
  const client: MqttClient = mqtt.connect(options.broker.url, {
    clean: true,
    reconnectPeriod: options.reconnectMs ?? 2000,
    connectTimeout: 10_000,
    reconnectOnConnackError: true,
    ...(options.broker.username !== undefined ? { username: options.broker.username } : {}),
    ...(options.broker.password !== undefined ? { password: options.broker.password } : {}),
  });
  client.on('connect', () => {
    isConnected = true;
    warned.clear();
    client.subscribe(Object.fromEntries(PARTS.map((p) => [mqttAllTablesTopic(p, options.topicRoot), { qos: 1 as const }])), (err) => {
      if (err) warn(`subscribe:${err.message}`, `MQTT: the broker ${options.broker.shown} refused the subscription (${err.message}); check the hub's ACL`);
      subscribed = true;
      for (const w of waiters.splice(0)) w();
    });
  });
  client.on('error', (err) => warn(`error:${err.message}`, `MQTT: cannot reach the broker ${options.broker.shown}: ${err.message}; retrying`));
  client.on('close', () => (isConnected = false));
  client.on('message', (topic, payload) => {
    const t = parseMqttTopic(topic, options.topicRoot);
    if (!t || !(PARTS as readonly string[]).includes(t.part)) return;
    // An empty retained status clears a table for good (`mosquitto_pub -r -n -t muster/<id>/status`).
    if (t.part === 'status' && payload.length === 0) {
      known.delete(t.tableId);
      return;
    }
    const parsed = parseBrokerMessage(t.part, payload.toString('utf8'));
    if (!parsed.ok) return;
    const k = known.get(t.tableId) ?? { status: null, health: null, ruleset: null, strip: null };
    known.set(t.tableId, k);
    const m = parsed.value;
    if (m.type === 'table-status') {
      const before = k.status;
      k.status = m;
      if (before === null || before.online !== m.online || before.sinceMs !== m.sinceMs) {
        options.onChange?.({ tableId: t.tableId, online: m.online, reason: m.reason, ...(m.viewsUrl !== undefined ? { viewsUrl: m.viewsUrl } : {}) });
      }
    } else if (m.type === 'health') k.health = m;
    else if (m.type === 'ruleset') k.ruleset = m;
    else if (m.type === 'game-strip') k.strip = m;
  });

  return {
    list() {
      const ids = [...known.keys()].filter((id) => known.get(id)!.status !== null).sort();
      const tables: HubTable[] = [];
      const statuses: TableStatus[] = [];
      for (const id of ids) {
        const k = known.get(id)!;
        const status = k.status!;
        const url = status.viewsUrl ?? '';
        tables.push({ name: id, url });
        const h = k.health?.health;
        const s: TableStatus = {
          name: id,
          url,
          up: status.online,
          ...(status.online ? {} : { problem: reasonText(status) }),
          ...(status.online && h ? { health: h.status, trackedStands: h.trackedStands, warnings: h.warnings, ...(h.camera ? { cameraState: h.camera.state } : {}) } : {}),
          ...(k.ruleset?.ruleset?.current ? { rulesetId: k.ruleset.ruleset.current.id } : {}),
          ...(k.strip ? { turn: k.strip.turn } : {}),
        };
        statuses.push(s);
      }
      return { tables, statuses };
    },
    connected: () => isConnected,
    whenConnected: () => (subscribed ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    close: () => client.endAsync(true).then(() => undefined),
  };
}
