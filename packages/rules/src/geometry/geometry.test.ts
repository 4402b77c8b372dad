import { describe, expect, it } from 'vitest';
import type { PointIn } from '../model/units.ts';
import {
  angleDiffDeg,
  closestPointsBetweenPolygons,
  convexHull,
  headingToVector,
  lengthInsidePolygonIn,
  multiPolygonArea,
  normalizeDeg,
  offsetConvexPolygon,
  pointInPolygon,
  pointInWedge,
  pointInWedgeShape,
  pointToStandDistanceIn,
  polygonArea,
  polygonCentroid,
  polygonDifference,
  polygonOverlapsWedge,
  polygonToPolygonDistanceIn,
  polygonUnion,
  polygonsOverlap,
  rotateAround,
  segmentIntersection,
  segmentsIntersect,
  segmentToSegmentDistanceIn,
  standCorners,
  standDiagonalWedge,
  standFrontCenter,
  standRearCenter,
  standToStandDistanceIn,
  unitFrontLine,
  vectorToHeadingDeg,
  wedgeFromApex,
} from './index.ts';

const p = (xIn: number, yIn: number): PointIn => ({ xIn, yIn });
const stand = (xIn: number, yIn: number, headingDeg: number, widthIn = 1.5, depthIn = 1.5) => ({
  pose: { xIn, yIn, headingDeg },
  widthIn,
  depthIn,
});
const square = (x0: number, y0: number, s: number): PointIn[] => [p(x0, y0), p(x0 + s, y0), p(x0 + s, y0 + s), p(x0, y0 + s)];

describe('angles', () => {
  it('normalises into [0, 360)', () => {
    expect(normalizeDeg(-90)).toBe(270);
    expect(normalizeDeg(720)).toBe(0);
    expect(normalizeDeg(-1e-15)).toBeLessThan(360);
    expect(Object.is(normalizeDeg(-0), 0)).toBe(true);
  });
  it('signed difference in (-180, 180]', () => {
    expect(angleDiffDeg(350, 10)).toBeCloseTo(20);
    expect(angleDiffDeg(10, 350)).toBeCloseTo(-20);
    expect(angleDiffDeg(0, 180)).toBe(180);
    expect(angleDiffDeg(180, 0)).toBe(180);
  });
  it('heading and vector round-trip', () => {
    const v = headingToVector(90);
    expect(v.x).toBeCloseTo(0);
    expect(v.y).toBeCloseTo(1);
    expect(vectorToHeadingDeg(-1, 0)).toBe(180);
    expect(vectorToHeadingDeg(0, -1)).toBe(270);
  });
});

describe('footprint', () => {
  it('puts front-left, front-right, rear-right, rear-left where the stand sees them', () => {
    // Facing +y (90°): front is y+, the stand's left is -x.
    const [fl, fr, rr, rl] = standCorners(stand(10, 10, 90, 2, 1));
    expect(fl.xIn).toBeCloseTo(9);
    expect(fl.yIn).toBeCloseTo(10.5);
    expect(fr.xIn).toBeCloseTo(11);
    expect(fr.yIn).toBeCloseTo(10.5);
    expect(rr.xIn).toBeCloseTo(11);
    expect(rr.yIn).toBeCloseTo(9.5);
    expect(rl.xIn).toBeCloseTo(9);
    expect(rl.yIn).toBeCloseTo(9.5);
    expect(standFrontCenter(stand(0, 0, 0, 1.5, 3)).xIn).toBeCloseTo(1.5);
    expect(standRearCenter(stand(0, 0, 0, 1.5, 3)).xIn).toBeCloseTo(-1.5);
  });
});

