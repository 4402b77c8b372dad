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
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openGameLog, type GameLog, type GameLogOptions } from './gameLog.ts';
import { removeStaleTemps, writeFileAtomic } from './writeFileAtomic.ts';
import { lockDataDir } from './dataLock.ts';

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
      if (!existsSync(file)) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        throw new PersistError(`${file}: not valid JSON (${(err as Error).message}); fix or remove it`);
      }
      try {
        return check(value);
      } catch (err) {
        throw new PersistError(`${file}: ${(err as Error).message}; fix or remove it`);
      }
    },
    write(name: DocumentName, value: unknown): void {
      writeFileAtomic(path(name), `${JSON.stringify(value, null, 2)}\n`);
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
