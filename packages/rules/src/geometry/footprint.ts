/**
 * A stand's footprint: an oriented rectangle `widthIn` wide (along the front edge) and `depthIn` deep,
 * centred on `pose` (the marker sits at the base centre), front edge facing `pose.headingDeg`.
 */
import type { PointIn } from '../model/units.ts';
import type { Stand } from '../model/tableState.ts';

/** The parts of a stand the footprint needs; a full `Stand` fits. */
export type StandShape = Pick<Stand, 'pose' | 'widthIn' | 'depthIn'>;

/** Corners in the order front-left, front-right, rear-right, rear-left (as the stand sees it). */
export type StandCorners = readonly [PointIn, PointIn, PointIn, PointIn];

/**
 * Corners of a stand's base, inches: [frontLeft, frontRight, rearRight, rearLeft]. "Front" is the edge the
 * heading points out of; left/right as seen by the stand facing its heading. The ring is clockwise.
 */
export function standCorners(stand: StandShape): StandCorners {
  const { xIn, yIn, headingDeg } = stand.pose;
  const r = (headingDeg * Math.PI) / 180;
  const fx = Math.cos(r);
  const fy = Math.sin(r);
  // Left of the facing is the forward vector turned 90° counter-clockwise.
  const lx = -fy;
  const ly = fx;
  const hd = stand.depthIn / 2;
  const hw = stand.widthIn / 2;
  const ax = fx * hd;
  const ay = fy * hd;
  const bx = lx * hw;
  const by = ly * hw;
  return [
    { xIn: xIn + ax + bx, yIn: yIn + ay + by },
    { xIn: xIn + ax - bx, yIn: yIn + ay - by },
    { xIn: xIn - ax - bx, yIn: yIn - ay - by },
    { xIn: xIn - ax + bx, yIn: yIn - ay + by },
  ];
}

/** Centre of the stand's base (its pose position). */
export function standCenter(stand: StandShape): PointIn {
  return { xIn: stand.pose.xIn, yIn: stand.pose.yIn };
}

/** Midpoint of the front edge. */
export function standFrontCenter(stand: StandShape): PointIn {
  const r = (stand.pose.headingDeg * Math.PI) / 180;
  const hd = stand.depthIn / 2;
  return { xIn: stand.pose.xIn + Math.cos(r) * hd, yIn: stand.pose.yIn + Math.sin(r) * hd };
}

/** Midpoint of the rear edge. */
export function standRearCenter(stand: StandShape): PointIn {
  const r = (stand.pose.headingDeg * Math.PI) / 180;
  const hd = stand.depthIn / 2;
  return { xIn: stand.pose.xIn - Math.cos(r) * hd, yIn: stand.pose.yIn - Math.sin(r) * hd };
}

/** The footprint as a polygon (same ring as `standCorners`, clockwise). */
export function standPolygon(stand: StandShape): readonly PointIn[] {
  return standCorners(stand);
}

/** Front edge as a segment, left to right: [frontLeft, frontRight]. */
export function standFrontEdge(stand: StandShape): readonly [PointIn, PointIn] {
  const c = standCorners(stand);
  return [c[0], c[1]];
}
