/**
 * The game log: append-only JSON lines on disk (`gameLogFile.ts`), with only the newest entries in memory
 * so a long game (or ten hours of demo) does not grow the process.
 *
 * Line n of the file is the entry with index n; a corrupt line keeps its index and is skipped when read,
 * so indexes stay unique and increasing (`gameLogScan.ts` checks the file at open, reports corrupt lines
 * in `problems` and refuses a file that is not a game log).
 *
 * Older entries are read back from the file on demand, without blocking the frame loop: a sparse index
 * (the byte offset of every 128th line, `gameLogIndex.ts`) lets a read of `limit` entries from `from`
 * seek near `from` and read only the bytes it needs, asynchronously, 64 KiB at a time. At most 2 such
 * reads run at once and 6 wait; more are refused with `GameLogBusyError` (the server answers 503 with
 * Retry-After). Reads of the newest entries come from memory and are never refused.
 */
import { GameLogBusyError, GameLogError } from './gameLogError.ts';
import { openLogFile } from './gameLogFile.ts';
import { SparseLineIndex } from './gameLogIndex.ts';
import { scanLogFile, withLineSum } from './gameLogScan.ts';
import { log } from '../log/logger.ts';

export interface GameLogOptions {
  /** Entries kept in memory. Default 2000. */
  readonly keepInMemory?: number;
  /** Every how many lines the byte offset is kept. Default 128. */
  readonly indexStep?: number;
  /** Largest single read of the file. Default 64 KiB. */
  readonly readChunkBytes?: number;
  /** Reads of entries older than those in memory that run at once. Default 2. */
  readonly maxFileReads?: number;
  /** Reads that may wait for one of those; more are refused (`GameLogBusyError`). Default 6. */
  readonly maxWaitingFileReads?: number;
  /** Called with each of `problems` at open. Default: printed to stderr. */
  readonly onProblem?: (problem: string) => void;
}

export interface GameLog<T extends { readonly index: number }> {
  /** The log file's path. */
  readonly file: string;
  /** Lines in the log (on disk), corrupt ones included: the next entry's index. */
  count(): number;
  /** Appends; the entry's index must be `count()`. Throws `GameLogError` naming the file when it cannot be saved. */
  append(entry: T): void;
  /**
   * Entries with index ≥ from, at most limit, oldest first (corrupt lines skipped). Rejects with
   * `GameLogBusyError` when too many reads of old entries are under way, `GameLogError` when the file
   * cannot be read.
   */
  read(from: number, limit: number): Promise<T[]>;
  /** A torn last line (crash mid-append) was found and cut off at open. */
  readonly repairedTornTail: boolean;
  /** The newest entry of `kind` in the log (read at open, kept up to date by appends); undefined when none. */
  lastOfKind(kind: string): T | undefined;
  /**
   * What was wrong with the file at open (corrupt lines, each with the file and line number): one
   * warning each, meant for the service's health warnings. Empty when nothing was.
   */
  readonly problems: readonly string[];
  /** Newest entries matching `keep`, at most `max`, oldest first (e.g. non-pose entries for snapshots). */
  newest(max: number, keep: (entry: T) => boolean): T[];
  /** Bytes and reads of the file made by `read` since open (not the scan at open). */
  fileReadStats(): { readonly bytes: number; readonly reads: number };
  close(): void;
}

/** Opens the log at `file` (creating it). Throws `GameLogError` naming the file when it cannot be used. */
export function openGameLog<T extends { readonly index: number }>(file: string, options: GameLogOptions = {}): GameLog<T> {
  const keep = options.keepInMemory ?? 2000;
  const index = new SparseLineIndex(options.indexStep ?? 128);
  const scan = scanLogFile<T>(file, keep, index);
  const onProblem = options.onProblem ?? ((p: string) => log.warn(p));
  for (const p of scan.problems) onProblem(p);
  const disk = openLogFile(file, { tail: scan.tail, intactBytes: scan.intactBytes, chunkBytes: options.readChunkBytes });
  const gate = createReadGate(file, options.maxFileReads ?? 2, options.maxWaitingFileReads ?? 6);
  let count = scan.lines;
  // The newest lines' entries (undefined: a corrupt line); the first is line `count - recent.length`.
  let recent = scan.recent;
  let closed = false;
  const lastByKind = new Map(scan.lastByKind);

  return {
    file,
    count: () => count,
    repairedTornTail: scan.tail === 'cut',
    lastOfKind: (kind) => lastByKind.get(kind),
    problems: scan.problems,
    append(entry: T): void {
      if (entry.index !== count) throw new GameLogError(file, `${file}: entry index ${entry.index}, expected ${count} (a bug: entries must be appended in order)`);
      const offset = disk.size();
      disk.append(Buffer.from(`${withLineSum(JSON.stringify(entry))}\n`, 'utf8'));
      index.add(count, offset);
      count++;
      recent.push(entry);
      const kind = (entry as { kind?: unknown }).kind;
      if (typeof kind === 'string') lastByKind.set(kind, entry);
      if (recent.length > keep * 2) recent = recent.slice(-keep);
    },
    async read(from: number, limit: number): Promise<T[]> {
      if (closed) throw new GameLogError(file, `${file}: the game log was closed (the service is stopping)`);
      if (!(limit >= 1) || from >= count) return [];
      const firstInMemory = count - recent.length;
      if (from >= firstInMemory) {
        const out: T[] = [];
        for (let i = Math.max(0, from - firstInMemory); i < recent.length && out.length < limit; i++) {
          const e = recent[i];
          if (e !== undefined) out.push(e);
        }
        return out;
      }
      return gate.run(() => disk.readEntries<T>(index.seek(from), from, limit, disk.size()));
    },
    newest(max: number, match: (entry: T) => boolean): T[] {
      const out: T[] = [];
      for (let i = recent.length - 1; i >= 0 && out.length < max; i--) {
        const e = recent[i];
        if (e !== undefined && match(e)) out.push(e);
      }
      return out.reverse();
    },
    fileReadStats: () => disk.readStats(),
    close(): void {
      closed = true;
      disk.close();
    },
  };
}

/** At most `running` tasks at once and `waiting` queued; more are refused with `GameLogBusyError`. */
function createReadGate(file: string, running: number, waiting: number): { run<R>(task: () => Promise<R>): Promise<R> } {
  let active = 0;
  const queue: (() => void)[] = [];
  const release = (): void => {
    const next = queue.shift();
    if (next) next(); // the slot passes to the next one
    else active--;
  };
  return {
    async run<R>(task: () => Promise<R>): Promise<R> {
      if (active < running) active++;
      else if (queue.length < waiting) await new Promise<void>((resolve) => queue.push(resolve));
      else throw new GameLogBusyError(file, active, queue.length, 1);
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
