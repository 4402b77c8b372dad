/**
 * TUIO 1.1 output over UDP: the published `LiveState`s as `/tuio/2Dobj` bundles (`tuioFrames.ts`) to one
 * host:port, for reacTIVision clients. See README.md.
 *
 * Wiring (one call): `attachTuioOutput(pipeline, { host, port })` sends every published state and
 * returns `{ close }`; or `startTuioOutput(options)` and call `publish(state)` yourself.
 *
 * The network never throws into the caller: the host is resolved once (IPv4 preferred, since TUIO
 * clients usually listen on 0.0.0.0; retried every 5 s while it does not resolve), the socket is a
 * connected UDP socket so an ICMP "port unreachable" (nothing listening yet) comes back as ECONNREFUSED,
 * and every error is logged once per kind and otherwise ignored: sending goes on, and a client that
 * starts later gets the whole scene with the next keep-alive.
 */
import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { LiveState } from '@muster/protocol';
import { createTuioFrames, DEFAULT_MAX_PACKET_BYTES } from './tuioFrames.ts';
import type { TableSizeIn } from './tuioMapping.ts';
import { formatTuioTarget } from './tuioTarget.ts';
import { log as serviceLog } from '../log/logger.ts';

export interface TuioOutputOptions {
  /** Where the TUIO client listens (from `parseTuioTarget`). */
  readonly host: string;
  readonly port: number;
  /** Table size, inches. Default: each state's `tableState.table` (the table profile in use). */
  readonly table?: TableSizeIn;
  /** TUIO 1.1 source string. Default `muster@<this machine's host name>`; null sends no source message. */
  readonly source?: string | null;
  /** A keep-alive frame (alive, every set, fseq) goes out this long after the last frame. Default 1000 ms. */
  readonly keepAliveMs?: number;
  /** Largest datagram; a frame above it is split into several bundles. Default 1472 bytes. */
  readonly maxPacketBytes?: number;
  /** Where the one-time network and state warnings go. Default: the service log, level warn. */
  readonly log?: (message: string) => void;
}

export interface TuioOutput {
  /** `host:port` it sends to. */
  readonly target: string;
  /** Sends the frame for a newly published state (nothing when no object changed). Never throws. */
  publish(state: LiveState): void;
  /** Sends an empty alive frame (clients drop every object), then closes the socket. Idempotent. */
  close(): Promise<void>;
}

/** What `attachTuioOutput` reads: the live pipeline (`ServiceBackend`) has both. */
export interface PublishedStates {
  state(): LiveState;
  subscribe(listener: (event: { readonly kind: string }) => void): () => void;
}

const RESOLVE_RETRY_MS = 5000;
/** How long `close()` waits for the final datagram to leave before closing the socket anyway. */
const CLOSE_FLUSH_MS = 500;

function checkOptions(o: TuioOutputOptions): void {
  if (typeof o.host !== 'string' || o.host.trim() === '') throw new Error('TUIO output: host must be a non-empty string');
  if (!Number.isInteger(o.port) || o.port < 1 || o.port > 65535) throw new Error(`TUIO output: port must be 1..65535, got ${o.port}`);
  if (o.table && !(o.table.widthIn > 0 && o.table.depthIn > 0 && Number.isFinite(o.table.widthIn) && Number.isFinite(o.table.depthIn))) {
    throw new Error(`TUIO output: table size must be positive inches, got ${JSON.stringify(o.table)}`);
  }
  if (o.keepAliveMs !== undefined && !(o.keepAliveMs > 0 && o.keepAliveMs <= 60_000)) {
    throw new Error(`TUIO output: keepAliveMs must be in (0, 60000], got ${o.keepAliveMs}`);
  }
  if (o.maxPacketBytes !== undefined && !(Number.isInteger(o.maxPacketBytes) && o.maxPacketBytes >= 256 && o.maxPacketBytes <= 65507)) {
    throw new Error(`TUIO output: maxPacketBytes must be an integer in [256, 65507], got ${o.maxPacketBytes}`);
  }
}

function errorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return err instanceof Error ? err.message : String(err);
}

