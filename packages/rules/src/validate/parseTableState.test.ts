import { describe, expect, it } from 'vitest';
import type { TableState } from '../model/tableState.ts';
import { parseTableState, validateTableState } from './parseTableState.ts';
import { TableStateError } from './tableStateError.ts';

function small(): TableState {
  return {
    version: 1,
    table: { widthIn: 48, depthIn: 36 },
    stands: [
      { id: 's1', unitId: 'u1', pose: { xIn: 10, yIn: 10, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'command' },
      { id: 's2', unitId: 'u1', pose: { xIn: 11.5, yIn: 10, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'base' },
      { id: 'c1', unitId: 'cmd', pose: { xIn: 10, yIn: 8, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'commander' },
    ],
    units: [
      { id: 'u1', name: '1st', side: 'a', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', brigadeId: 'b', standIds: ['s1', 's2'] },
    ],
    commanders: [{ id: 'cmd', name: 'C', side: 'a', brigadeId: 'b', quality: 'capable', standId: 'c1' }],
    terrain: { areas: [], linear: [], roads: [], elevations: [] },
  };
}

describe('parseTableState', () => {
  it('returns a valid state unchanged', () => {
    const s = small();
    const copy = structuredClone(s);
    expect(parseTableState(s)).toBe(s);
    expect(s).toEqual(copy);
  });

  it('lists every problem with its path, one per line', () => {
    const s = structuredClone(small()) as any;
    s.stands[1].pose.yIn = Number.NaN;
    s.units[0].arm = 'dragoons';
    s.commanders[0].quality = 'great';
    try {
      parseTableState(s);
      expect.unreachable('should have thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(TableStateError);
      const e = err as TableStateError;
      expect(e.problems.map((p) => p.path)).toEqual(['stands[1].pose.yIn', 'units[0].arm', 'commanders[0].quality']);
      expect(e.message.split('\n')).toHaveLength(4);
      expect(e.message).toContain('stands[1].pose.yIn: expected a finite number inches, got NaN');
      expect(e.oneLine(2)).toMatch(/^stands\[1\]\.pose\.yIn: .*; units\[0\]\.arm: .* \(and 1 more\)$/);
    }
  });

  it('checks references only once the shape is right, and says what was expected', () => {
    const s = structuredClone(small()) as any;
    s.units[0].standIds.push('s99');
    const r = validateTableState(s);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems).toEqual([{ path: 'units[0].standIds[2]', message: 'unknown stand "s99"' }]);
  });

  it('takes an army or wing commander, who leads no brigade of his own, and still refuses an unknown brigade', () => {
    const s = structuredClone(small()) as any;
    s.commanders.push({ id: 'general', name: 'G', side: 'a', brigadeId: 'army', quality: 'superb' }, { id: 'wing', name: 'W', side: 'a', brigadeId: 'wing-1', quality: 'capable' });
    expect(validateTableState(s).ok).toBe(true);
    for (const bad of ['armies', 'wing-', 'b2']) {
      const t = structuredClone(s);
      t.commanders[1].brigadeId = bad;
      const r = validateTableState(t);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problems).toEqual([{ path: 'commanders[1].brigadeId', message: expect.stringContaining(`no unit has brigadeId "${bad}"`) }]);
    }
  });

  it('insists a commander stand and its commander point at each other', () => {
    const s = structuredClone(small()) as any;
    delete s.commanders[0].standId;
    const r = validateTableState(s);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems[0]?.path).toBe('stands[2].unitId');
  });

  it('rejects attaching a commander to an enemy unit', () => {
    const s = structuredClone(small()) as any;
    s.units[0].status = { attachedCommanderId: 'cmd' };
    s.commanders[0].side = 'b';
    const r = validateTableState(s);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.path)).toContain('units[0].status.attachedCommanderId');
  });
});
