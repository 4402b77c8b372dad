/**
 * Reading a record without writing it: a camera start's data directory (documents saved as given), the
 * demo's (`<data>/demo`), what is missing, and a damaged log (corrupt lines skipped and reported, a torn
 * last line left out), with every file left exactly as it was.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameLogEntry } from '@muster/protocol';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { loadLogEntries } from '../../apps/server/src/replay/readLogEntries.ts';
import { readRecord } from '../../apps/server/src/replay/readRecord.ts';
import { exportRecord } from '../../apps/server/src/export/exportRecord.ts';
import { tempDir, type TempDir } from '../service/helpers.ts';
import { dirFingerprint } from './dirFingerprint.ts';

const REPO = join(import.meta.dirname, '../..');
const ROSTER_YAML = join(REPO, 'fixtures/rosters/opening-battle.yaml');
const TABLE_JSON = join(REPO, 'fixtures/demo/demo-table.json');

let dir: TempDir;
afterEach(() => dir?.remove());

const pose = (index: number, standId: string, xIn: number): GameLogEntry => ({ index, timeMs: 1_800_000_000_000 + index, turn: 1, by: 'vision', kind: 'pose', standId, pose: { xIn, yIn: 5, headingDeg: 90 } });

/** A data directory as `muster start --camera` leaves it: roster and table profile saved as given. */
function cameraDataDir(path: string, entries: readonly GameLogEntry[]): void {
  const store = openDataStore(path);
  store.write('roster', { sourceName: ROSTER_YAML, text: readFileSync(ROSTER_YAML, 'utf8') });
  store.write('table-profile', { sourceName: TABLE_JSON, text: readFileSync(TABLE_JSON, 'utf8') });
  const log = store.openLog<GameLogEntry>();
  for (const e of entries) log.append(e);
  store.close();
}

describe('readRecord', () => {
  it("reads a camera start's data directory: the roster and table profile as they were given", () => {
    dir = tempDir('muster-record-');
    cameraDataDir(dir.path, [pose(0, 'al19-1', 10)]);
    const before = dirFingerprint(dir.path);
    const record = readRecord(dir.path);
    expect(record).toMatchObject({ dir: dir.path, logPath: join(dir.path, 'game-log.jsonl'), demo: false, note: '', savedTerrain: null });
    expect(record.roster.units.map((u) => u.id)).toContain('al26');
    const table = JSON.parse(readFileSync(TABLE_JSON, 'utf8')) as { width: number; height: number };
    expect(record.table).toEqual({ name: TABLE_JSON, widthIn: table.width, depthIn: table.height });
    expect(dirFingerprint(dir.path)).toEqual(before);
  });

  it("takes <data>/demo when only the demo's game is there, and says so", () => {
    dir = tempDir('muster-record-');
    cameraDataDir(join(dir.path, 'demo'), [pose(0, 'al19-1', 10)]);
    const record = readRecord(dir.path);
    expect(record.dir).toBe(join(dir.path, 'demo'));
    expect(record.note).toBe(`${dir.path} holds only the demo's game: its record is ${join(dir.path, 'demo')}`);
  });

  it('names what is missing or broken', () => {
    dir = tempDir('muster-record-');
    expect(() => readRecord(join(dir.path, 'nope'))).toThrow(/nope: no such directory; give the data directory of a game/);
    expect(() => readRecord(dir.path)).toThrow(/no game-log\.jsonl: not the data directory of a game/);
    writeFileSync(join(dir.path, 'game-log.jsonl'), '');
    expect(() => readRecord(dir.path)).toThrow(/no roster\.json beside the game log/);
    writeFileSync(join(dir.path, 'roster.json'), '{"sourceName":"army.yaml","text":"units: 3"}');
    expect(() => readRecord(dir.path)).toThrow(/roster\.json: the saved roster does not parse: /);
    writeFileSync(join(dir.path, 'roster.json'), '[1,2');
    expect(() => readRecord(dir.path)).toThrow(/roster\.json: not valid JSON/);
  });
});

describe('a damaged log', () => {
  it('is read around its corrupt lines (each reported, its index kept) and without its torn last line; nothing is repaired', async () => {
    dir = tempDir('muster-record-');
    cameraDataDir(dir.path, [pose(0, 'al19-1', 10), pose(1, 'al19-1', 11)]);
    const logPath = join(dir.path, 'game-log.jsonl');
    appendFileSync(logPath, 'this is not json\n');
    appendFileSync(logPath, `${JSON.stringify(pose(3, 'al19-1', 13))}\n`);
    appendFileSync(logPath, '{"index":4,"timeMs":18'); // a crash mid-append
    const before = dirFingerprint(dir.path);
    const problems: string[] = [];
    const { entries, summary } = await loadLogEntries(logPath, { onProblem: (p) => problems.push(p) });
    expect(entries.map((e) => e.index)).toEqual([0, 1, 3]);
    expect(summary).toMatchObject({ lines: 4, entries: 3, corruptLines: 1 });
    expect(problems).toEqual([`${logPath} line 3: not a game log entry (not valid JSON: "this is not json"); skipped`]);
    let csv = '';
    await exportRecord({ dataDir: dir.path, format: 'csv', write: (t) => void (csv += t) });
    expect(csv.trimEnd().split('\r\n').map((l) => l.split(',')[0])).toEqual(['index', '0', '1', '3']);
    expect(dirFingerprint(dir.path)).toEqual(before);
    appendFileSync(logPath, '\n'); // the fingerprint does see a change
    expect(dirFingerprint(dir.path)).not.toEqual(before);
  });
});
