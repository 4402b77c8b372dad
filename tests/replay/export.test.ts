/**
 * `muster export` on a real record (the demo played by the live service with operator actions,
 * `recordGame.ts`), run as the real command: CSV and JSON lines hold every entry as the log does, with
 * the unit of each stand; the data directory is never written; `--out` is whole or absent; a reader that
 * stops early ends it quietly; progress goes to stderr.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameLogEntry } from '@muster/protocol';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { tempDir, type TempDir } from '../service/helpers.ts';
import { recordGame, type RecordedGameDir } from './recordGame.ts';
import { dirFingerprint } from './dirFingerprint.ts';

const here = dirname(fileURLToPath(import.meta.url));
const MUSTER = join(here, '../../apps/server/bin/muster.js');

type Run = { code: number; stdout: string; stderr: string };
const muster = (args: string[]): Promise<Run> =>
  promisify(execFile)(process.execPath, [MUSTER, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

/** RFC 4180 rows (quoted fields with doubled quotes, CRLF line ends). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      (row = []), (field = ''), i++;
    } else field += c;
  }
  return rows;
}

let game: RecordedGameDir;
let out: TempDir;
let before: Record<string, string>;
/** Stand id → its unit (or commander), from the army file the demo plays. */
const unitByStand = new Map<string, string>();
const unitOf = (standId: string): string | undefined => unitByStand.get(standId);

beforeAll(async () => {
  const roster = await loadRoster(join(here, '../../fixtures/rosters/opening-battle.yaml'));
  for (const u of roster.units) for (const st of u.stands) unitByStand.set(st.id, u.id);
  for (const c of roster.commanders) if (c.stand) unitByStand.set(c.stand.id, c.id);
  game = await recordGame(4, 8);
  out = tempDir('muster-export-out-');
  before = dirFingerprint(game.dataDir);
}, 120_000);

afterAll(() => {
  game?.dir.remove();
  out?.remove();
});

describe('muster export', () => {
  it('CSV to --out: one row per entry, poses per stand with their unit, actions and rolls worded, with times', async () => {
    const file = join(out.path, 'game.csv');
    const r = await muster(['export', game.dataDir, '--format', 'csv', '--out', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`muster export: ${game.entries.length} entries \\(csv\\) from .*demo written to ${file}`));
    const rows = parseCsv(readFileSync(file, 'utf8'));
    expect(rows[0]).toEqual(['index', 'time', 'time_ms', 'elapsed_s', 'turn', 'by', 'kind', 'unit_id', 'stand_id', 'x_in', 'y_in', 'heading_deg', 'detail']);
    expect(rows).toHaveLength(game.entries.length + 1);
    game.entries.forEach((e, i) => {
      const row = rows[i + 1]!;
      expect(row.slice(0, 7)).toEqual([String(e.index), new Date(e.timeMs).toISOString(), String(e.timeMs), ((e.timeMs - game.entries[0]!.timeMs) / 1000).toFixed(3), String(e.turn), e.by, e.kind]);
      if (e.kind === 'pose') expect(row.slice(7, 12)).toEqual([unitOf(e.standId) ?? 'no unit', e.standId, String(e.pose.xIn), String(e.pose.yIn), String(e.pose.headingDeg)]);
    });
    const dice = rows.find((r) => r[6] === 'dice' && r[7] === 'al19')!;
    const roll = game.entries.find((e) => e.kind === 'dice' && e.roll.unitId === 'al19') as GameLogEntry & { kind: 'dice' };
    expect(dice[12]).toBe(`4 dice: ${roll.roll.faces.join(' ')}; hit on 4+: ${roll.roll.hits} hit${roll.roll.hits === 1 ? '' : 's'}; volley at the fence`);
    expect(rows.find((r) => r[6] === 'unit-status')!.slice(7)).toEqual(['al26', '', '', '', '', 'status {"disordered":true}']);
    expect(rows.find((r) => r[6] === 'turn')![12]).toBe('turn 2 began');
    expect(readdirSync(out.path)).toEqual(['game.csv']); // no temp file left
    expect(dirFingerprint(game.dataDir)).toEqual(before);
  }, 60_000);

  it('JSON lines to stdout: each entry as the log holds it, with its ISO time and the unit of a stand', async () => {
    const r = await muster(['export', game.dataDir, '--format', 'json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(game.entries.length);
    game.entries.forEach((e, i) => {
      const stand = e.kind === 'pose' || e.kind === 'stand-removed';
      const { time, ...rest } = lines[i]!;
      expect(time).toBe(new Date(e.timeMs).toISOString());
      if (stand) {
        const { unitId, ...entry } = rest;
        expect(entry).toEqual(e);
        expect(unitId).toBe(unitOf(e.standId));
      } else expect(rest).toEqual(e); // a unit-status or dice entry keeps its own unitId
    });
    expect(r.stderr).toMatch(/holds only the demo's game: its record is .*demo/);
  }, 60_000);

  it('progress with the rate on stderr when asked, stdout kept clean', async () => {
    const r = await muster(['export', game.dataDir, '--format', 'csv', '--progress']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/muster export {2}\d+(\.\d)?\/\d+(\.\d)? MB {2}\d+%/);
    expect(r.stderr).toMatch(/muster export {2}(\d+(\.\d)?)\/\1 MB {2}100% .*done in \d+:\d\d\n/);
    expect(r.stdout.startsWith('index,time,')).toBe(true);
  }, 60_000);

  it('a reader that stops early (| head -1) ends it quietly with exit 0', async () => {
    const child = spawn(process.execPath, [MUSTER, 'export', game.dataDir, '--format', 'csv'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(err).not.toMatch(/EPIPE|Error|at /);
  }, 60_000);

  it('bad input: one line on stderr, exit 2, nothing written', async () => {
    const inside = await muster(['export', game.dataDir, '--format', 'csv', '--out', join(game.dataDir, 'demo', 'export.csv')]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/--out .*export\.csv is inside the game's data directory .*; write the export elsewhere/);
    expect((await muster(['export', game.dataDir])).stderr).toMatch(/give the format: --format csv or --format json/);
    expect((await muster(['export', game.dataDir, '--format', 'xml'])).stderr).toMatch(/--format must be csv or json \(got "xml"\)/);
    const none = await muster(['export', join(out.path, 'none'), '--format', 'csv']);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toMatch(/no such directory/);
    const noDir = await muster(['export', game.dataDir, '--format', 'csv', '--out', join(out.path, 'missing-dir', 'x.csv')]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/--out .*x\.csv: cannot write there \(ENOENT\)/);
    expect(existsSync(join(out.path, 'missing-dir'))).toBe(false);
    expect(dirFingerprint(game.dataDir)).toEqual(before);
  }, 60_000);
});
