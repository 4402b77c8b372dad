import { describe, expect, it } from 'vitest';
import type { DiceBreakdown, SplitFireOption } from '@muster/rules';
import { splitFireRows } from './splitFireRows.ts';

const names: Record<string, string> = { a: '28th Virginia', b: '1st Texas', c: 'Battery <B>' };
const nameOf = (id: string) => names[id] ?? id;
const breakdown = (dice: number): DiceBreakdown => ({ baseDice: 4, modifiers: [{ label: 'Long range', dice: dice - 4, source: 'Fire' }], dice, limits: [] });
const option = (a: string, b: string, harder: string, dice: number): SplitFireOption => ({
  targetUnitIds: [a, b], harderTargetUnitId: harder, dice, breakdown: breakdown(dice), source: 'Optional Rules, Split Fire',
});

describe('splitFireRows', () => {
  it('names each pair, the pool and the harder target, keeping the rules order and source', () => {
    const rows = splitFireRows([option('a', 'b', 'b', 3), option('a', 'c', 'a', 2)], nameOf);
    expect(rows.map((r) => r.pairText)).toEqual(['28th Virginia + 1st Texas', '28th Virginia + Battery <B>']);
    expect(rows[0]).toMatchObject({ key: 'a|b', targetUnitIds: ['a', 'b'], harderTargetName: '1st Texas', dice: 3, source: 'Optional Rules, Split Fire' });
    expect(rows[0]!.poolText).toBe('pool 3 dice, from 1st Texas (the harder target)');
    expect(rows[1]!.breakdown.dice).toBe(2);
    expect(rows[1]!.breakdown.modifiers[0]!.source).toBe('Fire');
  });

  it('leaves names as they are (the panel puts them in text nodes) and falls back to ids', () => {
    const [row] = splitFireRows([option('c', 'zz', 'zz', 2)], nameOf);
    expect(row!.pairText).toBe('Battery <B> + zz');
    expect(row!.harderTargetName).toBe('zz');
  });

  it('is empty for no options', () => {
    expect(splitFireRows([], nameOf)).toEqual([]);
  });
});
