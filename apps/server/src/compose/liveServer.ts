/**
 * Starts the HTTP/ws server for a live pipeline, the same way for the demo and for a camera: the operator
 * token, the built views (served by default, so `--camera` gets the same pages as the demo), the newest
 * frame for `GET /api/frame.jpg`, and the client count shown in health.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { startServer, type RunningServer, type TlsCredentials } from '../http/createServer.ts';
import { createOperatorToken } from '../http/operatorToken.ts';
import type { GrayFrame } from '@muster/vision';
import type { LivePipeline } from '../live/livePipeline.ts';
import type { ProjectorCalibrationSource } from '../persist/projectorCalibrationStore.ts';
import { DEFAULT_VIEWS_DIR, type LiveOptions, type ServerLimits } from './liveOptions.ts';

export interface LiveServerOptions {
  readonly operatorToken?: string;
  /** https/wss with this certificate and key (`--https`); default http. */
  readonly tls?: TlsCredentials;
  readonly host?: string;
  readonly port?: number;
  readonly viewsDir: string;
  readonly hubHighWaterBytes?: number;
  /** Extra WebSocket paths, given the operator token (e.g. the phone camera on `/camera`). */
  readonly otherUpgrade?: (operatorToken: string) => (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
  /** The projector calibration served at `/api/projector` (and replaced there by the operator). */
  readonly projector?: ProjectorCalibrationSource;
  /** Passed to the server as they are (see `ServerOptions`). */
  readonly maxClients?: number;
  readonly serverLimits?: ServerLimits;
  readonly allowHosts?: readonly string[];
  readonly allowOrigins?: readonly string[];
}

export interface LiveServer {
  readonly server: RunningServer;
  readonly operatorToken: string;
  /** Hand the server each new frame; it encodes one only when someone asks for it. */
  setNewestFrame(frame: GrayFrame): void;
}

export async function startLiveServer(pipeline: LivePipeline, options: LiveServerOptions): Promise<LiveServer> {
  const operatorToken = options.operatorToken ?? createOperatorToken();
  let newestFrame: GrayFrame | null = null;
  const limits = options.serverLimits ?? {};
  const server = await startServer({
    backend: pipeline,
    operatorToken,
    ...(options.tls ? { tls: options.tls } : {}),
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 8080,
    viewsDir: options.viewsDir,
    latestFrame: () => newestFrame,
    hub: {
      ...(options.hubHighWaterBytes !== undefined ? { highWaterBytes: options.hubHighWaterBytes } : {}),
      ...(limits.messageRate ? { messageRate: limits.messageRate } : {}),
      ...(limits.resyncRate ? { resyncRate: limits.resyncRate } : {}),
    },
    ...(limits.maxConnections !== undefined ? { maxConnections: limits.maxConnections } : {}),
    ...(limits.maxConnectionsPerAddress !== undefined ? { maxConnectionsPerAddress: limits.maxConnectionsPerAddress } : {}),
    ...(limits.upgradeRate ? { upgradeRate: limits.upgradeRate } : {}),
    ...(options.otherUpgrade ? { otherUpgrade: options.otherUpgrade(operatorToken) } : {}),
    ...(options.projector ? { projector: options.projector } : {}),
    ...(options.maxClients !== undefined ? { maxClients: options.maxClients } : {}),
    ...(options.allowHosts !== undefined ? { allowHosts: options.allowHosts } : {}),
    ...(options.allowOrigins !== undefined ? { allowOrigins: options.allowOrigins } : {}),
  });
  pipeline.setClientCounter(() => server.hub.clientCount());
  return {
    server,
    operatorToken,
    setNewestFrame: (frame) => {
      newestFrame = frame;
    },
  };
}

/** `startLiveServer` as a start asked for it (`LiveOptions`), with what the source adds (projector, phone). */
export function serveLive(
  pipeline: LivePipeline,
  options: LiveOptions,
  extra: Pick<LiveServerOptions, 'projector' | 'otherUpgrade'>,
): Promise<LiveServer> {
  return startLiveServer(pipeline, {
    ...(options.operatorToken !== undefined ? { operatorToken: options.operatorToken } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    viewsDir: options.viewsDir ?? DEFAULT_VIEWS_DIR,
    ...extra,
    ...(options.hubHighWaterBytes !== undefined ? { hubHighWaterBytes: options.hubHighWaterBytes } : {}),
    ...(options.maxClients !== undefined ? { maxClients: options.maxClients } : {}),
    ...(options.serverLimits !== undefined ? { serverLimits: options.serverLimits } : {}),
    ...(options.allowHosts !== undefined ? { allowHosts: options.allowHosts } : {}),
    ...(options.allowOrigins !== undefined ? { allowOrigins: options.allowOrigins } : {}),
  });
}
