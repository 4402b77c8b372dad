/**
 * A seeded fuzzer for a running Muster service (anything `muster start` serves): ws messages on `/ws`
 * (random JSON shapes, real message types with fields of the wrong type or size, huge and odd numbers,
 * deep nesting, binary frames, random bytes, invalid UTF-8, oversize frames) and REST requests under
 * `/api` (random methods, paths, queries, bodies and headers, bad Content-Type, Content-Encoding, Host
 * and Authorization). Only ever talks to the URL it is given.
 *
 * `fuzzService(url, seed, count)` sends `count` ws messages and `count` REST requests and returns what it
 * saw. Same seed, same inputs: every worker draws from its own generator seeded from `seed`, so the
 * inputs do not depend on timing (what the server answers may: rate limits and closes).
 *
 * The ws side keeps under the server's default message budget (60 tokens; a message costs one plus one
 * per 16 KiB), so most messages are processed: it sends a batch, waits for the pong of a final ping and
 * reconnects. Closes the server chooses (1007 invalid UTF-8, 1009 too big, 1008 over the rate) are counted,
 * not faults. A fault is: the service stops answering `/api/health` (`crashes`), a 5xx answer or a ws
 * `internal` error (`status5xx`), a body or ws error text that looks like a stack trace (`stackTraces`),
 * or a request left unanswered (`timeouts`).
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '@muster/protocol';
import { createRng } from '@muster/rules';
import type { ServerLimits } from '../../apps/server/src/compose/liveOptions.ts';

/**
 * The service limits a fuzzing run needs: the fuzzer is one peer that sends as fast as the server answers
 * and reconnects after every batch, which the per-address budgets (rightly) slow to 20 messages and
 * 5 connections a second. Fuzzing looks for crashes, 5xx and stack traces, not for the limits (those are
 * `tests/hostile/network*.test.ts`), so the sustained rates are raised and the bursts kept.
 */
export const FUZZ_SERVER_LIMITS: ServerLimits = {
  messageRate: { perSecond: 10_000, burst: 60 },
  upgradeRate: { perSecond: 10_000, burst: 100 },
};

export interface FuzzOptions {
  /** The operator token: some ws clients say hello with it and some REST requests carry it. */
  readonly token?: string;
  /** ws connections in parallel. Default 3. */
  readonly wsWorkers?: number;
  /** REST requests in flight at once. Default 3. */
  readonly restWorkers?: number;
  /** No answer within this long is a timeout, ms. Default 15000. */
  readonly timeoutMs?: number;
  /** Called with each fault as it is found (for a log). */
  readonly onFault?: (fault: string) => void;
}

export interface FuzzCounts {
  readonly messagesFuzzed: number;
  readonly requestsFuzzed: number;
  /** Health checks the service did not answer with 200 (each one after the first counts too). */
  readonly crashes: number;
  /** REST answers ≥ 500, plus ws `error { code: 'internal' }` replies. */
  readonly status5xx: number;
  /** REST bodies or ws error messages that look like a stack trace or name a source file. */
  readonly stackTraces: number;
  /** Requests or ws syncs left unanswered past `timeoutMs`. */
  readonly timeouts: number;
  /** REST requests Node refused to send (a path or header it will not put on the wire); not counted as fuzzed. */
  readonly unsendable: number;
  readonly restStatuses: Readonly<Record<string, number>>;
  readonly wsErrorCodes: Readonly<Record<string, number>>;
  readonly wsCloseCodes: Readonly<Record<string, number>>;
  readonly wsConnections: number;
  /** The first few faults, described. */
  readonly faults: readonly string[];
}

// ---------------------------------------------------------------------------------------------------------
// Seeded randomness

export type Rng = () => number;

/** Uniform in [0, 1) from the rules' seeded source (the project's one PRNG). */
export function seededRng(seed: number): Rng {
  return createRng(seed >>> 0).nextFloat;
}

const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const chance = (rng: Rng, p: number): boolean => rng() < p;

