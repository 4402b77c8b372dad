import { describe, expect, it } from 'vitest';
import { memoSlots, ownedMemo, ownedSlot, type MemoSlots } from './ownedMemo.ts';

interface Owner {
  readonly name: string;
  readonly memos: MemoSlots;
}
const owner = (name: string): Owner => ({ name, memos: memoSlots() });

describe('ownedMemo', () => {
  it('builds once per owner, keeps each owner its own value, and peek never builds', () => {
    const built: string[] = [];
    const memo = ownedMemo((o: Owner) => {
      built.push(o.name);
      return { of: o.name };
    });
    const a = owner('a');
    const b = owner('b');
    expect(memo.peek(a)).toBeUndefined();
    const va = memo.get(a);
    expect(memo.get(a)).toBe(va);
    expect(memo.get(b)).toEqual({ of: 'b' });
    expect(memo.get(a)).toBe(va);
    // Same content, another owner: its own value.
    expect(memo.get(owner('a'))).not.toBe(va);
    expect(built).toEqual(['a', 'b', 'a']);
  });

  it('gives each memo and slot its own place on an owner, and a set value can be dropped', () => {
    const first = ownedMemo((o: Owner) => `first of ${o.name}`);
    const second = ownedMemo((o: Owner) => `second of ${o.name}`);
    const handed = ownedSlot<Owner, string>();
    const a = owner('a');
    expect(second.get(a)).toBe('second of a');
    expect(first.get(a)).toBe('first of a');
    expect(handed.peek(a)).toBeUndefined();
    handed.set(a, 'handed on');
    expect(handed.peek(a)).toBe('handed on');
    expect([first.get(a), second.get(a)]).toEqual(['first of a', 'second of a']);
    handed.set(a, undefined);
    expect(handed.peek(a)).toBeUndefined();
    // A memo whose value was dropped builds again.
    first.set(a, undefined);
    expect(first.get(a)).toBe('first of a');
  });
});
