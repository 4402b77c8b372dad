/**
 * The live state through an MQTT broker (protocol 5): topic names under `muster/<table>/…` and the
 * messages of the topics the ws has no counterpart for. The snapshot, delta and log topics carry the
 * ws's own `SnapshotMessage`, `DeltaMessage` and `LogMessage` as JSON, unchanged. See README.md, "Through
 * an MQTT broker".
 *
 * | topic                      | retained | message                         | when                                   |
 * |----------------------------|----------|---------------------------------|----------------------------------------|
 * | `muster/<table>/status`    | yes      | `table-status` (also the will)  | on connect, on stop; the will on loss  |
 * | `muster/<table>/snapshot`  | yes      | `snapshot`                      | on connect, every few s, after a log entry |
 * | `muster/<table>/delta`     | no       | `delta` (`baseSeq` → `seq`)     | every published state                  |
 * | `muster/<table>/log`       | no       | `log`                           | every non-pose log entry               |
 * | `muster/<table>/health`    | yes      | `health`                        | when it changes (at most 1/s)          |
 * | `muster/<table>/ruleset`   | yes      | `ruleset`                       | on connect and when it changes         |
 * | `muster/<table>/strip`     | yes      | `game-strip`                    | on connect and when it changes         |
 */
import type { GameLogEntry, Health, LiveState, RulesetChoiceState, DeltaMessage, LogMessage, SnapshotMessage } from './messages.ts';
import { parseServerMessage, type Parsed } from './validate.ts';
import { PROTOCOL_VERSION } from './version.ts';

/** First level of every topic. */
export const MQTT_TOPIC_ROOT = 'muster';

/** The parts under `muster/<table>/`. */
export const MQTT_TOPIC_PARTS = ['status', 'snapshot', 'delta', 'log', 'health', 'ruleset', 'strip'] as const;
export type MqttTopicPart = (typeof MQTT_TOPIC_PARTS)[number];

/** Parts the broker keeps the last message of (a new subscriber has it at once). */
export const MQTT_RETAINED_PARTS: readonly MqttTopicPart[] = ['status', 'snapshot', 'health', 'ruleset', 'strip'];

/** Longest table id, characters. */
export const MQTT_MAX_TABLE_ID_CHARS = 64;

/**
 * Why `tableId` cannot be a topic level, or null when it can: 1 to 64 letters, digits, `-`, `_` or `.`,
 * starting with a letter or digit (so no MQTT wildcard `+`/`#`, no `/`, no `$` system topic).
 */
