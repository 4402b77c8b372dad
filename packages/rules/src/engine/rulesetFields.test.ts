import { describe, expect, it } from 'vitest';
import type { Ruleset } from './ruleset.ts';
import type { TableState } from '../model/tableState.ts';
import { missingParameterWarning, numberParameter, rulesetStateProblems } from './rulesetFields.ts';
import { parseTableState, parseTableStateFor } from '../validate/parseTableState.ts';
import { TableStateError } from '../validate/tableStateError.ts';

const baseMove = { id: 'baseMoveIn', label: 'Base move (in)', type: 'number', unit: 'in', min: 0, max: 48, source: 'companion app', notInDocument: true } as const;
const ruleset: Ruleset = {
  id: 'test-rules',
  name: 'Test',
  source: 'test',
  evaluate: () => ({ rulesetId: 'test-rules', units: {}, shapes: [], warnings: [] }),
  parameters: [baseMove, { id: 'reading', label: 'Reading', type: 'choice', choices: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], default: 'a', source: 'README' }],
  unitFields: [
    { id: 'troopType', label: 'Troop type', type: 'choice', required: true, choices: [{ id: 'pike', label: 'Pike' }, { id: 'shot', label: 'Shot' }], source: 'p. 3' },
    { id: 'abilities', label: 'Abilities', type: 'choices', choices: [{ id: 'shock', label: 'Shock' }], source: 'p. 4' },
  ],
  statusFields: [{ id: 'shaken', label: 'Shaken', type: 'boolean', source: 'p. 9' }],
};

function state(extra: { params?: unknown; fields?: unknown; status?: unknown }): unknown {
  return {
    version: 1,
    table: { widthIn: 48, depthIn: 48 },
    stands: [{ id: 's1', unitId: 'u1', pose: { xIn: 5, yIn: 5, headingDeg: 0 }, widthIn: 1, depthIn: 1, role: 'base' }],
    units: [
      {
        id: 'u1', name: 'U', side: 'a', arm: 'infantry', quality: 'veteran', weapon: 'musket', standIds: ['s1'],
        ...(extra.fields !== undefined ? { rulesetFields: extra.fields } : {}),
        ...(extra.status !== undefined ? { status: { rulesetStatus: extra.status } } : {}),
      },
    ],
    commanders: [],
    terrain: { areas: [], linear: [], roads: [], elevations: [] },
    ...(extra.params !== undefined ? { rulesetParameters: extra.params } : {}),
  };
}

describe('rule-set fields and parameters', () => {
  it('accepts values that fit the declarations and reads numbers and defaults', () => {
    const s = parseTableStateFor(state({ params: { baseMoveIn: 6 }, fields: { troopType: 'pike', abilities: ['shock'] }, status: { shaken: true } }), ruleset);
    expect(numberParameter(s, baseMove)).toBe(6);
    expect(rulesetStateProblems(s, ruleset)).toEqual([]);
  });

  it('names every unknown id, bad value and missing required field with its path', () => {
    let err: unknown;
    try {
      parseTableStateFor(state({ params: { baseMoveIn: -1, speed: 3 }, fields: { abilities: ['shock', 'flying'] }, status: { shaken: 'yes' } }), ruleset);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TableStateError);
    const text = (err as TableStateError).message;
    expect(text).toContain('rulesetParameters.baseMoveIn: expected at least 0 in');
    expect(text).toContain('rulesetParameters.speed: unknown to ruleset "test-rules" (allowed: baseMoveIn, reading)');
    expect(text).toContain('units[0].rulesetFields.abilities: unknown ["flying"]');
    expect(text).toContain('units[0].rulesetFields.troopType: missing (required by ruleset "test-rules": Troop type)');
    expect(text).toContain('units[0].status.rulesetStatus.shaken: expected true or false');
  });

  it('rejects values of the wrong shape before any rule set sees them', () => {
    expect(() => parseTableState(state({ params: { baseMoveIn: { a: 1 } } }))).toThrow(/rulesetParameters.baseMoveIn: expected a number, text/);
    expect(() => parseTableState(state({ fields: { '1x': 2 } }))).toThrow(/rulesetFields.1x: expected an id/);
  });

  it('a missing number is undefined and its warning names the parameter and where to find it', () => {
    const s = parseTableState(state({})) as TableState;
    expect(numberParameter(s, baseMove)).toBeUndefined();
    const w = missingParameterWarning(baseMove, 'Movement reach', 'u1');
    expect(w).toMatchObject({ code: 'parameter/missing', parameterId: 'baseMoveIn', unitId: 'u1' });
    expect(w.message).toContain('companion app');
  });
});
