import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Stand } from '../../model/tableState.ts';
import type { BoundingBoxIn } from '../../geometry/polygon.ts';
import { StandGrid, standFootprintBox } from './standGrid.ts';
import { BoxReads } from './boxReads.ts';
import { segmentMeetsGrownBox } from './segmentBox.ts';

/**
 * The engine's two spatial indexes against plain scans: the stand grid (kept in place through moves, some
 * leaving their cells) and the store of spatial reads (filed in cells, freed and filed again).
 */
const coord = fc.double({ min: -10, max: 80, noNaN: true });
const boxArb = fc.tuple(coord, coord, fc.double({ min: 0, max: 30, noNaN: true }), fc.double({ min: 0, max: 30, noNaN: true }))
  .map(([x, y, w, h]): BoundingBoxIn => ({ minXIn: x, minYIn: y, maxXIn: x + w, maxYIn: y + h }));

function stand(i: number, x: number, y: number): Stand {
  return { id: `s${i}`, unitId: `u${i >> 2}`, pose: { xIn: x, yIn: y, headingDeg: 0 }, widthIn: 1, depthIn: 0.5, role: 'base' };
}
function meets(a: BoundingBoxIn, b: BoundingBoxIn): boolean {
  return a.minXIn <= b.maxXIn && a.maxXIn >= b.minXIn && a.minYIn <= b.maxYIn && a.maxYIn >= b.minYIn;
}

