import { describe, expect, it } from 'vitest';
import { buildMosaic } from './mosaic.ts';
import type { GrayFrame } from '../pipeline/types.ts';

describe('buildMosaic', () => {
  // A frame whose every pixel encodes its own position, so copied tiles can be checked exactly.
  const widthPx = 200;
  const heightPx = 120;
  const data = Uint8Array.from({ length: widthPx * heightPx }, (_, i) => ((i % widthPx) * 7 + Math.floor(i / widthPx) * 13) % 251);
  const frame: GrayFrame = { widthPx, heightPx, data, seq: 0, captureTimeMs: 0 };
  const valueAt = (u: number, v: number): number => data[v * widthPx + u]!;

  it('copies each window and maps corners found in it back to frame pixels', () => {
    const windows = [
      { u0: 10.4, v0: 20.2, u1: 40.9, v1: 45 },
      { u0: 150, v0: 90, u1: 190, v1: 118 },
      { u0: -10, v0: -5, u1: 12, v1: 9 }, // clipped at the frame edge
      { u0: 300, v0: 10, u1: 320, v1: 30 }, // entirely off-frame: dropped
    ];
    const m = buildMosaic(frame, windows);
    expect(m.tiles).toBe(3);
    expect(m.widthPx * m.heightPx).toBeLessThan(widthPx * heightPx);
    // Find where frame pixel (20, 30) landed by mapping a tiny quad around every mosaic position.
    let hits = 0;
    for (let v = 0; v < m.heightPx; v++) {
      for (let u = 0; u < m.widthPx; u++) {
        const back = m.toFrame([u + 0.5, v + 0.5, u + 0.6, v + 0.5, u + 0.6, v + 0.6, u + 0.5, v + 0.6]);
        if (!back) continue;
        const fu = Math.floor(back[0]!);
        const fv = Math.floor(back[1]!);
        expect(m.data[v * m.widthPx + u]).toBe(valueAt(fu, fv));
        hits++;
      }
    }
    // Every copied pixel maps back (31×25 + 40×28 + 12×9 after clipping and rounding outwards).
    expect(hits).toBe(31 * 25 + 40 * 28 + 12 * 9);
  });

  it('refuses a quad that straddles two tiles', () => {
    const m = buildMosaic(frame, [
      { u0: 0, v0: 0, u1: 20, v1: 20 },
      { u0: 100, v0: 100, u1: 120, v1: 120 },
    ]);
    expect(m.toFrame([5, 5, 30, 5, 30, 15, 5, 15])).toBeNull();
  });
});
