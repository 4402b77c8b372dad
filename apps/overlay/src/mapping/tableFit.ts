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
}

/**
 * Fits the table into the viewport, centred, keeping aspect.
 * @param marginPx space kept free on every side, CSS pixels; default 12.
 * @example fitTable({ widthIn: 72, depthIn: 48 }, { widthPx: 744, heightPx: 500 }, 12) // pxPerIn 10
 */
export function fitTable(table: TableSizeIn, viewport: ViewportPx, marginPx = 12): TableFit {
  if (!(table.widthIn > 0 && table.depthIn > 0)) throw new Error(`table size must be positive, got ${table.widthIn}×${table.depthIn} in`);
  const usableW = Math.max(1, viewport.widthPx - 2 * marginPx);
  const usableH = Math.max(1, viewport.heightPx - 2 * marginPx);
  const pxPerIn = Math.min(usableW / table.widthIn, usableH / table.depthIn);
  return {
    pxPerIn,
    originPx: {
      xPx: (viewport.widthPx - table.widthIn * pxPerIn) / 2,
      yPx: (viewport.heightPx + table.depthIn * pxPerIn) / 2,
    },
  };
}

/** The fit as a homography: x right, table y up on screen. */
export function fitToHomography(fit: TableFit): Homography {
  return [fit.pxPerIn, 0, fit.originPx.xPx, 0, -fit.pxPerIn, fit.originPx.yPx, 0, 0, 1];
}

/**
 * Zooms by `factor` keeping the table point under `anchorPx` fixed (wheel and pinch zoom).
 * @param factor >1 zooms in.
 */
export function zoomFitAt(fit: TableFit, factor: number, anchorPx: ScreenPointPx): TableFit {
  const f = Math.min(40, Math.max(1 / 40, factor));
  return {
    pxPerIn: fit.pxPerIn * f,
    originPx: {
      xPx: anchorPx.xPx + (fit.originPx.xPx - anchorPx.xPx) * f,
      yPx: anchorPx.yPx + (fit.originPx.yPx - anchorPx.yPx) * f,
    },
  };
}

/** Moves the table by a screen-pixel offset (drag to pan). */
export function panFit(fit: TableFit, dxPx: number, dyPx: number): TableFit {
  return { pxPerIn: fit.pxPerIn, originPx: { xPx: fit.originPx.xPx + dxPx, yPx: fit.originPx.yPx + dyPx } };
}
