import { describe, expect, it } from 'vitest';
import type { EvaluationWarning } from '@muster/rules';
import { unitWarningLines, unitWarningsKey } from './unitWarnings.ts';

const warnings: EvaluationWarning[] = [
  { code: 'formation/uncertain', message: 'Formation of 1st Texas is uncertain.', unitId: 'tx' },
  { code: 'sharpshooters/not-loose-order', message: 'Berdan is in line; sharpshooters must fight in loose order.', unitId: 'ss' },
  { code: 'table/something', message: 'About the whole table.' },
  { code: 'sharpshooters/removed', message: 'Berdan is reduced to one stand: it is removed.', unitId: 'ss' },
];

describe('unitWarningLines', () => {
  it('keeps only the selected unit\'s warnings, in order, sharpshooter ones included', () => {
    expect(unitWarningLines(warnings, 'ss').map((l) => l.code)).toEqual(['sharpshooters/not-loose-order', 'sharpshooters/removed']);
    expect(unitWarningLines(warnings, 'tx')).toEqual([{ code: 'formation/uncertain', message: 'Formation of 1st Texas is uncertain.' }]);
  });

  it('is empty with no warnings or no evaluation', () => {
    expect(unitWarningLines(warnings, 'nobody')).toEqual([]);
    expect(unitWarningLines(undefined, 'ss')).toEqual([]);
  });

  it('has a key that changes with the lines', () => {
    const a = unitWarningsKey(unitWarningLines(warnings, 'ss'));
    expect(a).toBe(unitWarningsKey(unitWarningLines([...warnings], 'ss')));
    expect(a).not.toBe(unitWarningsKey(unitWarningLines(warnings.slice(0, 2), 'ss')));
    expect(unitWarningsKey([])).toBe('');
  });
});
