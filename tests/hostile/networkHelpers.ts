/**
 * Helpers of the hostile network tests: a real demo service on loopback with the server options under
 * test, raw HTTP requests and ws upgrades with exactly the headers given (Host, Origin), and a child
 * process of ws clients that flood or never read. Everything talks to 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { LiveOptions, RunningLive } from '../../apps/server/src/compose/liveOptions.ts';

export const TOKEN = 'hostile-network-token';

/** The demo from ground truth on 127.0.0.1, a free port, with extra live options (limits under test). */
export function startHostileDemo(dataDir: string, extra: Partial<Omit<LiveOptions, 'source' | 'dataDir'>> = {}): Promise<RunningLive> {
  return startLive({
    source: { mode: 'demo', demoSource: 'truth', fps: 10 },
    dataDir,
    host: '127.0.0.1',
    port: 0,
    operatorToken: TOKEN,
    ...extra,
  });
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One HTTP request to 127.0.0.1 with exactly these headers (Host included: nothing is added). */
export function rawRequest(baseUrl: string, method: string, path: string, headers: OutgoingHttpHeaders, body?: string | Buffer): Promise<RawAnswer> {
  const port = Number(new URL(baseUrl).port);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A ws upgrade to 127.0.0.1 with exactly these headers (plus the WebSocket handshake ones): 101 when
 * accepted (the socket is closed again at once), else the refusal's status and body.
 */
export function rawUpgrade(baseUrl: string, path: string, headers: OutgoingHttpHeaders): Promise<{ status: number; body: string }> {
  const port = Number(new URL(baseUrl).port);
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      setHost: false,
      agent: false,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    req.setTimeout(20_000, () => req.destroy(new Error(`upgrade ${path}: no answer in 20 s`)));
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `/api/health` of the service, with the time it took (ms). */
export async function health(baseUrl: string): Promise<{ status: number; clients: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(30_000) });
  const body = (await res.json()) as { clients: number };
  return { status: res.status, clients: body.clients, ms: performance.now() - t0 };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `ok` every 50 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(ok: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await ok()) return true;
    if (Date.now() > end) return false;
    await sleep(50);
  }
}

export interface ClientsReport {
  readonly opened: number;
  readonly failed: number;
  /** Messages handed to the sockets (flood mode). */
  readonly sent: number;
  /** Sockets that were closed (by the server) before the time was up. */
  readonly closedEarly: number;
}

/**
 * `n` ws clients in a child process that never read (their sockets are paused). `flood`: each sends
 * 15-byte invalid messages as fast as its socket takes them, for at most `seconds`. Resolves `connected`
 * once all are open, `done` with the report when the time is up (or every socket is closed).
 */
export function spawnClients(baseUrl: string, n: number, mode: 'flood' | 'idle', seconds: number): { connected: Promise<void>; done: Promise<ClientsReport>; kill(): void } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'networkClients.ts'), baseUrl, String(n), mode, String(seconds)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let onConnected: () => void = () => {};
  let onFailed: (e: Error) => void = () => {};
  const connected = new Promise<void>((resolve, reject) => {
    onConnected = resolve;
    onFailed = reject;
  });
  const done = new Promise<ClientsReport>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('connected\n')) onConnected();
    });
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        const err = new Error(`clients child exited ${code}: ${out}`);
        onFailed(err);
        reject(err);
        return;
      }
      resolve(JSON.parse(last) as ClientsReport);
    });
  });
  return { connected, done, kill: () => child.kill('SIGKILL') };
}
