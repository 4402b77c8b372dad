/**
 * The ws side of the service: one `LiveHub` per server. Every client starts as a viewer and gets
 * `welcome` + `snapshot`, then deltas. Backpressure: a client whose socket holds more than
 * `highWaterBytes` unsent is skipped; when it drains it gets ONE delta from what it last received to the
 * newest state (or a snapshot if it also missed log entries). So a slow viewer costs at most one buffered
 * backlog plus one state reference, never a queue that grows with time. Snapshots and deltas are
 * serialised once into a Buffer that every client at the same point shares (the ws library queues the
 * Buffer itself), so 40 clients that never read hold one copy of the snapshot, not 40.
 *
 * Rate limits (per client): incoming messages spend tokens from a bucket (`messageRate`; a message costs
 * 1 + one per `messageCostBytes`); a client that runs it dry gets `error { code: 'rate-limited' }`, the
 * socket is closed with 1008 and no longer read, and dropped a moment later. Error replies have their
 * own, smaller bucket (`errorReplyRate`): beyond it a refused message gets no reply, so a flood of
 * invalid messages cannot make the server write without bound.
 *
 * A `resync` (an 18-byte message answered with a whole snapshot, tens of KB) spends from a third bucket
 * (`resyncRate`); beyond it the resync is kept and answered once the bucket has refilled, so a viewer gets
 * at most a few snapshots in a burst and one every couple of seconds after that, however often it asks
 * (issue 32: 20 viewers without a token pulled 925 MB in 20 s). A connection starts with the message
 * budget its address's last connection left (`perAddress.ts`), so reconnecting does not refill it.
 */
import type { WebSocket } from 'ws';
import {
  OLDEST_SUPPORTED_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  diffLiveState,
  isSupportedProtocolVersion,
  isOperatorMessage,
  parseClientMessage,
  type ClientMessage,
  type ErrorCode,
  type LiveState,
  type ServerMessage,
} from '@muster/protocol';
import { ActionError, type ServiceBackend } from './backend.ts';
import { tokenMatches } from './operatorToken.ts';
import { TokenBucket, type RateLimit } from './tokenBucket.ts';
import { BucketsByAddress, addressKey } from './perAddress.ts';
import { serverLog } from '../log/logger.ts';

/** Incoming messages per client: 20 a second sustained, bursts of 60 (an operator clicks a few a second). */
export const DEFAULT_MESSAGE_RATE: RateLimit = { perSecond: 20, burst: 60 };
/** Error replies per client: 5 a second, bursts of 10; refused messages beyond that get no reply. */
export const DEFAULT_ERROR_REPLY_RATE: RateLimit = { perSecond: 5, burst: 10 };
/** A message costs one token plus one per this many bytes (a 256 KiB message costs 17). */
export const DEFAULT_MESSAGE_COST_BYTES = 16 * 1024;
/** Snapshots a client may ask for with `resync`: one every 2 s sustained, bursts of 3; more wait their turn. */
export const DEFAULT_RESYNC_RATE: RateLimit = { perSecond: 0.5, burst: 3 };
/** WebSocket close code for a client over the message rate (RFC 6455 "policy violation"). */
export const RATE_LIMIT_CLOSE_CODE = 1008;

export interface LiveHubOptions {
  readonly backend: ServiceBackend;
  readonly operatorToken: string;
  /** Unsent bytes above which a client is considered slow and skipped. Default 256 KiB. */
  readonly highWaterBytes?: number;
  /** Unsent bytes above which a client that keeps sending requests without reading is dropped. Default 16 MiB. */
  readonly dropBytes?: number;
  /** How often slow clients are re-checked, ms. Default 20. */
  readonly drainCheckMs?: number;
  /** ws-level ping interval; a client that missed two pongs is dropped (dead TCP). Default 20000 ms. */
  readonly heartbeatMs?: number;
  /** Errors that are bugs (not client mistakes) go here. Default: the server log (`muster server: …`). */
  readonly onInternalError?: (err: unknown) => void;
  /** Incoming message budget per client (`DEFAULT_MESSAGE_RATE`); over it: `rate-limited`, close 1008. */
  readonly messageRate?: RateLimit;
  /** Bytes per extra token a message costs. Default 16 KiB. */
  readonly messageCostBytes?: number;
  /** Error replies per client (`DEFAULT_ERROR_REPLY_RATE`); refused messages beyond it get no reply. */
  readonly errorReplyRate?: RateLimit;
  /** How long a rate-limited client has to take the close before it is dropped, ms. Default 1000. */
  readonly closeGraceMs?: number;
  /** Snapshots per client asked for with `resync` (`DEFAULT_RESYNC_RATE`); more are answered when it refills. */
  readonly resyncRate?: RateLimit;
}

