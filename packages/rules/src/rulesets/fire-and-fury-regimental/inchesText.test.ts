import { describe, expect, it } from 'vitest';
import { inchesText } from './inchesText.ts';

describe('inchesText', () => {
  it('writes what toFixed(1) writes, ties and near-ties included', () => {
    // A fixed linear congruential sequence: the same values every run.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const xs = [0, 0.05, 0.25, 0.35, 0.45, 0.95, 1.05, 2.25, 9.95, 99.95, 12, 1e-9, 0.04999999, 123.456, Infinity, -1.25, NaN];
    for (let i = 0; i < 20000; i++) xs.push(rand() * 150, Math.round(rand() * 3000) / 20, Math.round(rand() * 3000) / 20 + 1e-12);
    // One assertion over all values (an expect per value is slow); the list names any that differ.
    expect(xs.filter((x) => inchesText(x) !== x.toFixed(1)).map((x) => `${x}: ${inchesText(x)} vs ${x.toFixed(1)}`)).toEqual([]);
  });
});
