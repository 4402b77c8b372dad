import { describe, expect, it } from 'vitest';
import { readableId, statusWords } from './statusWords.ts';

describe('statusWords', () => {
  it('says what the operator set, hits counted over the unit’s own stands', () => {
    const unit = { standIds: ['a1', 'a2'], status: { disordered: true, prone: true, hitsByStand: { a1: 1, a2: 1, zz: 1 } } };
    expect(statusWords(unit)).toEqual(['disordered', 'prone', '2 hits']);
    expect(statusWords({ standIds: ['a1'], status: { hitsByStand: { a1: 1 } } })).toEqual(['1 hit']);
    expect(statusWords({ standIds: ['a1'] })).toEqual([]);
  });

  it('shows a rule set’s own fields by their ids, and morale only once a threshold is reached', () => {
    const unit = { standIds: ['a1'], status: { rulesetStatus: { shaken: true, standsLost: 2, morale: 'worn', spent: false, tags: ['x', 'y'] } } };
    expect(statusWords(unit)).toEqual(['shaken', 'stands lost 2', 'morale: worn', 'tags: x, y']);
    const morale = { state: 'spent', counted: { label: 'stands lost', value: 3 }, thresholds: [{ label: 'Spent', at: 3, reached: true, source: 'p. 9' }] };
    expect(statusWords({ standIds: [] }, morale)).toEqual(['spent']);
    expect(statusWords({ standIds: [] }, { ...morale, thresholds: [{ ...morale.thresholds[0]!, reached: false }] })).toEqual([]);
    expect(readableId('carpe-diem')).toBe('carpe diem');
  });
});
