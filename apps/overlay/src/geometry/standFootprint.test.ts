import { describe, expect, it } from 'vitest';
import { edgeDistance } from './edgeDistance.ts';
import { pointInPolygon, standFootprint } from './standFootprint.ts';

const stand = (xIn: number, yIn: number, headingDeg: number) => ({ pose: { xIn, yIn, headingDeg }, widthIn: 2, depthIn: 1 });

describe('standFootprint', () => {
  it('puts the front edge on the heading side, frontage across it', () => {
    const north = standFootprint(stand(10, 10, 90));
    expect(north.frontEdge[0].yIn).toBeCloseTo(10.5, 9);
    expect(north.frontEdge[1].yIn).toBeCloseTo(10.5, 9);
    expect(Math.abs(north.frontEdge[0].xIn - north.frontEdge[1].xIn)).toBeCloseTo(2, 9);
    const east = standFootprint(stand(10, 10, 0));
    expect(east.frontEdge[0].xIn).toBeCloseTo(10.5, 9);
    expect(east.forward.xIn).toBeCloseTo(1, 9);
  });

  it('contains its centre and not a point past the front', () => {
    const fp = standFootprint(stand(5, 5, 30));
    expect(pointInPolygon({ xIn: 5, yIn: 5 }, fp.corners)).toBe(true);
    expect(pointInPolygon({ xIn: 5 + Math.cos(Math.PI / 6) * 0.6, yIn: 5 + Math.sin(Math.PI / 6) * 0.6 }, fp.corners)).toBe(false);
  });
});

describe('edgeDistance', () => {
  it('measures between facing edges, not centres', () => {
    const a = standFootprint(stand(0, 0, 90)).corners; // y -0.5..0.5
    const b = standFootprint(stand(0, 6, 270)).corners; // y 5.5..6.5
    expect(edgeDistance(a, b).distanceIn).toBeCloseTo(5, 9);
  });

  it('measures corner to edge for rotated stands', () => {
    const a = standFootprint(stand(0, 0, 0)).corners; // x -0.5..0.5, y -1..1
    const b = standFootprint(stand(5, 0, 45)).corners;
    // b's leftmost corner (back-left, offset (-0.5, 1) rotated 45°) lands at x = 5 - 1.5/√2, y within a's
    // side, so the gap is to a's front edge at x = 0.5.
    const r = edgeDistance(a, b);
    expect(r.distanceIn).toBeCloseTo(5 - 1.5 / Math.SQRT2 - 0.5, 9);
    expect(r.fromPoint.xIn).toBeCloseTo(0.5, 9);
  });

  it('is zero for overlapping or touching stands', () => {
    const a = standFootprint(stand(0, 0, 0)).corners;
    expect(edgeDistance(a, standFootprint(stand(0.5, 0.3, 20)).corners).distanceIn).toBe(0);
    expect(edgeDistance(a, standFootprint(stand(0, 0, 0)).corners).distanceIn).toBe(0);
  });
});
