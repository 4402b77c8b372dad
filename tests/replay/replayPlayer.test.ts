/**
 * The replay's clock: entries are played when the record's time, running `speed` times the wall clock,
 * reaches them; a long pause in the record is shortened to `maxGapMs`; the end is said in health. The
 * wall clock and the timer are driven by the test (the backend and its rules are the real ones).
 */
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GameLogEntry } from '@muster/protocol';
import { getRuleset } from '@muster/rules';
import { createReplayBackend, type ReplayBackend } from '../../apps/server/src/replay/replayBackend.ts';
import { startReplayPlayer } from '../../apps/server/src/replay/replayPlayer.ts';
import { createReplayTimeline } from '../../apps/server/src/replay/replayTimeline.ts';
import type { GameRecord } from '../../apps/server/src/replay/readRecord.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';

const T0 = 1_800_000_000_000;
/** Entries at 0, 1, 2 s, then after a minute's pause at 62 and 63 s. */
const ENTRIES: GameLogEntry[] = [0, 1, 2, 62, 63].map((s, index) => ({ index, timeMs: T0 + s * 1000, turn: 1, by: 'vision', kind: 'pose', standId: 'al19-1', pose: { xIn: 10 + index, yIn: 10, headingDeg: 90 } }));

let record: GameRecord;
beforeAll(async () => {
  const roster = await loadRoster(join(import.meta.dirname, '../../fixtures/rosters/opening-battle.yaml'));
  record = { dir: '/record', logPath: '/record/game-log.jsonl', roster, table: { name: 't', widthIn: 72, depthIn: 48 }, savedTerrain: null, demo: false, note: '' };
});
afterEach(() => vi.useRealTimers());

describe('replay player', () => {
  it('plays each entry when its time comes at the given speed, shortens a long pause, and says when it ended', () => {
    vi.useFakeTimers();
    let wall = 0;
    const now = (): number => wall;
    const timeline = createReplayTimeline(ENTRIES);
    const backend: ReplayBackend = createReplayBackend({ record, timeline, ruleset: getRuleset('devil-to-pay'), rulesNote: '', now });
    let ended = 0;
    const player = startReplayPlayer({ backend, timeline, speed: 2, maxGapMs: 10_000, tickMs: 100, now, onEnd: () => ended++ });
    /** Runs the wall clock on by `ms`, one tick at a time; returns the positions seen after each tick. */
    const run = (ms: number): number[] => {
      const seen: number[] = [];
      for (let t = 0; t < ms; t += 100) {
        wall += 100;
        vi.advanceTimersByTime(100);
        seen.push(backend.position());
      }
      return seen;
    };
    run(100);
    expect(backend.position()).toBe(1); // the first entry's time is where the record's clock starts
    run(400); // 1 s of record at 2×
    expect(backend.position()).toBe(2);
    run(500);
    expect(backend.position()).toBe(3);
    expect(backend.state().tableState.stands.find((s) => s.id === 'al19-1')?.pose.xIn).toBeCloseTo(12, 9);
    // The minute's pause is played as 10 s of record: 5 s of wall time at 2×, not 30 s.
    const during = run(5000);
    expect(during.slice(0, -1).every((p) => p === 3)).toBe(true);
    expect(backend.position()).toBe(4);
    expect(ended).toBe(0);
    run(500);
    expect(backend.position()).toBe(5);
    expect(ended).toBe(1);
    expect(player.ended()).toBe(true);
    expect(backend.state().health.warnings[0]).toMatch(/^replay of \/record \(read-only\): entry 4 of 4, .*; ended: the last entry has been played \(2×\)$/);
    expect(backend.state().captureTimeMs).toBe(T0 + 63_000);
    backend.close();
  });
});
