import { describe, it } from 'vitest';
import fc from 'fast-check';
import { orderByKey, sortSmall } from './sortSmall.ts';

describe('sortSmall', () => {
  it('gives the same order as Array.prototype.sort (stable) for short and long lists', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.integer({ min: 0, max: 5 }), tag: fc.nat() }), { maxLength: 40 }), (items) => {
        const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
        const expected = [...items].sort(byKey);
        const actual = sortSmall([...items], byKey);
        return expected.length === actual.length && expected.every((x, i) => x === actual[i]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('orderByKey', () => {
  it('orders indices as a stable sort of the keys does (equal keys in index order), reading only the first `count`', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3, max: 3 }).map((k) => k / 2), { maxLength: 40 }), fc.nat({ max: 5 }), (keyList, spare) => {
        const keys = Float64Array.from([...keyList, ...Array.from({ length: spare }, () => -100)]);
        const order = new Int32Array(keys.length).fill(-1);
        orderByKey(keys, keyList.length, order);
        const expected = keyList.map((_, i) => i).sort((a, b) => keyList[a]! - keyList[b]!);
        return expected.every((x, i) => order[i] === x) && order.subarray(keyList.length).every((x) => x === -1);
      }),
      { numRuns: 2000 },
    );
  });
});
