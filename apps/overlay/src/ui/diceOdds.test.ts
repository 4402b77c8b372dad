import { describe, expect, it } from 'vitest';
import { poolOdds, poolOddsText } from './diceOdds.ts';

describe('poolOdds', () => {
  it('is the binomial mean and the complement of all misses', () => {
    expect(poolOdds(3, 4)).toEqual({ expectedHits: 1.5, atLeastOne: 0.875 });
    expect(poolOdds(2, 6).expectedHits).toBeCloseTo(1 / 3, 12);
    expect(poolOdds(2, 6).atLeastOne).toBeCloseTo(11 / 36, 12);
    expect(poolOdds(0, 4)).toEqual({ expectedHits: 0, atLeastOne: 0 });
    expect(poolOddsText(3, 5)).toBe('≈1.0 hits · 70% ≥1 (5+)');
  });

  it('refuses nonsense with a message', () => {
    expect(() => poolOdds(-1, 4)).toThrow(/dice/);
    expect(() => poolOdds(2, 0)).toThrow(/hitOn/);
  });
});
