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
