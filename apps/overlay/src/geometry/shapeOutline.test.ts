import { describe, expect, it } from 'vitest';
import type { PointIn, Shape } from '@muster/rules';
import { ARC_STEP_DEG, arcPoints, shapeOutline } from './shapeOutline.ts';

const c = { xIn: 10, yIn: 20 };
const dist = (p: PointIn) => Math.hypot(p.xIn - c.xIn, p.yIn - c.yIn);
const angle = (p: PointIn) => ((Math.atan2(p.yIn - c.yIn, p.xIn - c.xIn) * 180) / Math.PI + 360) % 360;

function signedArea(ring: readonly PointIn[]): number {
  let a = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i]!;
    const q = ring[(i + 1) % ring.length]!;
    a += p.xIn * q.yIn - q.xIn * p.yIn;
  }
  return a / 2;
}

describe('arcPoints', () => {
  it('includes both ends and steps at most ARC_STEP_DEG', () => {
    const pts = arcPoints(c, 6, 30, 100);
    expect(angle(pts[0]!)).toBeCloseTo(30, 9);
    expect(angle(pts[pts.length - 1]!)).toBeCloseTo(100, 9);
    expect(pts.length - 1).toBe(Math.ceil(70 / ARC_STEP_DEG));
    for (const p of pts) expect(dist(p)).toBeCloseTo(6, 9);
  });

  it('wraps through 0 when end < start', () => {
    const pts = arcPoints(c, 1, 350, 10);
    expect(angle(pts[0]!)).toBeCloseTo(350, 9);
    expect(angle(pts[pts.length - 1]!)).toBeCloseTo(10, 6);
    expect(pts.length - 1).toBe(4); // 20° in 5° steps
  });
});

describe('shapeOutline', () => {
  const base = { id: 's', layer: 'fire', style: 'arc' } as const;

  it('a 90° sector is a pie slice from the centre with the sector area', () => {
    const o = shapeOutline({ ...base, kind: 'sector', center: c, radiusIn: 12, startDeg: 45, endDeg: 135 } satisfies Shape);
    expect(o.fill![0]).toEqual(c);
    const area = Math.abs(signedArea(o.fill!));
    expect(area).toBeGreaterThan(Math.PI * 144 * 0.25 * 0.99);
    expect(area).toBeLessThan(Math.PI * 144 * 0.25);
    // The stroke is the closed outline.
    expect(o.strokes[0]![0]).toEqual(o.strokes[0]![o.strokes[0]!.length - 1]);
  });

  it('an annular sector keeps out of the inner radius', () => {
    const o = shapeOutline({ ...base, kind: 'sector', center: c, radiusIn: 12, innerRadiusIn: 6, startDeg: 0, endDeg: 60 } satisfies Shape);
    for (const p of o.fill!) expect(dist(p)).toBeGreaterThanOrEqual(6 - 1e-9);
    const expected = (Math.PI * (144 - 36) * 60) / 360;
    expect(Math.abs(signedArea(o.fill!))).toBeCloseTo(expected, 0);
  });

  it('a full-circle annulus becomes a ring with a hole', () => {
    const o = shapeOutline({ ...base, kind: 'sector', center: c, radiusIn: 12, innerRadiusIn: 6, startDeg: 0, endDeg: 360 } satisfies Shape);
    expect(o.hole).not.toBeNull();
    for (const p of o.hole!) expect(dist(p)).toBeCloseTo(6, 9);
    expect(o.strokes).toHaveLength(2);
  });

  it('circle, polygon, polyline and label', () => {
    const circle = shapeOutline({ ...base, kind: 'circle', center: c, radiusIn: 3 });
    expect(circle.fill!.length).toBe(360 / ARC_STEP_DEG);
    expect(Math.abs(signedArea(circle.fill!))).toBeCloseTo(Math.PI * 9, 0);
    const tri = [{ xIn: 0, yIn: 0 }, { xIn: 4, yIn: 0 }, { xIn: 0, yIn: 3 }];
    const poly = shapeOutline({ ...base, kind: 'polygon', vertices: tri });
    expect(poly.fill).toEqual(tri);
    expect(poly.strokes[0]).toHaveLength(4);
    const line = shapeOutline({ ...base, kind: 'polyline', points: tri });
    expect(line.fill).toBeNull();
    expect(line.strokes).toEqual([tri]);
    expect(shapeOutline({ ...base, kind: 'label', at: c, text: 'x' }).strokes).toEqual([]);
  });
});
