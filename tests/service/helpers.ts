/** Test helpers: a real service on loopback and a ws client that records what it receives. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { ClientMessage, ServerMessage } from '@muster/protocol';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive, ServerLimits } from '../../apps/server/src/compose/liveOptions.ts';

export interface TempDir {
  readonly path: string;
  remove(): void;
}

export function tempDir(prefix = 'muster-service-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The whole live app (demo from ground truth) on 127.0.0.1 with a free port. */
export async function startDemo(dataDir: string, extra: { fps?: number; speed?: number; token?: string; serverLimits?: ServerLimits } = {}): Promise<RunningLive> {
  return startLive({
    source: { mode: 'demo', demoSource: 'truth', fps: extra.fps ?? 20, speed: extra.speed ?? 4 },
    dataDir,
    host: '127.0.0.1',
    port: 0,
    operatorToken: extra.token ?? 'test-operator-token',
    ...(extra.serverLimits ? { serverLimits: extra.serverLimits } : {}),
  });
}

export class TestClient {
  readonly messages: ServerMessage[] = [];
  private waiters: { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  closed = false;
  closeCode: number | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as ServerMessage;
      this.messages.push(msg);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(msg)) return true;
        w.resolve(msg);
        return false;
      });
    });
    ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
    });
  }

  static async connect(baseUrl: string): Promise<TestClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`);
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(msg: ClientMessage | string): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** The first message (already received or future) matching `match`, after index `from`. */
  next<T extends ServerMessage['type']>(type: T, match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true, from = 0, timeoutMs = 10_000): Promise<Extract<ServerMessage, { type: T }>> {
    const ok = (m: ServerMessage): boolean => m.type === type && match(m as Extract<ServerMessage, { type: T }>);
    const found = this.messages.slice(from).find(ok);
    if (found) return Promise.resolve(found as Extract<ServerMessage, { type: T }>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a "${type}" message`)), timeoutMs);
      this.waiters.push({
        match: ok,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as Extract<ServerMessage, { type: T }>);
        },
      });
    });
  }

  /** Sends a request and waits for the reply carrying its requestId. */
  async request(msg: ClientMessage & { requestId: string }): Promise<ServerMessage> {
    const from = this.messages.length;
    this.send(msg);
    const isReply = (m: ServerMessage): boolean => 'requestId' in m && m.requestId === msg.requestId;
    const found = this.messages.slice(from).find(isReply);
    if (found) return found;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply to ${msg.requestId}`)), 10_000);
      this.waiters.push({
        match: isReply,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
      setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 2000).unref();
    });
  }
}
