/**
 * `GET /api/history`: where a unit stood before it moved, from the game log. A log written by the real
 * writer (`openDataStore` → `openGameLog`) with known moves and times is served by a replay on loopback;
 * then the live demo service answers the same question about its own log as it grows.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameLogEntry } from '@muster/protocol';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { startReplay, type RunningReplay } from '../../apps/server/src/replay/startReplay.ts';
import { startDemo, tempDir, type TempDir } from '../service/helpers.ts';

const ROSTER = join(import.meta.dirname, '../../fixtures/rosters/opening-battle.yaml');
const T0 = Date.UTC(2026, 10, 24, 14, 0, 0);
const at = (s: number): number => T0 + s * 1000;
const iso = (s: number): string => new Date(at(s)).toISOString();

type NewEntry = GameLogEntry extends infer E ? (E extends GameLogEntry ? Omit<E, 'index'> : never) : never;

/** al19-1: placed at A, carried to B in three steps 0.5 s apart, later turned and moved to C in turn 2. */
const SCRIPT: NewEntry[] = [
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: { xIn: 10, yIn: 10, headingDeg: 90 }, timeMs: at(0), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-2', pose: { xIn: 13, yIn: 10, headingDeg: 90 }, timeMs: at(0), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: { xIn: 10, yIn: 11, headingDeg: 90 }, timeMs: at(10), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: { xIn: 10, yIn: 12, headingDeg: 90 }, timeMs: at(10.5), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: { xIn: 10, yIn: 13, headingDeg: 90 }, timeMs: at(11), turn: 1 },
  { kind: 'dice', by: 'operator', roll: { faces: [6, 2], hitOn: 4, hits: 1 }, timeMs: at(20), turn: 1 },
  { kind: 'turn', by: 'operator', timeMs: at(25), turn: 2 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: { xIn: 12, yIn: 13, headingDeg: 45 }, timeMs: at(30), turn: 2 },
  { kind: 'stand-removed', by: 'vision', standId: 'al19-2', timeMs: at(31), turn: 2 },
  { kind: 'pose', by: 'vision', standId: 'al19-2', pose: { xIn: 5, yIn: 5, headingDeg: 0 }, timeMs: at(40), turn: 2 },
];

interface StandAnswer {
  standId: string;
  onTable: boolean;
  current: { index: number; pose: unknown } | null;
  lastMove: { from: { index: number; pose: unknown } | null; to: { index: number }; started: { index: number }; steps: number; path: { index: number }[] } | null;
  atTurnStart: unknown;
}
interface Answer {
  unit?: { id: string; name: string };
  at: { index: number; time: string; turn: number } | null;
  stands: StandAnswer[];
}

let dir: TempDir;
let replay: RunningReplay;

beforeAll(async () => {
  dir = tempDir('muster-history-');
  const store = openDataStore(dir.path);
  store.write('roster', await loadRoster(ROSTER));
  store.write('table-profile', { name: 'history table', widthIn: 72, depthIn: 48 });
  const log = store.openLog<GameLogEntry>();
  SCRIPT.forEach((e, index) => log.append({ ...e, index } as GameLogEntry));
  store.close();
  replay = await startReplay({ dataDir: dir.path, port: 0, speed: 0, from: String(SCRIPT.length - 1) });
});

afterAll(async () => {
  await replay?.stop();
  dir?.remove();
});

async function history(query: string): Promise<{ status: number; body: Answer & { message?: string } }> {
  const res = await fetch(`${replay.url}/api/history?${query}`);
  return { status: res.status, body: (await res.json()) as Answer & { message?: string } };
}

const stand = (a: Answer, id: string): StandAnswer => a.stands.find((s) => s.standId === id)!;

