/**
 * Frames pushed from a browser page (a phone camera) over a WebSocket: each binary message is one JPEG
 * (or PNG/WebP) frame. This is the receiving side; the service mounts it on its HTTP server with
 * `handleUpgrade`, or hands it sockets from its own WebSocketServer with `handleConnection`.
 *
 * After each message the page gets a JSON text reply, `{"type":"ack","seq":n}` or
 * `{"type":"error","message":...}`, so it can send the next frame only when the last one has been taken
 * (pacing a phone over Wi-Fi by acks keeps latency at one frame instead of a growing backlog).
 * One sender at a time: a new connection replaces the previous one (a phone that reconnects after
 * sleeping must not be locked out by its own dead socket).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { decodeImage } from '@muster/vision';
import { QueuedFrameSource } from '@muster/vision';

export interface WebSocketFrameSourceOptions {
  /** URL path the upgrade must ask for. Default `/camera`. */
  readonly path?: string;
  /** Largest accepted message, bytes. Default 8 MiB (a 4K JPEG is 1–3 MiB). */
  readonly maxMessageBytes?: number;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export class WebSocketFrameSource extends QueuedFrameSource {
  readonly path: string;
  private readonly wss: WebSocketServer;
  private sender: WebSocket | null = null;
  private seq = 0;
  /** Messages that arrived while the previous frame was decoding are replaced by the newest. */
  private latest: { data: Buffer; receivedMs: number; ws: WebSocket } | null = null;
  private decoding = false;

  constructor(options: WebSocketFrameSourceOptions = {}) {
    const path = options.path ?? '/camera';
    super(`websocket ${path}`, { maxQueued: 2, overflow: 'drop-oldest' });
    this.path = path;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? 8 * 1024 * 1024 });
    this.onClose = async () => {
      for (const ws of this.wss.clients) ws.close(1001, 'frame source closed');
      await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    };
  }

  /** True when a phone is connected. */
  get connected(): boolean {
    return this.sender !== null;
  }

  /**
   * For `server.on('upgrade', ...)`: takes the request if its path matches and returns true; returns
   * false (touching nothing) otherwise, so other upgrade handlers can have it.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== this.path) return false;
    if (this.isEnded) {
      socket.destroy();
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.handleConnection(ws));
    return true;
  }

  handleConnection(ws: WebSocket): void {
    if (this.isEnded) {
      ws.close(1001, 'frame source closed');
      return;
    }
    if (this.sender && this.sender !== ws) this.sender.close(4000, 'another camera connected');
    this.sender = ws;
    ws.on('message', (data, isBinary) => {
      if (ws !== this.sender) return;
      if (!isBinary) {
        this.reply(ws, { type: 'error', message: 'send each frame as a binary message holding a JPEG' });
        return;
      }
      this.latest = { data: toBuffer(data), receivedMs: Date.now(), ws };
      void this.drain();
    });
    ws.on('close', () => {
      if (this.sender === ws) this.sender = null;
    });
    ws.on('error', (err) => this.report(new Error(`${this.description}: ${err.message}`)));
  }

  private async drain(): Promise<void> {
    if (this.decoding) return;
    this.decoding = true;
    try {
      while (this.latest && !this.isEnded) {
        const { data, receivedMs, ws } = this.latest;
        this.latest = null;
        const seq = this.seq;
        try {
          const frame = await decodeImage(data, `${this.description} message ${seq}`, seq, receivedMs);
          this.seq += 1;
          this.push(frame);
          this.reply(ws, { type: 'ack', seq });
        } catch (err) {
          this.report(err as Error);
          this.reply(ws, { type: 'error', message: (err as Error).message });
        }
      }
    } finally {
      this.decoding = false;
    }
  }

  private reply(ws: WebSocket, message: object): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }
}

export function createWebSocketFrameSource(options: WebSocketFrameSourceOptions = {}): WebSocketFrameSource {
  return new WebSocketFrameSource(options);
}
