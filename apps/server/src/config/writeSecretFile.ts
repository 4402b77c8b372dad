/**
 * Writing a file only its owner may read (mode 0600: the operator token, a TLS private key). The mode is
 * set when the file is created, so the secret is never readable by others, not even for a moment.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates `path` with `text` unless it exists; false when it did (it is left as it was). */
export function createSecretFile(path: string, text: string): boolean {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Replaces `path` with `text` atomically (a temp file beside it, renamed over it). */
export function replaceSecretFile(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    unlinkSync(temp);
  } catch {
    // none left over
  }
  createSecretFile(temp, text);
  try {
    renameSync(temp, path);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw err;
  }
}
