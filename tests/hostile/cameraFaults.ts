/**
 * Camera faults on loopback, for the hostile camera tests and for benches: a TCP server that accepts
 * and never answers (a hung camera, as `rtsp://` or `http://`), a port that refuses, and an MJPEG camera
 * that can stall (stop sending with the connection open) and resume. `measureStallRecovery` stalls a
 * camera under a running source and measures how it comes back: stall → stall detected (the source's
 * `error`) → ffmpeg reopened (`open`) → first frame again.
 *
 * Everything listens on 127.0.0.1 only.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import type { FrameSource } from '../../apps/vision/src/sources/frameSource.ts';
import type { GrayFrame } from '../../apps/vision/src/pipeline/types.ts';
import { markedImage } from '../../fixtures/generator/markedImage.ts';

/** Waits until `check()` holds, polling every 50 ms; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface HungServer {
  readonly port: number;
  /** Connections accepted so far (each open of the camera by ffmpeg is one). */
  accepted(): number;
  close(): Promise<void>;
}

/** A TCP server that accepts every connection and never sends a byte (nor closes it). */
export async function startHungServer(): Promise<HungServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createTcpServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    accepted: () => accepted,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A loopback port nothing listens on (taken, then released): connecting to it is refused. */
export async function refusedPort(): Promise<number> {
  const server = createTcpServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

export interface MjpegCamera {
  /** `http://127.0.0.1:<port>/stream.mjpg` */
  readonly url: string;
  /** HTTP connections (stream requests) so far. */
  connections(): number;
  /**
   * Stops sending frames, connections left open. `'this-connection'`: only the connections open now
   * hang (a half-dead link: a new connection streams again); `'all'`: every connection, also new ones,
   * until `resume()`.
   */
  stall(which: 'this-connection' | 'all'): void;
  resume(): void;
  close(): Promise<void>;
}

/** A multipart/x-mixed-replace JPEG camera at `fps` (64×48 test frames) that can stall and resume. */
export async function startMjpegCamera(options: { fps?: number } = {}): Promise<MjpegCamera> {
  const jpegs = await Promise.all([0, 1, 2, 3].map((k) => markedImage(k, 'jpeg')));
  const boundary = 'musterframe';
  const live = new Map<ServerResponse, { hung: boolean }>();
  let stalledAll = false;
  let connections = 0;
  const server = createHttpServer((_req, res) => {
    connections += 1;
    res.writeHead(200, { 'Content-Type': `multipart/x-mixed-replace; boundary=${boundary}`, 'Cache-Control': 'no-cache' });
    const conn = { hung: false };
    live.set(res, conn);
    let k = 0;
    const timer = setInterval(() => {
      if (conn.hung || stalledAll) return;
      const jpeg = jpegs[k++ % jpegs.length]!;
      res.write(`--${boundary}\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`);
      res.write(jpeg);
      res.write('\r\n');
    }, 1000 / (options.fps ?? 20));
    res.on('close', () => {
      clearInterval(timer);
      live.delete(res);
    });
    res.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream.mjpg`,
    connections: () => connections,
    stall(which) {
      if (which === 'all') stalledAll = true;
      else for (const c of live.values()) c.hung = true;
    },
    resume() {
      stalledAll = false;
      for (const c of live.values()) c.hung = false;
    },
    async close() {
      for (const res of live.keys()) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A source being read in the background: frames counted, events time-stamped. */
export interface WatchedSource {
  frames(): number;
  lastFrame(): GrayFrame | null;
  /** Event log: `[ms since epoch, kind, detail]`. */
  readonly events: ReadonlyArray<readonly [number, 'frame' | 'error' | 'reopen' | 'open' | 'status', string]>;
  /** Stops reading and closes the source. */
  stop(): Promise<void>;
}

/** Reads `source` until `stop()`, logging frames and events (error, reopen, open, status) with times. */
export function watchSource(source: FrameSource): WatchedSource {
  const events: [number, 'frame' | 'error' | 'reopen' | 'open' | 'status', string][] = [];
  let frames = 0;
  let last: GrayFrame | null = null;
  source.on('error', (e) => events.push([Date.now(), 'error', e.message]));
  source.on('reopen', (attempt, delayMs) => events.push([Date.now(), 'reopen', `attempt ${attempt} in ${delayMs} ms`]));
  source.on('open', (opens) => events.push([Date.now(), 'open', String(opens)]));
  source.on('status', (s) => events.push([Date.now(), 'status', `${s.state}: ${s.detail}`]));
  const reading = (async () => {
    try {
      for await (const f of source) {
        frames += 1;
        last = f;
        events.push([Date.now(), 'frame', String(f.seq)]);
      }
    } catch {
      // A recorded source that failed: its error event says why.
    }
  })();
  return {
    frames: () => frames,
    lastFrame: () => last,
    events,
    async stop() {
      await source.close();
      await reading;
    },
  };
}

export interface RecoveryTimes {
  /** Stall → the source reported it (its `error`: ffmpeg's timeout or the stall watchdog), ms. */
  readonly detectMs: number;
  /** Detected → a new ffmpeg started (the backoff wait), ms. */
  readonly reopenMs: number;
  /** New ffmpeg started → its first frame (connect, probe, decode), ms. */
  readonly firstFrameMs: number;
  /** Stall → first frame again, ms. */
  readonly totalMs: number;
  /** The error the source reported. */
  readonly error: string;
}

/**
 * Stalls `camera` under a running `source` (already streaming, read by `watched`) and measures the
 * recovery. `which` as in `MjpegCamera.stall`: with `'this-connection'` the camera answers the reopen at
 * once (the measure of the source alone); with `'all'`, `resumeAfterMs` later the camera resumes.
 * Throws when it does not recover within `timeoutMs`. The camera is resumed when this returns.
 */
export async function measureStallRecovery(
  watched: WatchedSource,
  camera: MjpegCamera,
  options: { which?: 'this-connection' | 'all'; resumeAfterMs?: number; timeoutMs?: number } = {},
): Promise<RecoveryTimes> {
  const which = options.which ?? 'this-connection';
  await until('frames before the stall', () => watched.frames() > 0, options.timeoutMs ?? 20_000);
  const from = watched.events.length;
  const stallMs = Date.now();
  camera.stall(which);
  const resumeTimer = which === 'all' ? setTimeout(() => camera.resume(), options.resumeAfterMs ?? 4000) : null;
  try {
    const after = (kind: string, sinceMs: number) => watched.events.slice(from).find(([t, k]) => k === kind && t >= sinceMs);
    const error = await until('the stall to be detected', () => after('error', stallMs), options.timeoutMs ?? 20_000);
    const open = await until('ffmpeg to be reopened', () => after('open', error[0]), options.timeoutMs ?? 20_000);
    const frame = await until('a frame after the reopen', () => after('frame', open[0]), options.timeoutMs ?? 20_000);
    return {
      detectMs: error[0] - stallMs,
      reopenMs: open[0] - error[0],
      firstFrameMs: frame[0] - open[0],
      totalMs: frame[0] - stallMs,
      error: error[2],
    };
  } finally {
    if (resumeTimer) clearTimeout(resumeTimer);
    camera.resume();
  }
}
