/**
 * The convention hub: an http server listing several tables, each its own `muster start` service. Every
 * request polls the tables afresh (at once, each bounded by the timeout), so there is no background
 * timer and nothing goes stale; concurrent requests share one poll in flight.
 *   GET /            the index page (operator links only to requests from this machine)
 *   GET /api/tables  the same as JSON (never with tokens)
 *   GET /api/health  the hub itself
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { indexPage } from './indexPage.ts';
import type { HubTable } from './tableList.ts';
import { pollTables, type TableStatus } from './tableStatus.ts';

export interface HubOptions {
  readonly tables: readonly HubTable[];
  /**
   * Where the tables and their statuses come from instead of polling `tables` (`muster tables --mqtt`:
   * what the venue's broker says, `brokerTables.ts`).
   */
  readonly source?: () => { tables: HubTable[]; statuses: TableStatus[] };
  readonly host: string;
  readonly port: number;
  /** Per table and request; default 1500 ms. */
  readonly timeoutMs?: number;
}

export interface RunningHub {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

function fromThisMachine(req: IncomingMessage): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '127.0.0.1' || a === '::1' || a === '::ffff:127.0.0.1';
}

export async function startHub(options: HubOptions): Promise<RunningHub> {
  const timeoutMs = options.timeoutMs ?? 1500;
  let inFlight: Promise<TableStatus[]> | null = null;
  const poll = (): Promise<TableStatus[]> => {
    inFlight ??= pollTables(options.tables, timeoutMs).finally(() => (inFlight = null));
    return inFlight;
  };
  const current = async (): Promise<{ tables: readonly HubTable[]; statuses: TableStatus[] }> =>
    options.source ? options.source() : { tables: options.tables, statuses: await poll() };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/api/health') {
      const tables = options.source ? options.source().tables.length : options.tables.length;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', tables }));
      return;
    }
    if (path !== '/' && path !== '/index.html' && path !== '/api/tables') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the hub serves / and /api/tables\n');
      return;
    }
    void current().then(
      ({ tables, statuses }) => {
        if (path === '/api/tables') {
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ checkedAt: new Date().toISOString(), tables: statuses }));
        } else {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(indexPage(tables, statuses, fromThisMachine(req), new Date()));
        }
      },
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`polling the tables failed: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