describe('distance', () => {
  it('measures stands edge to edge', () => {
    expect(standToStandDistanceIn(stand(0, 0, 0), stand(5, 0, 0))).toBeCloseTo(3.5);
    expect(standToStandDistanceIn(stand(0, 0, 0), stand(1.5, 0, 0))).toBe(0);
    expect(standToStandDistanceIn(stand(0, 0, 0), stand(0.5, 0.2, 30))).toBe(0);
    // Rotated 45°: the corner reaches 1.5/√2 ≈ 1.0607 from the centre.
    expect(standToStandDistanceIn(stand(0, 0, 45), stand(5, 0, 0))).toBeCloseTo(5 - 0.75 - 0.75 * Math.SQRT2, 6);
    expect(pointToStandDistanceIn(p(0, 3), stand(0, 0, 0))).toBeCloseTo(2.25);
    expect(pointToStandDistanceIn(p(0.1, 0.1), stand(0, 0, 0))).toBe(0);
  });
  it('segment distance is 0 when crossing', () => {
    expect(segmentToSegmentDistanceIn(p(0, 0), p(2, 2), p(0, 2), p(2, 0))).toBe(0);
    expect(segmentToSegmentDistanceIn(p(0, 0), p(2, 0), p(0, 1), p(2, 1))).toBe(1);
  });
  it('closest points lie on both polygons at the reported distance', () => {
    const c = closestPointsBetweenPolygons(square(0, 0, 1), square(3, 2, 1));
    expect(c.distanceIn).toBeCloseTo(Math.hypot(2, 1));
    expect(c.onA).toEqual(p(1, 1));
    expect(c.onB).toEqual(p(3, 2));
    // A cross of two bars overlaps with no vertex of one inside the other.
    const bar1 = [p(-3, -0.5), p(3, -0.5), p(3, 0.5), p(-3, 0.5)];
    const bar2 = [p(-0.5, -3), p(0.5, -3), p(0.5, 3), p(-0.5, 3)];
    expect(closestPointsBetweenPolygons(bar1, bar2).distanceIn).toBe(0);
    expect(polygonToPolygonDistanceIn(bar1, bar2)).toBe(0);
  });
});

describe('intersect', () => {
  it('segments', () => {
    expect(segmentsIntersect(p(0, 0), p(2, 2), p(0, 2), p(2, 0))).toBe(true);
    expect(segmentsIntersect(p(0, 0), p(1, 0), p(2, 0), p(3, 0))).toBe(false);
    expect(segmentsIntersect(p(0, 0), p(2, 0), p(1, 0), p(3, 0))).toBe(true);
    expect(segmentsIntersect(p(0, 0), p(1, 0), p(1, 0), p(1, 5))).toBe(true);
    const hit = segmentIntersection(p(0, 0), p(4, 0), p(1, -1), p(1, 1));
    expect(hit?.tA).toBeCloseTo(0.25);
    expect(hit?.point.xIn).toBeCloseTo(1);
  });
  it('length inside a concave polygon counts each piece', () => {
    // A U shape: the line crosses both arms, 1" each, and not the gap.
    const u = [p(0, 0), p(3, 0), p(3, 3), p(2, 3), p(2, 1), p(1, 1), p(1, 3), p(0, 3)];
    expect(lengthInsidePolygonIn(p(-1, 2), p(4, 2), u)).toBeCloseTo(2);
    expect(lengthInsidePolygonIn(p(-1, 0.5), p(4, 0.5), u)).toBeCloseTo(3);
    expect(lengthInsidePolygonIn(p(0.5, 0.5), p(0.5, 2), u)).toBeCloseTo(1.5);
    // Through a vertex exactly.
    expect(lengthInsidePolygonIn(p(-1, -1), p(4, 4), square(0, 0, 3))).toBeCloseTo(3 * Math.SQRT2);
  });
  it('polygon overlap including containment', () => {
    expect(polygonsOverlap(square(0, 0, 10), square(2, 2, 1))).toBe(true);
    expect(polygonsOverlap(square(0, 0, 1), square(2, 2, 1))).toBe(false);
    expect(pointInPolygon(p(0.5, 0.5), square(0, 0, 1))).toBe(true);
  });
});

