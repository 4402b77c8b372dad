/**
 * A stand's rectangle on the table. The pose is the base's centre; the heading points out of the front
 * edge (frontage `widthIn` runs along that edge, `depthIn` front to back).
 */
import type { PointIn, Stand } from '@muster/rules';

export interface StandFootprint {
  /** Corners counter-clockwise: front-left, back-left, back-right, front-right (as seen facing forward). */
  readonly corners: readonly [PointIn, PointIn, PointIn, PointIn];
  /** The front edge, left end then right end, for the facing mark. */
  readonly frontEdge: readonly [PointIn, PointIn];
  /** Unit vector the stand faces. */
  readonly forward: PointIn;
}

type StandGeometry = Pick<Stand, 'pose' | 'widthIn' | 'depthIn'>;

/**
 * @example standFootprint({ pose: { xIn: 0, yIn: 0, headingDeg: 90 }, widthIn: 2, depthIn: 1 }).frontEdge
 * // [{ xIn: -1, yIn: 0.5 }, { xIn: 1, yIn: 0.5 }]
 */
export function standFootprint(stand: StandGeometry): StandFootprint {
  const rad = (stand.pose.headingDeg * Math.PI) / 180;
  const fx = Math.cos(rad);
  const fy = Math.sin(rad);
  // Left of forward is forward rotated +90° (CCW).
  const lx = -fy;
  const ly = fx;
  const hw = stand.widthIn / 2;
  const hd = stand.depthIn / 2;
  const at = (f: number, l: number): PointIn => ({
    xIn: stand.pose.xIn + fx * f + lx * l,
    yIn: stand.pose.yIn + fy * f + ly * l,
  });
  const frontLeft = at(hd, hw);
  const backLeft = at(-hd, hw);
  const backRight = at(-hd, -hw);
  const frontRight = at(hd, -hw);
  return {
    corners: [frontLeft, backLeft, backRight, frontRight],
    frontEdge: [frontLeft, frontRight],
    forward: { xIn: fx, yIn: fy },
  };
}

/** Ray-casting point-in-polygon, for picking a stand under a click. */
export function pointInPolygon(p: PointIn, vertices: readonly PointIn[]): boolean {
  let inside = false;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const a = vertices[i]!;
    const b = vertices[j]!;
    if (a.yIn > p.yIn !== b.yIn > p.yIn && p.xIn < ((b.xIn - a.xIn) * (p.yIn - a.yIn)) / (b.yIn - a.yIn) + a.xIn) {
      inside = !inside;
    }
  }
  return inside;
}
