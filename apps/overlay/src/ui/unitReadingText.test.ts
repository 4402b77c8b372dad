import { describe, expect, it } from 'vitest';
import { commandText, hastyWorksText } from './unitReadingText.ts';

const SRC = 'Optional Rules, Constructing Hasty Works';

describe('hastyWorksText', () => {
  it('says how many move actions, and why fewer in woods', () => {
    expect(hastyWorksText({ moveActions: 4, inWoods: false, source: SRC })).toBe('Hasty works: 4 move actions');
    expect(hastyWorksText({ moveActions: 3, inWoods: true, source: SRC })).toBe('Hasty works: 3 move actions (in woods)');
    expect(hastyWorksText({ moveActions: 1, inWoods: false, source: SRC })).toBe('Hasty works: 1 move action');
  });
});

describe('commandText', () => {
  const nameOf = (id: string) => ({ u2: '2nd Wisconsin' })[id] ?? id;

  it('lists brigade links and commander, and orders only when reported', () => {
    expect(commandText({ brigadeFormationUnitIds: [] }, nameOf)).toBe('Brigade formation with: none. Commander in range: none.');
    expect(commandText({ brigadeFormationUnitIds: ['u2'], commanderInRangeId: 'gibbon', attachedCommanderId: 'gibbon', ordersLeft: 1 }, nameOf)).toBe(
      'Brigade formation with: 2nd Wisconsin. Commander in range: gibbon. Attached: gibbon. Orders left: 1.',
    );
  });

  it('adds orders per turn when an optional rule sets it (sharpshooters)', () => {
    expect(commandText({ brigadeFormationUnitIds: [], ordersLeft: 0, ordersPerTurn: 3 }, nameOf)).toBe(
      'Brigade formation with: none. Commander in range: none. Orders left: 0. Orders per turn: 3.',
    );
  });
});
