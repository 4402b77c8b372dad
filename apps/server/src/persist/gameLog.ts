/**
 * The game log: append-only JSON lines on disk, with only the newest entries in memory so a long game
 * (or an hour of demo) does not grow the process. Older entries are read back from the file on demand.
 */
import { openJsonLines, readJsonLines } from './gameLogFile.ts';

export interface GameLogOptions {
  /** Entries kept in memory. Default 2000. */
  readonly keepInMemory?: number;
}

export interface GameLog<T extends { readonly index: number }> {
  /** Entries in the log (on disk). */
  count(): number;
  /** Appends; the entry's index must be `count()`. */
  append(entry: T): void;
  /** Entries with index ≥ from, at most limit, oldest first. */
  read(from: number, limit: number): T[];
  /** A torn last line (crash mid-append) was found and cut off at open. */
  readonly repairedTornTail: boolean;
  /** Newest entries matching `keep`, at most `max`, oldest first (e.g. non-pose entries for snapshots). */
  newest(max: number, keep: (entry: T) => boolean): T[];
  close(): void;
}

export function openGameLog<T extends { readonly index: number }>(file: string, options: GameLogOptions = {}): GameLog<T> {
  const keep = options.keepInMemory ?? 2000;
  const read = readJsonLines<T>(file);
  let count = read.entries.length;
  let recent = read.entries.slice(-keep);
  const writer = openJsonLines<T>(file, read.intactBytes);
  return {
    count: () => count,
    repairedTornTail: read.tornTail,
    append(entry: T): void {
      if (entry.index !== count) throw new Error(`game log: entry index ${entry.index}, expected ${count}`);
      writer.append(entry);
      count++;
      recent.push(entry);
      if (recent.length > keep * 2) recent = recent.slice(-keep);
    },
    read(from: number, limit: number): T[] {
      const firstInMemory = count - recent.length;
      if (from >= firstInMemory) return recent.slice(from - firstInMemory, from - firstInMemory + limit);
      return readJsonLines<T>(file).entries.slice(from, from + limit);
    },
    newest(max: number, match: (entry: T) => boolean): T[] {
      const out: T[] = [];
      for (let i = recent.length - 1; i >= 0 && out.length < max; i--) {
        const e = recent[i]!;
        if (match(e)) out.push(e);
      }
      return out.reverse();
    },
    close: () => writer.close(),
  };
}
