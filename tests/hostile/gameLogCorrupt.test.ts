/**
 * A damaged game log (`game-log.jsonl`): corrupt lines in the middle, a file that is not a log at all,
 * a torn append after a crash or a power cut, a directory in its place. Each must be reported with the
 * file (and line) named and what to do, never silently dropped, and never "repaired" by cutting off
 * something that is not ours; entry indexes must stay unique and increasing.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '@muster/rules';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { openGameLog } from '../../apps/server/src/persist/gameLog.ts';
import { withLineSum } from '../../apps/server/src/persist/gameLogScan.ts';
import { GameLogError } from '../../apps/server/src/persist/gameLogError.ts';
import { startDemo, tempDir, type TempDir } from '../service/helpers.ts';
import { writeValidGameJson } from './corruptFiles.ts';

const dirs: TempDir[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
function freshDir(): TempDir {
  const d = tempDir('muster-hostile-logfile-');
  dirs.push(d);
  return d;
}

interface Entry {
  readonly index: number;
  readonly kind: string;
  readonly [k: string]: unknown;
}

/** A pose entry as the demo logs it. */
const pose = (index: number): string =>
  JSON.stringify({ kind: 'pose', standId: `us2-${index % 4}`, pose: { xIn: 10 + index, yIn: 20, headingDeg: 90 }, by: 'demo', index, timeMs: 1_700_000_000_000 + index, turn: 1 });

function randomBytes(n: number, seed: number, avoid?: number): Buffer {
  const rng = createRng(seed);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    let b = rng.nextInt(256);
    while (b === avoid) b = rng.nextInt(256);
    out[i] = b;
  }
  return out;
}

/** `lines` joined, each with its line end, plus `tail` (no line end). */
const logText = (lines: readonly string[], tail = ''): string => lines.map((l) => `${l}\n`).join('') + tail;

const quiet = { onProblem: (): void => {} };

