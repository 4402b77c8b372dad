import { describe, expect, it } from 'vitest';
import { groupRefusals } from './refusalGroups.ts';

const r = (targetUnitId: string, reason: string) => ({ ok: false as const, targetUnitId, reason });

describe('groupRefusals', () => {
  it('keeps reasons worth reading in sight and counts the far ones into one line', () => {
    const g = groupRefusals('fire', [r('a', 'fire/target-out-of-range'), r('b', 'fire/target-out-of-arc'), r('c', 'fire/out-of-range'), r('d', 'fire/no-line-of-sight')]);
    expect(g.shown.map((x) => x.targetUnitId)).toEqual(['b', 'd']);
    expect(g.far.map((x) => x.targetUnitId)).toEqual(['a', 'c']);
    expect(g.farTitle).toBe('2 more out of range');
  });
  it('says reach for charges, and drops "more" when nothing else is listed', () => {
    expect(groupRefusals('charge', [r('a', 'charge/out-of-reach')]).farTitle).toBe('1 out of reach');
    expect(groupRefusals('charge', [r('a', 'charge/path-blocked')]).farTitle).toBe('');
  });
});