/** Starts sending to `options.host:port`. Throws only on invalid options. */
export function startTuioOutput(options: TuioOutputOptions): TuioOutput {
  checkOptions(options);
  const { host, port } = options;
  const target = formatTuioTarget({ host, port });
  const keepAliveMs = options.keepAliveMs ?? 1000;
  const maxPacketBytes = options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
  const log = options.log ?? ((m: string) => serviceLog.warn(m));
  const logged = new Set<string>();
  const logOnce = (key: string, message: string): void => {
    if (logged.has(key)) return;
    logged.add(key);
    try {
      log(message);
    } catch {
      // A logger that throws must not stop the output either.
    }
  };
  const frames = createTuioFrames({
    ...(options.table ? { table: options.table } : {}),
    source: options.source === undefined ? `muster@${hostname()}` : options.source,
    maxPacketBytes,
    warn: (m) => logOnce(`warn:${m}`, m),
  });

  let socket: dgram.Socket | null = null;
  let connected = false;
  let closed = false;
  let closing: Promise<void> | null = null;
  let keepAliveTimer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;

  const reportSendError = (err: unknown): void => {
    const code = errorCode(err);
    const hint = code === 'ECONNREFUSED' ? ': nothing is listening there (yet)' : '';
    logOnce(`send:${code}`, `TUIO: sending to ${target} failed (${code}${hint}); still sending, reported once`);
  };

  function armKeepAlive(): void {
    if (keepAliveTimer) clearTimeout(keepAliveTimer);
    if (closed) return;
    keepAliveTimer = setTimeout(() => {
      keepAliveTimer = null;
      guarded(() => send(frames.refresh()));
    }, keepAliveMs);
    keepAliveTimer.unref();
  }

  /** Sends bundles; resolves when the last one has left (or failed). */
  function send(bundles: readonly Buffer[]): Promise<void> {
    if (bundles.length === 0) return Promise.resolve();
    armKeepAlive();
    const s = socket;
    if (!connected || !s) return Promise.resolve();
    let last: Promise<void> = Promise.resolve();
    for (const b of bundles) {
      if (b.length > maxPacketBytes) {
        logOnce('size', `TUIO: a ${b.length}-byte bundle exceeds ${maxPacketBytes} bytes (its alive list and one set do not fit in less); sent anyway`);
      }
      last = new Promise<void>((done) => {
        try {
          s.send(b, (err) => {
            if (err) reportSendError(err);
            done();
          });
        } catch (err) {
          reportSendError(err);
          done();
        }
      });
    }
    return last;
  }

  function guarded(fn: () => unknown): void {
    try {
      fn();
    } catch (err) {
      logOnce(`bug:${errorCode(err)}`, `TUIO: output error (${err instanceof Error ? err.stack ?? err.message : String(err)}); TUIO output goes on`);
    }
  }

  async function resolveAddress(): Promise<{ address: string; family: 4 | 6 }> {
    const kind = isIP(host);
    if (kind === 4 || kind === 6) return { address: host, family: kind };
    try {
      const a = await lookup(host, { family: 4 });
      return { address: a.address, family: 4 };
    } catch {
      const a = await lookup(host);
      return { address: a.address, family: a.family === 6 ? 6 : 4 };
    }
  }

  function retryLater(): void {
    if (closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      openGuarded();
    }, RESOLVE_RETRY_MS);
    retryTimer.unref();
  }

  async function open(): Promise<void> {
    let resolved: { address: string; family: 4 | 6 };
    try {
      resolved = await resolveAddress();
    } catch (err) {
      logOnce(`resolve:${errorCode(err)}`, `TUIO: cannot resolve "${host}" (${errorCode(err)}); retrying every ${RESOLVE_RETRY_MS / 1000} s`);
      retryLater();
      return;
    }
    if (closed) return;
    const s = dgram.createSocket(resolved.family === 6 ? 'udp6' : 'udp4');
    s.unref();
    socket = s;
    // ECONNREFUSED after an ICMP port unreachable, and anything else the socket reports: log once, go on.
    s.on('error', (err) => {
      if (!connected) {
        logOnce(`connect:${errorCode(err)}`, `TUIO: cannot open UDP to ${target} (${errorCode(err)}); retrying every ${RESOLVE_RETRY_MS / 1000} s`);
        socket = null;
        try {
          s.close();
        } catch {
          // already closed
        }
        retryLater();
        return;
      }
      reportSendError(err);
    });
    s.connect(port, resolved.address, () => {
      if (closed) return;
      connected = true;
      // First contact: the whole scene as it stands (an empty alive list before the first state).
      guarded(() => send(frames.refresh()));
    });
  }

  function openGuarded(): void {
    open().catch((err: unknown) => logOnce(`open:${errorCode(err)}`, `TUIO: cannot open UDP to ${target} (${errorCode(err)}); TUIO output is off`));
  }

  openGuarded();
  armKeepAlive();

  return {
    target,
    publish(state) {
      if (closed) return;
      guarded(() => send(frames.next(state)));
    },
    close() {
      if (closing) return closing;
      closed = true;
      if (keepAliveTimer) clearTimeout(keepAliveTimer);
      if (retryTimer) clearTimeout(retryTimer);
      keepAliveTimer = retryTimer = null;
      closing = (async () => {
        const s = socket;
        if (!s) return;
        if (connected) {
          let flushed: Promise<void> = Promise.resolve();
          guarded(() => {
            flushed = send(frames.clear());
          });
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([flushed, new Promise<void>((r) => (timer = setTimeout(r, CLOSE_FLUSH_MS)))]);
          clearTimeout(timer);
          if (keepAliveTimer) clearTimeout(keepAliveTimer);
        }
        connected = false;
        socket = null;
        await new Promise<void>((done) => {
          try {
            s.close(() => done());
          } catch {
            done();
          }
        });
      })();
      return closing;
    },
  };
}

/**
 * Sends every state `source` publishes (and the current one now) as TUIO 1.1; `close()` unsubscribes,
 * tells the clients every object is gone and closes the socket. The live pipeline is such a source:
 * `attachTuioOutput(pipeline, { ...parseTuioTarget(value) })`.
 */
export function attachTuioOutput(source: PublishedStates, options: TuioOutputOptions): TuioOutput {
  const out = startTuioOutput(options);
  out.publish(source.state());
  const unsubscribe = source.subscribe((event) => {
    if (event.kind === 'state') out.publish(source.state());
  });
  return {
    target: out.target,
    publish: out.publish,
    async close() {
      unsubscribe();
      await out.close();
    },
  };
}
