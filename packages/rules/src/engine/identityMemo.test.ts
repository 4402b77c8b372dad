import { describe, expect, it } from 'vitest';
import { identityMemo } from './identityMemo.ts';

describe('identityMemo', () => {
  it('builds once per object, whether asked again at once or after other objects, and peek never builds', () => {
    const built: string[] = [];
    const memo = identityMemo((k: { name: string }) => {
      built.push(k.name);
      return { of: k.name };
    });
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect(memo.peek(a)).toBeUndefined();
    const va = memo.get(a);
    expect(memo.get(a)).toBe(va);
    const vb = memo.get(b);
    expect(vb).toEqual({ of: 'b' });
    expect(memo.get(a)).toBe(va);
    expect(memo.peek(b)).toBe(vb);
    // An object equal in content is another object: its own value.
    expect(memo.get({ name: 'a' })).not.toBe(va);
    expect(built).toEqual(['a', 'b', 'a']);
  });
});
