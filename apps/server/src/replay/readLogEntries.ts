/**
 * Every entry of a game log, oldest first, read without writing (no lock, no repair): a stream in 1 MiB
 * pieces handing each entry to `onEntry`, so an export of a long game never holds the whole log.
 *
 * Lines are read as the live service reads them (`parseLogLine`, `atLine` from `persist/gameLogScan.ts`):
 * line n is entry n, a corrupt line keeps its index and is skipped and reported, an entry whose own index
 * differs from its line is served with its line's. Bytes after the last line end (a torn append, or a
 * line being written right now by the live service) are left out.
 */
import { open } from 'node:fs/promises';
import type { GameLogEntry } from '@muster/protocol';
import { atLine, MAX_LINE_BYTES, parseLogLine, tooDamaged } from '../persist/gameLogScan.ts';
import { RecordError } from './readRecord.ts';

const CHUNK_BYTES = 1024 * 1024;

export interface ReadLogOptions {
  /** Called with (bytes read, bytes in the file) after each piece. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Called for each corrupt line (skipped). */
  readonly onProblem?: (problem: string) => void;
}

export interface ReadLogSummary {
  /** Lines read (corrupt ones included): the next entry's index. */
  readonly lines: number;
  readonly entries: number;
  readonly corruptLines: number;
  readonly bytes: number;
}

/** Streams the entries of the log at `path` to `onEntry` (awaited when it returns a promise). */
export async function readLogEntries(path: string, onEntry: (entry: GameLogEntry) => void | Promise<void>, options: ReadLogOptions = {}): Promise<ReadLogSummary> {
  const file = await open(path, 'r');
  try {
    const total = (await file.stat()).size;
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    let pos = 0;
    let line = 0;
    let entries = 0;
    let corrupt = 0;
    let carry: Buffer[] = [];
    let carryBytes = 0;
    // A line longer than the live service accepts is corrupt: only its length is kept, not its bytes.
    let overlong = false;
    // Only what was in the file when the read began: the live service may be appending meanwhile.
    while (pos < total) {
      const { bytesRead } = await file.read(buf, 0, Math.min(CHUNK_BYTES, total - pos), pos);
      if (bytesRead === 0) break;
      let start = 0;
      for (let nl = buf.indexOf(0x0a, start); nl !== -1 && nl < bytesRead; nl = buf.indexOf(0x0a, start)) {
        const tooLong = overlong || carryBytes + (nl - start) > MAX_LINE_BYTES;
        const bytes = tooLong ? null : carry.length === 0 ? buf.subarray(start, nl) : Buffer.concat([...carry, buf.subarray(start, nl)]);
        carry = [];
        carryBytes = 0;
        overlong = false;
        const check = bytes === null ? ({ ok: false, reason: `longer than ${MAX_LINE_BYTES} bytes` } as const) : parseLogLine<GameLogEntry>(bytes.toString('utf8'));
        if (check.ok) {
          entries++;
          const pending = onEntry(atLine(check.entry, line));
          if (pending) await pending;
        } else {
          corrupt++;
          options.onProblem?.(`${path} line ${line + 1}: not a game log entry (${check.reason}); skipped`);
        }
        line++;
        start = nl + 1;
      }
      if (start < bytesRead && !overlong) {
        carryBytes += bytesRead - start;
        if (carryBytes > MAX_LINE_BYTES) {
          overlong = true;
          carry = [];
        } else carry.push(Buffer.from(buf.subarray(start, bytesRead)));
      }
      pos += bytesRead;
      options.onProgress?.(pos, total);
    }
    // The verdict `start` gives (gameLogScan.ts): bytes that are no log at all are an error, not "0 entries".
    // (Entries already handed on were streamed; the caller discards them: export removes its --out file.)
    // Bytes after the last line end count as a corrupt line unless they start like an entry (a torn or
    // unfinished append).
    const head = carry[0];
    const tornAppend = head !== undefined && head[0] === 0x7b && head[1] === 0x22;
    const trailing = (carryBytes > 0 || overlong) && !tornAppend ? 1 : 0;
    const damaged = tooDamaged(line + trailing, corrupt + trailing);
    if (damaged !== null) {
      throw new RecordError(`${path}: not a Muster game log, or too damaged to use: ${damaged}. It was not changed; a live service refuses it too (move it aside to start a new log)`);
    }
    return { lines: line, entries, corruptLines: corrupt, bytes: total };
  } finally {
    await file.close();
  }
}

/** All entries of the log at `path`, in memory (a replay seeks in them). */
export async function loadLogEntries(path: string, options: ReadLogOptions = {}): Promise<{ entries: GameLogEntry[]; summary: ReadLogSummary }> {
  const entries: GameLogEntry[] = [];
  const summary = await readLogEntries(path, (e) => void entries.push(e), options);
  return { entries, summary };
}
