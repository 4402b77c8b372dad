import { describe, expect, it } from 'vitest';
import { commandText, hastyWorksText, moraleText } from './unitReadingText.ts';

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

describe('readings other rule sets report', () => {
  it('names the commander, and says in or out of command with the radius', () => {
    const nameOf = (id: string) => ({ gibbon: 'Gen. Gibbon' })[id] ?? id;
    expect(commandText({ brigadeFormationUnitIds: [], commanderInRangeId: 'gibbon', commanderDistanceIn: 5.25, inCommand: true, commandRadiusIn: 8 }, nameOf)).toBe(
      'Brigade formation with: none. Commander in range: Gen. Gibbon (5.3"). In command (radius 8").',
    );
    expect(commandText({ brigadeFormationUnitIds: [], inCommand: false }, nameOf)).toBe('Brigade formation with: none. Commander in range: none. Out of command.');
  });

  it('states morale with what is counted and each threshold', () => {
    expect(moraleText({ state: 'worn', counted: { label: 'stands lost', value: 2 }, thresholds: [{ label: 'Worn', at: 2, reached: true, source: 'x' }, { label: 'Spent', at: 4, reached: false, source: 'x' }] })).toBe(
      'Morale: worn — stands lost 2; Worn at 2 (reached), Spent at 4',
    );
  });
});
