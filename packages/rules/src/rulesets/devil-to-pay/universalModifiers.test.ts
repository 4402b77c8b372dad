import { describe, expect, it } from 'vitest';
import { universalModifiers } from './universalModifiers.ts';

const sum = (ms: { dice: number }[]) => ms.reduce((s, m) => s + m.dice, 0);

describe('universalModifiers', () => {
  it('gives crack +1, veteran 0, green -1', () => {
    expect(sum(universalModifiers({ quality: 'crack' }, false))).toBe(1);
    expect(universalModifiers({ quality: 'veteran' }, false)).toEqual([]);
    expect(sum(universalModifiers({ quality: 'green' }, false))).toBe(-1);
  });
  it('adds +1 for an attached brigade commander, named with its section', () => {
    const ms = universalModifiers({ quality: 'green' }, true);
    expect(sum(ms)).toBe(0);
    expect(ms.map((m) => m.label)).toEqual(['Brigade commander attached', 'Green']);
    expect(ms.every((m) => m.source.length > 0)).toBe(true);
  });
});
