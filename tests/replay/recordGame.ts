/**
 * A real recorded game for the replay, export and history tests: the demo battle (ground truth through
 * the real tracker, roster and rules) run on a temp data directory, with operator actions sent over the
 * real REST API (status, dice, cards, terrain), then stopped. Its record is `<dir>/demo`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GameLogEntry } from '@muster/protocol';
import { startDemo, tempDir, type TempDir } from '../service/helpers.ts';
import { parseLogLine } from '../../apps/server/src/persist/gameLogScan.ts';

export const OPERATOR_TOKEN = 'replay-test-operator-token';

export interface RecordedGameDir {
  readonly dir: TempDir;
  /** The data directory given to `muster start` (the demo's record is in `demo/`). */
  readonly dataDir: string;
  /** The log as the service left it in the file, each line parsed, for comparisons. */
  readonly entries: readonly GameLogEntry[];
}

async function act(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}/api/actions`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${JSON.stringify(body)}: ${res.status} ${await res.text()}`);
  return res.json();
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Plays `seconds` of the demo at `speed`, with operator actions in between. */
export async function recordGame(seconds = 6, speed = 8): Promise<RecordedGameDir> {
  const dir = tempDir('muster-replay-');
  const live = await startDemo(dir.path, { speed, fps: 10, token: OPERATOR_TOKEN });
  try {
    const url = live.url;
    await sleep((seconds * 1000) / 3);
    await act(url, { type: 'roll-dice', dice: 4, reason: 'volley at the fence', unitId: 'al19' });
    await act(url, { type: 'set-unit-status', unitId: 'al26', status: { disordered: true } });
    await act(url, { type: 'draw-card' });
    await sleep((seconds * 1000) / 3);
    await act(url, { type: 'set-turn', turn: 2 });
    await act(url, { type: 'set-terrain', terrain: { areas: [{ id: 'wood-1', kind: 'open-woods', vertices: [{ xIn: 1, yIn: 1 }, { xIn: 10, yIn: 1 }, { xIn: 10, yIn: 8 }] }], linear: [], roads: [], elevations: [] } });
    await act(url, { type: 'roll-dice', dice: 2 });
    await sleep((seconds * 1000) / 3);
    await live.stop();
    // The record as the service left it on disk (it may append after any read over the API).
    const text = readFileSync(join(dir.path, 'demo', 'game-log.jsonl'), 'utf8');
    // Each line as the service reads it (without the line's CRC).
    const entries = text.trimEnd().split('\n').map((line) => {
      const check = parseLogLine<GameLogEntry>(line);
      if (!check.ok) throw new Error(`the recorded log has a line that is not an entry: ${check.reason}`);
      return check.entry;
    });
    return { dir, dataDir: dir.path, entries };
  } catch (err) {
    await live.stop();
    dir.remove();
    throw err;
  }
}
