/**
 * Limits on raw TCP connections, before any HTTP is parsed: at most `maxConnections` open at once and at
 * most `maxPerAddress` from one remote address; beyond either, a new connection is closed at once. With
 * the server's header timeout (`HEADERS_TIMEOUT_MS`, checked every `CONNECTION_CHECK_MS`), a slowloris
 * (connections that send half a request and trickle header lines) holds a bounded number of sockets for a
 * bounded time: before, 3,000 such sockets were accepted and 2,500 still held after 40 s.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from './perAddress.ts';

/** Most TCP connections open at once, by default (ws clients, their upgrades and REST calls together). */
export const DEFAULT_MAX_CONNECTIONS = 512;
/** Most TCP connections open at once from one address, by default. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;
/** A request whose headers are not all in after this long gets 408 and is closed. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A request (headers and body) not all in after this long gets 408 and is closed. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often the server looks for requests past those timeouts. */
export const CONNECTION_CHECK_MS = 1_000;

export interface ConnectionLimits {
  readonly maxConnections: number;
  readonly maxPerAddress: number;
}

export interface ConnectionStats {
  readonly open: number;
  /** Connections closed at once because the server or their address had too many open. */
  readonly refusedTotal: number;
  readonly refusedPerAddress: number;
}

/** Applies the limits to `server` (an http or https server); returns its counts. */
export function limitConnections(server: Server, limits: ConnectionLimits): () => ConnectionStats {
  let open = 0;
  let refusedTotal = 0;
  let refusedPerAddress = 0;
  const byAddress = new Map<string, number>();
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.on('connection', (socket: Socket) => {
    const address = addressKey(socket.remoteAddress);
    const fromAddress = byAddress.get(address) ?? 0;
    if (open >= limits.maxConnections || fromAddress >= limits.maxPerAddress) {
      if (open >= limits.maxConnections) refusedTotal++;
      else refusedPerAddress++;
      socket.destroy();
      return;
    }
    open++;
    byAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      open--;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left <= 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
  return () => ({ open, refusedTotal, refusedPerAddress });
}
