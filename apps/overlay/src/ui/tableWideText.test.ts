import { describe, expect, it } from 'vitest';
import type { CombinedChargeReading, DiceBreakdown } from '@muster/rules';
import { combinedChargeSentence, combinedChargesOf, commanderSentence, listWords } from './tableWideText.ts';

const pool = (dice: number): DiceBreakdown => ({ baseDice: dice, modifiers: [], dice, limits: [] });
const names: Record<string, string> = { a: '19th Alabama', b: '22nd Alabama', c: '25th Alabama', t: '3rd Union', r: '4th Union', cmd: 'Brig. Gen. Law' };
const nameOf = (id: string) => names[id] ?? id;

describe('table-wide readings in words', () => {
  it('a commander: name, quality, orders per turn', () => {
    expect(commanderSentence({ commanderId: 'cmd', ordersPerTurn: 2, quality: 'capable', source: 'Commanders (p. 6)' }, nameOf)).toBe('Brig. Gen. Law (capable): 2 orders per turn.');
    expect(commanderSentence({ commanderId: 'x', ordersPerTurn: 1, source: 's' }, nameOf)).toBe('x: 1 order per turn.');
  });
  it('a combined charge: who, whom, the one pool, reinforcements', () => {
    const c: CombinedChargeReading = { targetUnitId: 't', attackerUnitIds: ['a', 'b', 'c'], attacker: pool(11), defender: pool(5), reinforcerIds: ['r'], reinforcedDefender: pool(7), source: 'Charge' };
    expect(combinedChargeSentence(c, nameOf)).toBe('19th Alabama, 22nd Alabama and 25th Alabama may charge 3rd Union together: 11 dice against 5 dice (7 dice with 4th Union reinforcing).');
    expect(combinedChargesOf([c], 'b')).toEqual([c]);
    expect(combinedChargesOf([c], 't')).toEqual([c]);
    expect(combinedChargesOf([c], 'r')).toEqual([]);
    expect(combinedChargesOf(undefined, 'a')).toEqual([]);
  });
  it('lists', () => {
    expect(listWords([])).toBe('');
    expect(listWords(['a'])).toBe('a');
    expect(listWords(['a', 'b'])).toBe('a and b');
  });
});
