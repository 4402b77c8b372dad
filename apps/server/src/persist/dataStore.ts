/**
 * The data directory (`--data`, default `.muster-data/`): one JSON document per concern, each saved
 * atomically, plus the append-only game log.
 *
 *   roster.json          the roster in use (copied from --roster, or the demo's)
 *   tag-bindings.json    operator marker → stand assignments made at the table
 *   table-profile.json   the table profile in use (copied from --table)
 *   calibration.json     camera calibration in use
 *   projector.json       projector calibration in use (table → projector pixels)
 *   terrain.json         terrain (set by the operator)
 *   game.json            turn, unit status set by the operator, action deck, dice roller state
 *   game-log.jsonl       every pose change, card, roll and edit, with the turn
 *
 * Documents the game changes while it runs (`CHECKED_DOCUMENTS`) carry a checksum (`savedChecksum.ts`):
 * one changed after it was saved is refused with the file named, never used. Nothing in the directory is
 * read through a symbolic link: a link (even one to a file) is refused, so no link can point the service
 * at, or make it write, a file outside the directory.
 */
import { lstatSync, mkdirSync, readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { openGameLog, type GameLog, type GameLogOptions } from './gameLog.ts';
import { removeStaleTemps, writeFileAtomic } from './writeFileAtomic.ts';
import { lockDataDir } from './dataLock.ts';
import { verifyChecksum, withChecksum } from './savedChecksum.ts';

/** Documents saved with a checksum: those the game changes while it runs. */
const CHECKED_DOCUMENTS: ReadonlySet<DocumentName> = new Set(['game', 'tag-bindings', 'terrain']);

/**
 * What is at `file` without following a link: null when nothing is there. Throws `PersistError` when it
 * is a symbolic link (dangling or not) or not a regular file.
 */
export function regularFileOrNothing(file: string, what = 'it'): Stats | null {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new PersistError(`${file}: cannot check ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (st.isSymbolicLink()) {
    throw new PersistError(
      `${file} is a symbolic link; Muster does not follow links inside its data directory (a link could make it read or write files elsewhere). ` +
        `Replace the link with the file itself (e.g. cp --remove-destination "$(readlink -f '${file}')" '${file}'), or remove it if it points nowhere, and start again`,
    );
  }
  if (!st.isFile()) throw new PersistError(`${file} is ${st.isDirectory() ? 'a directory' : 'a special file'}, not a file; move it aside and start again`);
  return st;
}

export type DocumentName = 'roster' | 'tag-bindings' | 'table-profile' | 'calibration' | 'projector' | 'terrain' | 'game';

/** A saved file that cannot be read; it is left untouched so nothing is lost. */
export class PersistError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PersistError';
  }
}

export interface DataStore {
  readonly dir: string;
  path(name: DocumentName): string;
  /** Reads a document; undefined when it does not exist. `check` turns the parsed JSON into T or throws. */
  read<T>(name: DocumentName, check: (value: unknown) => T): T | undefined;
  /** Saves a document atomically (pretty JSON). */
  write(name: DocumentName, value: unknown): void;
  /** Opens the game log (`game-log.jsonl`), repairing a torn last line. Close it with the store. */
  openLog<T extends { readonly index: number }>(options?: GameLogOptions): GameLog<T>;
  close(): void;
}

/** Opens (creating) a data directory and takes its lock (`muster.lock`) until `close()`. */
export function openDataStore(dir: string): DataStore {
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(dir);
  removeStaleTemps(dir);
  const logs: { close(): void }[] = [];
  const path = (name: DocumentName): string => join(dir, `${name}.json`);
  return {
    dir,
    path,
    read<T>(name: DocumentName, check: (value: unknown) => T): T | undefined {
      const file = path(name);
      if (regularFileOrNothing(file) === null) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new PersistError(`${file}: not valid JSON (${(err as Error).message}); fix or remove it`);
      }
      const verdict = verifyChecksum(value);
      if (!verdict.ok) {
        throw new PersistError(
          `${file}: ${verdict.reason}: it was changed after Muster saved it (damage, or an edit by hand), so it is not used; it was left untouched. ` +
            `Restore it from a backup; if you edited it on purpose, delete its "checksum" line and start again`,
        );
      }
      try {
        return check(verdict.value);
      } catch (err) {
        throw new PersistError(`${file}: ${(err as Error).message}; fix or remove it`);
      }
    },
    write(name: DocumentName, value: unknown): void {
      writeFileAtomic(path(name), `${JSON.stringify(CHECKED_DOCUMENTS.has(name) ? withChecksum(value) : value, null, 2)}\n`);
    },
    openLog<T extends { readonly index: number }>(logOptions?: GameLogOptions): GameLog<T> {
      const log = openGameLog<T>(join(dir, 'game-log.jsonl'), logOptions);
      logs.push(log);
      return log;
    },
    close(): void {
      for (const l of logs) l.close();
      logs.length = 0;
      unlock();
    },
  };
}
