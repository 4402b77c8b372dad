import { describe, expect, it } from 'vitest';
import { positionOfIndex, turnAtPosition } from './timelinePosition.ts';

const turns = [
  { turn: 1, position: 1, index: 0, timeMs: 0, entries: 3 },
  { turn: 2, position: 4, index: 3, timeMs: 3, entries: 3 },
];

describe('timeline position', () => {
  it('maps a log index to the position after that entry', () => {
    expect(positionOfIndex(turns, -1)).toBe(0);
    expect(positionOfIndex(turns, 0)).toBe(1);
    expect(positionOfIndex(turns, 2)).toBe(3);
    expect(positionOfIndex(turns, 3)).toBe(4);
    expect(positionOfIndex(turns, 5)).toBe(6);
    // Never past the turn's last entry, even if the indexes skip.
    expect(positionOfIndex(turns, 50)).toBe(6);
  });

  it('finds the turn a position is in', () => {
    expect(turnAtPosition(turns, 0)).toBeNull();
    expect(turnAtPosition(turns, 3)?.turn).toBe(1);
    expect(turnAtPosition(turns, 4)?.turn).toBe(2);
    expect(turnAtPosition([], 4)).toBeNull();
  });
});