describe('a corrupt line in the middle of the log', () => {
  it('is reported with the file and line, keeps its index, and the next entry gets a new index', async () => {
    const d = freshDir();
    const file = join(d.path, 'game-log.jsonl');
    const lines = Array.from({ length: 10 }, (_, i) => pose(i));
    lines[4] = '{"kind":"pose","standId":"us2-0","pose":{"xIn":1'; // a line end written over half an entry
    const text = logText(lines);
    writeFileSync(file, text);
    const reported: string[] = [];
    const log = openGameLog<Entry>(file, { keepInMemory: 3, onProblem: (p) => reported.push(p) });
    try {
      expect(log.problems).toHaveLength(1);
      expect(log.problems[0]).toContain(file);
      expect(log.problems[0]).toMatch(/line 5: not a game log entry \(not valid JSON: .*\); skipped, index 4 stays empty/);
      expect(reported).toEqual(log.problems);
      expect(readFileSync(file, 'utf8'), 'opening changes nothing').toBe(text);
      // Line n is index n: the corrupt line keeps index 4, so the next entry is 10 (9 would repeat line 9's).
      expect(log.count()).toBe(10);
      expect(() => log.append(JSON.parse(pose(9)) as Entry)).toThrow(/entry index 9, expected 10/);
      log.append(JSON.parse(pose(10)) as Entry);
      const indexes = (await log.read(0, 100)).map((e) => e.index);
      expect(indexes).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 9, 10]);
      expect((await log.read(4, 2)).map((e) => e.index), 'a read from the empty index starts after it').toEqual([5, 6]);
    } finally {
      log.close();
    }
  });

  it('through the service: the demo starts, and every index it serves is unique and increasing', async () => {
    const d = freshDir();
    mkdirSync(join(d.path, 'demo'));
    const file = join(d.path, 'demo', 'game-log.jsonl');
    const lines = Array.from({ length: 30 }, (_, i) => pose(i));
    lines[7] = '\u0000\u0000garbage';
    lines[20] = '[1,2,3]';
    writeFileSync(file, logText(lines));
    await writeValidGameJson(join(d.path, 'demo'));
    const live = await startDemo(d.path);
    try {
      let entries: Entry[] = [];
      for (let k = 0; k < 100 && entries.length < 40; k++) {
        entries = ((await (await fetch(`${live.url}/api/log?from=0&limit=10000`)).json()) as { entries: Entry[] }).entries;
        if (entries.length < 40) await new Promise((r) => setTimeout(r, 50));
      }
      const indexes = entries.map((e) => e.index);
      expect(indexes.length).toBeGreaterThanOrEqual(40); // the demo logged more poses after the old 28
      expect(indexes.slice(0, 28)).toEqual([...Array(30).keys()].filter((i) => i !== 7 && i !== 20));
      expect(indexes.slice(28)[0]).toBe(30);
      indexes.forEach((ix, i) => i > 0 && expect(ix, `index after ${indexes[i - 1]}`).toBeGreaterThan(indexes[i - 1]!));
    } finally {
      await live.stop();
    }
  });

  it('a few are skipped and reported (5 by line, then a count); more than 1% (and more than 10) refuse the file', async () => {
    const d = freshDir();
    const file = join(d.path, 'game-log.jsonl');
    const rng = createRng(5);
    const lines = Array.from({ length: 1000 }, (_, i) => pose(i));
    const bad = new Set<number>();
    while (bad.size < 10) bad.add(1 + rng.nextInt(998));
    for (const i of bad) lines[i] = randomBytes(60, i, 0x0a).toString('latin1');
    writeFileSync(file, logText(lines));
    const log = openGameLog<Entry>(file, quiet);
    try {
      expect(log.problems).toHaveLength(6);
      const first = [...bad].sort((a, b) => a - b).slice(0, 5);
      first.forEach((i, k) => expect(log.problems[k]).toContain(`${file} line ${i + 1}: not a game log entry`));
      expect(log.problems[5]).toBe(`${file}: 5 more corrupt line(s) skipped (10 in all); their indexes stay empty`);
      expect(await log.read(0, 2000)).toHaveLength(990);
      expect(log.count()).toBe(1000);
    } finally {
      log.close();
    }

    // Two more: 12 of 1000 lines.
    for (const i of [0, 999]) lines[i] = 'not json';
    const text = logText(lines);
    writeFileSync(file, text);
    expect(() => openGameLog<Entry>(file, quiet)).toThrow(
      new RegExp(`^${escapeRegExp(file)}: not a Muster game log, or too damaged to use: 12 of its 1000 lines are not game log entries \\(more than 1%\\) \\(first: line 1: not valid JSON: "not json"\\)\\. It was left untouched\\. Move it aside`),
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('entries written by the old code after a corrupt line (their index one behind their line) are served with their line', async () => {
    const d = freshDir();
    const file = join(d.path, 'game-log.jsonl');
    // Old behaviour: line 3 corrupt, so the next append got index 5 (parsed entries) on line 6, and so on.
    const lines = [pose(0), pose(1), pose(2), 'xx', pose(4), pose(5), pose(5), pose(6)];
    writeFileSync(file, logText(lines));
    const log = openGameLog<Entry>(file, { ...quiet, keepInMemory: 2 });
    try {
      expect(log.problems).toEqual([
        `${file} line 4: not a game log entry (not valid JSON: "xx"); skipped, index 3 stays empty`,
        `${file}: 2 entries have an index other than its line's (first: line 7 has index 5), as an older version wrote after a corrupt line; served with the line's index`,
      ]);
      const entries = await log.read(0, 100); // lines 0..5 from the file, 6..7 from memory
      expect(entries.map((e) => e.index)).toEqual([0, 1, 2, 4, 5, 6, 7]);
      expect(entries.map((e) => (e.pose as { xIn: number }).xIn)).toEqual([10, 11, 12, 14, 15, 15, 16]);
      expect(log.newest(10, () => true).map((e) => e.index)).toEqual([6, 7]);
    } finally {
      log.close();
    }
  });
});

describe('a file that is not a game log', () => {
  const cases: { name: string; bytes: () => Buffer }[] = [
    { name: '100 KB of random bytes', bytes: () => randomBytes(100_000, 1) },
    // No line end at all: all of it would be taken for a torn last line and cut off.
    { name: '100 KB of random bytes without a line end', bytes: () => randomBytes(100_000, 2, 0x0a) },
    { name: '100 KB of zero bytes', bytes: () => Buffer.alloc(100_000) },
    { name: 'a pretty-printed JSON document', bytes: () => Buffer.from(`${JSON.stringify({ index: 0, kind: 'pose', standId: 'x' }, null, 2)}\n`) },
    { name: 'another program’s JSON lines', bytes: () => Buffer.from('{"level":"info","msg":"started"}\n{"level":"info","msg":"stopped"}\n') },
    { name: 'a single JSON document without a line end', bytes: () => Buffer.from('{"roster":"mine"}') },
  ];
  for (const c of cases) {
    it(`${c.name}: refuses to open, names the file, says to move it aside, and leaves it untouched`, () => {
      const d = freshDir();
      const store = openDataStore(d.path);
      const file = join(d.path, 'game-log.jsonl');
      const bytes = c.bytes();
      writeFileSync(file, bytes);
      try {
        let error: unknown;
        try {
          store.openLog<Entry>(quiet);
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(GameLogError);
        const message = (error as Error).message;
        expect(message).toContain(`${file}: not a Muster game log, or too damaged to use`);
        expect(message).toMatch(/It was left untouched\. Move it aside \(e\.g\. mv ".*game-log\.jsonl" ".*game-log\.jsonl\.damaged"\) and start again for a new, empty log/);
        expect(Buffer.compare(readFileSync(file), bytes), 'the file is byte for byte as it was').toBe(0);
      } finally {
        store.close();
      }
    });
  }

  it('the service refuses to start on it, again on a retry (not "locked"), and starts once it is moved aside as told', async () => {
    const d = freshDir();
    mkdirSync(join(d.path, 'demo'));
    const file = join(d.path, 'demo', 'game-log.jsonl');
    const bytes = randomBytes(100_000, 3);
    writeFileSync(file, bytes);
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(startDemo(d.path)).rejects.toThrow(`${file}: not a Muster game log`);
      expect(Buffer.compare(readFileSync(file), bytes)).toBe(0);
      expect(existsSync(join(d.path, `demo-${process.pid}`)), 'no second demo directory: the lock was released').toBe(false);
    }
    renameSync(file, `${file}.damaged`);
    const live = await startDemo(d.path);
    await live.stop();
    expect(Buffer.compare(readFileSync(`${file}.damaged`), bytes)).toBe(0);
  });
});

describe('the end of the log after a crash', () => {
  it('a torn append is cut off (also when a power cut left zero bytes after it), without a problem', async () => {
    for (const tail of ['{"kind":"pose","standId":"u', `{"kind":"pose"${'\u0000'.repeat(4096)}`, '\u0000'.repeat(512), pose(3)]) {
      const d = freshDir();
      const file = join(d.path, 'game-log.jsonl');
      const lines = [pose(0), pose(1), pose(2)];
      writeFileSync(file, logText(lines, tail));
      const log = openGameLog<Entry>(file, { ...quiet, keepInMemory: 1 });
      try {
        expect(log.repairedTornTail).toBe(true);
        expect(log.problems).toEqual([]);
        expect(log.count()).toBe(3);
        log.append(JSON.parse(pose(3)) as Entry);
        expect(readFileSync(file, 'utf8')).toBe(logText([...lines, withLineSum(pose(3))]));
        expect((await log.read(0, 10)).map((e) => e.index)).toEqual([0, 1, 2, 3]);
      } finally {
        log.close();
      }
    }
  });

  it('bytes after the last line end that are not the start of an entry are kept, ended, reported and skipped', async () => {
    const d = freshDir();
    const file = join(d.path, 'game-log.jsonl');
    const lines = [pose(0), pose(1), pose(2)];
    writeFileSync(file, logText(lines, 'hello, not an entry'));
    const log = openGameLog<Entry>(file, quiet);
    try {
      expect(log.repairedTornTail).toBe(false);
      expect(log.problems).toEqual([
        `${file} line 4: the last 19 bytes have no line end and are not a game log entry; a line end is added after them and they are skipped, index 3 stays empty`,
      ]);
      expect(log.count()).toBe(4);
      log.append(JSON.parse(pose(4)) as Entry);
      expect(readFileSync(file, 'utf8')).toBe(logText([...lines, 'hello, not an entry', withLineSum(pose(4))]));
      expect((await log.read(0, 10)).map((e) => e.index)).toEqual([0, 1, 2, 4]);
    } finally {
      log.close();
    }
  });
});

describe('errors name the file and say what to do', () => {
  it('a directory where the log should be', () => {
    const d = freshDir();
    const file = join(d.path, 'game-log.jsonl');
    mkdirSync(file);
    const store = openDataStore(d.path);
    try {
      expect(() => store.openLog<Entry>(quiet)).toThrow(`${file}: the game log is a directory, not a file; move it aside or remove it and start again (a new log is created)`);
    } finally {
      store.close();
    }
  });

  it('a log cut short by another program while the service runs: the read fails naming the file; the API answers 500 without the path', async () => {
    const d = freshDir();
    mkdirSync(join(d.path, 'demo'));
    const file = join(d.path, 'demo', 'game-log.jsonl');
    writeFileSync(file, logText(Array.from({ length: 5_000 }, (_, i) => pose(i))));
    const log = openGameLog<Entry>(file, quiet);
    try {
      truncateSync(file, 1000);
      await expect(log.read(0, 4_000)).rejects.toThrow(new RegExp(`^${escapeRegExp(file)}: the game log ends at byte \\d+, before \\d+: another program changed it; stop the service, check the file and start again$`));
    } finally {
      log.close();
    }
    writeFileSync(file, logText(Array.from({ length: 5_000 }, (_, i) => pose(i))));
    await writeValidGameJson(join(d.path, 'demo'));
    const live = await startDemo(d.path);
    try {
      truncateSync(file, 1000);
      const res = await fetch(`${live.url}/api/log?from=0&limit=4000`);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { message: string };
      expect(body).toMatchObject({ type: 'error', code: 'internal', message: 'reading the game log failed (see the server log)' });
    } finally {
      await live.stop();
    }
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