describe('stand grid', () => {
  it('answers boxes and segments as a scan of every stand does, through moves in and out of cells', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 60, noNaN: true }), fc.double({ min: 0, max: 40, noNaN: true })), { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(fc.nat(), fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true })), { maxLength: 40 }),
        fc.array(boxArb, { minLength: 1, maxLength: 5 }),
        (places, moves, boxes) => {
          let stands = places.map(([x, y], i) => stand(i, x, y));
          let grid = new StandGrid(stands);
          for (const [k, dx, dy] of moves) {
            const i = k % stands.length;
            const s = stands[i]!;
            stands = stands.map((t, j) => (j === i ? { ...s, pose: { ...s.pose, xIn: s.pose.xIn + dx, yIn: s.pose.yIn + dy } } : t));
            if (!grid.update(stands, [s.id])) grid = new StandGrid(stands);
            for (const box of boxes) {
              expect(grid.standsIn(box).map((t) => t.id)).toEqual(stands.filter((t) => meets(standFootprintBox(t), box)).map((t) => t.id));
              const [ax, ay, bx, by] = [box.minXIn, box.maxYIn, box.maxXIn, box.minYIn];
              const along = stands.filter((t) => {
                const f = standFootprintBox(t);
                return segmentMeetsGrownBox(ax, ay, bx, by, 0.5, f.minXIn, f.minYIn, f.maxXIn, f.maxYIn);
              });
              expect(grid.standsAlong(ax, ay, bx, by, 0.5).map((t) => t.id)).toEqual(along.map((t) => t.id));
              // Two segments at once: the union, each stand once, in the state's order.
              const [cx, cy, dx, dy] = [box.minXIn, box.minYIn, box.maxXIn, box.maxYIn];
              const either = stands.filter((t) => {
                const f = standFootprintBox(t);
                return segmentMeetsGrownBox(ax, ay, bx, by, 0.5, f.minXIn, f.minYIn, f.maxXIn, f.maxYIn) || segmentMeetsGrownBox(cx, cy, dx, dy, 0, f.minXIn, f.minYIn, f.maxXIn, f.maxYIn);
              });
              expect(grid.standsAlongAny([ax, ay, bx, by, 0.5, cx, cy, dx, dy, 0]).map((t) => t.id)).toEqual(either.map((t) => t.id));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('meets a box exactly where the segment passes within the margin', () => {
    expect(segmentMeetsGrownBox(0, 0, 10, 0, 0, 4, 1, 5, 2)).toBe(false);
    expect(segmentMeetsGrownBox(0, 0, 10, 0, 1, 4, 1, 5, 2)).toBe(true);
    expect(segmentMeetsGrownBox(0, 0, 10, 10, 0, 6, 0, 7, 1)).toBe(false);
    expect(segmentMeetsGrownBox(0, 0, 10, 10, 0, 4, 4, 5, 5)).toBe(true);
    expect(segmentMeetsGrownBox(3, 3, 3, 3, 0, 2, 2, 4, 4)).toBe(true);
  });
});

describe('spatial reads store', () => {
  it('finds exactly the owners whose reads a change meets, through frees and reuse', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(
          fc.record({ op: fc.constant('box' as const), box: boxArb }),
          fc.record({ op: fc.constant('segment' as const), box: boxArb, margin: fc.double({ min: 0, max: 2, noNaN: true }) }),
          fc.record({ op: fc.constant('remove' as const), k: fc.nat() }),
          fc.record({ op: fc.constant('meet' as const), boxes: fc.array(boxArb, { minLength: 1, maxLength: 3 }) }),
        ), { maxLength: 80 }),
        (ops) => {
          const store = new BoxReads<number>();
          const live = new Map<number, { owner: number; box: BoundingBoxIn; segment?: [number, number, number, number, number] }>();
          let owner = 0;
          for (const op of ops) {
            if (op.op === 'box') live.set(store.add(++owner, op.box), { owner, box: op.box });
            else if (op.op === 'segment') {
              const { minXIn: ax, minYIn: ay, maxXIn: bx, maxYIn: by } = op.box;
              live.set(store.addSegment(++owner, ax, ay, bx, by, op.margin), { owner, box: op.box, segment: [ax, ay, bx, by, op.margin] });
            } else if (op.op === 'remove') {
              const slots = [...live.keys()];
              if (slots.length === 0) continue;
              const slot = slots[op.k % slots.length]!;
              store.remove(slot);
              live.delete(slot);
            } else {
              const changed = op.boxes.flatMap((b) => [b.minXIn, b.minYIn, b.maxXIn, b.maxYIn]);
              const hits = new Set<number>();
              store.meeting(changed, false, (o) => hits.has(o), (o) => hits.add(o));
              const expected = new Set<number>();
              for (const r of live.values()) {
                for (const c of op.boxes) {
                  const ok = r.segment ? segmentMeetsGrownBox(...r.segment, c.minXIn, c.minYIn, c.maxXIn, c.maxYIn) : meets(r.box, c);
                  if (ok) expected.add(r.owner);
                }
              }
              expect([...hits].sort()).toEqual([...expected].sort());
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('spatial reads store over a long game', () => {
  it('stays exact and does not grow when the same queries read again and again', () => {
    const store = new BoxReads<number>();
    let slots = Array.from({ length: 50 }, (_, k) => store.add(k, { minXIn: k, minYIn: 0, maxXIn: k + 1, maxYIn: 1 }));
    for (let round = 0; round < 200; round++) {
      // Every query runs again and reads the same boxes (the old reads are freed, new ones filed).
      for (const s of slots) store.remove(s);
      slots = Array.from({ length: 50 }, (_, k) => store.add(k, { minXIn: k, minYIn: 0, maxXIn: k + 1, maxYIn: 1 }));
    }
    const hits: number[] = [];
    store.meeting([10.5, 0.5, 10.6, 0.6], false, () => false, (o) => hits.push(o));
    expect(hits.sort((a, b) => a - b)).toEqual([10]);
    expect(store.entryCount()).toBeLessThanOrEqual(2 * 50 * 2 + 1100);
  });
});

describe('unit reads by membership', () => {
  it('finds exactly the reads a moved box came into or left', () => {
    fc.assert(
      fc.property(fc.array(boxArb, { minLength: 1, maxLength: 30 }), fc.array(fc.tuple(boxArb, boxArb), { minLength: 1, maxLength: 4 }), (reads, moves) => {
        const store = new BoxReads<number>();
        reads.forEach((box, k) => store.add(k, box));
        const flat = moves.flatMap(([a, b]) => [a.minXIn, a.minYIn, a.maxXIn, a.maxYIn, b.minXIn, b.minYIn, b.maxXIn, b.maxYIn]);
        const hits = new Set<number>();
        store.meetingMembership(flat, false, (o) => hits.has(o), (o) => hits.add(o));
        const expected = reads.flatMap((box, k) => (moves.some(([a, b]) => meets(box, a) !== meets(box, b)) ? [k] : []));
        expect([...hits].sort((a, b) => a - b)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
