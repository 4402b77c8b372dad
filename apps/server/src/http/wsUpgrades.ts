/**
 * WebSocket upgrades: `/ws` goes to the live hub; other paths to `otherUpgrade` (e.g. the phone camera),
 * else a 404. Incoming ws frames larger than `maxPayloadBytes` close the socket (1009).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { LiveHub } from './liveHub.ts';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;

export function acceptUpgrades(http: Server, hub: LiveHub, maxPayloadBytes: number, otherUpgrade: UpgradeHandler | undefined): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxPayloadBytes });
  http.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') {
      if (otherUpgrade?.(req, socket, head)) return;
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws));
  });
  return wss;
}
