/**
 * `muster tables --table "Table 1=http://192.168.1.20:8081" --table "Table 2=…" [--file tables.yaml]
 * [--port 8080] [--host 127.0.0.1]`: the index page of a convention with one `muster start` per table
 * (each its own port and data directory). It lists every table with its live status, rule set, turn and
 * camera, and links to its map, overlay and projector (see hub/hubServer.ts).
 */
import { CliError } from '../cliError.ts';
import { numberValue, parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { startHub } from '../../hub/hubServer.ts';
import { checkedTables, tableFromFlag, tablesFromFile, TableListError, type HubTable } from '../../hub/tableList.ts';
import { stopSignal } from '../stopSignal.ts';

const SPEC = {
  command: 'tables',
  synopsis: ['--table "Name=URL" [--table "Name=URL" ...] [--file <tables.yaml>] [--port <n>] [--host <addr>]'],
  options: {
    table: { type: 'string', multiple: true, arg: '"Name=URL"', help: 'a table: its name and the base URL of its muster start service (repeatable)' },
    file: {
      type: 'string',
      arg: '<file>',
      help: 'YAML/JSON with "tables:" a list of { name, url, token? }; a token adds an\noperator link, shown only to browsers on this machine',
    },
    port: { type: 'string', arg: '<n>', help: 'port of the index page (default 8080; 0 picks a free one)' },
    host: { type: 'string', arg: '<addr>', help: 'address to bind (default 127.0.0.1; 0.0.0.0 for the local network)' },
    'timeout-ms': { type: 'string', arg: '<ms>', help: 'how long to wait for each table per page load (default 1500)' },
  },
  notes: 'Each table runs its own service, e.g. muster start --port 8081 --data /srv/muster/table1 --host 0.0.0.0.',
} as const satisfies CommandSpec;

export async function run(args: string[]): Promise<number> {
  const { values: v } = parseCommandArgs(SPEC, args);
  let tables: HubTable[];
  try {
    tables = checkedTables([...(v.file !== undefined ? tablesFromFile(v.file) : []), ...v.table.map(tableFromFlag)]);
  } catch (err) {
    if (err instanceof TableListError) throw new CliError(err.message);
    throw err;
  }
  const port = v.port === undefined ? 8080 : numberValue(v.port, '--port', { integer: true, min: 0, max: 65535 });
  const timeoutMs = v['timeout-ms'] === undefined ? 1500 : numberValue(v['timeout-ms'], '--timeout-ms', { integer: true, min: 50, max: 60_000 });
  const host = v.host ?? '127.0.0.1';

  const stopAsked = stopSignal();
  let hub;
  try {
    hub = await startHub({ tables, host, port, timeoutMs });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is in use on ${host}; choose another with --port`);
    if (code === 'EADDRNOTAVAIL') throw new CliError(`${host} is not an address of this machine (--host)`);
    throw err;
  }
  console.log(`Muster tables: ${hub.url}/ lists ${tables.length} table${tables.length === 1 ? '' : 's'}`);
  for (const t of tables) console.log(`  ${t.name}: ${t.url}${t.token !== undefined ? ' (operator link for this machine)' : ''}`);
  console.log('Press Ctrl+C to stop.');
  await stopAsked;
  await hub.close();
  return 0;
}
