/**
 * A recorded game, read from its data directory without writing anything: no lock is taken, no torn
 * tail is repaired, no temp file is removed (`openDataStore` would do all three), so a replay or export
 * can run beside the live service on the same directory, or on a copy mounted read-only.
 *
 * What it reads: the roster (`roster.json`, as a camera start saves it, `{ sourceName, text }`, or as the
 * demo saves it, the parsed roster), the table size (`table-profile.json`), `terrain.json` and the game
 * log's path. The demo keeps its game in `<dir>/demo`: a directory without a log but with that one is
 * taken as the demo's, and `note` says so.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateTerrain } from '@muster/protocol';
import type { Terrain } from '@muster/rules';
import { parseTableProfile } from '@muster/vision';
import { parseRoster } from '../roster/loadRoster.ts';
import { ROSTER_VERSION, type Roster } from '../roster/roster.ts';
import { verifyChecksum } from '../persist/savedChecksum.ts';

export const GAME_LOG_FILE = 'game-log.jsonl';

/** A data directory that holds no usable record; the message says what was expected. */
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordError';
  }
}

export interface GameRecord {
  /** The directory the record was read from (the demo's `<dir>/demo` when that was taken). */
  readonly dir: string;
  readonly logPath: string;
  readonly roster: Roster;
  readonly table: { readonly name: string; readonly widthIn: number; readonly depthIn: number };
  /** `terrain.json` (the terrain as last saved), or null when there is none. */
  readonly savedTerrain: Terrain | null;
  /** Whether the table was the demo's (no camera frames). */
  readonly demo: boolean;
  /** Said to the user: e.g. that the demo's game was taken. Empty when nothing needs saying. */
  readonly note: string;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new RecordError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RecordError(`${file}: not valid JSON (${(err as Error).message})`);
  }
}

/** `{ sourceName, text }`: a source file saved as given (camera starts). */
function savedSource(v: unknown): { sourceName: string; text: string } | null {
  const o = v as { sourceName?: unknown; text?: unknown } | null;
  return o !== null && typeof o === 'object' && typeof o.sourceName === 'string' && typeof o.text === 'string' ? { sourceName: o.sourceName, text: o.text } : null;
}

function readRoster(file: string): Roster {
  const json = readJson(file);
  const source = savedSource(json);
  try {
    if (source) return parseRoster(source.text, source.sourceName);
  } catch (err) {
    throw new RecordError(`${file}: the saved roster does not parse: ${(err as Error).message}`);
  }
  // The demo saves the roster it loaded, already parsed.
  const r = json as Partial<Roster> | null;
  if (r && r.version === ROSTER_VERSION && typeof r.name === 'string' && Array.isArray(r.units) && Array.isArray(r.commanders) && Array.isArray(r.statusTokens)) return r as Roster;
  throw new RecordError(`${file}: not a saved roster (neither { sourceName, text } as a camera start saves it nor a parsed roster as the demo does)`);
}

function readTable(file: string, fallbackName: string): GameRecord['table'] {
  const json = readJson(file);
  const source = savedSource(json);
  if (source) {
    try {
      const p = parseTableProfile(JSON.parse(source.text), source.sourceName);
      return { name: source.sourceName, widthIn: p.widthIn, depthIn: p.heightIn };
    } catch (err) {
      throw new RecordError(`${file}: the saved table profile does not parse: ${(err as Error).message}`);
    }
  }
  const t = json as { name?: unknown; widthIn?: unknown; depthIn?: unknown } | null;
  if (t && typeof t.widthIn === 'number' && typeof t.depthIn === 'number' && t.widthIn > 0 && t.depthIn > 0) {
    return { name: typeof t.name === 'string' ? t.name : fallbackName, widthIn: t.widthIn, depthIn: t.depthIn };
  }
  throw new RecordError(`${file}: not a saved table profile (no widthIn and depthIn)`);
}

/** Reads the record in `dataDir` (never writes). Throws `RecordError` naming what is missing or broken. */
export function readRecord(dataDir: string): GameRecord {
  const given = resolve(dataDir);
  let st;
  try {
    st = statSync(given);
  } catch {
    throw new RecordError(`${given}: no such directory; give the data directory of a game (the --data of muster start, default .muster-data)`);
  }
  if (!st.isDirectory()) throw new RecordError(`${given}: not a directory; give the data directory of a game (the --data of muster start, default .muster-data)`);
  let dir = given;
  let note = '';
  if (!existsSync(join(dir, GAME_LOG_FILE)) && existsSync(join(dir, 'demo', GAME_LOG_FILE))) {
    dir = join(given, 'demo');
    note = `${given} holds only the demo's game: its record is ${dir}`;
  }
  const logPath = join(dir, GAME_LOG_FILE);
  if (!existsSync(logPath)) {
    throw new RecordError(`${dir}: no ${GAME_LOG_FILE}: not the data directory of a game (muster start --data <dir> records one there)`);
  }
  const rosterFile = join(dir, 'roster.json');
  if (!existsSync(rosterFile)) throw new RecordError(`${dir}: no roster.json beside the game log: which stand is which cannot be known`);
  const roster = readRoster(rosterFile);
  const tableFile = join(dir, 'table-profile.json');
  if (!existsSync(tableFile)) throw new RecordError(`${dir}: no table-profile.json beside the game log: the table's size cannot be known`);
  const table = readTable(tableFile, roster.name);
  const terrainFile = join(dir, 'terrain.json');
  let savedTerrain: Terrain | null = null;
  if (existsSync(terrainFile)) {
    const verdict = verifyChecksum(readJson(terrainFile));
    if (!verdict.ok) throw new RecordError(`${terrainFile}: ${verdict.reason}: it was changed after Muster saved it (damage, or an edit by hand); restore it, or delete its "checksum" line if the edit was meant`);
    const r = validateTerrain(verdict.value);
    if (!r.ok) throw new RecordError(`${terrainFile}: ${r.message}`);
    savedTerrain = r.value;
  }
  // The demo saves its table as { name, widthIn, depthIn, anchors }; a camera start saves the file given.
  const demo = savedSource(readJson(tableFile)) === null;
  return { dir, logPath, roster, table, savedTerrain, demo, note };
}
