/**
 * Reading the game log at open: one pass over `game-log.jsonl` in 1 MiB pieces (memory stays bounded
 * whatever the file's size) that
 *  - indexes where lines start (`SparseLineIndex`),
 *  - keeps the newest `keep` entries,
 *  - checks every line is a log entry (a JSON object with a whole-number `index`), and
 *  - decides what to do with the bytes after the last line end.
 *
 * Line n of the file is the entry with index n, a corrupt line included: a corrupt line keeps its index
 * (it is skipped on read, never given to a new entry), so indexes stay unique and increasing. An entry
 * whose own `index` differs from its line (a log written by an older version after a corrupt line) is
 * served with its line's index, and reported.
 *
 * Verdicts: a few corrupt lines are reported (`problems`, each naming the file and line) and skipped. A
 * file in which no line is a log entry, or more than 1% of lines (and more than 10) are not, is refused
 * with an error that names the file and says to move it aside; it is not modified. The bytes after the
 * last line end are a torn append (a crash mid-write: the start of an entry, `{"…`, maybe followed by
 * zero bytes) and are cut off at open; anything else there in a log that is otherwise ours is kept, ended
 * with a line end and skipped as a corrupt line.
 */
import { closeSync, constants, lstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { jsonDepthExceeds } from '@muster/protocol';
import { GameLogError, explainFsError } from './gameLogError.ts';
import type { SparseLineIndex } from './gameLogIndex.ts';

/** Longest line kept in memory to check it; a longer one is corrupt (entries are a few hundred bytes, terrain a few hundred KiB). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** The most bytes after the last line end taken for a torn append and cut off. */
const MAX_TORN_BYTES = 1024 * 1024;
/** Corrupt lines tolerated: at most this many, or at most this fraction of the lines. */
const MAX_CORRUPT_LINES = 10;
const MAX_CORRUPT_FRACTION = 0.01;
/** Corrupt lines reported one by one; the rest are counted in one more problem. */
const REPORTED_LINES = 5;
const SCAN_CHUNK_BYTES = 1024 * 1024;

/** Deepest nesting of arrays and objects in a log entry (a terrain entry nests 5). */
const MAX_ENTRY_DEPTH = 64;

export type EntryCheck<T> = { readonly ok: true; readonly entry: T } | { readonly ok: false; readonly reason: string };

/**
 * Each line ends with `"crc":"<8 hex digits>"`, the CRC-32 of the entry's JSON without it, so damage that
 * leaves valid JSON (a flipped digit moves a stand or changes a die) is caught when the line is read.
 * Lines without one (written by older versions) are read as before.
 */
const LINE_SUM = /,"crc":"([0-9a-f]{8})"\}$/;

const crcHex = (json: string): string => crc32(json).toString(16).padStart(8, '0');

/** The line for an entry's JSON (an object): the JSON with its CRC-32 as the last field. */
export function withLineSum(entryJson: string): string {
  return `${entryJson.slice(0, -1)},"crc":"${crcHex(entryJson)}"}`;
}

