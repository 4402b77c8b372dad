import { describe, expect, it } from 'vitest';
import { shareUnchanged } from './shareUnchanged.ts';
import { shareTableState } from './shareTableState.ts';
import type { TableState } from '../model/tableState.ts';
import { samePlainData } from './samePlainData.ts';
import { largeScene } from '../../../../fixtures/rules/largeScene.ts';
import { seededRandom } from '../../../../fixtures/seededRandom.ts';

describe('shareUnchanged', () => {
  it('gives back the previous object for an equal re-sent state, and the new value where anything differs', () => {
    const prev = largeScene(1);
    const copy = structuredClone(prev);
    expect(shareUnchanged(prev, copy)).toBe(prev);
    const copied = structuredClone(prev);
    const moved = { ...copied, stands: copied.stands.map((s, i) => (i === 7 ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + 0.25 } } : s)) };
    const shared = shareUnchanged(prev, moved);
    expect(shared).toEqual(moved);
    expect(shared).not.toBe(prev);
    expect(shared.stands[7]).not.toBe(prev.stands[7]);
    expect(shared.stands[7]!.pose.xIn).toBe(moved.stands[7]!.pose.xIn);
    // Everything else is the previous state's own objects.
    expect(shared.terrain).toBe(prev.terrain);
    expect(shared.units).toBe(prev.units);
    expect(shared.stands[6]).toBe(prev.stands[6]);
    expect(shared.stands[7]!.id).toBe(prev.stands[7]!.id);
  });

  it('pairs items by id when the list comes in another order, and keeps undefined fields and NaN as samePlainData does', () => {
    const prev = largeScene(2);
    const copied = structuredClone(prev);
    const next = { ...copied, stands: [...copied.stands].reverse() };
    const shared = shareUnchanged(prev, next);
    expect(shared.stands.map((s) => s.id)).toEqual(next.stands.map((s) => s.id));
    expect(shared.stands[0]).toBe(prev.stands[prev.stands.length - 1]);
    expect(shareUnchanged({ a: 1, b: { c: NaN } }, { a: 1, b: { c: NaN }, d: undefined })).toEqual({ a: 1, b: { c: NaN } });
    const p = { a: 1, b: { c: NaN } };
    expect(shareUnchanged(p, { a: 1, b: { c: NaN }, d: undefined })).toBe(p);
    expect(shareUnchanged({ a: [1, 2] }, { a: [1, 2, 3] })).toEqual({ a: [1, 2, 3] });
    expect(shareUnchanged({ a: 1, extra: 2 }, { a: 1 })).toEqual({ a: 1 });
  });

  it('always answers a value equal to the new one, whatever changed (seeded edits)', () => {
    const rand = seededRandom(11);
    let prev = largeScene(3);
    for (let step = 0; step < 60; step++) {
      const copied = structuredClone(prev);
      const r = rand();
      const k = Math.floor(rand() * copied.stands.length);
      const next =
        r < 0.4
          ? { ...copied, stands: copied.stands.map((s, i) => (i === k ? { ...s, pose: { ...s.pose, headingDeg: Math.floor(rand() * 360) } } : s)) }
          : r < 0.6
            ? { ...copied, stands: copied.stands.filter((_, i) => i !== k) }
            : r < 0.8
              ? { ...copied, units: [...copied.units].reverse() }
              : { ...copied, terrain: { ...copied.terrain, areas: copied.terrain.areas.map((a, i) => (i === 0 ? { ...a, vertices: a.vertices.map((v, j) => (j === 0 ? { ...v, xIn: v.xIn + 1 } : v)) } : a)) } };
      const shared = shareUnchanged(prev, next);
      expect(samePlainData(shared, next)).toBe(true);
      prev = shared;
    }
  });
});

describe('shareTableState', () => {
  it('answers what shareUnchanged answers, with the same sharing, on seeded edits of a table', () => {
    const rand = seededRandom(5);
    let prev = largeScene(4);
    for (let step = 0; step < 60; step++) {
      const copied = structuredClone(prev);
      const k = Math.floor(rand() * copied.stands.length);
      const r = rand();
      const next =
        r < 0.5
          ? { ...copied, stands: copied.stands.map((s, i) => (i === k ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + 0.25 } } : s)) }
          : r < 0.7
            ? { ...copied, stands: [...copied.stands].reverse() }
            : r < 0.85
              ? { ...copied, stands: copied.stands.map((s, i) => (i === k ? { ...s, role: s.role === 'commander' ? 'base' : 'commander' } : s)) }
              : copied;
      const fast = shareTableState(prev, next as TableState);
      const generic = shareUnchanged(prev, next);
      expect(samePlainData(fast, next)).toBe(true);
      expect(fast === prev).toBe(generic === prev);
      expect(fast.stands.map((s, i) => s === prev.stands.find((p) => p.id === s.id))).toEqual(generic.stands.map((s) => s === prev.stands.find((p) => p.id === s.id)));
      expect(fast.terrain).toBe(prev.terrain);
      prev = fast;
    }
  });
});
