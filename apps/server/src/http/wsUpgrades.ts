/**
 * WebSocket upgrades: `/ws` goes to the live hub; other paths to `otherUpgrade` (e.g. the phone camera),
 * else a 404. Incoming ws frames larger than `maxPayloadBytes` close the socket (1009).
 *
 * Before any of that, on every path: a Host the policy refuses gets 421 and an Origin it refuses 403
 * (`requestPolicy.ts`: a page of another site may not open the ws). On `/ws`, once `maxClients` clients
 * are connected, further upgrades get 503 with Retry-After until one leaves; an address that opens
 * connections faster than `upgradeRate` gets 429 with Retry-After (each connection costs the server a
 * snapshot: 20 viewers reconnecting in a loop pulled 925 MB in 20 s).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { LiveHub } from './liveHub.ts';
import { BucketsByAddress, addressKey } from './perAddress.ts';
import type { RateLimit } from './tokenBucket.ts';
import type { RequestPolicy } from './requestPolicy.ts';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;

export interface UpgradeOptions {
  readonly maxPayloadBytes: number;
  /** Most clients on `/ws` at once. */
  readonly maxClients: number;
  readonly policy: RequestPolicy;
  readonly otherUpgrade: UpgradeHandler | undefined;
  /** ws connections per remote address on `/ws`: more get 429. Default `DEFAULT_UPGRADE_RATE`. */
  readonly upgradeRate?: RateLimit;
}

/**
 * ws connections one address may open on `/ws`: 5 a second sustained, bursts of 100 (every view of a
 * club's machines behind one router opening at once, with room to spare).
 */
export const DEFAULT_UPGRADE_RATE: RateLimit = { perSecond: 5, burst: 100 };

/** Counts of upgrades refused, by reason. */
export interface UpgradeStats {
  readonly refusedHost: number;
  readonly refusedOrigin: number;
  readonly refusedFull: number;
  /** Upgrades refused (429) because their address connected faster than the upgrade rate. */
  readonly refusedRate: number;
}

function refuse(socket: Duplex, status: string, text: string, extraHeaders = ''): void {
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\n${extraHeaders}\r\n${text}`,
  );
}

export function acceptUpgrades(http: Server, hub: LiveHub, options: UpgradeOptions): { wss: WebSocketServer; stats(): UpgradeStats } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  let refusedHost = 0;
  let refusedOrigin = 0;
  let refusedFull = 0;
  let refusedRate = 0;
  const upgradeRate = options.upgradeRate ?? DEFAULT_UPGRADE_RATE;
  const upgradesByAddress = new BucketsByAddress(upgradeRate);
  http.on('upgrade', (req, socket, head) => {
    // The HTTP server no longer watches this socket: a peer that resets it must not crash the process.
    socket.on('error', () => socket.destroy());
    if (!options.policy.hostAllowed(req.headers.host)) {
      refusedHost++;
      refuse(socket, '421 Misdirected Request', 'this service does not answer to that Host name\n');
      return;
    }
    if (!options.policy.originAllowed(req.headers.origin, req.headers.host)) {
      refusedOrigin++;
      refuse(socket, '403 Forbidden', 'pages of other origins may not open this WebSocket (see --allow-origin)\n');
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') {
      if (options.otherUpgrade?.(req, socket, head)) return;
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    if (hub.clientCount() >= options.maxClients) {
      refusedFull++;
      refuse(socket, '503 Service Unavailable', `too many clients (at most ${options.maxClients}); try again later\n`, 'Retry-After: 5\r\n');
      return;
    }
    const address = addressKey(req.socket.remoteAddress);
    const bucket = upgradesByAddress.bucket(address);
    if (!bucket.take()) {
      refusedRate++;
      const retryS = Math.max(1, Math.ceil(bucket.msUntil() / 1000));
      refuse(socket, '429 Too Many Requests', `too many connections from ${address || 'this address'} (at most ${upgradeRate.perSecond} a second, bursts of ${upgradeRate.burst}); try again in ${retryS} s\n`, `Retry-After: ${retryS}\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws, address));
  });
  return { wss, stats: () => ({ refusedHost, refusedOrigin, refusedFull, refusedRate }) };
}