// Stack-trace-looking text: "    at fn (/path/file.ts:12:3)", "node:internal/...", "file.js:10:5".
const STACK_PATTERNS = [/\n\s+at\s/, /\bat\s+\S+\s+\([^)]*:\d+:\d+\)/, /node:internal/, /[\w/.-]+\.(?:ts|js|mjs|cjs):\d+(?::\d+)?/, /node_modules[\\/]/];
export function looksLikeStackTrace(text: string): boolean {
  return STACK_PATTERNS.some((p) => p.test(text));
}

// Strings the generators use never contain ':' followed by digits or "at (": no false stack traces.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,;!?*+=<>{}[]"\'\\/éß中文🙂\u0000\u0007\u200b\u202e\ud800';
const KNOWN_KEYS = ['type', 'requestId', 'protocolVersion', 'token', 'clientTimeMs', 'unitId', 'status', 'terrain', 'markerId', 'standId', 'dice', 'hitOn', 'reason', 'turn', 'areas', 'linear', 'roads', 'elevations', 'id', 'kind', 'vertices', 'points', 'xIn', 'yIn', 'level', 'widthIn', '__proto__', 'constructor', 'prototype', 'toString', 'hitsByStand', 'ordersLeft', 'formation'];
const ODD_NUMBERS = [0, -0, 1, -1, 0.5, 2 ** 31, 2 ** 32 + 1, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324, 1e-7, 123456789.123456789, 10_001, 100_000, 100_001];
const MESSAGE_TYPES = ['hello', 'ping', 'resync', 'set-unit-status', 'set-terrain', 'assign-tag', 'draw-card', 'roll-dice', 'set-turn', 'welcome', 'snapshot', 'delta', 'error', '', 'HELLO', 'set-terrain ', 'constructor'];
const UNIT_IDS = ['al19', 'al22', 'al26', 'us1', 'us2', 'alley-battery', 'nobody', ''];

function randomString(rng: Rng, maxLen = 24): string {
  const n = int(rng, 0, maxLen);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(rng, [...ALPHABET]);
  return s;
}

function randomNumber(rng: Rng): number {
  if (chance(rng, 0.5)) return pick(rng, ODD_NUMBERS);
  return chance(rng, 0.5) ? int(rng, -1000, 1000) : (rng() - 0.5) * 10 ** int(rng, 0, 20);
}

export function randomJson(rng: Rng, depth = 4): unknown {
  const kind = depth <= 0 ? int(rng, 0, 3) : int(rng, 0, 5);
  switch (kind) {
    case 0:
      return pick(rng, [null, true, false]);
    case 1:
      return randomNumber(rng);
    case 2:
    case 3:
      return chance(rng, 0.3) ? pick(rng, MESSAGE_TYPES) : randomString(rng);
    case 4:
      return Array.from({ length: int(rng, 0, 6) }, () => randomJson(rng, depth - 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = int(rng, 0, 6); i > 0; i--) o[chance(rng, 0.6) ? pick(rng, KNOWN_KEYS) : randomString(rng, 10)] = randomJson(rng, depth - 1);
      return o;
    }
  }
}

function randomPoints(rng: Rng, n: number): unknown[] {
  return Array.from({ length: n }, () => ({ xIn: Math.round(rng() * 7200) / 100, yIn: Math.round(rng() * 4800) / 100 }));
}

/** A terrain that is valid (mostly small, sometimes near or over the size limit). */
function randomTerrain(rng: Rng): unknown {
  const points = chance(rng, 0.1) ? int(rng, 500, 3000) : int(rng, 3, 12);
  return {
    areas: Array.from({ length: int(rng, 0, 3) }, (_, i) => ({ id: `fz-a${i}`, kind: pick(rng, ['rough', 'swamp', 'open-woods', 'town']), vertices: randomPoints(rng, Math.max(3, Math.floor(points / 3))) })),
    linear: Array.from({ length: int(rng, 0, 2) }, (_, i) => ({ id: `fz-l${i}`, kind: pick(rng, ['fence', 'wall', 'stream']), points: randomPoints(rng, Math.max(2, Math.floor(points / 3))) })),
    roads: [],
    elevations: chance(rng, 0.3) ? [{ id: 'fz-hill', level: int(rng, 1, 3), vertices: randomPoints(rng, 4) }] : [],
  };
}

