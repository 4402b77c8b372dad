/**
 * A stand's rectangle on the table. The pose is the base's centre; the heading points out of the front
 * edge (frontage `widthIn` runs along that edge, `depthIn` front to back).
 */
import { standCorners, type PointIn, type StandShape } from '@muster/rules';

export interface StandFootprint {
  /** Corners counter-clockwise: front-left, back-left, back-right, front-right (as seen facing forward). */
  readonly corners: readonly [PointIn, PointIn, PointIn, PointIn];
  /** The front edge, left end then right end, for the facing mark. */
  readonly frontEdge: readonly [PointIn, PointIn];
  /** Unit vector the stand faces. */
  readonly forward: PointIn;
}

/**
 * The rules' own corners of the base (`standCorners`), so what the views draw is the footprint the rules
 * measured.
 * @example standFootprint({ pose: { xIn: 0, yIn: 0, headingDeg: 90 }, widthIn: 2, depthIn: 1 }).frontEdge
 * // [{ xIn: -1, yIn: 0.5 }, { xIn: 1, yIn: 0.5 }]
 */
export function standFootprint(stand: StandShape): StandFootprint {
  const [frontLeft, frontRight, backRight, backLeft] = standCorners(stand);
  const rad = (stand.pose.headingDeg * Math.PI) / 180;
  return {
    corners: [frontLeft, backLeft, backRight, frontRight],
    frontEdge: [frontLeft, frontRight],
    forward: { xIn: Math.cos(rad), yIn: Math.sin(rad) },
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
