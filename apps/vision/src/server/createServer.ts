/**
 * The Muster service: express for REST and the built views, ws at `/ws`. Binds 127.0.0.1 unless told
 * otherwise. Only this module (and `liveHub.ts`) touches sockets.
 *
 * REST (JSON):
 *   GET  /api/health          status, frame rate, tracked stands, clients
 *   GET  /api/snapshot        the LiveState the ws snapshot carries
 *   GET  /api/roster          the roster in use and the marker bindings
 *   GET  /api/table-profile   the table profile in use
 *   GET  /api/terrain         the terrain
 *   PUT  /api/terrain         operator: replace the terrain
 *   GET  /api/calibration     the camera calibration in use (null without one)
 *   GET  /api/projector       the projector calibration in use (null without one)
 *   PUT  /api/projector       operator: replace it (validated, saved atomically)
 *   GET  /api/log?from=&limit=   game log entries
 *   POST /api/actions         operator: any operator message of the ws protocol (set-unit-status, ...)
 *   GET  /api/frame.jpg       the newest camera frame as JPEG (404 before the first frame / without frames)
 * Operator calls carry `Authorization: Bearer <token>`.
 */
import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { WebSocketServer } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { LIMITS, isOperatorMessage, parseClientMessage, type ErrorCode, type ErrorMessage } from '@muster/protocol';
import { ActionError, type ServiceBackend } from './backend.ts';
import { createLiveHub, type LiveHub, type LiveHubOptions } from './liveHub.ts';
import { tokenMatches } from './operatorToken.ts';
import { missingViewsPage } from './missingViewsPage.ts';
import { createFrameJpegEncoder } from './frameJpeg.ts';
import type { GrayFrame } from '../pipeline/types.ts';
import { ProjectorCalibrationError } from '../calibrate/projectorCalibration.ts';
import type { ProjectorCalibrationSource } from '../calibrate/projectorCalibrationStore.ts';

export interface ServerOptions {
  readonly backend: ServiceBackend;
  readonly operatorToken: string;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  /** Built views (apps/overlay/dist); a page explaining how to build them is served when absent. */
  readonly viewsDir?: string;
  /** Largest incoming ws frame before the socket is closed (1009); messages between the protocol limit and this get a `too-large` reply. Default 1 MiB. */
  readonly wsMaxPayloadBytes?: number;
  readonly hub?: Omit<LiveHubOptions, 'backend' | 'operatorToken'>;
  /** The newest frame from the camera (or the demo's renderer), for `GET /api/frame.jpg`; absent: 404. */
  readonly latestFrame?: () => GrayFrame | null;
  /** The projector calibration for `GET/PUT /api/projector`; absent: GET gives null, PUT 404. */
  readonly projector?: ProjectorCalibrationSource;
  /**
   * WebSocket upgrades on paths other than `/ws` (e.g. a phone pushing camera frames on `/camera`): return
   * true when the request was taken; false lets it fall through to a 404.
   */
  readonly otherUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly port: number;
  readonly hub: LiveHub;
  readonly http: Server;
  close(): Promise<void>;
}

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  'bad-json': 400,
  'too-large': 413,
  'invalid-message': 400,
  'unsupported-version': 400,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  internal: 500,
};

