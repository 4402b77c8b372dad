/**
 * The service's roller for after-the-roll requests (`GameSession.rollWith` + `rollRequestedDice`), per dice
 * kind: d6 and d10, read as hits, a total, passes under a rating, or die by die (pool, table, opposed,
 * roll-under). Every roll gives the dice asked for and only faces of the die; faces come up equally often;
 * hits and passes come up as often as the die says; and the roller's state is saved with each roll, so a
 * session opened again on the same data rolls what the first would have rolled next.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diceFacesProblems, installedRulesets, readRoll, rollRequestedDice, type DiceReading, type DiceRequest, type DieSides } from '@muster/rules';
import { GameSession } from './gameSession.ts';
import { openDataStore } from '../persist/dataStore.ts';
import type { Roster } from '../roster/roster.ts';

const dir = mkdtempSync(join(tmpdir(), 'muster-roller-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const roster = { name: 'empty', units: [], commanders: [], statusTokens: [], statusTokenRadiusIn: 1 } as unknown as Roster;
let n = 0;
function session(seed: string, path = join(dir, `s${++n}`)): GameSession {
  return new GameSession({ store: openDataStore(path), baseRoster: roster, seed });
}

const SIDES: readonly DieSides[] = [6, 10];
const READINGS: readonly DiceReading[] = ['hits', 'total', 'under', 'each'];

const requestArb = fc.record({
  sides: fc.constantFrom(...SIDES),
  reading: fc.constantFrom(...READINGS),
  count: fc.integer({ min: 0, max: 30 }),
  threshold: fc.integer({ min: 1, max: 10 }),
  modifier: fc.integer({ min: -3, max: 3 }),
}).map(({ sides, reading, count, threshold, modifier }): DiceRequest => ({
  id: 'g', label: 'g', count, sides, reading, source: 'test',
  ...(reading === 'hits' ? { hitOn: Math.min(threshold, sides) } : {}),
  ...(reading === 'under' ? { target: Math.min(threshold, sides) } : {}),
  ...(reading === 'total' || reading === 'each' ? { modifier } : {}),
}));

describe("the service's roller, per dice kind", () => {
  it('rolls exactly the dice asked for, faces of the die only, and reads them within bounds', () => {
    const s = session('property');
    try {
      fc.assert(fc.property(fc.array(requestArb, { minLength: 1, maxLength: 4 }), (requests) => {
        const withIds = requests.map((r, i) => ({ ...r, id: `g${i}` }));
        const faces = s.rollWith((rng) => rollRequestedDice(withIds, rng));
        expect(diceFacesProblems(withIds, faces)).toEqual([]);
        for (const r of withIds) {
          const { value } = readRoll(r, faces[r.id]!);
          if (r.reading === 'hits' || r.reading === 'under') expect(value).toBeGreaterThanOrEqual(0);
          if (r.reading === 'hits' || r.reading === 'under') expect(value).toBeLessThanOrEqual(r.count);
          if (r.reading === 'total') {
            expect(value).toBeGreaterThanOrEqual(r.count + (r.modifier ?? 0));
            expect(value).toBeLessThanOrEqual(r.count * r.sides + (r.modifier ?? 0));
          }
        }
      }), { numRuns: 150, seed: 20261207 });
    } finally {
      s.close();
    }
  });

  it('rolls each face about equally often, for every die a rule set declares (chi-square, 99.9%)', () => {
    const declared = new Set<DieSides>([...SIDES, ...installedRulesets.flatMap((r) => (r.resolution ? [r.resolution.dice.sides] : []))]);
    for (const sides of declared) {
      const s = session(`uniform-${sides}`);
      try {
        const counts = new Array<number>(sides).fill(0);
        // Many requests, each saved before the next (a save is a file write, so 100 large ones, not 3,000 small).
        for (let i = 0; i < 100; i++) {
          const faces = s.rollWith((rng) => rollRequestedDice([{ id: 'd', label: 'd', count: 300, sides, reading: 'each', source: 't' }], rng));
          for (const f of faces.d!) counts[f - 1]!++;
        }
        const expected = 30_000 / sides;
        const chi2 = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
        // 99.9th percentile of chi-square: 20.5 (5 degrees of freedom), 27.9 (9).
        expect(chi2, `d${sides}: ${counts.join(' ')}`).toBeLessThan(sides === 6 ? 20.5 : 27.9);
      } finally {
        s.close();
      }
    }
  });

  it('scores hits on a pool and passes under a rating as often as the die says', () => {
    for (const [sides, reading, threshold] of [[6, 'hits', 4], [6, 'hits', 5], [10, 'hits', 7], [6, 'under', 3], [10, 'under', 6]] as const) {
      const s = session(`rate-${sides}-${reading}-${threshold}`);
      try {
        const request: DiceRequest = { id: 'p', label: 'p', count: 200, sides, reading, source: 't', ...(reading === 'hits' ? { hitOn: threshold } : { target: threshold }) };
        let scored = 0;
        const rolls = 50;
        for (let i = 0; i < rolls; i++) scored += readRoll(request, s.rollWith((rng) => rollRequestedDice([request], rng)).p!).value;
        const p = reading === 'hits' ? (sides - threshold + 1) / sides : threshold / sides;
        const total = rolls * request.count;
        // Within 4 standard deviations of the binomial mean.
        expect(Math.abs(scored - total * p), `${reading} ${threshold} on d${sides}`).toBeLessThan(4 * Math.sqrt(total * p * (1 - p)));
      } finally {
        s.close();
      }
    }
  });

  it('saves the roller with each roll: a session opened again rolls what the first would have rolled next', () => {
    const path = join(dir, 'reopen');
    const request: DiceRequest = { id: 'd', label: 'd', count: 8, sides: 10, reading: 'each', source: 't' };
    const first = session('reopen', path);
    first.rollWith((rng) => rollRequestedDice([request], rng));
    const twin = session('reopen');
    twin.rollWith((rng) => rollRequestedDice([request], rng));
    const nextOfTwin = twin.rollWith((rng) => rollRequestedDice([request], rng));
    twin.close();
    first.close();
    const reopened = session('another seed is ignored: the saved roller goes on', path);
    try {
      expect(reopened.rollWith((rng) => rollRequestedDice([request], rng))).toEqual(nextOfTwin);
    } finally {
      reopened.close();
    }
  });

  it('puts the roller back when what the roll was for fails', () => {
    const request: DiceRequest = { id: 'd', label: 'd', count: 5, sides: 6, reading: 'hits', hitOn: 4, source: 't' };
    const a = session('rollback');
    const b = session('rollback');
    try {
      expect(() => a.rollWith((rng) => {
        rollRequestedDice([request], rng);
        throw new Error('the rules refused');
      })).toThrow('the rules refused');
      expect(a.rollWith((rng) => rollRequestedDice([request], rng))).toEqual(b.rollWith((rng) => rollRequestedDice([request], rng)));
    } finally {
      a.close();
      b.close();
    }
  });
});
