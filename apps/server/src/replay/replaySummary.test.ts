import { describe, expect, it } from 'vitest';
import type { GameLogEntry } from '@muster/protocol';
import { replaySummary } from './replaySummary.ts';

const pose = (index: number, turn: number): GameLogEntry => ({ index, kind: 'pose', by: 'vision', standId: 's', pose: { xIn: index, yIn: 0, headingDeg: 0 }, timeMs: 1000 + index, turn });

describe('replaySummary', () => {
  it('lists the turns where they begin and the actions with their positions, moves left out', () => {
    const entries: GameLogEntry[] = [
      pose(0, 1),
      { index: 1, kind: 'dice', by: 'operator', roll: { faces: [6], hitOn: 4, hits: 1 }, timeMs: 1001, turn: 1 },
      pose(2, 1),
      { index: 3, kind: 'turn', by: 'operator', timeMs: 1003, turn: 2 },
      pose(4, 2),
      { index: 5, kind: 'stand-removed', by: 'vision', standId: 's', timeMs: 1005, turn: 2 },
    ];
    const s = replaySummary(entries);
    expect(s.length).toBe(6);
    expect(s.firstTimeMs).toBe(1000);
    expect(s.lastTimeMs).toBe(1005);
    expect(s.turns).toEqual([
      { turn: 1, position: 1, index: 0, timeMs: 1000, entries: 3 },
      { turn: 2, position: 4, index: 3, timeMs: 1003, entries: 3 },
    ]);
    expect(s.actions.map((a) => [a.position, a.entry.kind])).toEqual([[2, 'dice'], [4, 'turn']]);
  });

  it('is empty for an empty record', () => {
    expect(replaySummary([])).toEqual({ length: 0, firstTimeMs: null, lastTimeMs: null, turns: [], actions: [] });
  });
});
