import { fromBuffer } from 'osc-min';
import { describe, expect, it } from 'vitest';
import { BUNDLE_HEADER_BYTES, bundleElementSize, encodeBundle, encodeMessage, float, int, oscString, str } from './osc.ts';

describe('OSC encoding, checked with the osc-min decoder', () => {
  it('writes the OSC 1.0 spec example byte for byte', () => {
    // "/oscillator/4/frequency" ",f" 440.0, from the OSC 1.0 specification's examples.
    const bytes = encodeMessage('/oscillator/4/frequency', [float(440)]);
    expect(bytes.toString('hex')).toBe('2f6f7363696c6c61746f722f342f6672657175656e6379002c66000043dc0000');
  });

  it('pads strings of every length to 4 bytes with at least one NUL', () => {
    for (let n = 0; n <= 9; n++) {
      const s = 'x'.repeat(n);
      const b = oscString(s);
      expect(b.length % 4).toBe(0);
      expect(b.length).toBeGreaterThan(n);
      expect(b.subarray(n).every((v) => v === 0)).toBe(true);
      const decoded = fromBuffer(encodeMessage('/a', [str(s), int(n)]));
      expect(decoded).toMatchObject({ oscType: 'message', address: '/a', args: [{ type: 'string', value: s }, { type: 'integer', value: n }] });
    }
  });

  it('round-trips int32, float32 and UTF-8 strings', () => {
    const msg = encodeMessage('/tuio/2Dobj', [str('set'), int(-2147483648), int(2147483647), float(0.1), float(-3.5), str('muster@tisch-ü')]);
    const decoded = fromBuffer(msg);
    expect(decoded).toEqual({
      oscType: 'message',
      address: '/tuio/2Dobj',
      args: [
        { type: 'string', value: 'set' },
        { type: 'integer', value: -2147483648 },
        { type: 'integer', value: 2147483647 },
        { type: 'float', value: Math.fround(0.1) },
        { type: 'float', value: -3.5 },
        { type: 'string', value: 'muster@tisch-ü' },
      ],
    });
  });

  it('writes bundles with #bundle, the "immediately" time tag and sized elements', () => {
    const a = encodeMessage('/tuio/2Dobj', [str('alive'), int(1), int(2)]);
    const f = encodeMessage('/tuio/2Dobj', [str('fseq'), int(7)]);
    const b = encodeBundle([a, f]);
    expect(b.length).toBe(BUNDLE_HEADER_BYTES + bundleElementSize(a) + bundleElementSize(f));
    expect(b.subarray(0, 16).toString('hex')).toBe('2362756e646c65000000000000000001');
    const decoded = fromBuffer(b);
    expect(decoded).toEqual({
      oscType: 'bundle',
      timetag: [0, 1],
      elements: [
        { oscType: 'message', address: '/tuio/2Dobj', args: [{ type: 'string', value: 'alive' }, { type: 'integer', value: 1 }, { type: 'integer', value: 2 }] },
        { oscType: 'message', address: '/tuio/2Dobj', args: [{ type: 'string', value: 'fseq' }, { type: 'integer', value: 7 }] },
      ],
    });
  });

  it('refuses what OSC cannot carry', () => {
    expect(() => encodeMessage('/a', [int(2 ** 31)])).toThrow(/int32/);
    expect(() => encodeMessage('/a', [int(1.5)])).toThrow(/int32/);
    expect(() => oscString('a\0b')).toThrow(/NUL/);
  });
});
