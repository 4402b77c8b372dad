import { describe, expect, it } from 'vitest';
import { invertHomography } from '@muster/table-mapping';
import { tableToScreenPx, type Homography } from '../mapping/homography.ts';
import { backdropGrid } from './backdropGrid.ts';

// A camera looking down at a slant: image 1280×720 → table inches, genuinely projective (h20, h21 ≠ 0).
const IMAGE_TO_TABLE: Homography = [0.06, 0.004, -3, -0.002, 0.075, -4, 0.00002, 0.00015, 1];

describe('backdropGrid', () => {
  it('puts each node where the homography sends its image point, with that point as its UV', () => {
    const g = backdropGrid(IMAGE_TO_TABLE, { widthPx: 1280, heightPx: 720 }, 32, 18);
    expect(g.positions.length).toBe(33 * 19 * 3);
    expect(g.uvs.length).toBe(33 * 19 * 2);
    expect(g.indices.length).toBe(32 * 18 * 6);
    const back = invertHomography(IMAGE_TO_TABLE);
    for (let i = 0; i < 33 * 19; i++) {
      const table = { xIn: g.positions[i * 3]!, yIn: g.positions[i * 3 + 1]! };
      const img = tableToScreenPx(back, table);
      // UV (u, 1 - v) is the image point as a fraction of the image, top row at v = 1.
      expect(img.xPx / 1280).toBeCloseTo(g.uvs[i * 2]!, 4);
      expect(1 - img.yPx / 720).toBeCloseTo(g.uvs[i * 2 + 1]!, 4);
      expect(g.positions[i * 3 + 2]).toBe(0);
    }
  });

  it('starts at the image corners: first node is the top-left pixel, last the bottom-right', () => {
    const g = backdropGrid(IMAGE_TO_TABLE, { widthPx: 1280, heightPx: 720 }, 4, 3);
    const tl = tableToScreenPx(IMAGE_TO_TABLE, { xIn: 0, yIn: 0 });
    const br = tableToScreenPx(IMAGE_TO_TABLE, { xIn: 1280, yIn: 720 });
    expect([g.positions[0], g.positions[1]]).toEqual([Math.fround(tl.xPx), Math.fround(tl.yPx)]);
    const last = (5 * 4 - 1) * 3;
    expect([g.positions[last], g.positions[last + 1]]).toEqual([Math.fround(br.xPx), Math.fround(br.yPx)]);
    expect([g.uvs[0], g.uvs[1]]).toEqual([0, 1]);
  });

  it('makes two triangles per cell that cover it once, indices in range', () => {
    const g = backdropGrid(IMAGE_TO_TABLE, { widthPx: 100, heightPx: 100 }, 2, 2);
    expect(Array.from(g.indices.slice(0, 6))).toEqual([0, 1, 4, 0, 4, 3]);
    expect(Math.max(...g.indices)).toBe(8);
  });

  it('refuses a degenerate grid or image size', () => {
    expect(() => backdropGrid(IMAGE_TO_TABLE, { widthPx: 0, heightPx: 10 })).toThrow(/image size/);
    expect(() => backdropGrid(IMAGE_TO_TABLE, { widthPx: 10, heightPx: 10 }, 0, 4)).toThrow(/grid/);
  });
});
