import { describe, expect, it } from 'vitest';
import { createRng, restoreRng, seedFromString } from './rng.ts';
import { rollDice } from './rollDice.ts';

describe('rng', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = createRng(7), b = createRng(7), c = createRng(8);
    const sa = Array.from({ length: 20 }, () => a.nextUint32());
    const sb = Array.from({ length: 20 }, () => b.nextUint32());
    const sc = Array.from({ length: 20 }, () => c.nextUint32());
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
  });

  it('continues the same sequence from a JSON snapshot', () => {
    const rng = createRng(seedFromString('bloody lane'));
    for (let i = 0; i < 13; i++) rng.nextUint32();
    const saved = JSON.parse(JSON.stringify(rng.snapshot()));
    const expected = Array.from({ length: 10 }, () => rng.nextFloat());
    const replay = restoreRng(saved);
    expect(Array.from({ length: 10 }, () => replay.nextFloat())).toEqual(expected);
  });

  it('keeps floats in [0,1) and ints in range', () => {
    const rng = createRng(3);
    let bad = 0;
    for (let i = 0; i < 2000; i++) {
      const f = rng.nextFloat();
      const k = rng.nextInt(7);
      if (!(f >= 0 && f < 1) || !(Number.isInteger(k) && k >= 0 && k < 7)) bad++;
    }
    expect(bad).toBe(0);
  });

  it('rejects impossible input with a message', () => {
    expect(() => createRng(Number.NaN)).toThrow(/finite/);
    expect(() => createRng(1).nextInt(0)).toThrow(/maxExclusive/);
    expect(() => restoreRng({ algorithm: 'x' as 'mulberry32', state: 1 })).toThrow(/unknown algorithm/);
  });
});

describe('rollDice', () => {
  it('has a fair face distribution and hit rate over 60,000 dice', () => {
    const rng = createRng(2026);
    const counts = [0, 0, 0, 0, 0, 0];
    let hits = 0;
    let miscounted = 0;
    const rolls = 10_000;
    for (let i = 0; i < rolls; i++) {
      const r = rollDice(rng, 6);
      for (const f of r.faces) counts[f - 1] = (counts[f - 1] ?? 0) + 1;
      hits += r.hits;
      if (r.hits !== r.faces.filter((f) => f >= 4).length) miscounted++;
    }
    expect(miscounted).toBe(0);
    const n = rolls * 6;
    // Chi-square with 5 degrees of freedom; 20.5 is the 0.1% critical value.
    const chi = counts.reduce((s, c) => s + (c - n / 6) ** 2 / (n / 6), 0);
    expect(chi).toBeLessThan(20.5);
    // Hit rate 1/2; standard error sqrt(0.25/n) ~ 0.002, allow 4 sigma.
    expect(Math.abs(hits / n - 0.5)).toBeLessThan(0.008);
  });

  it('rolls nothing for 0 dice and refuses negative or fractional counts', () => {
    expect(rollDice(createRng(1), 0)).toEqual({ faces: [], hits: 0 });
    expect(() => rollDice(createRng(1), -1)).toThrow(/non-negative/);
    expect(() => rollDice(createRng(1), 1.5)).toThrow(/non-negative/);
  });

  it('honours a custom hit threshold', () => {
    const r = rollDice(createRng(5), 50, 6);
    expect(r.hits).toBe(r.faces.filter((f) => f === 6).length);
  });
});
