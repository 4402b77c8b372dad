import { describe, expect, it } from 'vitest';
import { standInfoOf, type StandInfo } from './context.ts';
import { StandInfoOverlay } from './standInfoOverlay.ts';
import type { Stand } from '../../model/tableState.ts';

const stand = (id: string, xIn: number): Stand => ({ id, unitId: 'u', pose: { xIn, yIn: 10, headingDeg: 90 }, widthIn: 1.5, depthIn: 1.5, role: 'base' });

describe('StandInfoOverlay', () => {
  it('reads as the full map of the changed state: values, keys in the base order, size, iteration', () => {
    const before = ['a', 'b', 'c', 'd'].map((id, i) => standInfoOf(stand(id, i * 2), 0));
    const base = new Map(before.map((s) => [s.stand.id, s] as [string, StandInfo]));
    const movedB = standInfoOf(stand('b', 7), 0);
    const movedD = standInfoOf(stand('d', 9), 1);
    const overlay = new StandInfoOverlay(base, new Map([['d', movedD], ['b', movedB]]));
    const full = new Map([['a', before[0]!], ['b', movedB], ['c', before[2]!], ['d', movedD]]);
    expect(overlay.get('b')).toBe(movedB);
    expect(overlay.get('a')).toBe(before[0]);
    expect(overlay.get('z')).toBeUndefined();
    expect(overlay.has('d')).toBe(true);
    expect(overlay.has('z')).toBe(false);
    expect(overlay.size).toBe(4);
    expect([...overlay]).toEqual([...full]);
    expect([...overlay.keys()]).toEqual([...full.keys()]);
    expect([...overlay.values()]).toEqual([...full.values()]);
    expect([...overlay.entries()]).toEqual([...full.entries()]);
    const seen: [string, StandInfo][] = [];
    overlay.forEach((v, k, m) => {
      expect(m).toBe(overlay);
      seen.push([k, v]);
    });
    expect(seen).toEqual([...full]);
    // The base map is never written.
    expect(base.get('b')).toBe(before[1]);
  });
});
