/**
 * Camera mode's data directory and the two documents a camera start needs: the roster and the table
 * profile, given on the command line or saved there by an earlier start. Given files are saved only
 * once they parsed, so a bad `--roster` never replaces a good saved one and a later start without the
 * options continues the same game.
 */
import { readFileSync } from 'node:fs';
import { parseTableProfile, type TableProfile } from '@muster/vision';
import { openDataStore, type DataStore } from '../persist/dataStore.ts';
import { parseRoster } from '../roster/loadRoster.ts';
import type { Roster } from '../roster/roster.ts';
import type { CameraLiveOptions } from './liveOptions.ts';

/** A saved source document: the file as given, re-parsed at start. */
interface SavedSource {
  readonly sourceName: string;
  readonly text: string;
}

export interface CameraStore {
  readonly store: DataStore;
  readonly roster: Roster;
  readonly profile: TableProfile;
  /** The table profile's file as given (served at `/api/table-profile`). */
  readonly tableDoc: SavedSource;
}

function checkSaved(v: unknown): SavedSource {
  const o = v as Partial<SavedSource>;
  if (typeof o?.sourceName !== 'string' || typeof o.text !== 'string') throw new Error('expected { sourceName, text }');
  return o as SavedSource;
}

function readSource(path: string, what: string): SavedSource {
  try {
    return { sourceName: path, text: readFileSync(path, 'utf8') };
  } catch (err) {
    throw new Error(`${path}: cannot read the ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function parseProfile(tableDoc: SavedSource): TableProfile {
  let json: unknown;
  try {
    json = JSON.parse(tableDoc.text);
  } catch (err) {
    throw new Error(`${tableDoc.sourceName}: not valid JSON (${(err as Error).message})`);
  }
  return parseTableProfile(json, tableDoc.sourceName);
}

/** The store is closed again when this throws. */
export function openCameraStore(src: CameraLiveOptions, dataDir: string): CameraStore {
  const store = openDataStore(dataDir);
  const rosterDoc = src.rosterPath !== undefined ? readSource(src.rosterPath, 'roster') : store.read('roster', checkSaved);
  const tableDoc = src.tablePath !== undefined ? readSource(src.tablePath, 'table profile') : store.read('table-profile', checkSaved);
  if (!rosterDoc || !tableDoc) {
    store.close();
    throw new Error(`camera mode needs --table and --roster the first time (nothing saved in ${store.dir})`);
  }
  let roster: Roster;
  let profile: TableProfile;
  try {
    roster = parseRoster(rosterDoc.text, rosterDoc.sourceName);
    profile = parseProfile(tableDoc);
  } catch (err) {
    store.close();
    throw err;
  }
  // Only files that parsed are saved: a bad --roster never replaces a good saved one.
  if (src.rosterPath !== undefined) store.write('roster', rosterDoc);
  if (src.tablePath !== undefined) store.write('table-profile', tableDoc);
  return { store, roster, profile, tableDoc };
}
