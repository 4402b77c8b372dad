import { describe, expect, it } from 'vitest';
import type { StyleId } from '@muster/rules';
import { DICHROMACIES, deltaE } from './colourVision.ts';
import { STYLE_PAINT, TABLE_CLOTH, sidePaint } from './palette.ts';

/** Clearly different colours at a glance (CIE76). */
const APART = 30;

describe('colour vision simulation', () => {
  it('keeps greys grey and merges the classic red/green confusion under deuteranopia', () => {
    expect(deltaE(0x808080, 0x808080, 'deuteranopia')).toBeCloseTo(0, 5);
    // Pure red and a yellow-green of similar lightness: far apart normally, close for a deuteranope.
    expect(deltaE(0xc0392b, 0x7a8a20, 'normal')).toBeGreaterThan(50);
    expect(deltaE(0xc0392b, 0x7a8a20, 'deuteranopia')).toBeLessThan(deltaE(0xc0392b, 0x7a8a20, 'normal') / 2);
  });
});

describe('palette', () => {
  const stroke = (s: StyleId) => STYLE_PAINT[s].stroke.color;
  // The pairs the issue found merging, and the ones that are drawn together on one unit.
  const mustDifferByColour: [StyleId, StyleId][] = [
    ['reach', 'charge'],
    ['target-priority', 'charge'],
    ['link-broken', 'arc'],
    ['reach', 'arc'],
    ['link-broken', 'charge'],
  ];
  for (const [a, b] of mustDifferByColour) {
    it(`${a} and ${b} stay apart under every dichromacy`, () => {
      for (const v of [...DICHROMACIES, 'normal' as const]) {
        expect(deltaE(stroke(a), stroke(b), v), `${a} vs ${b} (${v})`).toBeGreaterThanOrEqual(APART);
      }
    });
  }

  it('styles whose colours come close for someone differ by dash, width or fill', () => {
    const styles = Object.keys(STYLE_PAINT).filter((s) => s !== 'label') as StyleId[];
    for (let i = 0; i < styles.length; i++) {
      for (let j = i + 1; j < styles.length; j++) {
        const a = STYLE_PAINT[styles[i]!];
        const b = STYLE_PAINT[styles[j]!];
        const closest = Math.min(...DICHROMACIES.map((v) => deltaE(a.stroke.color, b.stroke.color, v)));
        if (closest >= 20) continue;
        const pattern = (p: typeof a) => `${p.dashIn?.join('/') ?? 'solid'}|${p.strokeWidthIn}|${p.fill ? 'filled' : 'line'}`;
        expect(pattern(a), `${styles[i]} vs ${styles[j]} look alike (ΔE ${closest.toFixed(1)}) and are drawn alike`).not.toBe(pattern(b));
      }
    }
  });

  it('every annotation stroke stands out on the olive cloth', () => {
    for (const [style, paint] of Object.entries(STYLE_PAINT)) {
      if (paint.strokeWidthIn === 0) continue;
      for (const v of DICHROMACIES) expect(deltaE(paint.stroke.color, TABLE_CLOTH, v), `${style} on cloth (${v})`).toBeGreaterThanOrEqual(APART);
    }
  });

  it('the two sides read apart from each other and from the cloth', () => {
    const union = sidePaint('union', []).fill;
    const confederate = sidePaint('confederate', []).fill;
    for (const v of DICHROMACIES) {
      expect(deltaE(union, confederate, v), `union vs confederate (${v})`).toBeGreaterThanOrEqual(APART);
      expect(deltaE(union, TABLE_CLOTH, v), `union on cloth (${v})`).toBeGreaterThanOrEqual(20);
      expect(deltaE(confederate, TABLE_CLOTH, v), `confederate on cloth (${v})`).toBeGreaterThanOrEqual(20);
    }
    // The old red stand against the cloth, for the record: what the issue saw.
    expect(deltaE(0xc0392b, TABLE_CLOTH, 'protanopia')).toBeLessThan(20);
  });
});
