import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { TriangleBatch } from './triangleBatch.ts';

function area(positions: ArrayLike<number>): number {
  let a = 0;
  for (let i = 0; i < positions.length; i += 9) {
    const [x0, y0, , x1, y1, , x2, y2] = Array.from(positions).slice(i, i + 9) as number[];
    a += Math.abs((x1! - x0!) * (y2! - y0!) - (x2! - x0!) * (y1! - y0!)) / 2;
  }
  return a;
}

describe('TriangleBatch', () => {
  it('triangulates a concave polygon (either winding) with a hole, keeping its area', () => {
    const ell = [{ xIn: 0, yIn: 0 }, { xIn: 4, yIn: 0 }, { xIn: 4, yIn: 1 }, { xIn: 1, yIn: 1 }, { xIn: 1, yIn: 3 }, { xIn: 0, yIn: 3 }];
    for (const ring of [ell, [...ell].reverse()]) {
      const b = new TriangleBatch();
      b.addPolygon(ring, { color: 0xffffff, opacity: 1 });
      const mesh = b.toMesh(0)!;
      expect(area(mesh.geometry.getAttribute('position').array)).toBeCloseTo(6, 9);
    }
    const square = [{ xIn: 0, yIn: 0 }, { xIn: 4, yIn: 0 }, { xIn: 4, yIn: 4 }, { xIn: 0, yIn: 4 }];
    const hole = [{ xIn: 1, yIn: 1 }, { xIn: 3, yIn: 1 }, { xIn: 3, yIn: 3 }, { xIn: 1, yIn: 3 }];
    const b = new TriangleBatch();
    b.addPolygon(square, { color: 0xffffff, opacity: 1 }, hole);
    expect(area(b.toMesh(0)!.geometry.getAttribute('position').array)).toBeCloseTo(12, 9);
  });

  it('carries each piece’s colour (linear, like material colours) and opacity per vertex, in order', () => {
    const b = new TriangleBatch();
    b.addTriangles([0, 0, 1, 0, 0, 1], { color: 0xff0000, opacity: 0.5 });
    b.addTriangles([0, 0, 1, 0, 0, 1], { color: 0x3366cc, opacity: 1 });
    expect(b.triangleCount).toBe(2);
    const colors = b.toMesh(5)!.geometry.getAttribute('color');
    expect(colors.itemSize).toBe(4);
    expect([colors.getX(0), colors.getY(0), colors.getZ(0), colors.getW(0)]).toEqual([1, 0, 0, 0.5]);
    const linear = new THREE.Color().setHex(0x3366cc);
    expect(colors.getX(3)).toBeCloseTo(linear.r, 6);
    expect(colors.getZ(5)).toBeCloseTo(linear.b, 6);
    expect(colors.getW(5)).toBe(1);
  });

  it('gives no mesh when empty', () => {
    expect(new TriangleBatch().toMesh(0)).toBeNull();
  });
});
