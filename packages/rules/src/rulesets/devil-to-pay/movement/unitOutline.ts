/**
 * The moving unit's outline for one `movementOptions` call: its bounding rectangle in its own frame, as the
 * points rays leave from and as the frame the obstacles' corners are cast back at. Per-call scratch (see
 * `obstacleKeys.ts`).
 */
import type { PointIn } from '../../../model/units.ts';

/** The unit's bounding rectangle's corners and edge midpoints in table inches, [x0, y0, ..., x7, y7]. */
export const OUTLINE = new Float64Array(16);
/** The unit's bounding rectangle as a frame [cx, cy, ux, uy, nx, ny, halfWidth, halfDepth] (u to its right). */
export const OUR_FRAME = new Float64Array(8);

/** Sets outline point i from (x forward, y left) in the unit's frame at `ref` facing (fx, fy). */
export function setOutline(i: number, ref: PointIn, fx: number, fy: number, x: number, y: number): void {
  OUTLINE[2 * i] = ref.xIn + x * fx - y * fy;
  OUTLINE[2 * i + 1] = ref.yIn + x * fy + y * fx;
}
