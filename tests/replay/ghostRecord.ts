/**
 * A small record with known moves for the ghost and timeline tests, written by the real writer
 * (`openDataStore` → game log): al19-1 carried from A (10,10) to B (10,13) in turn 1, then moved to C
 * (24,13) in turn 2; al19-2 placed, taken off and put back (so it has no "before"); us1-1 placed once.
 */
import { join } from 'node:path';
import type { GameLogEntry } from '@muster/protocol';
import { openDataStore } from '../../apps/server/src/persist/dataStore.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { tempDir, type TempDir } from '../service/helpers.ts';

const ROSTER = join(import.meta.dirname, '../../fixtures/rosters/opening-battle.yaml');
export const T0 = Date.UTC(2026, 10, 24, 14, 0, 0);
const at = (s: number): number => T0 + s * 1000;

type NewEntry = GameLogEntry extends infer E ? (E extends GameLogEntry ? Omit<E, 'index'> : never) : never;

export const POSE_A = { xIn: 10, yIn: 10, headingDeg: 90 };
export const POSE_B = { xIn: 10, yIn: 13, headingDeg: 90 };
export const POSE_C = { xIn: 24, yIn: 13, headingDeg: 45 };
export const US1_POSE = { xIn: 10, yIn: 30, headingDeg: 270 };

export const GHOST_SCRIPT: NewEntry[] = [
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: POSE_A, timeMs: at(0), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-2', pose: { xIn: 13, yIn: 10, headingDeg: 90 }, timeMs: at(0), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'us1-1', pose: US1_POSE, timeMs: at(0), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: { xIn: 10, yIn: 11, headingDeg: 90 }, timeMs: at(10), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: { xIn: 10, yIn: 12, headingDeg: 90 }, timeMs: at(10.5), turn: 1 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: POSE_B, timeMs: at(11), turn: 1 },
  { kind: 'dice', by: 'operator', roll: { faces: [6, 2], hitOn: 4, hits: 1 }, timeMs: at(20), turn: 1 },
  { kind: 'turn', by: 'operator', timeMs: at(25), turn: 2 },
  { kind: 'pose', by: 'vision', standId: 'al19-1', pose: POSE_C, timeMs: at(30), turn: 2 },
  { kind: 'stand-removed', by: 'vision', standId: 'al19-2', timeMs: at(31), turn: 2 },
  { kind: 'pose', by: 'vision', standId: 'al19-2', pose: { xIn: 5, yIn: 5, headingDeg: 0 }, timeMs: at(40), turn: 2 },
];

/** Writes the record into a new temp data directory. */
export async function writeGhostRecord(): Promise<TempDir> {
  const dir = tempDir('muster-ghosts-');
  const store = openDataStore(dir.path);
  store.write('roster', await loadRoster(ROSTER));
  store.write('table-profile', { name: 'ghost table', widthIn: 72, depthIn: 48 });
  const log = store.openLog<GameLogEntry>();
  GHOST_SCRIPT.forEach((e, index) => log.append({ ...e, index } as GameLogEntry));
  store.close();
  return dir;
}
