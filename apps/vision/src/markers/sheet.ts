/**
 * Printable sheets as plain vector shapes in inches (origin top-left of the page, y down), rendered to
 * SVG (`renderSvg.ts`) or PDF (`renderPdf.ts`). Keeping one model means both outputs print identically.
 */

export type Shape =
  /** Solid black rectangle (tag modules, board squares, scale bar). */
  | { readonly kind: 'fill'; readonly xIn: number; readonly yIn: number; readonly wIn: number; readonly hIn: number }
  /** Thin dashed outline: cut here. */
  | { readonly kind: 'cut'; readonly xIn: number; readonly yIn: number; readonly wIn: number; readonly hIn: number }
  /** Thin solid line. */
  | { readonly kind: 'line'; readonly x1In: number; readonly y1In: number; readonly x2In: number; readonly y2In: number }
  /** One line of text; (xIn, yIn) is the left end (or, centred, the middle) of the baseline. */
  | { readonly kind: 'text'; readonly xIn: number; readonly yIn: number; readonly sizeIn: number; readonly text: string; readonly centred?: boolean };

export interface Sheet {
  readonly widthIn: number;
  readonly heightIn: number;
  readonly shapes: readonly Shape[];
}

export type PaperName = 'letter' | 'a4';

export const PAPER_SIZES_IN: Record<PaperName, { readonly widthIn: number; readonly heightIn: number }> = {
  letter: { widthIn: 8.5, heightIn: 11 },
  a4: { widthIn: 210 / 25.4, heightIn: 297 / 25.4 },
};

export const MM_PER_IN = 25.4;
