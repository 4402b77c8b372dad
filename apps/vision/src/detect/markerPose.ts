/**
 * A tag's pose in table inches from its four image corners and the image → table homography.
 */
import { applyHomography, type Homography } from '@muster/table-mapping';

export interface TablePose {
  readonly xIn: number;
  readonly yIn: number;
  /** Degrees CCW from +x, [0, 360). */
  readonly headingDeg: number;
}

/** Normalise degrees to [0, 360). */
export function normaliseDeg(deg: number): number {
  const d = deg % 360;
  const r = d < 0 ? d + 360 : d;
  return r >= 360 ? 0 : r;
}

/**
 * Centre = mean of the four corners mapped to the table (the printed tag is a square on the table
 * plane). Heading = direction from the bottom edge's midpoint to the top edge's, averaged with the
 * left→right direction turned 90° CCW, which halves the effect of one noisy corner.
 *
 * `cornersPx` is [u0,v0,...,u3,v3] in OpenCV order (top-left, top-right, bottom-right, bottom-left).
 */
export function markerPose(imageToTable: Homography, cornersPx: ArrayLike<number>): TablePose {
  const p: [number, number][] = [];
  for (let k = 0; k < 4; k++) p.push(applyHomography(imageToTable, cornersPx[2 * k]!, cornersPx[2 * k + 1]!));
  const [tl, tr, br, bl] = p as [[number, number], [number, number], [number, number], [number, number]];
  const xIn = (tl[0] + tr[0] + br[0] + bl[0]) / 4;
  const yIn = (tl[1] + tr[1] + br[1] + bl[1]) / 4;
  // Up: bottom edge → top edge. Right: left edge → right edge, turned +90° (x, y) → (−y, x) is up too.
  const upX = tl[0] + tr[0] - bl[0] - br[0];
  const upY = tl[1] + tr[1] - bl[1] - br[1];
  const rightX = tr[0] + br[0] - tl[0] - bl[0];
  const rightY = tr[1] + br[1] - tl[1] - bl[1];
  const hx = upX - rightY;
  const hy = upY + rightX;
  return { xIn, yIn, headingDeg: normaliseDeg((Math.atan2(hy, hx) * 180) / Math.PI) };
}