describe('GET /api/history on a replay', () => {
  it('by default answers as of the replay position: the last move of each stand and where it stood before', async () => {
    const { status, body } = await history('unit=al19');
    expect(status).toBe(200);
    expect(body.unit).toMatchObject({ id: 'al19', name: '19th Alabama' });
    expect(body.at).toEqual({ index: 9, time: iso(40), timeMs: at(40), turn: 2 });
    expect(body.stands.map((s) => s.standId)).toEqual(['al19-1', 'al19-2', 'al19-3', 'al19-4', 'al19-5']);
    const s1 = stand(body, 'al19-1');
    expect(s1.current).toMatchObject({ index: 7, pose: { xIn: 12, yIn: 13, headingDeg: 45 } });
    expect(s1.lastMove).toMatchObject({ from: { index: 4, pose: { xIn: 10, yIn: 13, headingDeg: 90 } }, to: { index: 7 }, started: { index: 7 }, steps: 1 });
    expect(s1.atTurnStart).toEqual({ xIn: 10, yIn: 13, headingDeg: 90 }); // turn 2 began at entry 6
    const s2 = stand(body, 'al19-2');
    expect(s2.onTable).toBe(true);
    expect(s2.lastMove).toMatchObject({ from: null, to: { index: 9 } }); // it came back onto the table
    expect(s2.atTurnStart).toEqual({ xIn: 13, yIn: 10, headingDeg: 90 });
    expect(stand(body, 'al19-3')).toEqual({ standId: 'al19-3', onTable: false, current: null, lastMove: null, atTurnStart: null });
  });

  it('as of an earlier moment (index or time): the carried stand came from A in one move of three steps', async () => {
    const byIndex = await history('unit=al19&index=4');
    const s1 = stand(byIndex.body, 'al19-1');
    expect(s1.current).toMatchObject({ index: 4, pose: { xIn: 10, yIn: 13, headingDeg: 90 } });
    expect(s1.lastMove).toMatchObject({ from: { index: 0, pose: { xIn: 10, yIn: 10, headingDeg: 90 } }, started: { index: 2 }, steps: 3 });
    expect(s1.lastMove!.path.map((p) => p.index)).toEqual([2, 3, 4]);
    expect(s1.atTurnStart).toBeNull(); // nothing stood before turn 1 began
    const byTime = await history(`stand=al19-1&at=${encodeURIComponent(iso(20))}`);
    expect(byTime.body.at?.index).toBe(5);
    expect(stand(byTime.body, 'al19-1').lastMove).toEqual(s1.lastMove);
    expect((await history(`stand=al19-1&at=${at(10.7)}`)).body.stands[0]!.current?.index).toBe(3);
    // Before the first entry: nothing was on the table.
    expect((await history(`unit=al19&at=${at(-5)}`)).body).toMatchObject({ at: null, stands: [{ current: null, lastMove: null }, {}, {}, {}, {}] });
  });

  it('a removed stand is off the table; a shorter gapS splits a move', async () => {
    const removed = stand((await history('unit=al19&index=8')).body, 'al19-2');
    expect(removed).toMatchObject({ onTable: false, current: { index: 8, pose: null }, lastMove: { from: null, to: { index: 1 } } });
    const split = stand((await history('unit=al19&index=4&gapS=0.2')).body, 'al19-1');
    expect(split.lastMove).toMatchObject({ from: { index: 3, pose: { xIn: 10, yIn: 12, headingDeg: 90 } }, started: { index: 4 }, steps: 1 });
  });

  it('bad questions get a 400 or 404 that says what to give', async () => {
    expect(await history('')).toMatchObject({ status: 400, body: { message: expect.stringMatching(/give unit=<unit id> or stand=<stand id>/) } });
    expect(await history('unit=nope')).toMatchObject({ status: 404, body: { message: 'no unit or commander "nope" in the roster (GET /api/roster lists them)' } });
    expect(await history('stand=nope')).toMatchObject({ status: 404 });
    expect(await history('unit=al19&at=yesterday')).toMatchObject({ status: 400, body: { message: expect.stringMatching(/at must be an ISO time/) } });
    expect(await history('unit=al19&index=-1')).toMatchObject({ status: 400 });
    expect(await history('unit=al19&index=2&at=5')).toMatchObject({ status: 400 });
    expect(await history('unit=al19&gapS=0')).toMatchObject({ status: 400 });
  });
});

describe('GET /api/history on the live service', () => {
  it('answers from its own growing log: each stand where its newest pose entry put it', async () => {
    const live = tempDir('muster-history-live-');
    const demo = await startDemo(live.path, { speed: 8, fps: 10 });
    try {
      for (let round = 0; round < 2; round++) {
        await new Promise((r) => setTimeout(r, 1500));
        const entries: GameLogEntry[] = [];
        for (let from = 0; ; ) {
          const page = ((await (await fetch(`${demo.url}/api/log?from=${from}&limit=10000`)).json()) as { entries: GameLogEntry[] }).entries;
          if (page.length === 0) break;
          entries.push(...page);
          from = page[page.length - 1]!.index + 1;
        }
        const n = entries[entries.length - 1]!.index;
        const answer = (await (await fetch(`${demo.url}/api/history?unit=al22&index=${n}`)).json()) as Answer;
        expect(answer.at?.index).toBe(n);
        for (const s of answer.stands) {
          const own = entries.filter((e) => (e.kind === 'pose' || e.kind === 'stand-removed') && e.standId === s.standId);
          const newest = own[own.length - 1];
          expect(s.current?.index).toBe(newest?.index);
          if (newest?.kind === 'pose') expect(s.current?.pose).toEqual(newest.pose);
        }
        expect(answer.stands.some((s) => s.onTable)).toBe(true);
      }
    } finally {
      await demo.stop();
      live.remove();
    }
  }, 60_000);
});