export function tableIdProblem(tableId: string): string | null {
  if (typeof tableId !== 'string' || tableId.length === 0) return 'a table id must not be empty';
  if (tableId.length > MQTT_MAX_TABLE_ID_CHARS) return `a table id is at most ${MQTT_MAX_TABLE_ID_CHARS} characters, got ${tableId.length}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(tableId)) {
    return `a table id takes letters, digits, "-", "_" and "." and starts with a letter or digit, got "${tableId}"`;
  }
  return null;
}

export type MqttTopics = { readonly [P in MqttTopicPart]: string };

/** Every topic of one table. Throws on an id `tableIdProblem` refuses. */
export function mqttTopics(tableId: string, root: string = MQTT_TOPIC_ROOT): MqttTopics {
  const problem = tableIdProblem(tableId);
  if (problem) throw new Error(problem);
  return Object.fromEntries(MQTT_TOPIC_PARTS.map((p) => [p, `${root}/${tableId}/${p}`])) as unknown as MqttTopics;
}

/** The subscription for one part of every table (`muster/+/status`), for an index of a venue. */
export function mqttAllTablesTopic(part: MqttTopicPart, root: string = MQTT_TOPIC_ROOT): string {
  return `${root}/+/${part}`;
}

/** `{ tableId, part }` of a Muster topic, or null for any other topic. */
export function parseMqttTopic(topic: string, root: string = MQTT_TOPIC_ROOT): { readonly tableId: string; readonly part: MqttTopicPart } | null {
  const levels = topic.split('/');
  if (levels.length !== 3 || levels[0] !== root) return null;
  const [, tableId, part] = levels as [string, string, string];
  if (tableIdProblem(tableId) !== null || !(MQTT_TOPIC_PARTS as readonly string[]).includes(part)) return null;
  return { tableId, part: part as MqttTopicPart };
}

/**
 * Whether the table's service is connected to the broker. Published retained with `online: true` when
 * it connects, `online: false, reason: 'stopped'` when it stops; the broker publishes the last will,
 * `online: false, reason: 'lost'`, when the connection is lost without that (killed, crashed, network
 * gone) within 1.5 × the keep-alive.
 */
export interface TableStatusMessage {
  readonly type: 'table-status';
  readonly protocolVersion: number;
  readonly tableId: string;
  readonly online: boolean;
  readonly reason: 'started' | 'stopped' | 'lost';
  /** When the service connected (online) or stopped, ms since the epoch; null in the will (its time is the broker's). */
  readonly sinceMs: number | null;
  /** Where the table's own pages are (its `muster start` URL), when the service knows one to give. */
  readonly viewsUrl?: string;
  /** The MQTT keep-alive the service connected with, s: the will comes at most 1.5 × this after a loss. */
  readonly keepaliveS: number;
}

/** The service's health alone (also inside snapshots and deltas), for an index that needs nothing else. */
export interface HealthMessage {
  readonly type: 'health';
  readonly protocolVersion: number;
  /** `seq` of the state it is from. */
  readonly seq: number;
  readonly health: Health;
  readonly sentTimeMs: number;
}

/** The rule set in play and the ones installed (`LiveState.ruleset`; null from a service without it). */
export interface RulesetMessage {
  readonly type: 'ruleset';
  readonly protocolVersion: number;
  readonly ruleset: RulesetChoiceState | null;
  readonly sentTimeMs: number;
}

/** What a view's game strip shows: turn, rule set, the last card drawn and the last roll. */
export interface GameStripMessage {
  readonly type: 'game-strip';
  readonly protocolVersion: number;
  readonly turn: number;
  readonly rulesetName: string | null;
  readonly lastCard: Extract<GameLogEntry, { kind: 'card' }> | null;
  readonly lastRoll: Extract<GameLogEntry, { kind: 'dice' }> | null;
  readonly sentTimeMs: number;
}

/** What arrives on a Muster topic. */
export type BrokerMessage = SnapshotMessage | DeltaMessage | LogMessage | TableStatusMessage | HealthMessage | RulesetMessage | GameStripMessage;

/** The message type each topic part carries. */
export const MQTT_PART_MESSAGE_TYPE = {
  status: 'table-status',
  snapshot: 'snapshot',
  delta: 'delta',
  log: 'log',
  health: 'health',
  ruleset: 'ruleset',
  strip: 'game-strip',
} as const satisfies { [P in MqttTopicPart]: BrokerMessage['type'] };

function lastOfKind<K extends GameLogEntry['kind']>(log: readonly GameLogEntry[], kind: K): Extract<GameLogEntry, { kind: K }> | null {
  for (let i = log.length - 1; i >= 0; i--) if (log[i]!.kind === kind) return log[i] as Extract<GameLogEntry, { kind: K }>;
  return null;
}

/** The game strip of a state and its recent log (newest card and roll among them). */
export function gameStripOf(state: LiveState, recentLog: readonly GameLogEntry[], sentTimeMs: number): GameStripMessage {
  return {
    type: 'game-strip',
    protocolVersion: PROTOCOL_VERSION,
    turn: state.turn,
    rulesetName: state.ruleset?.current?.name ?? null,
    lastCard: lastOfKind(recentLog, 'card'),
    lastRoll: lastOfKind(recentLog, 'dice'),
    sentTimeMs,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks a message received on `part` (structurally, as `parseServerMessage` does for the ws): it must
 * be that part's type. Snapshot, delta and log go through `parseServerMessage`.
 */
export function parseBrokerMessage(part: MqttTopicPart, raw: string, serverProtocolVersion: number = PROTOCOL_VERSION): Parsed<BrokerMessage> {
  const want = MQTT_PART_MESSAGE_TYPE[part];
  const bad = (message: string): Parsed<BrokerMessage> => ({ ok: false, code: 'invalid-message', message: `${part}: ${message}` });
  if (want === 'snapshot' || want === 'delta' || want === 'log') {
    const parsed = parseServerMessage(raw, serverProtocolVersion);
    if (!parsed.ok) return parsed;
    if (parsed.value.type !== want) return bad(`expected a "${want}" message, got "${parsed.value.type}"`);
    return parsed as Parsed<BrokerMessage>;
  }
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'bad-json', message: `${part}: not valid JSON` };
  }
  if (!isRecord(v) || v.type !== want) return bad(`expected a "${want}" message`);
  if (typeof v.protocolVersion !== 'number') return bad('protocolVersion missing');
  switch (want) {
    case 'table-status':
      if (typeof v.tableId !== 'string' || typeof v.online !== 'boolean' || !['started', 'stopped', 'lost'].includes(v.reason as string)) {
        return bad('tableId, online or reason missing or malformed');
      }
      if (v.sinceMs !== null && typeof v.sinceMs !== 'number') return bad('sinceMs must be a number or null');
      if (typeof v.keepaliveS !== 'number') return bad('keepaliveS missing');
      if (v.viewsUrl !== undefined && typeof v.viewsUrl !== 'string') return bad('viewsUrl must be a string');
      break;
    case 'health':
      if (typeof v.seq !== 'number' || !isRecord(v.health) || typeof v.health.status !== 'string' || !Array.isArray(v.health.warnings)) {
        return bad('seq or health missing or malformed');
      }
      break;
    case 'ruleset':
      if (v.ruleset !== null && !(isRecord(v.ruleset) && Array.isArray(v.ruleset.installed))) return bad('ruleset must be { current, installed, rosterProblems } or null');
      break;
    case 'game-strip':
      if (typeof v.turn !== 'number' || (v.rulesetName !== null && typeof v.rulesetName !== 'string')) return bad('turn or rulesetName missing or malformed');
      if (v.lastCard !== null && !(isRecord(v.lastCard) && v.lastCard.kind === 'card')) return bad('lastCard must be a card log entry or null');
      if (v.lastRoll !== null && !(isRecord(v.lastRoll) && v.lastRoll.kind === 'dice')) return bad('lastRoll must be a dice log entry or null');
      break;
  }
  return { ok: true, value: v as unknown as BrokerMessage };
}