/** A well-formed message of each type (some operator ones valid, so actions really run). */
function template(rng: Rng, token: string | undefined): Record<string, unknown> {
  switch (int(rng, 0, 8)) {
    case 0:
      return { type: 'hello', protocolVersion: int(rng, 0, 4), ...(chance(rng, 0.5) ? { token: chance(rng, 0.5) && token ? token : randomString(rng) } : {}) };
    case 1:
      return { type: 'ping', clientTimeMs: Date.now() };
    case 2:
      return { type: 'resync' };
    case 3:
      return { type: 'set-unit-status', unitId: pick(rng, UNIT_IDS), status: { disordered: chance(rng, 0.5), ordersLeft: int(rng, 0, 3), formation: pick(rng, ['line', 'column', 'square', 'phalanx']) } };
    case 4:
      return { type: 'set-terrain', terrain: randomTerrain(rng) };
    case 5:
      return { type: 'assign-tag', markerId: int(rng, -1, 300), standId: chance(rng, 0.3) ? null : `${pick(rng, UNIT_IDS)}-${int(rng, 0, 4)}` };
    case 6:
      return { type: 'draw-card' };
    case 7:
      return { type: 'roll-dice', dice: int(rng, 0, 120), hitOn: int(rng, 1, 7), reason: randomString(rng) };
    default:
      return { type: 'set-turn', turn: int(rng, -1, 12_000) };
  }
}

/** A template with one thing wrong (or, a third of the time, nothing wrong). */
function mutated(rng: Rng, token: string | undefined): Record<string, unknown> {
  const m = template(rng, token);
  if (chance(rng, 0.3)) return m;
  const keys = Object.keys(m);
  const key = pick(rng, keys);
  switch (int(rng, 0, 6)) {
    case 0:
      delete m[key];
      break;
    case 1:
      m[chance(rng, 0.5) ? pick(rng, KNOWN_KEYS) : randomString(rng, 8)] = randomJson(rng, 2);
      break;
    case 2:
      m[key] = randomJson(rng, 3);
      break;
    case 3:
      m[key] = randomNumber(rng);
      break;
    case 4:
      m[key] = 'x'.repeat(pick(rng, [129, 513, 5000, 70_000]));
      break;
    case 5:
      m.requestId = pick(rng, ['', 'r'.repeat(129), randomString(rng), 42, null, ['a']]);
      break;
    default:
      m.type = pick(rng, MESSAGE_TYPES);
  }
  return m;
}

/** JSON (or not quite) nested `depth` deep: arrays, objects, inside a message or bare, closed or not. */
function deepText(rng: Rng): string {
  const depth = pick(rng, [33, 64, 500, 5000, 50_000, 100_000, 100_000]);
  const closed = chance(rng, 0.7);
  const inner = chance(rng, 0.5) ? '['.repeat(depth) + (closed ? ']'.repeat(depth) : '') : '{"a":'.repeat(depth) + '1' + (closed ? '}'.repeat(depth) : '');
  return chance(rng, 0.5) ? inner : `{"type":"set-terrain","requestId":"deep","terrain":${inner}}`;
}

function randomBytes(rng: Rng, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = int(rng, 0, 255);
  return b;
}

interface WsInput {
  readonly data: string | Buffer;
  readonly binary: boolean;
}