interface Client {
  readonly ws: WebSocket;
  role: 'viewer' | 'operator';
  /** The state this client holds (what its last snapshot/delta brought it to). */
  lastSent: LiveState | null;
  /** Missed something deltas do not carry (a log entry): send a snapshot next. */
  needSnapshot: boolean;
  /** Heartbeats sent without a pong since. */
  missedPongs: number;
  readonly messages: TokenBucket;
  readonly errors: TokenBucket;
  readonly resyncs: TokenBucket;
  /** A resync over the budget waits here for the bucket to refill (one at a time: more are the same ask). */
  resyncTimer: NodeJS.Timeout | null;
  /** The peer's address (`perAddress.ts`): where the message budget it leaves is remembered. */
  readonly address: string;
  /** Rate-limited: closed, no longer read; its messages are ignored. */
  closing: boolean;
}

export interface HubStats {
  readonly clients: number;
  readonly slowClients: number;
  readonly snapshotsSent: number;
  readonly deltasSent: number;
  readonly deltasSkipped: number;
  /** Largest unsent backlog of any client right now, bytes. */
  readonly maxBufferedBytes: number;
  /** Clients closed (1008) for going over the message rate. */
  readonly rateLimitedClients: number;
  /** Error replies not sent because the client was over its error-reply rate. */
  readonly errorRepliesDropped: number;
  /** Clients dropped for holding more than `dropBytes` unsent. */
  readonly overflowedClients: number;
  /** `resync`s over a client's budget, answered later (or never, when the client left first). */
  readonly resyncsDeferred: number;
}

export interface LiveHub {
  /** Takes over an accepted socket; `address` is the peer's (its remembered message budget applies). */
  accept(ws: WebSocket, address?: string): void;
  clientCount(): number;
  stats(): HubStats;
  close(): void;
}

