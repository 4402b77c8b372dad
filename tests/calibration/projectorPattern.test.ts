/**
 * The projector pattern against opencv.js itself: the hard-coded codes are the dictionary's, no pattern
 * code is within 6 bits of a DICT_6X6_1000 code (the table dictionaries of the same grid), the tags fit
 * the screen without touching, and the black rectangles the page fills are the modules the sampler sees.
 */
import { describe, expect, it } from 'vitest';
import { loadCv } from '../../apps/vision/src/cv/loadCv.ts';
import { markerModules } from '../../apps/vision/src/markers/markerModules.ts';
import {
  PATTERN_TAG_CODES, PROJECTOR_PATTERN_DICTIONARY, patternBlackRects, patternCodeOrder, patternLitAt, patternTagModules, projectorPattern,
} from '@muster/table-mapping';

const rotate = (m: boolean[][]): boolean[][] => m.map((row, r) => row.map((_, c) => m[m.length - 1 - c]![r]!));

describe('projector pattern', () => {
  it('holds the opencv.js codes, each ≥ 7 bits from every DICT_6X6_1000 code under rotation', async () => {
    const cv = await loadCv();
    const six = Array.from({ length: 1000 }, (_, i) => markerModules(cv, 'DICT_6X6_1000', i));
    for (const [id] of PATTERN_TAG_CODES) {
      const fromCv = markerModules(cv, PROJECTOR_PATTERN_DICTIONARY, id).map((row) => [...row]);
      expect(patternTagModules(id)).toEqual(fromCv);
      let best = Infinity;
      let m = fromCv;
      for (let k = 0; k < 4; k++, m = rotate(m)) {
        for (const s of six) {
          let d = 0;
          for (let r = 1; r < 7; r++) for (let c = 1; c < 7; c++) if (s[r]![c] !== m[r]![c]) d++;
          best = Math.min(best, d);
        }
      }
      expect(best, `tag ${id}`).toBeGreaterThanOrEqual(7);
    }
  });

  it.each([
    [1920, 1080],
    [1280, 800],
    [3840, 2160],
    [1024, 768],
    [1080, 1920],
  ])('lays out %i×%i: tags inside the screen, apart, whole-pixel modules', (w, h) => {
    const p = projectorPattern(w, h);
    expect(p.tags.length).toBeGreaterThanOrEqual(20);
    expect(new Set(p.tags.map((t) => t.id)).size).toBe(p.tags.length);
    for (const t of p.tags) {
      expect(Number.isInteger(t.modulePx) && t.modulePx >= 3).toBe(true);
      for (const c of t.cornersPx) {
        expect(c.xPx).toBeGreaterThanOrEqual(0);
        expect(c.xPx).toBeLessThanOrEqual(w);
        expect(c.yPx).toBeGreaterThanOrEqual(0);
        expect(c.yPx).toBeLessThanOrEqual(h);
      }
    }
    // A quiet zone of at least 2 modules between tags.
    for (const a of p.tags) {
      for (const b of p.tags) {
        if (a === b) continue;
        const gap = Math.max(b.leftPx - (a.leftPx + 8 * a.modulePx), a.leftPx - (b.leftPx + 8 * b.modulePx), b.topPx - (a.topPx + 8 * a.modulePx), a.topPx - (b.topPx + 8 * b.modulePx));
        expect(gap).toBeGreaterThanOrEqual(2 * a.modulePx);
      }
    }
  });

  it('deals the codes in a size-dependent order (a wrong --projector-size cannot fit)', () => {
    const common = [[1920, 1080], [1280, 720], [1280, 800], [1366, 768], [3840, 2160], [1536, 864], [1024, 768], [1920, 1200]] as const;
    for (const [w, h] of common) {
      expect([...patternCodeOrder(w, h)].sort((a, b) => a - b)).toEqual(PATTERN_TAG_CODES.map((_, i) => i));
      for (const [w2, h2] of common) {
        if (w === w2 && h === h2) continue;
        // Cells that get the same id at both sizes: few, so a fit across sizes has few inliers.
        const a = projectorPattern(w, h).tags.map((t) => t.id);
        const b = projectorPattern(w2, h2).tags.map((t) => t.id);
        const same = a.filter((id, i) => b[i] === id).length;
        expect(same, `${w}×${h} vs ${w2}×${h2}`).toBeLessThanOrEqual(5);
      }
    }
    expect(patternCodeOrder(1920, 1080)).toEqual(patternCodeOrder(1920, 1080));
  });

  it('the rectangles the page fills are exactly the unlit pixels the sampler sees', () => {
    const p = projectorPattern(640, 360);
    const modules = new Map(p.tags.map((t) => [t.id, patternTagModules(t.id)]));
    const painted = new Uint8Array(640 * 360).fill(1);
    for (const r of patternBlackRects(p)) for (let y = r.topPx; y < r.topPx + r.heightPx; y++) for (let x = r.leftPx; x < r.leftPx + r.widthPx; x++) painted[y * 640 + x] = 0;
    let mismatches = 0;
    for (let y = 0; y < 360; y++) for (let x = 0; x < 640; x++) if ((painted[y * 640 + x] === 1) !== patternLitAt(p, modules, x + 0.5, y + 0.5)) mismatches++;
    expect(mismatches).toBe(0);
    expect(painted.filter((v) => v === 0).length).toBeGreaterThan(640 * 360 * 0.1);
  });

  it('refuses a screen too small for the pattern', () => {
    expect(() => projectorPattern(300, 200)).toThrow(/at least 320×200/);
    expect(() => projectorPattern(1920.5, 1080)).toThrow(/whole pixels/);
  });
});
