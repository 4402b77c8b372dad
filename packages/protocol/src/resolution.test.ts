/** Protocol 5, after the roll: the operator's resolution messages as the wire checks them. */
import { describe, expect, it } from 'vitest';
import { validateClientMessage } from './validate.ts';
import { isOperatorMessage } from './messages.ts';

const ok = (v: unknown) => {
  const r = validateClientMessage(v);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const bad = (v: unknown): string => {
  const r = validateClientMessage(v);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(v)}`);
  return r.message;
};

describe('after-the-roll messages (protocol 5)', () => {
  it('accepts an offer, a roll with or without faces, and apply / undo / clear by log index; all operator-only', () => {
    const action = { kind: 'charge', unitId: 'a', targetUnitId: 'b', unitIds: ['a', 'c'], targetUnitIds: ['b', 'd'], commanderId: 'k', choices: { close: true, stands: ['s1'], n: 2 } };
    for (const msg of [
      { type: 'resolve-offer', unitId: 'a' },
      { type: 'resolve-offer', unitId: 'a', actions: [{ kind: 'skedaddle', unitId: 'a', targetUnitId: 'b' }] },
      { type: 'resolve-roll', action },
      { type: 'resolve-roll', action: { kind: 'fire', unitId: 'a', targetUnitId: 'b' }, faces: { fire: [6, 2, 4], defender: [] } },
      { type: 'apply-outcome', outcomeIndex: 12 },
      { type: 'undo-outcome', outcomeIndex: 0 },
      { type: 'clear-outcome', outcomeIndex: 3, requestId: 'r' },
    ]) {
      const parsed = ok(msg);
      expect(parsed).toEqual(msg);
      expect(isOperatorMessage(parsed)).toBe(true);
    }
  });

  it('refuses malformed ones, naming the field', () => {
    expect(bad({ type: 'resolve-offer' })).toMatch(/^unitId: expected a string/);
    expect(bad({ type: 'resolve-offer', unitId: 'a', actions: [{ unitId: 'a' }] })).toMatch(/^actions\[0\]\.kind: expected a string/);
    expect(bad({ type: 'resolve-roll', action: { unitId: 'a' } })).toMatch(/^action\.kind: expected a string/);
    expect(bad({ type: 'resolve-roll', action: { kind: 'Fire!' } })).toMatch(/^action\.kind: expected an action kind/);
    expect(bad({ type: 'resolve-roll', action: { kind: 'fire', range: 3 } })).toMatch(/^action: unknown field "range"/);
    expect(bad({ type: 'resolve-roll', action: { kind: 'fire', unitIds: 'a' } })).toMatch(/^action\.unitIds: expected an array/);
    expect(bad({ type: 'resolve-roll', action: { kind: 'fire' }, faces: { fire: [0] } })).toMatch(/^faces\.fire\[0\]: must be in 1\.\.100/);
    expect(bad({ type: 'resolve-roll', action: { kind: 'fire' }, faces: { fire: [2.5] } })).toMatch(/^faces\.fire\[0\]: expected an integer/);
    expect(bad({ type: 'resolve-roll', action: { kind: 'fire' }, faces: [6] })).toMatch(/^faces: expected an object/);
    expect(bad({ type: 'resolve-roll', action: { kind: 'fire' }, faces: { fire: Array(101).fill(1) } })).toMatch(/^faces\.fire: at most 100 entries/);
    expect(bad({ type: 'apply-outcome', outcomeIndex: -1 })).toMatch(/^outcomeIndex: must be in 0\.\./);
    expect(bad({ type: 'undo-outcome', outcomeIndex: '3' })).toMatch(/^outcomeIndex: expected an integer/);
  });
});