/** Is this line a log entry? (A JSON object with a whole-number `index`, and a CRC that matches when it has one.) */
export function parseLogLine<T extends { readonly index: number }>(line: string): EntryCheck<T> {
  // Before parsing: a line nested thousands deep crashed export with a stack trace and made /api/log 500.
  if (jsonDepthExceeds(line, MAX_ENTRY_DEPTH)) return { ok: false, reason: `nested deeper than ${MAX_ENTRY_DEPTH} levels: ${excerpt(line)}` };
  const sum = LINE_SUM.exec(line);
  let json = line;
  if (sum) {
    json = `${line.slice(0, sum.index)}}`;
    if (crcHex(json) !== sum[1]) return { ok: false, reason: `its CRC does not match: the line was changed after it was written (damage): ${excerpt(line)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, reason: `not valid JSON: ${excerpt(line)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: `not a JSON object: ${excerpt(line)}` };
  if (!Number.isInteger((value as { index?: unknown }).index)) return { ok: false, reason: `no whole-number "index": ${excerpt(line)}` };
  return { ok: true, entry: value as T };
}

function excerpt(line: string): string {
  return line.length <= 40 ? JSON.stringify(line) : `${JSON.stringify(line.slice(0, 40))}…`;
}

/** The entry as served: with its line's index. */
export function atLine<T extends { readonly index: number }>(entry: T, line: number): T {
  return entry.index === line ? entry : { ...entry, index: line };
}

export interface LogScan<T> {
  /** Whole lines (ending in a line end): the next entry's index. */
  readonly lines: number;
  /** Bytes to keep: the file's size, or where a torn append starts (`tail` 'cut'). */
  readonly intactBytes: number;
  /** The newest lines' entries, oldest first, at most `keep` (undefined: a corrupt line). */
  readonly recent: (T | undefined)[];
  /** What is wrong with the file, each naming it (empty when nothing is). */
  readonly problems: string[];
  /** What to do with the bytes after the last line end before appending. */
  readonly tail: 'none' | 'cut' | 'end-line';
  /** The newest entry of each `kind` in the file (its keys: every kind the log holds a record of). */
  readonly lastByKind: ReadonlyMap<string, T>;
}

/**
 * Scans the log at `path` (missing: an empty log), filling `index`. Throws `GameLogError` when it is not
 * a game log or cannot be read; never writes.
 */
export function scanLogFile<T extends { readonly index: number }>(path: string, keep: number, index: SparseLineIndex): LogScan<T> {
  let fileBytes = 0;
  try {
    // Not followed: a link would make the service append to a file outside its data directory.
    const st = lstatSync(path);
    if (st.isSymbolicLink()) {
      throw new GameLogError(
        path,
        `${path} is a symbolic link; Muster does not follow links inside its data directory (it would append to the file the link points to). ` +
          `Replace the link with the log itself (e.g. cp --remove-destination "$(readlink -f '${path}')" '${path}'), or remove it if it points nowhere, and start again`,
      );
    }
    if (!st.isFile()) {
      throw new GameLogError(path, `${path}: the game log is a ${st.isDirectory() ? 'directory' : 'special file'}, not a file; move it aside or remove it and start again (a new log is created)`);
    }
  } catch (err) {
    if (err instanceof GameLogError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: 0, intactBytes: 0, recent: [], problems: [], tail: 'none', lastByKind: new Map() };
    throw new GameLogError(path, `${path}: cannot open the game log (${explainFsError(err)})`);
  }

  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    throw new GameLogError(path, `${path}: cannot open the game log (${explainFsError(err)})`);
  }

  let lines = 0;
  let corrupt = 0;
  const reported: string[] = [];
  let firstCorrupt = '';
  let mismatched = 0;
  let firstMismatch = '';
  let recent: (T | undefined)[] = [];
  const lastByKind = new Map<string, T>();

  /** Line `lines` starts at `offset`; `bytes` null: too long to check. `report` words a corrupt one. */
  const onLine = (bytes: Buffer | null, offset: number, report?: (line: number) => { first: string; problem: string }): void => {
    const line = lines++;
    index.add(line, offset);
    const check: EntryCheck<T> = report
      ? { ok: false, reason: '' }
      : bytes === null
        ? { ok: false, reason: `longer than ${MAX_LINE_BYTES} bytes` }
        : parseLogLine<T>(bytes.toString('utf8'));
    if (check.ok) {
      if (check.entry.index !== line && mismatched++ === 0) firstMismatch = `line ${line + 1} has index ${check.entry.index}`;
      recent.push(atLine(check.entry, line));
      const kind = (check.entry as { kind?: unknown }).kind;
      if (typeof kind === 'string') lastByKind.set(kind, check.entry);
    } else {
      const words = report?.(line) ?? {
        first: `line ${line + 1}: ${check.reason}`,
        problem: `${path} line ${line + 1}: not a game log entry (${check.reason}); skipped, index ${line} stays empty`,
      };
      if (corrupt++ === 0) firstCorrupt = words.first;
      if (reported.length < REPORTED_LINES) reported.push(words.problem);
      recent.push(undefined);
    }
    if (recent.length > 2 * keep) recent = recent.slice(-keep);
  };

  // The current (unfinished) line: pieces copied out of the reused read buffer.
  let parts: Buffer[] = [];
  let partsBytes = 0;
  let overlong = false;
  let lineStart = 0;
  try {
    const buf = Buffer.allocUnsafe(SCAN_CHUNK_BYTES);
    let pos = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, SCAN_CHUNK_BYTES, pos);
      if (n === 0) break;
      let start = 0;
      for (let nl = buf.indexOf(0x0a, start); nl !== -1 && nl < n; nl = buf.indexOf(0x0a, start)) {
        let bytes: Buffer | null = null;
        if (!overlong && partsBytes + (nl - start) <= MAX_LINE_BYTES) bytes = partsBytes === 0 ? buf.subarray(start, nl) : Buffer.concat([...parts, buf.subarray(start, nl)]);
        onLine(bytes, lineStart);
        parts = [];
        partsBytes = 0;
        overlong = false;
        lineStart = pos + nl + 1;
        start = nl + 1;
      }
      if (start < n && !overlong) {
        if (partsBytes + (n - start) > MAX_LINE_BYTES) {
          overlong = true;
          parts = [];
        } else {
          parts.push(Buffer.from(buf.subarray(start, n)));
          partsBytes += n - start;
        }
      }
      pos += n;
    }
    fileBytes = pos;
  } catch (err) {
    throw new GameLogError(path, `${path}: cannot read the game log (${explainFsError(err)})`);
  } finally {
    closeSync(fd);
  }

  const tailBytes = fileBytes - lineStart;
  let tail: LogScan<T>['tail'] = 'none';
  if (tailBytes > 0) {
    const good = lines - corrupt;
    if (!overlong && tailBytes <= MAX_TORN_BYTES && isTornAppend(Buffer.concat(parts), good > 0)) tail = 'cut';
    else {
      // Not a torn append: kept, ended with a line end before the next append, skipped as a corrupt line.
      tail = 'end-line';
      onLine(null, lineStart, (line) => ({
        first: `line ${line + 1}: ${tailBytes} bytes without a line end that are not the start of an entry`,
        problem: `${path} line ${line + 1}: the last ${tailBytes} bytes have no line end and are not a game log entry; a line end is added after them and they are skipped, index ${line} stays empty`,
      }));
    }
  }

  const what = tooDamaged(lines, corrupt);
  if (what !== null) {
    throw new GameLogError(
      path,
      `${path}: not a Muster game log, or too damaged to use: ${what} (first: ${firstCorrupt}). It was left untouched. ` +
        `Move it aside (e.g. mv "${path}" "${path}.damaged") and start again for a new, empty log; what can be saved of the old one stays in the moved file.`,
    );
  }

  const problems = [...reported];
  if (corrupt > reported.length) problems.push(`${path}: ${corrupt - reported.length} more corrupt line(s) skipped (${corrupt} in all); their indexes stay empty`);
  if (mismatched > 0) {
    problems.push(`${path}: ${mismatched} entr${mismatched === 1 ? 'y has' : 'ies have'} an index other than its line's (first: ${firstMismatch}), as an older version wrote after a corrupt line; served with the line's index`);
  }
  return {
    lines,
    intactBytes: tail === 'cut' ? lineStart : fileBytes,
    recent: recent.length > keep ? recent.slice(-keep) : recent,
    problems,
    tail,
    lastByKind,
  };
}

