/**
 * `muster tables --table "Table 1=http://192.168.1.20:8081" --table "Table 2=…" [--file tables.yaml]
 * [--port 8080] [--host 127.0.0.1]`: the index page of a convention with one `muster start` per table
 * (each its own port and data directory). It lists every table with its live status, rule set, turn and
 * camera, and links to its map, overlay and projector (see hub/hubServer.ts).
 *
 * `muster tables --mqtt mqtt://broker:1883`: the same page from what the venue's broker says (every
 * table started with `--publish`), no polling; tables are listed as they come and go (hub/brokerTables.ts).
 */
import { CliError } from '../cliError.ts';
import { numberValue, parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { startHub } from '../../hub/hubServer.ts';
import { watchBrokerTables, type BrokerTables } from '../../hub/brokerTables.ts';
import { parseBrokerUrl } from '../../mqtt/brokerUrl.ts';
import { log } from '../../log/logger.ts';
import { checkedTables, tableFromFlag, tablesFromFile, TableListError, type HubTable } from '../../hub/tableList.ts';
import { stopSignal } from '../stopSignal.ts';

const SPEC = {
  command: 'tables',
  synopsis: ['--table "Name=URL" [--table "Name=URL" ...] [--file <tables.yaml>] [--port <n>] [--host <addr>]', '--mqtt <broker URL> [--port <n>] [--host <addr>]'],
  options: {
    table: { type: 'string', multiple: true, arg: '"Name=URL"', help: 'a table: its name and the base URL of its muster start service (repeatable)' },
    file: {
      type: 'string',
      arg: '<file>',
      help: 'YAML/JSON with "tables:" a list of { name, url, token? }; a token adds an\noperator link, shown only to browsers on this machine',
    },
    port: { type: 'string', arg: '<n>', help: 'port of the index page (default 8080; 0 picks a free one)' },
    host: { type: 'string', arg: '<addr>', help: 'address to bind (default 127.0.0.1; 0.0.0.0 for the local network)' },
    mqtt: {
      type: 'string',
      arg: '<url>',
      help: "list the tables a venue's MQTT broker knows (each `muster start --publish`) instead\nof polling: mqtt://, mqtts://, ws:// or wss://, user:password@ for a credential",
    },
    'timeout-ms': { type: 'string', arg: '<ms>', help: 'how long to wait for each table per page load (default 1500)' },
  },
  notes: 'Each table runs its own service, e.g. muster start --port 8081 --data /srv/muster/table1 --host 0.0.0.0.',
} as const satisfies CommandSpec;

export async function run(args: string[]): Promise<number> {
  const { values: v } = parseCommandArgs(SPEC, args);
  if (v.mqtt !== undefined && (v.table.length > 0 || v.file !== undefined)) {
    throw new CliError('--mqtt lists the tables the broker knows: give it without --table or --file');
  }
  const broker = v.mqtt === undefined ? null : parseBrokerUrl(v.mqtt, '--mqtt');
  let tables: HubTable[] = [];
  try {
    if (!broker) tables = checkedTables([...(v.file !== undefined ? tablesFromFile(v.file) : []), ...v.table.map(tableFromFlag)]);
  } catch (err) {
    if (err instanceof TableListError) throw new CliError(err.message);
    throw err;
  }
  const port = v.port === undefined ? 8080 : numberValue(v.port, '--port', { integer: true, min: 0, max: 65535 });
  const timeoutMs = v['timeout-ms'] === undefined ? 1500 : numberValue(v['timeout-ms'], '--timeout-ms', { integer: true, min: 50, max: 60_000 });
  const host = v.host ?? '127.0.0.1';

  const stopAsked = stopSignal();
  let watched: BrokerTables | null = null;
  let hub;
  try {
    hub = await startHub({ tables, host, port, timeoutMs, ...(broker ? { source: () => watched?.list() ?? { tables: [], statuses: [] } } : {}) });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is in use on ${host}; choose another with --port`);
    if (code === 'EADDRNOTAVAIL') throw new CliError(`${host} is not an address of this machine (--host)`);
    throw err;
  }
  if (broker) console.log(`Muster tables: ${hub.url}/ lists the tables publishing to ${broker.shown}, as they come and go`);
  else console.log(`Muster tables: ${hub.url}/ lists ${tables.length} table${tables.length === 1 ? '' : 's'}`);
  for (const t of tables) console.log(`  ${t.name}: ${t.url}${t.token !== undefined ? ' (operator link for this machine)' : ''}`);
  console.log('Press Ctrl+C to stop.');
  // The broker never stops the hub: while it cannot be reached the page lists no tables and the log says why.
  if (broker) {
    watched = watchBrokerTables({
      broker,
      warn: (m) => log.warn(m),
      onChange: (c) => console.log(`  ${c.tableId}: ${c.online ? `up${c.viewsUrl ? ` (${c.viewsUrl})` : ''}` : `down (${c.reason})`}`),
    });
  }
  await stopAsked;
  await hub.close();
  await watched?.close();
  return 0;
}
