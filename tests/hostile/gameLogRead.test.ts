/**
 * Hostile readers of a long game log. A 10-hour demo writes about 200 000 entries (30–40 MB); before the
 * log was indexed, every `GET /api/log` from an index older than the in-memory window re-read and parsed
 * the whole file on the event loop (~400 ms a request), so a few `curl` loops starved the frame loop.
 *
 * Here: a 200 000-entry log (generated with a seeded generator), read through the log API (bytes read
 * counted, not timed) and through the whole demo service on loopback under 24 concurrent readers, with an
 * event-loop lag probe.
 */
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '@muster/rules';
import { openGameLog } from '../../apps/server/src/persist/gameLog.ts';
import { GameLogBusyError } from '../../apps/server/src/persist/gameLogError.ts';
import { startDemo, tempDir, type TempDir } from '../service/helpers.ts';
import { writeValidGameJson } from './corruptFiles.ts';
import { eventually } from './networkHelpers.ts';

const ENTRIES = 200_000;

interface PoseEntry {
  readonly kind: 'pose';
  readonly standId: string;
  readonly pose: { readonly xIn: number; readonly yIn: number; readonly headingDeg: number };
  readonly by: 'demo';
  readonly index: number;
  readonly timeMs: number;
  readonly turn: number;
}

/** The log's line i, as the demo writes pose entries (seeded by i: line i is the same on every run, made on demand). */
function poseLine(i: number, seed = 20_240_611): string {
  const rng = createRng(seed + i * 7919);
  const r = (scale: number, digits: number): string => (rng.nextFloat() * scale).toFixed(digits);
  return `{"kind":"pose","standId":"us${rng.nextInt(9)}-${rng.nextInt(6)}","pose":{"xIn":${r(72, 4)},"yIn":${r(48, 4)},"headingDeg":${r(360, 3)}},"by":"demo","index":${i},"timeMs":${1_700_000_000_000 + i * 180},"turn":${1 + Math.floor(i / 20_000)}}`;
}

/** Writes lines 0..n-1 to `file`, 10 000 at a time (the test keeps none of them: a 30 MB heap would make GC pauses the lag probe sees). */
function writeLongLog(file: string, n: number): void {
  writeFileSync(file, '');
  for (let i = 0; i < n; i += 10_000) {
    appendFileSync(file, Array.from({ length: Math.min(10_000, n - i) }, (_, k) => `${poseLine(i + k)}\n`).join(''));
  }
}

let dir: TempDir;
let file: string;
let fileBytes: number;
beforeAll(async () => {
  dir = tempDir('muster-hostile-log-');
  mkdirSync(join(dir.path, 'demo'));
  file = join(dir.path, 'demo', 'game-log.jsonl');
  writeLongLog(file, ENTRIES);
  fileBytes = statSync(file).size;
  // The game the log belongs to (a start refuses a log without it).
  await writeValidGameJson(join(dir.path, 'demo'));
});
afterAll(() => dir.remove());

const expected = (from: number, n: number, count = ENTRIES): unknown[] =>
  Array.from({ length: Math.max(0, Math.min(n, count - from)) }, (_, k) => JSON.parse(poseLine(from + k)));

