import { describe, expect, it } from 'vitest';
import { getRuleset, rulesetValuesProblems, type RulesetFieldSpec } from '@muster/rules';
import { readStatusInput, statusChangeWords, statusInputs, withStatusValue } from './rulesetStatusFields.ts';

describe('a rule set’s status fields as inputs', () => {
  it('makes one input per declared field of every installed rule set, of the kind its type needs', () => {
    for (const id of ['devil-to-pay', 'while-the-devil-rules', 'volley-and-bayonet', 'fire-and-fury-regimental']) {
      const specs = getRuleset(id).statusFields ?? [];
      expect(specs.length).toBeGreaterThan(0);
      const inputs = statusInputs(specs, undefined);
      expect(inputs.map((i) => i.spec.id)).toEqual(specs.map((s) => s.id));
      for (const i of inputs) {
        const want = { boolean: 'checkbox', choice: 'select', choices: 'checkboxes', number: 'number', integer: 'number' }[i.spec.type];
        expect(i.kind).toBe(want);
        if (i.kind === 'select') expect(i.options.slice(1).map((o) => o.value)).toEqual(i.spec.choices!.map((c) => c.id));
        expect(i.title).toContain(i.spec.source);
      }
    }
  });

  const bases: RulesetFieldSpec = { id: 'basesLost', label: 'Bases lost', type: 'integer', min: 0, max: 4, source: 'Morale' };
  const state: RulesetFieldSpec = { id: 'state', label: 'State', type: 'choice', choices: [{ id: 'fresh', label: 'Fresh' }, { id: 'shaken', label: 'Shaken' }], default: 'fresh', source: 'Morale' };

  it('shows the unit’s values, the default named in an empty choice', () => {
    const [b, s] = statusInputs([bases, state], { basesLost: 2, state: 'shaken' });
    expect(b!.shown).toBe('2');
    expect(b!.step).toBe('1');
    expect(b!.max).toBe(4);
    expect(s!.shown).toBe('shaken');
    expect(statusInputs([state], undefined)[0]!.options[0]).toEqual({ value: '', label: '— (Fresh)' });
  });

  it('reads values back, checked against the declaration: a bad one is refused with the reason', () => {
    expect(readStatusInput(bases, '3')).toEqual({ ok: true, value: 3 });
    expect(readStatusInput(bases, '')).toEqual({ ok: true, value: undefined });
    const tooMany = readStatusInput(bases, '7');
    expect(tooMany.ok).toBe(false);
    expect(!tooMany.ok && tooMany.message).toBe('Bases lost: expected at most 4 (Bases lost), got 7');
    expect(readStatusInput(bases, '1.5').ok).toBe(false);
    expect(readStatusInput(state, 'shaken')).toEqual({ ok: true, value: 'shaken' });
    expect(readStatusInput(state, 'routed').ok).toBe(false);
    expect(readStatusInput({ id: 'acted', label: 'Acted', type: 'boolean', source: 's' }, true)).toEqual({ ok: true, value: true });
  });

  it('builds the whole new bag the set-unit-status message carries, which the rule set accepts', () => {
    const next = withStatusValue({ state: 'shaken' }, 'basesLost', 2);
    expect(next).toEqual({ state: 'shaken', basesLost: 2 });
    expect(rulesetValuesProblems([bases, state], next!, 'rulesetStatus', 'x')).toEqual([]);
    expect(withStatusValue({ basesLost: 2 }, 'basesLost', undefined)).toBeNull();
    expect(statusChangeWords(state, 'shaken')).toBe('state: Shaken');
    expect(statusChangeWords(bases, undefined)).toBe('bases lost cleared');
  });
});
