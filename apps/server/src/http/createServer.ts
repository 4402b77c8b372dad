/**
 * The Muster service: express for REST and the built views, ws at `/ws`. Binds 127.0.0.1 unless told
 * otherwise. Only this module and its parts (below), and `liveHub.ts`, touch sockets.
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
 *   GET  /api/history?unit=   where a unit's stands stood (and before their last move), from the log
 *   GET  /api/ghosts          every stand's pose before its last move (the views' ghosts), from the log
 *   GET  /api/replay          a replay's timeline and where it is (404 on a live service); POST: seek/pause/play (operator)
 *   POST /api/actions         operator: any operator message of the ws protocol (set-unit-status, ...)
 *   GET  /api/rulesets/:id/fields   a rule set's declared status fields, unit fields and parameters
 *   GET  /api/frame.jpg       the newest camera frame as JPEG (404 before the first frame / without frames)
 * Operator calls carry `Authorization: Bearer <token>`.
 *
 * Its parts, each a module of this folder: `requestPolicy.ts` (Host and Origin checks, headers on every
 * response), `apiRouter.ts` (the routes in `routes/`), `serveViews.ts`, `jsonErrorHandler.ts`,
 * `wsUpgrades.ts` (with the client cap and the per-address upgrade rate), `connectionLimits.ts` (TCP
 * connections in all and per address, header and request timeouts) and `listen.ts`. Limits and their defaults: the server README,
 * "Limits and hardening".
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import express from 'express';
import type { GrayFrame } from '@muster/vision';
import type { ProjectorCalibrationSource } from '../persist/projectorCalibrationStore.ts';
import { createApiRouter } from './apiRouter.ts';
import type { ServiceBackend } from './backend.ts';
import { jsonErrorHandler } from './jsonErrorHandler.ts';
import { listen } from './listen.ts';
import { createLiveHub, type LiveHub, type LiveHubOptions } from './liveHub.ts';
import { checkHost, createRequestPolicy, securityHeaders } from './requestPolicy.ts';
import { serveViews } from './serveViews.ts';
import { acceptUpgrades, type UpgradeHandler, type UpgradeStats } from './wsUpgrades.ts';
import { CONNECTION_CHECK_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, limitConnections, type ConnectionStats } from './connectionLimits.ts';
import type { RateLimit } from './tokenBucket.ts';

/** Most ws clients on `/ws` at once, by default; more get 503 (`--max-clients`). */
export const DEFAULT_MAX_CLIENTS = 64;

/** A certificate (PEM; intermediates after it) and its private key (PEM), for https and wss. */
export interface TlsCredentials {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface ServerOptions {
  readonly backend: ServiceBackend;
  readonly operatorToken: string;
  /** Serve https (and wss) instead of http. */
  readonly tls?: TlsCredentials;
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
  readonly otherUpgrade?: UpgradeHandler;
  /** Most ws clients on `/ws` at once; further upgrades get 503. Default `DEFAULT_MAX_CLIENTS` (64). */
  readonly maxClients?: number;
  /** Most TCP connections open at once (`DEFAULT_MAX_CONNECTIONS`); more are closed at once. */
  readonly maxConnections?: number;
  /** Most TCP connections open at once from one address (`DEFAULT_MAX_CONNECTIONS_PER_ADDRESS`). */
  readonly maxConnectionsPerAddress?: number;
  /** ws connections one address may open on `/ws` (`DEFAULT_UPGRADE_RATE`); more get 429. */
  readonly upgradeRate?: RateLimit;
  /**
   * Host names answered besides localhost and loopback addresses (`--allow-host`; `*`: any). Bound to
   * loopback, other Hosts get 421 (DNS rebinding); bound elsewhere, the check applies only when given.
   */
  readonly allowHosts?: readonly string[];
  /** Origins whose pages may open the ws besides the service's own (`--allow-origin`; `*`: any). */
  readonly allowOrigins?: readonly string[];
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:8080 (https://… with `tls`) */
  readonly url: string;
  readonly port: number;
  readonly hub: LiveHub;
  /** The listening server (an https.Server, a subclass of tls.Server, with `tls`). */
  readonly http: Server;
  /** ws upgrades refused so far (Host, Origin, client cap, upgrade rate). */
  upgradeStats(): UpgradeStats;
  /** TCP connections open and refused by the connection limits. */
  connectionStats(): ConnectionStats;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { backend, operatorToken } = options;
  const hub = createLiveHub({ backend, operatorToken, ...options.hub });
  const host = options.host ?? '127.0.0.1';
  const policy = createRequestPolicy({ bindHost: host, allowHosts: options.allowHosts ?? [], allowOrigins: options.allowOrigins ?? [] });
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders);
  app.use(checkHost(policy));
  const clients = (): number => hub.clientCount();
  app.use('/api', createApiRouter({ backend, operatorToken, clients, projector: options.projector, latestFrame: options.latestFrame }));
  serveViews(app, options.viewsDir);
  // Errors from body parsing (too large, bad encoding) and bugs: always a JSON error, never a stack.
  app.use(jsonErrorHandler);

  // An https server is an http server whose connections are TLS first: the same express app, the same
  // upgrade handling (wss), the same limits.
  // Requests past the header or request timeout are looked for every second (Node's default: 30 s).
  const serverOptions = { connectionsCheckingInterval: CONNECTION_CHECK_MS };
  const http: Server = options.tls
    ? (createHttpsServer({ ...serverOptions, cert: options.tls.certPem, key: options.tls.keyPem }, app) as unknown as Server)
    : createHttpServer(serverOptions, app);
  const connectionStats = limitConnections(http, {
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxPerAddress: options.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  });
  const { wss, stats } = acceptUpgrades(http, hub, {
    maxPayloadBytes: options.wsMaxPayloadBytes ?? 1024 * 1024,
    maxClients: options.maxClients ?? DEFAULT_MAX_CLIENTS,
    policy,
    otherUpgrade: options.otherUpgrade,
    upgradeRate: options.upgradeRate,
  });
  const { port, url } = await listen(http, options.port ?? 8080, host, options.tls ? 'https' : 'http');
  return {
    url,
    port,
    hub,
    http,
    upgradeStats: stats,
    connectionStats,
    async close(): Promise<void> {
      hub.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
