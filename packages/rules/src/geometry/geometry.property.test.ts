/**
 * Property tests: geometry answers must not depend on where the table is or which way it is turned,
 * distances are symmetric, and arcs turn with their stand.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PointIn } from '../model/units.ts';
import {
  buildSightScene,
  lengthInsidePolygonIn,
  lineOfSight,
  normalizeDeg,
  pointInWedgeShape,
  pointToSegmentDistanceIn,
  pointToStandDistanceIn,
  polygonToPolygonDistanceIn,
  rotateAround,
  standCorners,
  standDiagonalWedge,
  standToStandDistanceIn,
  unitFrontLine,
  wedgePolygon,
  type StandShape,
} from './index.ts';

const coord = fc.double({ min: -40, max: 40, noNaN: true });
const point = fc.record({ xIn: coord, yIn: coord });
const heading = fc.double({ min: 0, max: 359.999, noNaN: true });
const size = fc.double({ min: 0.5, max: 4, noNaN: true });
const standArb = fc.record({
  pose: fc.record({ xIn: coord, yIn: coord, headingDeg: heading }),
  widthIn: size,
  depthIn: size,
});
/** A rigid motion of the table: rotate about the origin, then translate. */
const motion = fc.record({ deg: fc.double({ min: -360, max: 360, noNaN: true }), dx: coord, dy: coord });
type Motion = { deg: number; dx: number; dy: number };

const origin: PointIn = { xIn: 0, yIn: 0 };
function movePoint(p: PointIn, m: Motion): PointIn {
  const r = rotateAround(p, origin, m.deg);
  return { xIn: r.xIn + m.dx, yIn: r.yIn + m.dy };
}
function moveStand(s: StandShape, m: Motion): StandShape {
  const c = movePoint({ xIn: s.pose.xIn, yIn: s.pose.yIn }, m);
  return { ...s, pose: { xIn: c.xIn, yIn: c.yIn, headingDeg: normalizeDeg(s.pose.headingDeg + m.deg) } };
}

const TOL = 1e-6;