function sendError(res: Response, code: ErrorCode, message: string, status = STATUS_BY_CODE[code]): void {
  res.status(status).json({ type: 'error', code, message } satisfies ErrorMessage);
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { backend, operatorToken } = options;
  const host = options.host ?? '127.0.0.1';
  const hub = createLiveHub({ backend, operatorToken, ...options.hub });
  const app = express();
  app.disable('x-powered-by');

  const requireOperator = (req: Request, res: Response, next: NextFunction): void => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) {
      sendError(res, 'forbidden', 'operator token required (Authorization: Bearer <token>, printed at start)', 401);
      return;
    }
    if (!tokenMatches(match[1], operatorToken)) {
      sendError(res, 'forbidden', 'wrong operator token');
      return;
    }
    next();
  };
  const body = express.text({ type: () => true, limit: LIMITS.maxRestBodyBytes });

  const api = express.Router();
  api.get('/health', (_req, res) => {
    res.json({ ...backend.state().health, clients: hub.clientCount() });
  });
  api.get('/snapshot', (_req, res) => {
    res.json(backend.state());
  });
  api.get('/roster', (_req, res) => {
    res.json({ roster: backend.roster(), summary: backend.state().roster });
  });
  api.get('/table-profile', (_req, res) => {
    res.json({ profile: backend.tableProfile(), summary: backend.state().profile });
  });
  api.get('/terrain', (_req, res) => {
    res.json(backend.state().tableState.terrain);
  });
  api.get('/calibration', (_req, res) => {
    res.json(backend.calibration() ?? null);
  });
  api.get('/projector', (_req, res) => {
    res.json(options.projector?.get() ?? null);
  });
  api.put('/projector', requireOperator, body, (req, res) => {
    if (!options.projector) {
      sendError(res, 'not-found', 'this service keeps no projector calibration');
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(bodyText(req));
    } catch {
      sendError(res, 'bad-json', 'body is not valid JSON (send the file muster calibrate projector wrote)');
      return;
    }
    try {
      res.json(options.projector.put(raw, 'request body'));
    } catch (err) {
      if (err instanceof ProjectorCalibrationError) sendError(res, 'invalid-message', err.message);
      else throw err;
    }
  });
  api.get('/log', (req, res) => {
    const from = Number(req.query.from ?? 0);
    const limit = Number(req.query.limit ?? 1000);
    if (!Number.isInteger(from) || from < 0 || !Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      sendError(res, 'invalid-message', 'from must be an integer ≥ 0 and limit an integer in 1..10000');
      return;
    }
    res.json({ from, entries: backend.log(from, limit) });
  });

  const perform = (res: Response, text: string): void => {
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      sendError(res, parsed.code, parsed.message);
      return;
    }
    const msg = parsed.value;
    if (!isOperatorMessage(msg)) {
      sendError(res, 'invalid-message', `"${msg.type}" is not an operator action`);
      return;
    }
    try {
      const result = backend.perform(msg);
      res.json({ type: 'ack', action: msg.type, ...(msg.requestId !== undefined ? { requestId: msg.requestId } : {}), ...(result !== undefined ? { result } : {}) });
    } catch (err) {
      if (err instanceof ActionError) sendError(res, err.code, err.message);
      else throw err;
    }
  };
  const bodyText = (req: Request): string => (typeof req.body === 'string' ? req.body : '');
  api.put('/terrain', requireOperator, body, (req, res) => {
    let terrain: unknown;
    try {
      terrain = JSON.parse(bodyText(req));
    } catch {
      sendError(res, 'bad-json', 'body is not valid JSON');
      return;
    }
    perform(res, JSON.stringify({ type: 'set-terrain', terrain }));
  });
  api.post('/actions', requireOperator, body, (req, res) => {
    perform(res, bodyText(req));
  });
  const frameJpeg = createFrameJpegEncoder(options.latestFrame ?? (() => null));
  api.get('/frame.jpg', async (_req, res) => {
    const jpeg = await frameJpeg();
    if (!jpeg) {
      sendError(res, 'not-found', options.latestFrame ? 'no camera frame yet' : 'this service has no camera frames (ground-truth demo)');
      return;
    }
    res
      .status(200)
      .type('image/jpeg')
      // Always the newest frame: never cached by the browser; which frame it is, in headers.
      .set({ 'Cache-Control': 'no-store', 'X-Frame-Seq': String(jpeg.seq), 'X-Capture-Time-Ms': String(jpeg.captureTimeMs) })
      .send(jpeg.body);
  });
  api.use((_req, res) => sendError(res, 'not-found', 'no such API endpoint'));
  app.use('/api', api);

  const viewsDir = options.viewsDir;
  if (viewsDir !== undefined && existsSync(join(viewsDir, 'index.html'))) {
    app.use(express.static(viewsDir, { index: 'index.html' }));
  } else {
    app.get('/{*path}', (_req, res) => {
      res.status(503).type('html').send(missingViewsPage(viewsDir));
    });
  }

  // Errors from body parsing (too large, bad encoding) and bugs: always a JSON error, never a stack.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.too.large') sendError(res, 'too-large', `body larger than ${LIMITS.maxRestBodyBytes} bytes`);
    else if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) sendError(res, 'invalid-message', 'malformed request', e.status);
    else {
      console.error('muster server:', err);
      sendError(res, 'internal', 'internal error (see the server log)');
    }
  });

  const http = createHttpServer(app);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.wsMaxPayloadBytes ?? 1024 * 1024 });
  http.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/ws') {
      if (options.otherUpgrade?.(req, socket, head)) return;
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws));
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    http.once('error', onError);
    http.listen(options.port ?? 8080, host, () => {
      http.off('error', onError);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    hub,
    http,
    async close(): Promise<void> {
      hub.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
