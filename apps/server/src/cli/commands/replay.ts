/**
 * `muster replay <data-dir>`: a recorded game played back from its log through the live service's own
 * server and views (map, operator, projector, overlay), read-only: operator actions are refused and the
 * data directory is never written, so it may run beside the live service on the same directory.
 * `GET /api/history?unit=<id>` answers where a unit stood before it moved.
 */
import { CliError } from '../cliError.ts';
import { numberValue, parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { createProgress, type Progress } from '../progress.ts';
import { RecordError } from '../../replay/readRecord.ts';
import { POSITION_FORMS } from '../../replay/replayPosition.ts';
import { startReplay, type RunningReplay } from '../../replay/startReplay.ts';
import { viewsBuilt } from '../../compose/startLive.ts';
import { stopSignal } from '../stopSignal.ts';

const SPEC = {
  command: 'replay',
  synopsis: ['<data-dir> [--speed <x>] [--from <position>] [--port <n>]'],
  positionals: [{ name: '<data-dir>', help: "a game's data directory (the --data of muster start; the demo's game is in <data>/demo)" }],
  tooMany: (p: readonly string[]) => `one data directory at a time (got "${p[0]}" and "${p[1]}")`,
  options: {
    speed: { type: 'string', arg: '<x>', help: 'record time per real time (default 1; 0 holds the replay at --from)' },
    from: { type: 'string', arg: '<position>', help: `where to start (default the first entry): ${POSITION_FORMS}` },
    'max-gap': { type: 'string', arg: '<s>', help: 'pauses in the record longer than this many seconds are played as this long (default 10)' },
    ruleset: { type: 'string', arg: '<id>', help: "evaluate the whole record with this rule set (default: follow the record's rule-set changes, starting from the game's first, else the roster's, else the default)" },
    port: { type: 'string', arg: '<n>', help: 'HTTP/ws port (default 8080, or the next free one up to 8090 when the live service\nholds it; 0 picks any free one)' },
    host: { type: 'string', arg: '<addr>', help: 'address to bind (default 127.0.0.1; 0.0.0.0 serves the LAN)' },
    'allow-host': { type: 'string', multiple: true, arg: '<name>', help: 'also answer requests for this Host name (repeatable; as muster start)' },
    progress: { type: 'boolean', help: 'show progress reading the log on stderr even when it is not a terminal' },
  },
  notes:
    'The views show the game as it was at each entry: stands, status set by the operator, terrain, turn,\n' +
    'the rules evaluated as live. Not in the record, so not shown: status chips, camera frames.\n' +
    'Operator actions are refused; nothing is written to the data directory.\n' +
    'Where a unit stood before it moved: GET /api/history?unit=<id>[&at=<ISO time>|&index=<n>].',
} as const satisfies CommandSpec;

export async function run(args: string[]): Promise<number> {
  const { values: v, positionals } = parseCommandArgs(SPEC, args);
  const dataDir = positionals[0];
  if (dataDir === undefined) throw new CliError('give the data directory of a recorded game: muster replay <data-dir> (muster replay --help)');
  const speed = v.speed === undefined ? 1 : numberValue(v.speed, '--speed', { min: 0, max: 1000, example: '4' });
  const maxGapS = v['max-gap'] === undefined ? undefined : numberValue(v['max-gap'], '--max-gap', { above: 0, max: 86_400, example: '5' });
  const port = v.port === undefined ? 8080 : numberValue(v.port, '--port', { integer: true, min: 0, max: 65535, example: '8081' });
  // Created at the first piece read, when the log's size is known.
  let progress: Progress | null = null;
  const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
  let replay: RunningReplay;
  try {
    replay = await startReplay({
      dataDir,
      speed,
      ...(v.from !== undefined ? { from: v.from } : {}),
      ...(maxGapS !== undefined ? { maxGapMs: maxGapS * 1000 } : {}),
      ...(v.ruleset !== undefined ? { rulesetId: v.ruleset } : {}),
      port,
      // Beside a live service on 8080, the next free port: unless --port was given.
      nextPorts: v.port === undefined ? 10 : 0,
      host: v.host ?? '127.0.0.1',
      ...(v['allow-host'].length > 0 ? { allowHosts: v['allow-host'] } : {}),
      onProgress: (done, total) => {
        progress ??= createProgress({ label: 'muster replay: reading the log', unit: 'MB', total: mb(total), force: v.progress });
        progress.update(mb(done));
      },
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(v.port === undefined ? `ports ${port}–${port + 10} are in use; pick another with --port` : `port ${port} is in use; pick another with --port`);
    if (code === 'EADDRNOTAVAIL') throw new CliError(`cannot bind ${v.host}: no such local address`);
    if (err instanceof RecordError || (err instanceof Error && /is not a position in the record|is not in the record/.test(err.message))) throw new CliError(err.message);
    throw err;
  } finally {
    (progress as Progress | null)?.finish();
  }
  for (const p of replay.problems.slice(0, 5)) process.stderr.write(`muster replay: warning: ${p}\n`);
  if (replay.problems.length > 5) process.stderr.write(`muster replay: warning: ${replay.problems.length - 5} more corrupt lines skipped\n`);
  const { url, timeline, record } = replay;
  const first = timeline.entries[0];
  const last = timeline.entries[timeline.length - 1];
  const span = first && last ? `${new Date(first.timeMs).toISOString()} to ${new Date(last.timeMs).toISOString()}, turns ${first.turn}–${last.turn}` : 'no entries';
  const lines = [
    `Muster is replaying ${record.dir} (read-only): ${timeline.length} entries, ${span}`,
    ...(record.note ? [`  note:       ${record.note}`] : []),
    `  from:       ${replay.backend.logCursor() < 0 ? 'the first entry' : `entry ${replay.backend.logCursor()}`}, ${speed === 0 ? 'held' : `at ${speed}×`}`,
    `  rules:      ${replay.rulesNote}`,
    `  map:        ${url}/map.html`,
    `  operator:   ${url}/operator.html?token=${encodeURIComponent(replay.operatorToken)} (seek, pause and play; game actions are refused: a replay changes nothing)`,
    `  projector:  ${url}/projector.html`,
    `  overlay:    ${url}/overlay.html`,
    `  history:    ${url}/api/history?unit=<unit id> (where it stood before it moved)`,
    `  log:        ${url}/api/log?from=0&limit=1000`,
    ...(viewsBuilt() ? [] : ['  (views not built: the pages explain how; npm run build -w @muster/overlay)']),
    'Press Ctrl+C to stop.',
  ];
  const stopAsked = stopSignal();
  process.stdout.write(`${lines.join('\n')}\n`);
  await stopAsked;
  await replay.stop();
  return 0;
}
