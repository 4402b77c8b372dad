/**
 * The views' side of `@muster/table-mapping`: table inches → screen pixels and back, with typed points.
 * The views draw everything in table inches and push it through one homography to reach screen pixels:
 * a plain scale-and-offset for the map, the calibrated table → projector map for the projector. One path
 * for both, so the test hook and the renderer can never disagree.
 */
import type { PointIn } from '@muster/rules';
import { applyHomography, invertHomography, type Homography } from '@muster/table-mapping';

export type { Homography3x3 as Homography } from '@muster/table-mapping';

/** A point in CSS/screen pixels: x to the right, y down, origin at the top-left of the view. */
export interface ScreenPointPx {
  readonly xPx: number;
  readonly yPx: number;
}

/**
 * Maps a table point to screen pixels.
 * @example tableToScreenPx(IDENTITY_HOMOGRAPHY, { xIn: 2, yIn: 3 }) // { xPx: 2, yPx: 3 }
 */
export function tableToScreenPx(h: Homography, p: PointIn): ScreenPointPx {
  const [xPx, yPx] = applyHomography(h, p.xIn, p.yIn);
  return { xPx, yPx };
}

/** Maps a screen point back to the table (for clicks). */
export function screenPxToTable(h: Homography, p: ScreenPointPx): PointIn {
  const [xIn, yIn] = applyHomography(invertHomography(h), p.xPx, p.yPx);
  return { xIn, yIn };
}
