import { describe, expect, it } from 'vitest';
import { clipTrianglesToRect } from './clipTriangles.ts';

const rect = { x0: 0, y0: 0, x1: 72, y1: 48 };

/** Signed area of a triangle list, square inches (positive: counter-clockwise). */
function signedArea(flat: readonly number[]): number {
  let a = 0;
  for (let i = 0; i + 5 < flat.length; i += 6) {
    a += ((flat[i + 2]! - flat[i]!) * (flat[i + 5]! - flat[i + 1]!) - (flat[i + 4]! - flat[i]!) * (flat[i + 3]! - flat[i + 1]!)) / 2;
  }
  return a;
}

function clip(flat: number[]): number[] {
  const out: number[] = [];
  clipTrianglesToRect(flat, rect, out);
  return out;
}

describe('clipTrianglesToRect', () => {
  it('keeps a triangle inside as it is and drops one outside', () => {
    expect(clip([1, 1, 5, 1, 1, 5])).toEqual([1, 1, 5, 1, 1, 5]);
    expect(clip([-5, -5, -1, -5, -1, -1])).toEqual([]);
    expect(clip([80, 10, 90, 10, 80, 20])).toEqual([]);
  });

  it('cuts a triangle across the edge to the part on the table, keeping its winding', () => {
    // Right triangle (0,40) (20,40) (0,60): the part below y = 48 is a trapezoid of 8 × (20 + 12) / 2.
    const ccw = clip([0, 40, 20, 40, 0, 60]);
    expect(signedArea(ccw)).toBeCloseTo(128, 9);
    const cw = clip([0, 40, 0, 60, 20, 40]);
    expect(signedArea(cw)).toBeCloseTo(-128, 9);
    for (let i = 0; i < ccw.length; i += 2) {
      expect(ccw[i + 1]!).toBeLessThanOrEqual(48 + 1e-9);
    }
  });

  it('cuts a triangle larger than the table to exactly the table', () => {
    const out = clip([-100, -100, 300, -100, -100, 300]);
    expect(signedArea(out)).toBeCloseTo(72 * 48, 6);
    for (let i = 0; i < out.length; i += 2) {
      expect(out[i]!).toBeGreaterThanOrEqual(0);
      expect(out[i]!).toBeLessThanOrEqual(72);
      expect(out[i + 1]!).toBeGreaterThanOrEqual(0);
      expect(out[i + 1]!).toBeLessThanOrEqual(48);
    }
  });

  it('matches the area of the part inside for triangles across a corner (checked by sampling)', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 100 - 14;
    for (let n = 0; n < 40; n++) {
      const tri = [rnd(), rnd(), rnd(), rnd(), rnd(), rnd()];
      const inside = (x: number, y: number) => x >= 0 && x <= 72 && y >= 0 && y <= 48;
      // Point-in-triangle sampling over the triangle's box, 200 × 200.
      const xs = [tri[0]!, tri[2]!, tri[4]!];
      const ys = [tri[1]!, tri[3]!, tri[5]!];
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const sign = (px: number, py: number, ax: number, ay: number, bx: number, by: number) => (px - bx) * (ay - by) - (ax - bx) * (py - by);
      let hits = 0;
      const steps = 200;
      for (let i = 0; i < steps; i++) {
        for (let j = 0; j < steps; j++) {
          const px = x0 + ((i + 0.5) / steps) * (x1 - x0);
          const py = y0 + ((j + 0.5) / steps) * (y1 - y0);
          const d1 = sign(px, py, tri[0]!, tri[1]!, tri[2]!, tri[3]!);
          const d2 = sign(px, py, tri[2]!, tri[3]!, tri[4]!, tri[5]!);
          const d3 = sign(px, py, tri[4]!, tri[5]!, tri[0]!, tri[1]!);
          const inTri = !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
          if (inTri && inside(px, py)) hits++;
        }
      }
      const sampled = (hits / (steps * steps)) * (x1 - x0) * (y1 - y0);
      const clipped = Math.abs(signedArea(clip(tri)));
      expect(Math.abs(clipped - sampled)).toBeLessThan(0.02 * (x1 - x0) * (y1 - y0) + 1e-6);
    }
  });
});