describe('reading old entries of a long game log', () => {
  it('reads only the bytes near the entries asked for, not the file', async () => {
    expect(fileBytes).toBeGreaterThan(25_000_000);
    const log = openGameLog<PoseEntry>(file, { onProblem: (p) => expect.fail(p) });
    try {
      expect(log.count()).toBe(ENTRIES);
      const cases: [from: number, limit: number, maxBytes: number][] = [
        [0, 1, 64 * 1024], // one read chunk
        [123_457, 100, 2 * 64 * 1024], // seek to line 123 392 (every 128th is indexed), skip 65 lines, read 100
        [ENTRIES - 2_100, 200, 3 * 64 * 1024], // old enough to be on disk only (2000 in memory)
      ];
      for (const [from, limit, maxBytes] of cases) {
        const before = log.fileReadStats().bytes;
        const entries = await log.read(from, limit);
        const bytes = log.fileReadStats().bytes - before;
        expect(entries, `read(${from}, ${limit})`).toEqual(expected(from, limit));
        // Before the index: the whole file (30 MB) for every one of these.
        expect(bytes, `bytes read for read(${from}, ${limit})`).toBeLessThanOrEqual(maxBytes);
      }
      // The newest entries come from memory: no file read at all.
      const before = log.fileReadStats();
      expect(await log.read(ENTRIES - 10, 1000)).toEqual(expected(ENTRIES - 10, 10));
      expect(log.fileReadStats()).toEqual(before);
    } finally {
      log.close();
    }
  });

  it('keeps the index up to date on append, so entries appended after open are found by seeking too', async () => {
    const small = tempDir('muster-hostile-log-append-');
    try {
      const f = join(small.path, 'game-log.jsonl');
      writeLongLog(f, 1_000);
      const log = openGameLog<PoseEntry>(f, { keepInMemory: 10, onProblem: (p) => expect.fail(p) });
      try {
        for (let i = 1_000; i < 6_000; i++) log.append(JSON.parse(poseLine(i)) as PoseEntry);
        const before = log.fileReadStats().bytes;
        expect(await log.read(5_900, 20)).toEqual(expected(5_900, 20, 6_000));
        // Without offsets recorded on append the read would start at line 896 (the last indexed at open): ~750 KB.
        expect(log.fileReadStats().bytes - before).toBeLessThanOrEqual(64 * 1024);
        expect(await log.read(0, 6_000)).toEqual(expected(0, 6_000, 6_000));
      } finally {
        log.close();
      }
    } finally {
      small.remove();
    }
  });

  it('runs at most 2 reads of old entries at once, queues 6 and refuses the rest with a retry time', async () => {
    const log = openGameLog<PoseEntry>(file, { onProblem: (p) => expect.fail(p) });
    try {
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, k) => log.read(k * 1000, 50)));
      const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as Error);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(8);
      expect(refused).toHaveLength(12);
      for (const err of refused) {
        expect(err).toBeInstanceOf(GameLogBusyError);
        expect((err as GameLogBusyError).retryAfterS).toBe(1);
        expect(err.message).toContain(file);
      }
      results.forEach((r, k) => {
        if (r.status === 'fulfilled') expect(r.value).toEqual(expected(k * 1000, 50));
      });
      // Once they are done, reads go through again.
      expect(await log.read(77, 3)).toEqual(expected(77, 3));
    } finally {
      log.close();
    }
  });

  it('24 concurrent readers of old entries on a real service: every read answered right or refused with a retry time, frames kept coming', async () => {
    // The whole demo service, on the long log: the lag probe runs on the same event loop as the frame loop.
    // The readers run on a worker thread, as curl would in another process, so the lag is the service's.
    const live = await startDemo(dir.path, { fps: 10, speed: 1 });
    const rng = createRng(99);
    const readers = await startReaders(
      live.url,
      Array.from({ length: 24 }, () => Array.from({ length: 4 }, () => ({ from: rng.nextInt(ENTRIES - 5_000), limit: [1, 100, 1000][rng.nextInt(3)]! }))),
    );
    let maxLagMs = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      maxLagMs = Math.max(maxLagMs, now - last - 10);
      last = now;
    }, 10);
    try {
      const t0 = performance.now();
      const results = await readers.go();
      const wallMs = performance.now() - t0;
      clearInterval(probe);
      const ok = results.filter((r) => r.status === 200);
      const busy = results.filter((r) => r.status === 503);
      console.log(`24 readers x 4 GET /api/log on a ${(fileBytes / 1e6).toFixed(0)} MB log: ${wallMs.toFixed(0)} ms, max event-loop lag ${maxLagMs.toFixed(0)} ms, ${ok.length} × 200, ${busy.length} × 503`);
      expect(ok.length + busy.length).toBe(96);
      expect(ok.length).toBeGreaterThanOrEqual(8);
      for (const r of ok) {
        expect(r.body.from).toBe(r.from);
        expect(r.body.entries).toHaveLength(r.limit);
        r.body.entries.forEach((e, i) => expect(e.index).toBe(r.from + i));
        expect(r.body.entries[0]).toEqual(JSON.parse(poseLine(r.from)));
      }
      for (const r of busy) {
        expect(r.retryAfter).toBe('1');
        expect(r.body).toMatchObject({ type: 'error', code: 'internal', message: expect.stringMatching(/try again in 1 s/) });
      }
      // The lag is printed above, not asserted: it depends on the machine's load (measured 11–52 ms quiet,
      // 440 ms with load 15–28 on 2 cores; before the index, 2.7 s). What must hold at any load: the
      // service keeps publishing frames after the reads (its state moves on).
      const seqAfterReads = live.pipeline.state().seq;
      expect(await eventually(() => live.pipeline.state().seq > seqAfterReads)).toBe(true);
    } finally {
      clearInterval(probe);
      await readers.stop();
      await live.stop();
    }
  });
});

interface ReaderResult {
  readonly from: number;
  readonly limit: number;
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: { from: number; entries: PoseEntry[]; type?: string; code?: string; message?: string };
}

/**
 * Each reader's requests one after another, all readers at once, on a worker thread: started (and
 * waited for) before `go`, so the worker's start-up is not measured.
 */
async function startReaders(baseUrl: string, readers: { from: number; limit: number }[][]): Promise<{ go(): Promise<ReaderResult[]>; stop(): Promise<number> }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { baseUrl, readers } = workerData;
    parentPort.once('message', () => {
      Promise.all(readers.map(async (requests) => {
        const out = [];
        for (const { from, limit } of requests) {
          const res = await fetch(baseUrl + '/api/log?from=' + from + '&limit=' + limit);
          out.push({ from, limit, status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() });
        }
        return out;
      })).then((all) => parentPort.postMessage({ results: all.flat() }), (err) => parentPort.postMessage({ error: String(err) }));
    });
    parentPort.postMessage('ready');
  `;
  const worker = new Worker(code, { eval: true, workerData: { baseUrl, readers } });
  const next = <T>(what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      setTimeout(() => reject(new Error(`the readers' worker: no ${what} in 50 s`)), 50_000).unref();
    });
  await next<string>('start');
  return {
    async go(): Promise<ReaderResult[]> {
      const reply = next<{ results?: ReaderResult[]; error?: string }>('results');
      worker.postMessage('go');
      const { results, error } = await reply;
      if (!results) throw new Error(`readers failed: ${error}`);
      return results;
    },
    stop: () => worker.terminate(),
  };
}