function wsInput(rng: Rng, token: string | undefined): WsInput {
  const r = rng();
  if (r < 0.4) return { data: JSON.stringify(mutated(rng, token)), binary: false };
  if (r < 0.6) return { data: JSON.stringify(randomJson(rng, 5)), binary: false };
  if (r < 0.68) return { data: deepText(rng), binary: false };
  if (r < 0.75) return { data: randomBytes(rng, int(rng, 0, 2000)), binary: true };
  if (r < 0.8) return { data: Buffer.from(JSON.stringify(mutated(rng, token))), binary: true };
  if (r < 0.88) return { data: JSON.stringify(mutated(rng, token)).slice(0, int(rng, 0, 40)), binary: false };
  if (r < 0.93) return { data: randomString(rng, 200), binary: false };
  if (r < 0.96) return { data: `{"type":"ping","requestId":"big","pad":"${'x'.repeat(int(rng, 200_000, 400_000))}"}`, binary: false };
  if (r < 0.985) return { data: randomBytes(rng, int(rng, 1, 64)), binary: false }; // invalid UTF-8 text: the server closes 1007
  return { data: Buffer.alloc(int(rng, 1_100_000, 1_300_000), 0x20), binary: false }; // over the frame limit: closes 1009
}

/** What a message costs in the server's default rate budget (1 + one per 16 KiB). */
function cost(input: WsInput): number {
  const bytes = typeof input.data === 'string' ? Buffer.byteLength(input.data) : input.data.byteLength;
  return 1 + Math.floor(bytes / (16 * 1024));
}

// ---------------------------------------------------------------------------------------------------------
// REST inputs

