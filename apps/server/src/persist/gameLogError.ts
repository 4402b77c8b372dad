/**
 * Errors of the game log. Every one names the log file and says what to do, so the line the operator
 * sees at start (or in the server log) is enough to act on.
 */

/** The game log cannot be opened, read or appended to. `file` is the log's path. */
export class GameLogError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = 'GameLogError';
    this.file = file;
  }
}

/** Too many reads of old entries are running or waiting; the caller should try again after `retryAfterS`. */
export class GameLogBusyError extends GameLogError {
  readonly retryAfterS: number;
  constructor(file: string, running: number, waiting: number, retryAfterS: number) {
    super(file, `${file}: ${running} reads of old game log entries running and ${waiting} waiting, the most allowed; try again in ${retryAfterS} s`);
    this.name = 'GameLogBusyError';
    this.retryAfterS = retryAfterS;
  }
}

/** `EACCES: permission denied` and what to do about it, for an error of the file system. */
export function explainFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  // Node's messages repeat the code and end with the syscall ("EISDIR: illegal operation on a directory, read").
  const text = String(e?.message ?? err).replace(/^[A-Z]+: /, '').replace(/, \w+( '.*')?$/, '');
  const what = code ? `${code}: ${text}` : text;
  return `${what}; ${ADVICE[code ?? ''] ?? 'check the disk and the file; if the file is damaged, move it aside and start again for a new log'}`;
}

const ADVICE: Record<string, string> = {
  EISDIR: 'it is a directory, not a file: move it aside or remove it and start again (a new log is created)',
  EACCES: 'the service may not read or write it: fix its permissions (or those of its directory) or choose another --data directory',
  EPERM: 'the service may not read or write it: fix its permissions (or those of its directory) or choose another --data directory',
  EROFS: 'the file system is read-only: choose another --data directory',
  ENOSPC: 'the disk is full: free some space',
  EDQUOT: 'the disk quota is used up: free some space',
  EIO: 'the disk reported an I/O error: check the disk, and copy the data directory somewhere safe',
  EMFILE: 'the process has too many files open: restart the service',
  ENFILE: 'the system has too many files open: close some programs and restart the service',
  ENOTDIR: 'a part of its path is not a directory: choose another --data directory',
  ELOOP: 'its path has a symbolic link loop: choose another --data directory',
};
