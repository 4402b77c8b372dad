/**
 * `muster export <data-dir> --format csv|json [--out file]`: a recorded game for spreadsheets and other
 * programs (`export/exportRecord.ts`): every entry with its time and turn, poses per stand over time,
 * actions, cards and dice. Reads the data directory without writing it; progress with the time left on
 * stderr (on a terminal, or with --progress). `--out` is written whole or not at all (a temp file renamed),
 * and only ever creates or replaces a regular file.
 */
import { once } from 'node:events';
import { createWriteStream, lstatSync, renameSync, rmSync, type Stats, type WriteStream } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { CliError } from '../cliError.ts';
import { parseCommandArgs, type CommandSpec } from '../commandArgs.ts';
import { outputClosed } from '../outputClosed.ts';
import { createProgress, type Progress } from '../progress.ts';
import { CSV_COLUMNS, EXPORT_FORMATS, exportRecord, type ExportFormat } from '../../export/exportRecord.ts';
import { readRecord, RecordError } from '../../replay/readRecord.ts';

const SPEC = {
  command: 'export',
  synopsis: ['<data-dir> --format csv|json [--out <file>]'],
  positionals: [{ name: '<data-dir>', help: "a game's data directory (the --data of muster start; the demo's game is in <data>/demo)" }],
  tooMany: (p: readonly string[]) => `one data directory at a time (got "${p[0]}" and "${p[1]}")`,
  options: {
    format: { type: 'string', arg: '<f>', help: `csv (one row per entry: ${CSV_COLUMNS.join(',')})\nor json (JSON lines: each log entry with its ISO time, and the unitId of a stand)` },
    out: { type: 'string', arg: '<file>', help: 'write here (default standard output); written whole or not at all' },
    progress: { type: 'boolean', help: 'show progress on stderr even when it is not a terminal' },
  },
  notes: 'Poses per stand over time are the rows of kind pose (stand-removed: it left the table). Nothing in the\ndata directory is written.',
} as const satisfies CommandSpec;

/** What a `--out` target that exists is, when it is not a regular file (null: a regular file). */
function notARegularFile(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Refuses a `--out` target that exists and is not a regular file: the export is renamed over the target,
 * which would replace a device node (run as root: /dev/full became a CSV), a FIFO or a link with a file.
 * To write to a pipe or a device, leave out --out and redirect standard output.
 */
function checkOutTarget(path: string, given: string): void {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // a new file
    throw new CliError(`--out ${given}: cannot check it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was written`);
  }
  const what = notARegularFile(st);
  if (what !== null) {
    throw new CliError(`--out ${given} is ${what}, not a regular file; --out only creates or replaces a regular file. To write to it, leave out --out and redirect standard output (muster export … > ${given}); nothing was written`);
  }
}

/**
 * Waits for 'drain' or 'close' (rejecting on 'error') and removes all three listeners whichever comes:
 * a race of `once` promises left the loser's listeners behind on every wait, and a long export printed
 * MaxListenersExceededWarning.
 */
function drainedOrClosed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error): void => {
      stream.off('drain', onDone);
      stream.off('close', onDone);
      stream.off('error', onError);
      if (err) reject(err);
      else resolve();
    };
    const onDone = (): void => done();
    const onError = (err: Error): void => done(err);
    stream.on('drain', onDone);
    stream.on('close', onDone);
    stream.on('error', onError);
  });
}

/** The reader of standard output went away: stop quietly. */
class OutputGone extends Error {}

async function writeTo(stream: NodeJS.WritableStream & { destroyed?: boolean }, text: string): Promise<void> {
  if (stream === process.stdout && outputClosed(process.stdout)) throw new OutputGone();
  if (!stream.write(text)) {
    try {
      await drainedOrClosed(stream);
    } catch (err) {
      // An 'error': a reader that went away (EPIPE) is a normal end, anything else is not.
      if (stream === process.stdout && outputClosed(process.stdout)) throw new OutputGone();
      throw err;
    }
    if (stream === process.stdout && outputClosed(process.stdout)) throw new OutputGone();
  }
}

export async function run(args: string[]): Promise<number> {
  const { values: v, positionals } = parseCommandArgs(SPEC, args);
  const dataDir = positionals[0];
  if (dataDir === undefined) throw new CliError('give the data directory of a recorded game: muster export <data-dir> --format csv|json (muster export --help)');
  if (v.format === undefined) throw new CliError('give the format: --format csv or --format json (muster export --help)');
  if (!(EXPORT_FORMATS as readonly string[]).includes(v.format)) throw new CliError(`--format must be csv or json (got "${v.format}")`);
  const format = v.format as ExportFormat;

  let record;
  try {
    record = readRecord(dataDir);
  } catch (err) {
    if (err instanceof RecordError) throw new CliError(err.message);
    throw err;
  }
  let out: { path: string; temp: string; stream: WriteStream } | null = null;
  if (v.out !== undefined) {
    const path = resolve(v.out);
    const rel = relative(record.dir, path);
    if (rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-z]:/i.test(rel))) {
      throw new CliError(`--out ${v.out} is inside the game's data directory ${record.dir}; write the export elsewhere (the directory holds only the game's own files)`);
    }
    checkOutTarget(path, v.out);
    const temp = join(dirname(path), `.${basename(path)}.partial-${process.pid}`);
    const stream = createWriteStream(temp, { flags: 'wx' });
    try {
      await once(stream, 'open');
    } catch (err) {
      throw new CliError(`--out ${v.out}: cannot write there (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    out = { path, temp, stream };
  }

  let progress: Progress | null = null;
  const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
  const sink = out?.stream ?? process.stdout;
  try {
    const summary = await exportRecord({
      dataDir,
      format,
      write: (text) => writeTo(sink, text),
      onProgress: (done, total) => {
        progress ??= createProgress({ label: 'muster export', unit: 'MB', total: mb(total), force: v.progress });
        progress.update(mb(done));
      },
      onProblem: (p) => {
        if (progress) progress.note(`muster export: warning: ${p}`);
        else process.stderr.write(`muster export: warning: ${p}\n`);
      },
    });
    (progress as Progress | null)?.finish();
    if (out) {
      const stream = out.stream;
      await new Promise<void>((done, fail) => stream.end((err?: Error | null) => (err ? fail(err) : done())));
      // Again just before the rename: the target may have been made (a FIFO, a link) while the export ran.
      checkOutTarget(out.path, v.out!);
      renameSync(out.temp, out.path);
      process.stderr.write(`muster export: ${summary.entries} entries (${format}) from ${summary.dir} written to ${out.path}${summary.note ? ` (${summary.note})` : ''}\n`);
    } else if (summary.note) process.stderr.write(`muster export: ${summary.note}\n`);
    return 0;
  } catch (err) {
    (progress as Progress | null)?.finish();
    if (out) {
      out.stream.destroy();
      rmSync(out.temp, { force: true });
    }
    if (err instanceof OutputGone) return 0;
    if (err instanceof CliError) throw err;
    if (err instanceof RecordError) throw new CliError(err.message);
    if (out && (err as NodeJS.ErrnoException).code) throw new CliError(`--out ${v.out}: ${(err as Error).message}; nothing was written`);
    throw err;
  }
}
