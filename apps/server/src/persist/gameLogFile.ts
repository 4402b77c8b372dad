/**
 * The game log on disk: append-only JSON lines (`game-log.jsonl`), one entry per line. Appends are single
 * `write`s of a whole line, so a kill -9 loses at most the line being written; reading tolerates a torn
 * last line (no trailing newline or not JSON) and `open` cuts it off before appending more.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';

export interface GameLogRead<T> {
  readonly entries: T[];
  /** A partial last line was found (a crash mid-append); it is not in `entries`. */
  readonly tornTail: boolean;
  /** Byte length of the intact part. */
  readonly intactBytes: number;
  /** Lines in the middle that were not valid JSON (should not happen; reported, skipped). */
  readonly badLines: number;
}

/** Reads a JSON-lines log. A missing file is an empty log. */
export function readJsonLines<T>(path: string): GameLogRead<T> {
  if (!existsSync(path)) return { entries: [], tornTail: false, intactBytes: 0, badLines: 0 };
  const buf = readFileSync(path);
  const lastNewline = buf.lastIndexOf(0x0a);
  const intactBytes = lastNewline + 1;
  const text = buf.subarray(0, intactBytes).toString('utf8');
  const entries: T[] = [];
  let badLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as T);
    } catch {
      badLines++;
    }
  }
  return { entries, tornTail: intactBytes < buf.byteLength, intactBytes, badLines };
}

export interface JsonLinesWriter<T> {
  append(entry: T): void;
  close(): void;
}

/** Opens a JSON-lines log for appending, first cutting off a torn last line. */
export function openJsonLines<T>(path: string, intactBytes: number): JsonLinesWriter<T> {
  const fd = openSync(path, 'a+');
  ftruncateSync(fd, intactBytes);
  let closed = false;
  return {
    append(entry: T): void {
      if (closed) throw new Error(`game log ${path} is closed`);
      const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
      let offset = 0;
      while (offset < line.byteLength) offset += writeSync(fd, line, offset, line.byteLength - offset);
    },
    close(): void {
      if (!closed) closeSync(fd);
      closed = true;
    },
  };
}
