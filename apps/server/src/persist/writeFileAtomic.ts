/**
 * Atomic file replacement: write a temporary file beside the target, fsync it, rename it over the target,
 * fsync the directory. A crash (or kill -9) at any moment leaves either the old file or the new one, never
 * a mix; a stray `*.tmp` may remain and is ignored (and cleaned by `removeStaleTemps`). The one writer of
 * every file Muster saves: the data directory, calibrations, tag sheets, the demo's frame cache. A failed
 * run therefore never destroys the previous good file.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const TEMP_SUFFIX = '.tmp';

/**
 * Replaces `path` with `data`, creating its folder if needed. Synchronous on purpose: a save is small and
 * must not interleave with another save of the same file.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(temp, 'wx', 0o644);
  try {
    let offset = 0;
    while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    removeQuietly(temp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (err) {
    // e.g. the target is a folder: keep the old state and leave no temporary behind.
    removeQuietly(temp);
    throw err;
  }
  fsyncDir(dir);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Deletes temporaries left by a crash mid-save (`.<name>.<pid>.<hex>.tmp`) in `dir`. */
export function removeStaleTemps(dir: string): number {
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.') && name.endsWith(TEMP_SUFFIX)) {
      try {
        unlinkSync(join(dir, name));
        removed++;
      } catch {
        // raced with another cleaner
      }
    }
  }
  return removed;
}