describe('geometry properties', () => {
  it('stand distance is symmetric and non-negative', () => {
    fc.assert(
      fc.property(standArb, standArb, (a, b) => {
        const ab = standToStandDistanceIn(a, b);
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(Math.abs(ab - standToStandDistanceIn(b, a))).toBeLessThan(TOL);
      }),
    );
  });

  it('stand distance never exceeds centre distance and is at least centre distance minus both half-diagonals', () => {
    fc.assert(
      fc.property(standArb, standArb, (a, b) => {
        const d = standToStandDistanceIn(a, b);
        const centres = Math.hypot(a.pose.xIn - b.pose.xIn, a.pose.yIn - b.pose.yIn);
        const halfDiag = (s: StandShape) => Math.hypot(s.widthIn, s.depthIn) / 2;
        expect(d).toBeLessThanOrEqual(centres + TOL);
        expect(d).toBeGreaterThanOrEqual(centres - halfDiag(a) - halfDiag(b) - TOL);
      }),
    );
  });

  it('distances are unchanged when the whole table is moved or rotated', () => {
    fc.assert(
      fc.property(standArb, standArb, point, motion, (a, b, q, m) => {
        expect(standToStandDistanceIn(moveStand(a, m), moveStand(b, m))).toBeCloseTo(standToStandDistanceIn(a, b), 6);
        expect(pointToStandDistanceIn(movePoint(q, m), moveStand(a, m))).toBeCloseTo(pointToStandDistanceIn(q, a), 6);
      }),
    );
  });

  it('arcs turn with the stand: membership is unchanged by a rigid motion', () => {
    fc.assert(
      fc.property(standArb, point, motion, (s, q, m) => {
        const w = standDiagonalWedge(s);
        // Points within a hair of the boundary may flip by rounding; they say nothing about rotation.
        const edges = wedgePolygon(w, 200);
        for (let i = 0; i < edges.length; i++) {
          fc.pre(pointToSegmentDistanceIn(q, edges[i]!, edges[(i + 1) % edges.length]!) > 1e-6);
        }
        expect(pointInWedgeShape(standDiagonalWedge(moveStand(s, m)), movePoint(q, m))).toBe(pointInWedgeShape(w, q));
      }),
    );
  });

  it('a point straight ahead of a stand is in its arc, straight behind is not', () => {
    fc.assert(
      fc.property(standArb, fc.double({ min: 0.01, max: 50, noNaN: true }), (s, ahead) => {
        const r = (s.pose.headingDeg * Math.PI) / 180;
        const at = (k: number): PointIn => ({ xIn: s.pose.xIn + Math.cos(r) * k, yIn: s.pose.yIn + Math.sin(r) * k });
        const w = standDiagonalWedge(s);
        expect(pointInWedgeShape(w, at(s.depthIn / 2 + ahead))).toBe(true);
        expect(pointInWedgeShape(w, at(-s.depthIn / 2 - ahead))).toBe(false);
      }),
    );
  });

  it('length inside a polygon is between 0 and the segment length, and moves with the table', () => {
    fc.assert(
      fc.property(standArb, point, point, motion, (s, a, b, m) => {
        const poly = standCorners(s);
        const len = lengthInsidePolygonIn(a, b, poly);
        expect(len).toBeGreaterThanOrEqual(0);
        expect(len).toBeLessThanOrEqual(Math.hypot(b.xIn - a.xIn, b.yIn - a.yIn) + TOL);
        const moved = standCorners(moveStand(s, m));
        expect(lengthInsidePolygonIn(movePoint(a, m), movePoint(b, m), moved)).toBeCloseTo(len, 5);
      }),
    );
  });

  it('polygon distance is 0 exactly when one polygon has a point of the other', () => {
    fc.assert(
      fc.property(standArb, standArb, (a, b) => {
        const d = polygonToPolygonDistanceIn(standCorners(a), standCorners(b));
        if (d > 0) {
          // Separated: no corner of either is inside the other.
          for (const c of standCorners(a)) expect(pointToStandDistanceIn(c, b)).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('sight lines report the same crossings after a rigid motion', () => {
    fc.assert(
      fc.property(fc.array(standArb, { minLength: 1, maxLength: 8 }), point, point, motion, (stands, from, to, m) => {
        const mk = (ss: StandShape[]) =>
          buildSightScene({
            stands: ss.map((s, i) => ({ ...s, id: `s${i}`, unitId: `u${i}`, role: 'base' as const })),
            terrain: { areas: [], linear: [], roads: [], elevations: [] },
          });
        const before = lineOfSight(mk(stands), from, to);
        const after = lineOfSight(mk(stands.map((s) => moveStand(s, m))), movePoint(from, m), movePoint(to, m));
        // Grazing contacts can flip by rounding; compare only stands clearly crossed or clearly missed.
        const clear = (id: string) => {
          const s = stands[Number(id.slice(1))]!;
          const poly = standCorners(s);
          let dmin = Infinity;
          for (let i = 0; i < 4; i++) dmin = Math.min(dmin, pointToSegmentDistanceIn(poly[i]!, from, to));
          return dmin > 1e-6;
        };
        const ids = (r: typeof before) => r.stands.map((x) => x.standId).filter(clear).sort();
        expect(ids(after)).toEqual(ids(before));
      }),
    );
  });

  it('the front line keeps its shape when the unit is moved or rotated', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        heading,
        motion,
        (n, h, m) => {
          const r = (h * Math.PI) / 180;
          // A line of n 1.5" stands side by side facing h.
          const stands: StandShape[] = Array.from({ length: n }, (_, i) => ({
            pose: { xIn: -Math.sin(r) * 1.5 * i, yIn: Math.cos(r) * 1.5 * i, headingDeg: h },
            widthIn: 1.5,
            depthIn: 1.5,
          }));
          const a = unitFrontLine(stands).map((q) => movePoint(q, m));
          const b = unitFrontLine(stands.map((s) => moveStand(s, m)));
          expect(b).toHaveLength(n + 1);
          expect(b).toHaveLength(a.length);
          a.forEach((q, i) => {
            expect(b[i]!.xIn).toBeCloseTo(q.xIn, 6);
            expect(b[i]!.yIn).toBeCloseTo(q.yIn, 6);
          });
        },
      ),
    );
  });

  it('the sight scene grid finds exactly the stands a full scan finds', () => {
    const wide = fc.double({ min: -10, max: 130, noNaN: true });
    const far = fc.record({ xIn: wide, yIn: wide });
    fc.assert(
      fc.property(fc.array(standArb, { minLength: 1, maxLength: 40 }), fc.array(fc.tuple(far, far), { minLength: 1, maxLength: 10 }), (stands, lines) => {
        const scene = buildSightScene({
          // Spread the stands over a big table so the grid has many cells.
          stands: stands.map((s, i) => ({ ...s, pose: { ...s.pose, xIn: s.pose.xIn + 60, yIn: s.pose.yIn * 1.5 + 40 }, id: `s${i}`, unitId: `u${i % 5}`, role: 'base' as const })),
          terrain: { areas: [], linear: [], roads: [], elevations: [] },
        });
        const scan = { ...scene, stands: [...scene.stands] }; // a different array: the grid is not used
        for (const [a, b] of lines) {
          expect(lineOfSight(scene, a, b, { ignoreUnitIds: ['u1'] })).toEqual(lineOfSight(scan, a, b, { ignoreUnitIds: ['u1'] }));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('sight-line terrain lengths agree with lengthInsidePolygonIn, including lines that start inside', () => {
    fc.assert(
      fc.property(fc.array(standArb, { minLength: 1, maxLength: 6 }), point, point, (rects, from, to) => {
        // Big rectangles as woods and hills so lines often start, end or pass inside them.
        const polys = rects.map((r) => standCorners({ ...r, widthIn: r.widthIn * 5, depthIn: r.depthIn * 5 }));
        const scene = buildSightScene({
          stands: [],
          terrain: {
            areas: polys.map((v, i) => ({ id: `a${i}`, kind: 'open-woods' as const, vertices: v })),
            linear: [],
            roads: [],
            elevations: polys.map((v, i) => ({ id: `e${i}`, level: 1 + (i % 2), vertices: v })),
          },
        });
        const r = lineOfSight(scene, from, to);
        polys.forEach((poly, i) => {
          const expected = lengthInsidePolygonIn(from, to, poly);
          const area = r.areas.find((a) => a.id === `a${i}`);
          const hill = r.elevation.crossed.find((e) => e.id === `e${i}`);
          if (expected > 1e-6) {
            expect(area?.lengthInsideIn).toBeCloseTo(expected, 6);
            expect(hill?.lengthInsideIn).toBeCloseTo(expected, 6);
          } else {
            expect(area?.lengthInsideIn ?? 0).toBeLessThan(1e-6);
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});

