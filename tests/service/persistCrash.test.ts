import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { parseLogLine, withLineSum } from '../../apps/server/src/persist/gameLogScan.ts';
import { tempDir, type TempDir } from './helpers.ts';

const CHILD = join(import.meta.dirname, 'children/saveLoop.ts');
const dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** Starts the saving child, waits until it reported `minSaves` saves plus a random delay, kills it with SIGKILL. */
function runAndKill(dataDir: string, minSaves: number, extraDelayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let lastSaved = 0;
    let killTimer: NodeJS.Timeout | null = null;
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^saved (\d+)$/.exec(line);
        if (m) lastSaved = Number(m[1]);
      }
      if (lastSaved >= minSaves && killTimer === null) {
        killTimer = setTimeout(() => child.kill('SIGKILL'), extraDelayMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited without being killed (${signal ?? _code})`));
      else resolve(lastSaved);
    });
    setTimeout(() => child.kill('SIGKILL'), 50_000).unref();
  });
}

describe('persistence under kill -9', () => {
  it('a kill -9 during saves leaves the last complete document intact, and the log readable', async () => {
    // Kill at varying moments until at least two kills landed mid-save (a temporary file left behind);
    // every attempt, mid-save or not, must leave a complete document and a readable log.
    let killedMidWrite = 0;
    const delays = [0, 5, 11, 17, 23, 29, 37, 43, 3, 8, 14, 20, 26, 33, 40, 47, 1, 6, 12, 18];
    for (let attempt = 0; attempt < delays.length && killedMidWrite < 2; attempt++) {
      const delayMs = delays[attempt]!;
      const d = tempDir('muster-crash-');
      dirs.push(d);
      const confirmed = await runAndKill(d.path, 3, delayMs);
      if (readdirSync(d.path).some((f) => f.endsWith('.tmp'))) killedMidWrite++;
      const store = openDataStore(d.path); // also removes stale temporaries
      try {
        const doc = store.read('terrain', (v) => v as { version: number; stands: unknown[] });
        expect(doc, 'the document exists and parses').toBeDefined();
        // Whatever was confirmed saved is there: the version on disk is the confirmed one or a later complete one.
        expect(doc!.version).toBeGreaterThanOrEqual(confirmed);
        expect(doc!.stands).toHaveLength(60_000);
        expect(readdirSync(d.path).filter((f) => f.endsWith('.tmp'))).toEqual([]);
        const log = store.openLog<{ index: number; version: number }>();
        expect(log.count()).toBeGreaterThanOrEqual(confirmed);
        expect(log.problems, 'a kill mid-append leaves at most a torn last line, never a corrupt one').toEqual([]);
        const entries = await log.read(0, 1_000_000);
        entries.forEach((e, i) => expect(e.index).toBe(i));
        // The log keeps working after the crash.
        log.append({ index: log.count(), version: -1 });
        const lines = readFileSync(join(d.path, 'game-log.jsonl'), 'utf8').split('\n');
        expect(lines.at(-1), 'the file ends with a line end').toBe('');
        expect(parseLogLine(lines.at(-2)!)).toEqual({ ok: true, entry: { index: lines.length - 2, version: -1 } });
      } finally {
        store.close();
      }
    }
    // The kills must really have landed mid-save at least once, or this test proves nothing.
    expect(killedMidWrite).toBeGreaterThanOrEqual(2);
  });

  it('reading tolerates a torn last line and appending cuts it off', async () => {
    const d = tempDir('muster-torn-');
    dirs.push(d);
    const file = join(d.path, 'game-log.jsonl');
    appendFileSync(file, '{"index":0,"a":1}\n{"index":1,"a":2}\n{"index":2,"a":');
    const store = openDataStore(d.path);
    const log = store.openLog<{ index: number }>({ keepInMemory: 1 });
    expect(log.repairedTornTail).toBe(true);
    expect(log.problems).toEqual([]);
    expect(log.count()).toBe(2);
    expect((await log.read(0, 10)).map((e) => e.index)).toEqual([0, 1]);
    log.append({ index: 2 });
    store.close();
    expect(readFileSync(file, 'utf8')).toBe(`{"index":0,"a":1}\n{"index":1,"a":2}\n${withLineSum('{"index":2}')}\n`);
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('a corrupt saved document is reported with its path and left untouched', () => {
    const d = tempDir('muster-corrupt-');
    dirs.push(d);
    const store = openDataStore(d.path);
    appendFileSync(store.path('terrain'), '{"areas": [');
    expect(() => store.read('terrain', (v) => v)).toThrow(/terrain\.json: not valid JSON/);
    expect(readFileSync(store.path('terrain'), 'utf8')).toBe('{"areas": [');
    store.close();
  });
});