describe('wedge', () => {
  it('apex wedges, including across 0°', () => {
    expect(pointInWedge(p(0, 0), 45, -45, p(5, 1))).toBe(true);
    expect(pointInWedge(p(0, 0), 45, 315, p(5, -4.9))).toBe(true);
    expect(pointInWedge(p(0, 0), 45, 315, p(-5, 0))).toBe(false);
    expect(pointInWedge(p(0, 0), 45, 315, p(1, 2))).toBe(false);
    // 270° wedge is fine too.
    expect(pointInWedge(p(0, 0), 225, 315, p(-5, 1))).toBe(true);
    expect(pointInWedge(p(0, 0), 225, 315, p(0, -5))).toBe(false);
  });
  it('the diagonal arc of a stand widens from its front corners', () => {
    const s = stand(0, 0, 0, 2, 1);
    const w = standDiagonalWedge(s);
    expect(pointInWedgeShape(w, p(5, 0))).toBe(true);
    // Diagonal slope is width/depth = 2: at x = 3 the arc reaches y = 1 + 2*2.5 = 6.
    expect(pointInWedgeShape(w, p(3, 5.9))).toBe(true);
    expect(pointInWedgeShape(w, p(3, 6.1))).toBe(false);
    expect(pointInWedgeShape(w, p(-3, 0))).toBe(false);
    // Behind the front edge even where the backward rays would cross.
    expect(pointInWedgeShape(w, p(0.2, 0))).toBe(false);
    // A polygon straddling the arc with no vertex inside still overlaps it.
    expect(polygonOverlapsWedge(wedgeFromApex(p(0, 0), 1, -1), [p(10, -5), p(11, -5), p(11, 5), p(10, 5)])).toBe(true);
  });
});

describe('polygon', () => {
  it('area, centroid, hull', () => {
    expect(polygonArea(square(0, 0, 2))).toBe(4);
    expect(polygonCentroid(square(0, 0, 2))).toEqual(p(1, 1));
    expect(convexHull([p(0, 0), p(1, 1), p(2, 0), p(2, 2), p(0, 2), p(1, 0.5)])).toHaveLength(4);
  });
  it('offsets convex polygons outward and inward', () => {
    const grown = offsetConvexPolygon(square(0, 0, 2), 1, 16);
    // Square plus four 1x2 strips plus a full disc of radius 1.
    expect(polygonArea(grown)).toBeCloseTo(4 + 8 + Math.PI, 1);
    expect(polygonArea(offsetConvexPolygon(square(0, 0, 2), -0.5))).toBeCloseTo(1);
    expect(offsetConvexPolygon(square(0, 0, 2), -1.5)).toEqual([]);
  });
  it('union and difference', () => {
    const u = polygonUnion([square(0, 0, 2), square(1, 0, 2)]);
    expect(u).toHaveLength(1);
    expect(multiPolygonArea(u)).toBeCloseTo(6);
    const d = polygonDifference(square(0, 0, 4), [square(1, 1, 2)]);
    expect(d).toHaveLength(1);
    expect(d[0]).toHaveLength(2); // outer ring and one hole
    expect(multiPolygonArea(d)).toBeCloseTo(12);
    expect(multiPolygonArea(polygonDifference(square(0, 0, 4), []))).toBeCloseTo(16);
  });
});

describe('front line', () => {
  it('traces a line of stands left to right', () => {
    // Facing +y: the unit's left is -x. Stands given out of order.
    const line = [stand(3, 0, 90), stand(0, 0, 90), stand(1.5, 0, 90), stand(1.5, -1.5, 90)];
    const trace = unitFrontLine(line);
    expect(trace.map((q) => [Math.round(q.xIn * 100) / 100, q.yIn])).toEqual([
      [-0.75, 0.75],
      [0.75, 0.75],
      [2.25, 0.75],
      [3.75, 0.75],
    ]);
  });
  it('rotating the unit rotates the trace', () => {
    const base = [stand(0, 0, 90), stand(1.5, 0, 90)];
    const turned = base.map((s) => {
      const c = rotateAround(p(s.pose.xIn, s.pose.yIn), p(0, 0), 90);
      return stand(c.xIn, c.yIn, 180);
    });
    const a = unitFrontLine(base).map((q) => rotateAround(q, p(0, 0), 90));
    const b = unitFrontLine(turned);
    expect(b).toHaveLength(a.length);
    a.forEach((q, i) => {
      expect(b[i]!.xIn).toBeCloseTo(q.xIn);
      expect(b[i]!.yIn).toBeCloseTo(q.yIn);
    });
  });
});
