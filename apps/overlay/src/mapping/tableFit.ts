/**
 * The map's table→screen mapping: the whole table fitted into the view with a margin, near edge at the
 * bottom (table +y is screen up), plus zoom and pan. Expressed as a homography so the renderer, the labels
 * and the click handler all use the same numbers as the projector's calibrated map.
 */
import type { Homography, ScreenPointPx } from './homography.ts';

export interface TableSizeIn {
  readonly widthIn: number;
  readonly depthIn: number;
}

export interface ViewportPx {
  readonly widthPx: number;
  readonly heightPx: number;
}

/** Uniform scale and where table (0,0) lands on screen. */
export interface TableFit {
  readonly pxPerIn: number;
  /** Screen position of the table's near-left corner. */
  readonly originPx: ScreenPointPx;
  /**
   * Turned a quarter clockwise: table +x runs down the screen and +y to the right (near edge on the
   * left). Used for a landscape table on a portrait phone, where it is half again as large.
   */
  readonly quarterTurn: boolean;
}

/**
 * Fits the table into the viewport, centred, keeping aspect.
 * @param marginPx space kept free on every side, CSS pixels; default 12.
 * @example fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 744, heightPx: 500 }, 12) // pxPerIn 10
 */
export function fitTable(table: TableSizeIn, viewport: ViewportPx, marginPx = 12, allowQuarterTurn = false): TableFit {
  if (!(table.widthIn > 0 && table.depthIn > 0)) throw new Error(`table size must be positive, got ${table.widthIn}×${table.depthIn} in`);
  const usableW = Math.max(1, viewport.widthPx - 2 * marginPx);
  const usableH = Math.max(1, viewport.heightPx - 2 * marginPx);
  const upright = Math.min(usableW / table.widthIn, usableH / table.depthIn);
  const turned = Math.min(usableW / table.depthIn, usableH / table.widthIn);
  // Turn only when it clearly pays: a near-square table or view keeps the familiar orientation.
  if (allowQuarterTurn && turned > upright * 1.15) {
    return {
      pxPerIn: turned,
      originPx: { xPx: (viewport.widthPx - table.depthIn * turned) / 2, yPx: (viewport.heightPx - table.widthIn * turned) / 2 },
      quarterTurn: true,
    };
  }
  return {
    pxPerIn: upright,
    originPx: {
      xPx: (viewport.widthPx - table.widthIn * upright) / 2,
      yPx: (viewport.heightPx + table.depthIn * upright) / 2,
    },
    quarterTurn: false,
  };
}

/** Screen bands kept clear of the table, CSS px: a bar over the top, a legend and game strip at the bottom. */
export interface FitReserve {
  readonly topPx: number;
  readonly bottomPx: number;
}

/**
 * Shrinking the table by more than this to clear the bottom band is not worth it: the band's boxes then
 * sit over the table's edge as before (on a wide screen the table is height-bound and they are small).
 */
const BOTTOM_RESERVE_MAX_LOSS = 0.03;

/**
 * Fits the table below a top band it must never be under (a replay timeline), and above a bottom band when
 * that costs the table at most 3% of its size (a phone's spare height holds the legend and game strip
 * under the table instead of over it). With the bottom band cleared the table sits at the top of the room
 * left, so the band growing a line does not move it.
 */
export function fitTableReserving(table: TableSizeIn, viewport: ViewportPx, reserve: FitReserve, marginPx = 12, allowQuarterTurn = false): TableFit {
  const top = Math.max(0, Math.min(reserve.topPx, viewport.heightPx - 2 * marginPx - 1));
  const below = { widthPx: viewport.widthPx, heightPx: viewport.heightPx - top };
  const loose = fitTable(table, below, marginPx, allowQuarterTurn);
  const bottom = Math.max(0, Math.min(reserve.bottomPx, below.heightPx - 2 * marginPx - 1));
  const tight = bottom > 0 ? fitTable(table, { widthPx: viewport.widthPx, heightPx: below.heightPx - bottom }, marginPx, allowQuarterTurn) : null;
  if (tight && tight.quarterTurn === loose.quarterTurn && tight.pxPerIn >= loose.pxPerIn * (1 - BOTTOM_RESERVE_MAX_LOSS)) {
    // Top-aligned in the room left above the bottom band.
    const heightPx = (tight.quarterTurn ? table.widthIn : table.depthIn) * tight.pxPerIn;
    const topEdge = top + marginPx;
    return { ...tight, originPx: { xPx: tight.originPx.xPx, yPx: tight.quarterTurn ? topEdge : topEdge + heightPx } };
  }
  return { ...loose, originPx: { xPx: loose.originPx.xPx, yPx: loose.originPx.yPx + top } };
}

/** The fit as a homography: x right and table y up on screen, or turned a quarter clockwise. */
export function fitToHomography(fit: TableFit): Homography {
  const s = fit.pxPerIn;
  return fit.quarterTurn
    ? [0, s, fit.originPx.xPx, s, 0, fit.originPx.yPx, 0, 0, 1]
    : [s, 0, fit.originPx.xPx, 0, -s, fit.originPx.yPx, 0, 0, 1];
}

/**
 * Zooms by `factor` keeping the table point under `anchorPx` fixed (wheel and pinch zoom).
 * @param factor >1 zooms in.
 */
export function zoomFitAt(fit: TableFit, factor: number, anchorPx: ScreenPointPx): TableFit {
  const f = Math.min(40, Math.max(1 / 40, factor));
  return {
    ...fit,
    pxPerIn: fit.pxPerIn * f,
    originPx: {
      xPx: anchorPx.xPx + (fit.originPx.xPx - anchorPx.xPx) * f,
      yPx: anchorPx.yPx + (fit.originPx.yPx - anchorPx.yPx) * f,
    },
  };
}

/** Moves the table by a screen-pixel offset (drag to pan). */
export function panFit(fit: TableFit, dxPx: number, dyPx: number): TableFit {
  return { ...fit, originPx: { xPx: fit.originPx.xPx + dxPx, yPx: fit.originPx.yPx + dyPx } };
}
