/**
 * BoxGrid must never lose an item: every box meeting a query box or segment is offered (once), whatever
 * the boxes, the cell size and the segment's direction (checked against a brute-force scan).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoxGrid } from './boxGrid.ts';
import type { SightBox } from './lineOfSight.ts';

const coord = fc.double({ min: -30, max: 30, noNaN: true });
const boxArb = fc
  .record({ x: coord, y: coord, w: fc.double({ min: 0, max: 5, noNaN: true }), h: fc.double({ min: 0, max: 5, noNaN: true }) })
  .map(({ x, y, w, h }): SightBox => ({ minX: x, minY: y, maxX: x + w, maxY: y + h }));
const cellArb = fc.constantFrom(0.7, 2, 3, 6, 50);

/** Whether segment a→b meets the closed box (slab test). */
function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, b: SightBox): boolean {
  let t0 = 0, t1 = 1;
  const d = [bx - ax, by - ay];
  const a = [ax, ay];
  const lo = [b.minX, b.minY];
  const hi = [b.maxX, b.maxY];
  for (let k = 0; k < 2; k++) {
    if (d[k] === 0) {
      if (a[k]! < lo[k]! || a[k]! > hi[k]!) return false;
      continue;
    }
    let u = (lo[k]! - a[k]!) / d[k]!;
    let v = (hi[k]! - a[k]!) / d[k]!;
    if (u > v) [u, v] = [v, u];
    t0 = Math.max(t0, u);
    t1 = Math.min(t1, v);
  }
  return t0 <= t1;
}

function offered(grid: BoxGrid, query: (visit: (i: number) => boolean) => boolean): number[] {
  const out: number[] = [];
  query((i) => {
    out.push(i);
    return false;
  });
  return out;
}

describe('BoxGrid', () => {
  it('offers every box a segment meets, each once, and stops when told', () => {
    fc.assert(
      fc.property(fc.array(boxArb, { minLength: 0, maxLength: 40 }), cellArb, coord, coord, coord, coord, (boxes, cell, ax, ay, bx, by) => {
        const grid = new BoxGrid(boxes, cell);
        const got = offered(grid, (v) => grid.someAlongSegment(ax, ay, bx, by, v));
        expect(new Set(got).size).toBe(got.length);
        const want = boxes.flatMap((b, i) => (segmentMeetsBox(ax, ay, bx, by, b) ? [i] : []));
        for (const i of want) expect(got).toContain(i);
        if (want.length > 0) {
          let calls = 0;
          expect(grid.someAlongSegment(ax, ay, bx, by, () => ++calls > 0)).toBe(true);
          expect(calls).toBe(1);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('offers every box meeting a query box, each once', () => {
    fc.assert(
      fc.property(fc.array(boxArb, { minLength: 0, maxLength: 40 }), cellArb, boxArb, (boxes, cell, q) => {
        const grid = new BoxGrid(boxes, cell);
        const got = offered(grid, (v) => grid.someNearBox(q.minX, q.minY, q.maxX, q.maxY, v));
        expect(new Set(got).size).toBe(got.length);
        boxes.forEach((b, i) => {
          const meets = !(b.maxX < q.minX || b.minX > q.maxX || b.maxY < q.minY || b.minY > q.maxY);
          if (meets) expect(got).toContain(i);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('walks a long segment only through the cells it crosses', () => {
    // A row of unit boxes along y = 0 and another along y = 20: a line along y = 0 never offers the far row.
    const boxes: SightBox[] = [];
    for (let i = 0; i < 20; i++) boxes.push({ minX: i * 3, minY: -0.5, maxX: i * 3 + 1, maxY: 0.5 }, { minX: i * 3, minY: 19.5, maxX: i * 3 + 1, maxY: 20.5 });
    const grid = new BoxGrid(boxes, 2);
    const got = offered(grid, (v) => grid.someAlongSegment(-5, 0, 70, 0, v));
    expect(got.sort((a, b) => a - b)).toEqual(boxes.flatMap((_, i) => (i % 2 === 0 ? [i] : [])));
    // Nearest the start first.
    const order = offered(grid, (v) => grid.someAlongSegment(70, 0, -5, 0, v));
    expect(order[0]).toBe(38);
    expect(order.at(-1)).toBe(0);
  });

  it('handles an empty grid, empty boxes and a zero-length segment', () => {
    const none = new BoxGrid([], 3);
    expect(none.someAlongSegment(0, 0, 5, 5, () => true)).toBe(false);
    expect(none.someNearBox(0, 0, 5, 5, () => true)).toBe(false);
    const grid = new BoxGrid([{ minX: 1, minY: 1, maxX: 2, maxY: 2 }, { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity }], 3);
    expect(offered(grid, (v) => grid.someAlongSegment(1.5, 1.5, 1.5, 1.5, v))).toEqual([0]);
    expect(() => new BoxGrid([], 0)).toThrow(/cell size/);
  });
});
