/**
 * `muster <command> [options]`: dispatches to `commands/<command>.ts`, each exporting
 * `run(args) => Promise<number>` (the exit code). The conventions every command shares live here and in
 * `commandArgs.ts`: help and version on stdout with exit 0; errors one line on stderr with exit 2 (a bug:
 * its stack, exit 1); a reader that closes the pipe early ends the command quietly (`outputClosed.ts`).
 */
import { closest } from './commandArgs.ts';
import { CliError, CliExit } from './cliError.ts';
import { paintFor } from './colour.ts';
import { watchOutput } from './outputClosed.ts';
import { musterVersion } from './version.ts';

export interface CommandModule {
  run(args: string[]): Promise<number>;
}

interface CommandEntry {
  readonly summary: string;
  load(): Promise<CommandModule>;
}

/** Every command, loaded only when run (so `muster --help` does not load opencv.js). */
const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  cameras: { summary: 'list the webcams attached to this machine, with the --camera spec and formats of each', load: () => import('./commands/cameras.ts') },
  calibrate: {
    summary: 'lens calibration from photos of the ChArUco board, projector calibration (lens | undistort | projector)',
    load: () => import('./commands/calibrate.ts'),
  },
  detect: { summary: 'find the ArUco tags in one image and print their table positions', load: () => import('./commands/detect.ts') },
  export: { summary: 'write a recorded game as CSV or JSON lines: poses per stand over time, actions, rolls, with times', load: () => import('./commands/export.ts') },
  markers: { summary: 'print tags, anchors and the calibration board at true size (PDF or SVG)', load: () => import('./commands/markers.ts') },
  replay: { summary: 'play a recorded game back from its data directory through the views, read-only (--speed, --from)', load: () => import('./commands/replay.ts') },
  rules: { summary: 'evaluate a table-state JSON file with a rule set (--list for rule sets)', load: () => import('./commands/rules.ts') },
  start: { summary: 'start the live service (no options: the built-in demo battle on http://127.0.0.1:8080)', load: () => import('./commands/start.ts') },
  tables: { summary: 'index page for several tables on one network: status, rules, turn and view links of each', load: () => import('./commands/tables.ts') },
  track: { summary: 'track tags through a recording (folder of frames or video) and print poses per frame', load: () => import('./commands/track.ts') },
};

export function commandNames(): string[] {
  return Object.keys(COMMANDS).sort();
}

function topUsage(): string {
  const lines = ['usage: muster <command> [options]', '       muster --version | --help', '', 'commands:'];
  for (const name of commandNames()) lines.push(`  ${name.padEnd(10)} ${COMMANDS[name]!.summary}`);
  lines.push('', "Run 'muster <command> --help' (or 'muster help <command>') for a command's options.");
  return lines.join('\n');
}

// console.log/console.error rather than the streams: in-process callers (tests) capture them the same way.
function printError(where: string, message: string): void {
  const p = paintFor(process.stderr);
  console.error(`${p.red(where)}: ${message}`);
}

export async function main(argv: readonly string[]): Promise<number> {
  watchOutput(process.stdout, 'to standard output');
  watchOutput(process.stderr, 'to standard error');
  let [name, ...rest] = argv;
  if (name === undefined) {
    console.error(topUsage());
    return 2;
  }
  if (name === '--help' || name === '-h') {
    console.log(topUsage());
    return 0;
  }
  if (name === '--version') {
    console.log(`muster ${musterVersion()}`);
    return 0;
  }
  if (name === 'help') {
    if (rest[0] === undefined) {
      console.log(topUsage());
      return 0;
    }
    [name, rest] = [rest[0], ['--help']];
  }
  if (name.startsWith('-')) {
    printError('muster', `unknown option ${name}; valid options: --version, -h/--help, or a command first: ${commandNames().join(', ')} (muster --help)`);
    return 2;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    const guess = closest(name, commandNames());
    printError('muster', `unknown command "${name}"${guess ? ` (did you mean ${guess}?)` : ''}; commands: ${commandNames().join(', ')} (muster --help)`);
    return 2;
  }
  try {
    const mod = await entry.load();
    return await mod.run(rest);
  } catch (err) {
    if (err instanceof CliExit) {
      if (err.exitCode === 0) console.log(err.text);
      else console.error(err.text);
      return err.exitCode;
    }
    if (err instanceof CliError) {
      printError(`muster ${name}`, err.message);
      return err.exitCode;
    }
    console.error(err);
    return 1;
  }
}