export function createLiveHub(options: LiveHubOptions): LiveHub {
  const { backend, operatorToken } = options;
  const highWater = options.highWaterBytes ?? 256 * 1024;
  const dropBytes = options.dropBytes ?? 16 * 1024 * 1024;
  const onInternalError = options.onInternalError ?? ((err: unknown) => serverLog.error('internal error:', err));
  const messageRate = options.messageRate ?? DEFAULT_MESSAGE_RATE;
  const messageCostBytes = options.messageCostBytes ?? DEFAULT_MESSAGE_COST_BYTES;
  const errorReplyRate = options.errorReplyRate ?? DEFAULT_ERROR_REPLY_RATE;
  const closeGraceMs = options.closeGraceMs ?? 1000;
  const resyncRate = options.resyncRate ?? DEFAULT_RESYNC_RATE;
  // What each address's connections left of their message budget, for its next connection.
  const messageBudgets = new BucketsByAddress(messageRate);
  const clients = new Set<Client>();
  let resyncsDeferred = 0;
  let snapshotsSent = 0;
  let deltasSent = 0;
  let deltasSkipped = 0;
  let rateLimitedClients = 0;
  let errorRepliesDropped = 0;
  let overflowedClients = 0;
  let drainTimer: NodeJS.Timeout | null = null;
  // One serialised delta per base seq for the current state: 50 viewers in step share one JSON.stringify
  // and one Buffer.
  let deltaCacheSeq = -1;
  const deltaCache = new Map<number, Buffer>();
  // One serialised snapshot for the current state and recent log, shared likewise; rebuilt when either
  // changes, and at least every second so its `sentTimeMs` stays near the truth.
  let snapshotCache: { state: LiveState; logVersion: number; log: readonly unknown[]; logLength: number; lastEntry: unknown; builtMs: number; bytes: Buffer } | null = null;
  let logVersion = 0;

  function sendRaw(client: Client, data: string | Buffer): void {
    client.ws.send(data, { binary: false });
  }

  function reply(client: Client, msg: ServerMessage): void {
    if (client.ws.readyState !== client.ws.OPEN) return;
    if (client.ws.bufferedAmount > dropBytes) {
      overflowedClients++;
      client.ws.terminate();
      return;
    }
    sendRaw(client, JSON.stringify(msg));
  }

  function replyError(client: Client, code: ErrorCode, message: string, requestId?: string): void {
    if (!client.errors.take()) {
      errorRepliesDropped++;
      return;
    }
    reply(client, { type: 'error', code, message, ...(requestId !== undefined ? { requestId } : {}) });
  }

  /** Over the message rate: told once, closed (1008), no longer read, and dropped after a grace period. */
  function rateLimit(client: Client): void {
    client.closing = true;
    rateLimitedClients++;
    const ws = client.ws;
    if (ws.readyState === ws.OPEN && ws.bufferedAmount <= dropBytes) {
      sendRaw(
        client,
        JSON.stringify({
          type: 'error',
          code: 'rate-limited',
          message: `more than ${messageRate.perSecond} messages a second (bursts of ${messageRate.burst}); closing`,
        } satisfies ServerMessage),
      );
      ws.close(RATE_LIMIT_CLOSE_CODE, 'message rate limit exceeded');
    }
    ws.pause();
    setTimeout(() => ws.terminate(), closeGraceMs).unref();
  }

  function isSlow(client: Client): boolean {
    return client.ws.bufferedAmount > highWater;
  }

  function snapshotBytes(state: LiveState): Buffer {
    const now = Date.now();
    const log = backend.recentLog();
    const lastEntry = log[log.length - 1];
    const c = snapshotCache;
    // The recent log may be one array the backend appends to: its length and last entry are compared too.
    const same = c && c.state === state && c.logVersion === logVersion && c.log === log && c.logLength === log.length && c.lastEntry === lastEntry;
    if (same && now - c.builtMs < 1000) return c.bytes;
    const text = JSON.stringify({ type: 'snapshot', protocolVersion: PROTOCOL_VERSION, state, recentLog: log, sentTimeMs: now } satisfies ServerMessage);
    snapshotCache = { state, logVersion, log, logLength: log.length, lastEntry, builtMs: now, bytes: Buffer.from(text) };
    return snapshotCache.bytes;
  }

  function sendSnapshot(client: Client, state: LiveState): void {
    sendRaw(client, snapshotBytes(state));
    client.lastSent = state;
    client.needSnapshot = false;
    snapshotsSent++;
  }

  function deltaBytes(base: LiveState, state: LiveState): Buffer {
    if (deltaCacheSeq !== state.seq) {
      deltaCache.clear();
      deltaCacheSeq = state.seq;
    }
    let bytes = deltaCache.get(base.seq);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(diffLiveState(base, state, Date.now())));
      deltaCache.set(base.seq, bytes);
    }
    return bytes;
  }

  /** Brings one client up to the newest state if its socket has room; true when it is now current. */
  function pump(client: Client): boolean {
    if (client.ws.readyState !== client.ws.OPEN) return true;
    const state = backend.state();
    if (!client.needSnapshot && client.lastSent === state) return true;
    if (isSlow(client)) return false;
    if (client.needSnapshot || client.lastSent === null) sendSnapshot(client, state);
    else {
      sendRaw(client, deltaBytes(client.lastSent, state));
      client.lastSent = state;
      deltasSent++;
    }
    return true;
  }

  function pumpAll(): void {
    let behind = 0;
    for (const c of clients) {
      if (!pump(c)) {
        behind++;
        deltasSkipped++;
      }
    }
    if (behind > 0 && drainTimer === null) {
      drainTimer = setInterval(() => {
        let still = 0;
        for (const c of clients) if (!pump(c)) still++;
        if (still === 0 && drainTimer !== null) {
          clearInterval(drainTimer);
          drainTimer = null;
        }
      }, options.drainCheckMs ?? 20);
      drainTimer.unref();
    }
  }

  const heartbeat = setInterval(() => {
    for (const c of clients) {
      if (c.missedPongs >= 2) {
        c.ws.terminate();
        clients.delete(c);
        continue;
      }
      c.missedPongs++;
      try {
        c.ws.ping();
      } catch {
        // socket closing; 'close' removes it
      }
    }
  }, options.heartbeatMs ?? 20_000);
  heartbeat.unref();

  const unsubscribe = backend.subscribe((event) => {
    try {
      if (event.kind === 'state') pumpAll();
      else {
        logVersion++;
        const text = Buffer.from(JSON.stringify({ type: 'log', entry: event.entry } satisfies ServerMessage));
        for (const c of clients) {
          if (c.ws.readyState !== c.ws.OPEN) continue;
          if (isSlow(c)) c.needSnapshot = true;
          else sendRaw(c, text);
        }
      }
    } catch (err) {
      onInternalError(err);
    }
  });

  function handle(client: Client, msg: ClientMessage): void {
    const requestId = msg.requestId;
    const rid = requestId !== undefined ? { requestId } : {};
    switch (msg.type) {
      case 'hello': {
        // Older clients whose messages are unchanged are served too; the fields added since they ignore.
        if (!isSupportedProtocolVersion(msg.protocolVersion)) {
          replyError(
            client,
            'unsupported-version',
            `server speaks protocol ${OLDEST_SUPPORTED_PROTOCOL_VERSION}..${PROTOCOL_VERSION}, client ${msg.protocolVersion}`,
            requestId,
          );
          return;
        }
        if (msg.token !== undefined) {
          if (!tokenMatches(msg.token, operatorToken)) {
            replyError(client, 'forbidden', 'wrong operator token; you stay a viewer', requestId);
            return;
          }
          client.role = 'operator';
        }
        reply(client, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, role: client.role, serverTimeMs: Date.now(), ...rid });
        return;
      }
      case 'ping':
        reply(client, {
          type: 'pong',
          ...rid,
          ...(msg.clientTimeMs !== undefined ? { clientTimeMs: msg.clientTimeMs } : {}),
          serverTimeMs: Date.now(),
        });
        return;
      case 'resync':
        resync(client);
        return;
      default:
        break;
    }
    if (!isOperatorMessage(msg)) return;
    if (client.role !== 'operator') {
      replyError(client, 'forbidden', `"${msg.type}" needs the operator token (send hello with it first)`, requestId);
      return;
    }
    try {
      const result = backend.perform(msg);
      if (msg.type === 'set-focus') focusOwner = msg.unitId === null && msg.measure === null ? null : client;
      reply(client, { type: 'ack', ...rid, action: msg.type, ...(result !== undefined ? { result } : {}) });
    } catch (err) {
      if (err instanceof ActionError) replyError(client, err.code, err.message, requestId);
      else {
        onInternalError(err);
        replyError(client, 'internal', 'the server failed to perform this action (see its log)', requestId);
      }
    }
  }

  /** A snapshot now when the client's resync budget allows, else once it has refilled (asks meanwhile merge). */
  function resync(client: Client): void {
    if (client.resyncs.take()) {
      client.needSnapshot = true;
      pump(client);
      return;
    }
    resyncsDeferred++;
    if (client.resyncTimer !== null) return;
    client.resyncTimer = setTimeout(() => {
      client.resyncTimer = null;
      if (clients.has(client) && !client.closing) resync(client);
    }, client.resyncs.msUntil());
    client.resyncTimer.unref();
  }

  /**
   * The operator socket whose `set-focus` is showing. When it goes (the operator page closed or lost its
   * connection), its selection and tape would otherwise stay lit on every view, so the focus is cleared.
   */
  let focusOwner: Client | null = null;

  function dropClient(client: Client): void {
    if (client.resyncTimer !== null) clearTimeout(client.resyncTimer);
    client.resyncTimer = null;
    messageBudgets.remember(client.address, client.messages.available());
    if (!clients.delete(client) || client !== focusOwner) return;
    focusOwner = null;
    try {
      backend.perform({ type: 'set-focus', unitId: null, measure: null });
    } catch (err) {
      // A backend without a shared focus refuses it: nothing to clear.
      if (!(err instanceof ActionError)) onInternalError(err);
    }
  }

  return {
    accept(ws: WebSocket, address = ''): void {
      const key = addressKey(address);
      const client: Client = {
        ws,
        role: 'viewer',
        lastSent: null,
        needSnapshot: false,
        missedPongs: 0,
        // What the address's last connection left, refilled since: reconnecting does not reset the budget.
        messages: new TokenBucket(messageRate, Date.now, messageBudgets.available(key)),
        errors: new TokenBucket(errorReplyRate),
        resyncs: new TokenBucket(resyncRate),
        resyncTimer: null,
        address: key,
        closing: false,
      };
      clients.add(client);
      ws.on('pong', () => {
        client.missedPongs = 0;
      });
      ws.on('message', (data, isBinary) => {
        if (client.closing) return;
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
        if (!client.messages.take(1 + Math.floor(bytes.byteLength / messageCostBytes))) {
          rateLimit(client);
          return;
        }
        const parsed = parseClientMessage(isBinary ? bytes : bytes.toString('utf8'));
        if (!parsed.ok) {
          replyError(client, parsed.code, parsed.message, parsed.requestId);
          return;
        }
        try {
          handle(client, parsed.value);
        } catch (err) {
          onInternalError(err);
          replyError(client, 'internal', 'the server failed to handle this message');
        }
      });
      ws.on('close', () => dropClient(client));
      ws.on('error', () => dropClient(client));
      reply(client, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, role: 'viewer', serverTimeMs: Date.now() });
      sendSnapshot(client, backend.state());
    },
    clientCount: () => clients.size,
    stats: () => ({
      clients: clients.size,
      slowClients: [...clients].filter(isSlow).length,
      snapshotsSent,
      deltasSent,
      deltasSkipped,
      maxBufferedBytes: Math.max(0, ...[...clients].map((c) => c.ws.bufferedAmount)),
      rateLimitedClients,
      errorRepliesDropped,
      overflowedClients,
      resyncsDeferred,
    }),
    close(): void {
      unsubscribe();
      clearInterval(heartbeat);
      if (drainTimer !== null) clearInterval(drainTimer);
      drainTimer = null;
      for (const c of clients) {
        if (c.resyncTimer !== null) clearTimeout(c.resyncTimer);
        c.ws.close(1001, 'server shutting down');
      }
      clients.clear();
    },
  };
}
