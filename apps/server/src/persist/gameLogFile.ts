/**
 * The game log file (`game-log.jsonl`, one JSON entry per line) once it has been scanned: one descriptor
 * for both appending and reading.
 *
 * Appends are single synchronous `write`s of a whole line, so a kill -9 loses at most the line being
 * written (cut off at the next open, see `gameLogScan.ts`); a failed append is rolled back to the last
 * whole line, so it never leaves half a line for the next one to be glued to.
 *
 * Reads are asynchronous (`fs.read` on the thread pool) and positional, at most `chunkBytes` at a time, so
 * a reader never holds the event loop for longer than parsing one chunk. Closing waits for reads under
 * way before the descriptor is closed (a closed descriptor number can be reused by another file).
 */
import { closeSync, constants, ftruncateSync, openSync, read, writeSync } from 'node:fs';
import { GameLogError, explainFsError } from './gameLogError.ts';
import { parseLogLine, atLine, MAX_LINE_BYTES } from './gameLogScan.ts';

export interface LogFile {
  /** Bytes of whole lines in the file: where the next line goes. */
  size(): number;
  /** Appends one line (with its line end). Throws `GameLogError` (the file is then as before). */
  append(line: Buffer): void;
  /**
   * Entries of lines ≥ `from`, at most `limit` (corrupt lines skipped), reading from `offset`, where line
   * `line` ≤ `from` starts, up to `end` at most. Throws `GameLogError`.
   */
  readEntries<T extends { readonly index: number }>(start: { line: number; offset: number }, from: number, limit: number, end: number): Promise<T[]>;
  /** Bytes and reads `readEntries` made so far. */
  readStats(): { readonly bytes: number; readonly reads: number };
  /** Closes now, or when the reads under way are done. */
  close(): void;
}

export interface LogFileOptions {
  /** What to do with the bytes after `intactBytes`: nothing, cut them off (torn append), or end them with a line end. */
  readonly tail: 'none' | 'cut' | 'end-line';
  readonly intactBytes: number;
  /** Largest single read. Default 64 KiB. */
  readonly chunkBytes?: number;
}

function readAt(fd: number, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buffer, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))));
}

/** Opens (creating) the log file at `path` for appending and reading, repairing its tail as `options.tail` says. */
export function openLogFile(path: string, options: LogFileOptions): LogFile {
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  let fd: number;
  try {
    // 'a+' that does not follow a link made after the scan (the scan refuses one that was there).
    fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  } catch (err) {
    throw new GameLogError(path, `${path}: cannot open the game log for writing (${explainFsError(err)})`);
  }
  let size = options.intactBytes;
  try {
    if (options.tail === 'cut') ftruncateSync(fd, size);
    if (options.tail === 'end-line') {
      writeAll(fd, Buffer.from('\n'));
      size++;
    }
  } catch (err) {
    closeSync(fd);
    throw new GameLogError(path, `${path}: cannot repair the end of the game log (${explainFsError(err)})`);
  }

  let closed = false;
  let reading = 0;
  let bytesRead = 0;
  let reads = 0;
  const closeNow = (): void => {
    try {
      closeSync(fd);
    } catch {
      // Nothing left to lose: every append was written synchronously.
    }
  };

  return {
    size: () => size,
    append(line: Buffer): void {
      if (closed) throw new GameLogError(path, `${path}: the game log was closed (the service is stopping); the entry was not saved`);
      try {
        writeAll(fd, line);
      } catch (err) {
        let undo = '';
        try {
          ftruncateSync(fd, size);
        } catch (undoErr) {
          undo = `; cutting off the part written failed too (${explainFsError(undoErr)}), so the next start reports a corrupt last line`;
        }
        throw new GameLogError(path, `${path}: cannot append to the game log, the entry was not saved (${explainFsError(err)})${undo}`);
      }
      size += line.byteLength;
    },
    async readEntries<T extends { readonly index: number }>(start: { line: number; offset: number }, from: number, limit: number, end: number): Promise<T[]> {
      if (closed) throw new GameLogError(path, `${path}: the game log was closed (the service is stopping)`);
      reading++;
      try {
        const out: T[] = [];
        const buf = Buffer.allocUnsafe(chunkBytes);
        let line = start.line;
        let pos = start.offset;
        let parts: Buffer[] = [];
        let partsBytes = 0;
        let overlong = false;
        while (pos < end && out.length < limit) {
          if (closed) throw new GameLogError(path, `${path}: the game log was closed (the service is stopping)`);
          let n: number;
          try {
            n = await readAt(fd, buf, Math.min(chunkBytes, end - pos), pos);
          } catch (err) {
            throw new GameLogError(path, `${path}: cannot read the game log at byte ${pos} (${explainFsError(err)})`);
          }
          if (n === 0) throw new GameLogError(path, `${path}: the game log ends at byte ${pos}, before ${end}: another program changed it; stop the service, check the file and start again`);
          bytesRead += n;
          reads++;
          let s = 0;
          for (let nl = buf.indexOf(0x0a, s); nl !== -1 && nl < n && out.length < limit; nl = buf.indexOf(0x0a, s)) {
            if (line >= from && !overlong) {
              const bytes = partsBytes === 0 ? buf.subarray(s, nl) : Buffer.concat([...parts, buf.subarray(s, nl)]);
              const check = parseLogLine<T>(bytes.toString('utf8'));
              if (check.ok) out.push(atLine(check.entry, line));
            }
            line++;
            parts = [];
            partsBytes = 0;
            overlong = false;
            s = nl + 1;
          }
          if (out.length >= limit) break;
          // The start of a line that goes on in the next chunk (kept only when it will be parsed).
          if (s < n && line >= from && !overlong) {
            if (partsBytes + (n - s) > MAX_LINE_BYTES) {
              overlong = true;
              parts = [];
            } else {
              parts.push(Buffer.from(buf.subarray(s, n)));
              partsBytes += n - s;
            }
          }
          pos += n;
        }
        return out;
      } finally {
        if (--reading === 0 && closed) closeNow();
      }
    },
    readStats: () => ({ bytes: bytesRead, reads }),
    close(): void {
      if (closed) return;
      closed = true;
      if (reading === 0) closeNow();
    },
  };
}

function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
}
