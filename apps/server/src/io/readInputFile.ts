/**
 * Reading a file a user names (a roster, a table state, an image): only a regular file, and never more
 * than a limit. The file's stat size is checked first, so an oversized file is refused before a byte is
 * read; the read itself also stops one byte past the limit, for files whose stat size says nothing (a
 * file still growing). Anything that is not a regular file is refused before it is opened: a FIFO would
 * block the open until a writer came (`rules`, `detect` and `markers` hung), `/dev/zero` has size 0 and
 * never ends (`rules /dev/zero` grew without bound).
 */
import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** A file that cannot be taken as input; the message names it and says what to do. */
export class InputFileError extends Error {
  /** The system's error code when the file could not be read at all (ENOENT, EACCES, …). */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.name = 'InputFileError';
    this.code = code;
  }
}

export interface InputFileLimit {
  /** Largest file taken, bytes. */
  readonly maxBytes: number;
  /** What the file is, for messages ("roster", "table state"). */
  readonly what: string;
  /** How to raise the limit (e.g. "pass --max-input-mb 13"), given the file's size in MB rounded up; absent: no way. */
  readonly raise?: (neededMb: number) => string;
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Checks `path` is a regular file within the limit (without reading it); returns its stat. */
export function checkInputFile(path: string, limit: InputFileLimit): Stats {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputFileError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message)}`, code);
  }
  if (!st.isFile()) throw new InputFileError(`${path} is ${kindOf(st)}, not a regular file; give the ${limit.what} as a file`);
  if (st.size > limit.maxBytes) throw tooLarge(path, st.size, limit);
  return st;
}

function tooLarge(path: string, bytes: number | null, limit: InputFileLimit): InputFileError {
  const maxMb = limit.maxBytes / 1e6;
  const size = bytes === null ? `more than ${maxMb} MB` : `${(bytes / 1e6).toFixed(1)} MB`;
  const needed = bytes === null ? maxMb * 4 : Math.ceil(bytes / 1e6);
  const hint = limit.raise ? `; if it really is one, ${limit.raise(needed)}` : '';
  return new InputFileError(`${path} is ${size}, above the ${maxMb} MB limit for a ${limit.what}${hint}`);
}

/** The file's bytes: a regular file within the limit, read up to one byte past it at most. */
export function readInputFile(path: string, limit: InputFileLimit): Buffer {
  checkInputFile(path, limit);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new InputFileError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit.maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > limit.maxBytes) throw tooLarge(path, null, limit);
    }
    return Buffer.concat(chunks, total);
  } catch (err) {
    if (err instanceof InputFileError) throw err;
    throw new InputFileError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  } finally {
    closeSync(fd);
  }
}