/** The routes the service has: most requests aim at one of them, so bodies and headers reach real handlers. */
const ROUTES: readonly (readonly [string, string])[] = [
  ['GET', 'health'],
  ['GET', 'snapshot'],
  ['GET', 'roster'],
  ['GET', 'table-profile'],
  ['GET', 'terrain'],
  ['PUT', 'terrain'],
  ['GET', 'calibration'],
  ['GET', 'projector'],
  ['PUT', 'projector'],
  ['GET', 'log'],
  ['POST', 'actions'],
  ['GET', 'frame.jpg'],
];
const ENDPOINTS = ['health', 'snapshot', 'roster', 'table-profile', 'terrain', 'calibration', 'projector', 'log', 'actions', 'frame.jpg', '', 'nope', 'HEALTH', 'terrain/', 'actions/x', '..', '%2e%2e', 'log.json'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'FOO', 'get'];
const CONTENT_TYPES = [undefined, 'application/json', 'text/plain', 'application/json; charset=utf-8', 'application/json; charset=utf-99', 'text/plain; charset=latin1', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=', 'image/jpeg', '*/*', ';;;', 'application/json; charset="'];
const ENCODINGS = [undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'identity', 'x-nope', 'gzip, gzip'];

interface RestInput {
  readonly method: string;
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body: string | Buffer | null;
}

function restPath(rng: Rng, endpoint: string): string {
  let path = `/api/${endpoint}`;
  if (chance(rng, 0.1)) path += `/${pick(rng, ['a', '%', '%zz', '%00', '%2F', '%C0%AE', '..', 'x'.repeat(int(rng, 100, 9000))])}`;
  if (chance(rng, 0.4)) {
    const params = Array.from({ length: int(rng, 1, 4) }, () => {
      const k = pick(rng, ['from', 'limit', 'from[]', 'limit[a]', 'x', '__proto__', 'from', '']);
      const v = pick(rng, ['0', '-1', '1e9', 'NaN', '10001', '1000', '3.5', '', '%', 'abc', String(int(rng, 0, 100)), '9'.repeat(400)]);
      return `${k}=${v}`;
    });
    path += `?${params.join('&')}`;
  }
  return path;
}

function restBody(rng: Rng, token: string | undefined): string | Buffer | null {
  const r = rng();
  if (r < 0.25) return null;
  if (r < 0.45) return JSON.stringify(mutated(rng, token));
  if (r < 0.55) return JSON.stringify(randomTerrain(rng));
  if (r < 0.67) return JSON.stringify(randomJson(rng, 5));
  if (r < 0.75) return deepText(rng);
  if (r < 0.82) return randomBytes(rng, int(rng, 1, 3000));
  if (r < 0.9) return JSON.stringify(mutated(rng, token)).slice(0, int(rng, 1, 30));
  if (r < 0.95) return 'x'.repeat(int(rng, 250_000, 400_000));
  return '';
}

function restInput(rng: Rng, url: URL, token: string | undefined): RestInput {
  const [method, endpoint] = chance(rng, 0.6) ? pick(rng, ROUTES) : [pick(rng, METHODS), pick(rng, ENDPOINTS)];
  const body = method === 'GET' || method === 'HEAD' ? (chance(rng, 0.1) ? restBody(rng, token) : null) : restBody(rng, token);
  const headers: OutgoingHttpHeaders = {};
  headers.host = chance(rng, 0.9) ? url.host : pick(rng, [`localhost:${url.port}`, `[::1]:${url.port}`, 'evil.example', `evil.example:${url.port}`, '', '[bad', '127.0.0.1:99999']);
  const ct = pick(rng, CONTENT_TYPES);
  if (ct !== undefined) headers['content-type'] = ct;
  const enc = pick(rng, ENCODINGS);
  if (enc !== undefined && body !== null) headers['content-encoding'] = enc;
  const auth = token && chance(rng, 0.5) ? pick(rng, [`Bearer ${token}`, `bearer   ${token}`]) : pick(rng, [undefined, 'Bearer wrong-token', 'Bearer', 'Basic YTpi', `Bearer ${'t'.repeat(5000)}`, 'Bearer a b']);
  if (auth) headers.authorization = auth;
  if (chance(rng, 0.1)) headers.origin = pick(rng, ['http://evil.example', 'null', url.origin]);
  if (chance(rng, 0.05)) headers['x-forwarded-for'] = randomString(rng, 30).replace(/[^\x20-\x7e]/g, '');
  if (chance(rng, 0.05)) headers.range = 'bytes=0-10,5-2';
  if (body !== null && chance(rng, 0.1)) headers['transfer-encoding'] = 'chunked';
  return { method, path: restPath(rng, endpoint), headers, body };
}

// ---------------------------------------------------------------------------------------------------------
// The loops

class Tally {
  crashes = 0;
  status5xx = 0;
  stackTraces = 0;
  timeouts = 0;
  unsendable = 0;
  messages = 0;
  requests = 0;
  wsConnections = 0;
  readonly restStatuses: Record<string, number> = {};
  readonly wsErrorCodes: Record<string, number> = {};
  readonly wsCloseCodes: Record<string, number> = {};
  readonly faults: string[] = [];
  constructor(private readonly onFault: ((f: string) => void) | undefined) {}
  fault(what: string): void {
    if (this.faults.length < 20) this.faults.push(what);
    this.onFault?.(what);
  }
}

const bump = (rec: Record<string, number>, key: string): void => {
  rec[key] = (rec[key] ?? 0) + 1;
};

interface RestAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: IncomingHttpHeaders;
}

function send(url: URL, agent: Agent, input: RestInput, timeoutMs: number): Promise<RestAnswer | 'timeout' | Error> {
  return new Promise((resolve) => {
    let req;
    try {
      req = httpRequest({ host: '127.0.0.1', port: Number(url.port), method: input.method, path: input.path, headers: input.headers, setHost: false, agent });
    } catch (err) {
      resolve(err as Error);
      return;
    }
    const timer = setTimeout(() => {
      req.destroy();
      resolve('timeout');
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size < 1 << 20) chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        resolve(err);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      resolve(err);
    });
    try {
      if (input.body !== null) req.write(input.body);
      req.end();
    } catch (err) {
      clearTimeout(timer);
      req.destroy();
      resolve(err as Error);
    }
  });
}

async function healthy(url: URL, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(new URL('/api/health', url), { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function restWorker(url: URL, rng: Rng, quota: () => boolean, tally: Tally, token: string | undefined, timeoutMs: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    while (quota()) {
      const input = restInput(rng, url, token);
      const answer = await send(url, agent, input, timeoutMs);
      const what = `${input.method} ${input.path.slice(0, 80)}`;
      if (answer === 'timeout') {
        tally.requests++;
        tally.timeouts++;
        tally.fault(`no answer in ${timeoutMs} ms: ${what}`);
        continue;
      }
      if (answer instanceof Error) {
        const code = (answer as NodeJS.ErrnoException).code ?? '';
        // Node refused to put this on the wire (bad path or header characters): not a request.
        if (code.startsWith('ERR_') && !code.startsWith('ERR_STREAM')) {
          tally.unsendable++;
          continue;
        }
        tally.requests++;
        bump(tally.restStatuses, code || answer.message);
        // The server may close a connection it cannot parse (400 then close, or a reset): not a fault
        // unless the service is gone, which the health checks tell.
        if (code === 'ECONNREFUSED') {
          tally.crashes++;
          tally.fault(`connection refused: ${what}`);
        }
        continue;
      }
      tally.requests++;
      bump(tally.restStatuses, String(answer.status));
      if (answer.status >= 500) {
        tally.status5xx++;
        tally.fault(`${answer.status} for ${what}: ${answer.body.slice(0, 200)}`);
      }
      if (looksLikeStackTrace(answer.body)) {
        tally.stackTraces++;
        tally.fault(`stack-like body for ${what}: ${answer.body.slice(0, 300)}`);
      }
    }
  } finally {
    agent.destroy();
  }
}

interface OpenSocket {
  readonly ws: WebSocket;
  readonly closed: Promise<number>;
  readonly pongs: Set<string>;
  waitPong(id: string, timeoutMs: number): Promise<'pong' | 'closed' | 'timeout'>;
}

function openSocket(url: URL, tally: Tally): Promise<OpenSocket | number> {
  const wsUrl = `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}/ws`;
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl, { maxPayload: 64 * 1024 * 1024 });
    const pongs = new Set<string>();
    const waiters = new Map<string, () => void>();
    let closeCode: number | null = null;
    const closeWaiters: (() => void)[] = [];
    const closed = new Promise<number>((r) => {
      ws.on('close', (code) => {
        closeCode = code;
        r(code);
        for (const w of closeWaiters.splice(0)) w();
      });
    });
    ws.on('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    ws.on('error', () => {
      // 'close' follows; a refused connection resolves below.
      resolve(-1);
    });
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) return;
      const text = data.toString('utf8');
      if (!text.startsWith('{"type":"error"') && !text.startsWith('{"type":"pong"')) return;
      let msg: { type?: string; code?: string; message?: string; requestId?: string };
      try {
        msg = JSON.parse(text) as typeof msg;
      } catch {
        return;
      }
      if (msg.type === 'pong' && typeof msg.requestId === 'string') {
        pongs.add(msg.requestId);
        waiters.get(msg.requestId)?.();
        return;
      }
      if (msg.type !== 'error') return;
      bump(tally.wsErrorCodes, String(msg.code));
      if (msg.code === 'internal') {
        tally.status5xx++;
        tally.fault(`ws internal error: ${String(msg.message).slice(0, 200)}`);
      }
      if (looksLikeStackTrace(String(msg.message))) {
        tally.stackTraces++;
        tally.fault(`stack-like ws error: ${String(msg.message).slice(0, 300)}`);
      }
    });
    ws.on('open', () => {
      tally.wsConnections++;
      resolve({
        ws,
        closed,
        pongs,
        waitPong(id, timeoutMs) {
          if (pongs.has(id)) return Promise.resolve('pong');
          if (closeCode !== null) return Promise.resolve('closed');
          return new Promise((done) => {
            const timer = setTimeout(() => done('timeout'), timeoutMs);
            const finish = (how: 'pong' | 'closed') => (): void => {
              clearTimeout(timer);
              done(how);
            };
            waiters.set(id, finish('pong'));
            closeWaiters.push(finish('closed'));
          });
        },
      });
    });
  });
}

async function wsWorker(url: URL, seed: number, quota: () => boolean, tally: Tally, token: string | undefined, timeoutMs: number, worker: number): Promise<void> {
  // Messages from one stream, connection choices (hello, batch budget) from another: the messages are
  // the same sequence however the server closes sockets.
  const rng = seededRng(seed);
  const connRng = seededRng(seed ^ 0x5bd1e995);
  let batch = 0;
  let refusedInARow = 0;
  let pending: WsInput | null = null;
  let done = false;
  while (!done) {
    const sock = await openSocket(url, tally);
    if (typeof sock === 'number') {
      // 503 (every client slot taken, e.g. by sockets still closing): wait and try again.
      refusedInARow++;
      bump(tally.wsCloseCodes, `upgrade-${sock}`);
      if (refusedInARow > 50) {
        tally.crashes++;
        tally.fault(`ws refused 50 times in a row (last: ${sock})`);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    refusedInARow = 0;
    const { ws } = sock;
    if (token && chance(connRng, 0.4)) ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, token }));
    let spent = 2; // the hello and the closing ping
    const budget = int(connRng, 8, 50);
    let sent = 0;
    while (ws.readyState === ws.OPEN) {
      const input: WsInput = pending ?? wsInput(rng, token);
      pending = null;
      // Over this connection's budget: first of the next batch (a batch holds at least one message).
      if (sent > 0 && spent + cost(input) > budget) {
        pending = input;
        break;
      }
      if (!quota()) {
        done = true;
        break;
      }
      spent += cost(input);
      ws.send(input.data, { binary: input.binary });
      tally.messages++;
      sent++;
    }
    const id = `fz-${worker}-${batch++}`;
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'ping', requestId: id }));
    const how = await sock.waitPong(id, timeoutMs);
    if (how === 'timeout') {
      tally.timeouts++;
      tally.fault(`no pong in ${timeoutMs} ms on a ws after batch ${id}`);
    }
    if (ws.readyState === ws.OPEN) ws.close(1000);
    const timer = setTimeout(() => ws.terminate(), 2000);
    bump(tally.wsCloseCodes, String(await sock.closed));
    clearTimeout(timer);
  }
}

/**
 * Fuzzes the service at `url` with `count` ws messages and `count` REST requests drawn from `seed`.
 * Resolves when both are sent and answered (or timed out), with the counts.
 */
export async function fuzzService(url: string, seed: number, count: number, options: FuzzOptions = {}): Promise<FuzzCounts> {
  const base = new URL(url);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const tally = new Tally(options.onFault);
  const token = options.token;
  // Each worker has its share, so which inputs are sent does not depend on which worker is faster.
  const share = (total: number, workers: number, i: number): number => Math.floor(total / workers) + (i < total % workers ? 1 : 0);
  const quotaOf = (n: number): (() => boolean) => () => n-- > 0;
  const wsCount = options.wsWorkers ?? 3;
  const restCount = options.restWorkers ?? 3;

  // Health, every half second while fuzzing: a service that stops answering is a crash.
  let fuzzing = true;
  let downInARow = 0;
  const watch = (async () => {
    while (fuzzing) {
      if (await healthy(base, timeoutMs)) downInARow = 0;
      else {
        tally.crashes++;
        tally.fault(`health check failed (${++downInARow} in a row)`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();

  const wsWorkers = Array.from({ length: wsCount }, (_, i) => wsWorker(base, seed * 1000 + i, quotaOf(share(count, wsCount, i)), tally, token, timeoutMs, i));
  const restWorkers = Array.from({ length: restCount }, (_, i) => restWorker(base, seededRng(seed * 1000 + 500 + i), quotaOf(share(count, restCount, i)), tally, token, timeoutMs));
  await Promise.all([...wsWorkers, ...restWorkers]);
  fuzzing = false;
  await watch;
  if (!(await healthy(base, timeoutMs))) {
    tally.crashes++;
    tally.fault('health check failed after the fuzzing');
  }
  return {
    messagesFuzzed: tally.messages,
    requestsFuzzed: tally.requests,
    crashes: tally.crashes,
    status5xx: tally.status5xx,
    stackTraces: tally.stackTraces,
    timeouts: tally.timeouts,
    unsendable: tally.unsendable,
    restStatuses: tally.restStatuses,
    wsErrorCodes: tally.wsErrorCodes,
    wsCloseCodes: tally.wsCloseCodes,
    wsConnections: tally.wsConnections,
    faults: tally.faults,
  };
}