/**
 * Why a log with `corrupt` of its `lines` not entries is not a game log, or too damaged to use (none is an
 * entry, or more than 1% and more than 10 are not); null when it is usable. The one verdict of `start`,
 * replay and export.
 */
export function tooDamaged(lines: number, corrupt: number): string | null {
  const good = lines - corrupt;
  if (corrupt === 0 || !(good === 0 || (corrupt > MAX_CORRUPT_LINES && corrupt > lines * MAX_CORRUPT_FRACTION))) return null;
  return good === 0 ? `none of its ${lines} line(s) is a game log entry` : `${corrupt} of its ${lines} lines are not game log entries (more than ${MAX_CORRUPT_FRACTION * 100}%)`;
}

/**
 * Bytes after the last line end that a crash mid-append leaves: the start of an entry (`{"…`, possibly
 * the whole entry without its line end), or zero bytes (a file system that extended the file but never
 * wrote the data), possibly both. Zero bytes alone count only in a file that holds log entries.
 */
function isTornAppend(tail: Buffer, hasEntries: boolean): boolean {
  let end = tail.byteLength;
  while (end > 0 && tail[end - 1] === 0) end--;
  if (end === 0) return hasEntries;
  if (end < 2 || tail[0] !== 0x7b || tail[1] !== 0x22) return false; // {"
  const text = tail.subarray(0, end).toString('utf8');
  try {
    JSON.parse(text);
  } catch {
    return true; // the start of a line
  }
  return parseLogLine(text).ok; // a whole entry that lost its line end; other JSON is not ours
}
