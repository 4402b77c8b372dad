/**
 * `npm run bench -- record`: reading a long game back. A log of 100,000 entries (the demo's 40 stands
 * moving, dice every 500 entries, a new turn every 20,000: about 33 minutes of play) is written by the real
 * writer, then timed: `muster export` to CSV and to JSON lines (output counted, not kept), loading it for a
 * replay (read + timeline with checkpoints), seeking to a random position, publishing a replayed state
 * (table + rules, as the replay does each tick), and the position history (`GET /api/history`) index and
 * a query. Medians (and p95 where many runs) in ms.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRuleset } from '@muster/rules';
import type { GameLogEntry } from '@muster/protocol';
import { exportRecord } from '../../apps/server/src/export/exportRecord.ts';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { createPositionHistory } from '../../apps/server/src/replay/positionHistory.ts';
import { loadLogEntries } from '../../apps/server/src/replay/readLogEntries.ts';
import { readRecord } from '../../apps/server/src/replay/readRecord.ts';
import { createReplayBackend } from '../../apps/server/src/replay/replayBackend.ts';
import { createReplayTimeline } from '../../apps/server/src/replay/replayTimeline.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { median, percentile, round } from './stats.ts';

const ENTRIES = 100_000;

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** A seeded generator, so every run writes the same game. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function writeGame(dir: string): Promise<void> {
  const roster = await loadRoster(join(import.meta.dirname, '../../fixtures/rosters/opening-battle.yaml'));
  const stands = [...roster.units.flatMap((u) => u.stands.map((s) => s.id)), ...roster.commanders.flatMap((c) => (c.stand ? [c.stand.id] : []))];
  const store = openDataStore(dir);
  store.write('roster', roster);
  store.write('table-profile', { name: 'bench table', widthIn: 72, depthIn: 48 });
  const log = store.openLog<GameLogEntry>();
  const random = rng(7);
  const pos = new Map(stands.map((id, i) => [id, { xIn: 4 + (i % 10) * 6, yIn: 6 + Math.floor(i / 10) * 9, headingDeg: 90 }]));
  const t0 = Date.UTC(2026, 10, 24, 9, 0, 0);
  let turn = 1;
  for (let index = 0; index < ENTRIES; index++) {
    const timeMs = t0 + index * 20;
    if (index > 0 && index % 20_000 === 0) {
      turn++;
      log.append({ index, timeMs, turn, by: 'operator', kind: 'turn' });
    } else if (index % 500 === 499) {
      log.append({ index, timeMs, turn, by: 'operator', kind: 'dice', roll: { faces: [1, 4, 6, 3], hitOn: 4, hits: 2, reason: 'volley' } });
    } else {
      const standId = stands[Math.floor(random() * stands.length)]!;
      const p = pos.get(standId)!;
      const next = { xIn: Math.min(70, Math.max(2, p.xIn + (random() - 0.5))), yIn: Math.min(46, Math.max(2, p.yIn + (random() - 0.5))), headingDeg: Math.floor(random() * 360) };
      pos.set(standId, next);
      log.append({ index, timeMs, turn, by: 'vision', kind: 'pose', standId, pose: next });
    }
  }
  store.close();
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'muster-bench-record-'));
  try {
    process.stderr.write(`record: writing a log of ${ENTRIES} entries...\n`);
    await writeGame(dir);
    const logBytes = statSync(join(dir, 'game-log.jsonl')).size;

    const exportOnce = async (format: 'csv' | 'json'): Promise<{ ms: number; bytes: number }> => {
      let bytes = 0;
      const ms = await timed(() => exportRecord({ dataDir: dir, format, write: (t) => void (bytes += Buffer.byteLength(t)) }));
      return { ms, bytes };
    };
    process.stderr.write('record: export...\n');
    const csv: number[] = [];
    const json: number[] = [];
    let csvBytes = 0;
    let jsonBytes = 0;
    for (let i = 0; i < 3; i++) {
      const c = await exportOnce('csv');
      csv.push(c.ms);
      csvBytes = c.bytes;
      const j = await exportOnce('json');
      json.push(j.ms);
      jsonBytes = j.bytes;
    }

    process.stderr.write('record: replay load, seek, publish...\n');
    const record = readRecord(dir);
    const load: number[] = [];
    let entries: GameLogEntry[] = [];
    for (let i = 0; i < 3; i++) {
      load.push(await timed(async () => (entries = (await loadLogEntries(record.logPath)).entries)));
    }
    const timelineMs: number[] = [];
    let timeline = createReplayTimeline(entries);
    for (let i = 0; i < 3; i++) timelineMs.push(await timed(() => (timeline = createReplayTimeline(entries))));
    const random = rng(11);
    const seek: number[] = [];
    for (let i = 0; i < 200; i++) {
      const p = Math.floor(random() * timeline.length);
      seek.push(await timed(() => timeline.gameAt(p)));
    }
    const backend = createReplayBackend({ record, timeline, ruleset: getRuleset('devil-to-pay'), rulesNote: '' });
    const publish: number[] = [];
    backend.moveTo(1000);
    for (let i = 0; i < 60; i++) {
      const target = 1000 + (i + 1) * 50; // 50 entries a tick: 1 s of this game at 10× per 100 ms tick
      publish.push(await timed(() => backend.moveTo(target)));
    }
    backend.close();

    process.stderr.write('record: position history...\n');
    const historyBuild: number[] = [];
    let history = createPositionHistory();
    for (let i = 0; i < 3; i++) {
      historyBuild.push(
        await timed(() => {
          history = createPositionHistory();
          for (const e of entries) history.add(e);
        }),
      );
    }
    const query: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const at = Math.floor(random() * ENTRIES);
      query.push(await timed(() => history.stand('al19-1', at)));
    }

    return {
      entries: ENTRIES,
      logMB: round(logBytes / 1e6, 1),
      export: {
        csvMs: round(median(csv), 0),
        csvEntriesPerS: Math.round(ENTRIES / (median(csv) / 1000)),
        csvMB: round(csvBytes / 1e6, 1),
        jsonMs: round(median(json), 0),
        jsonEntriesPerS: Math.round(ENTRIES / (median(json) / 1000)),
        jsonMB: round(jsonBytes / 1e6, 1),
      },
      replay: {
        loadLogMs: round(median(load), 0),
        timelineMs: round(median(timelineMs), 0),
        seekMedianMs: round(median(seek), 3),
        seekP95Ms: round(percentile(seek, 95), 3),
        publishTickMedianMs: round(median(publish), 2),
        publishTickP95Ms: round(percentile(publish, 95), 2),
      },
      history: {
        indexBuildMs: round(median(historyBuild), 0),
        queryMedianMs: round(median(query), 4),
        queryP95Ms: round(percentile(query, 95), 4),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
