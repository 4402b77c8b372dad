/**
 * One service per data directory: `muster.lock` holds the owner's pid, created exclusively. A lock whose
 * process is gone (a crash, kill -9) is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  readonly pid: number;
  constructor(dir: string, pid: number) {
    super(`${dir} is in use by another muster process (pid ${pid}); stop it or pass another --data`);
    this.name = 'DataDirLockedError';
    this.pid = pid;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock; returns the release function. Throws DataDirLockedError when held. */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, 'muster.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new DataDirLockedError(dir, pid);
      unlinkSync(file); // stale: its owner is gone
    }
  }
  throw new Error(`${file}: could not take the lock`);
}
