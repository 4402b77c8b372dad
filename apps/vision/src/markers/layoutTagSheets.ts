/**
 * Lays tags out on pages: each tag at true size inside a dashed cutting outline with a quiet (white)
 * margin of one module, its id and label under the outline, rows packed left to right, a title and a
 * 1-inch / 50 mm scale bar at the top of every page so a scaled print is caught before gluing.
 */
import { textWidthEm } from './labelFont.ts';
import { markerFillRects, type MarkerModules } from './markerModules.ts';
import { MM_PER_IN, PAPER_SIZES_IN, type PaperName, type Shape, type Sheet } from './sheet.ts';

export interface TagItem {
  readonly tagId: number;
  /** Printed under the tag, e.g. the unit and stand. */
  readonly label: string;
  /** A third line under the label, e.g. the unit's type ('harquebusier', 'infantry, rifled musket'). */
  readonly detail?: string;
  /** Side of the black square, inches (the detector's markerSize / anchor size). */
  readonly sizeIn: number;
  readonly modules: MarkerModules;
}

export const PAGE_MARGIN_IN = 0.5;
export const HEADER_IN = 0.95;
const GAP_IN = 0.12;
const LABEL_LINE_IN = 0.14;
const MAX_LABEL_SIZE_IN = 0.1;

/** Quiet zone around the black square: one module (the detector needs white around the border). */
export function quietZoneIn(item: Pick<TagItem, 'sizeIn' | 'modules'>): number {
  return Math.max(item.sizeIn / item.modules.length, 0.06);
}

/** Labels are measured with the label font's own advance widths (the PDF prints with exactly these). */
function fitTextSizeIn(text: string, widthIn: number): number {
  return Math.max(0.045, Math.min(MAX_LABEL_SIZE_IN, widthIn / Math.max(0.6, textWidthEm(text))));
}

/** A label is given at least this many ems of cell width (three average characters). */
const MIN_LABEL_EM = 1.8;

/** Title, page number and the scale bars: the top `HEADER_IN` of the printable area. */
export function pageHeader(title: string, pageNo: number, pageCount: number, widthIn: number): Shape[] {
  const x = PAGE_MARGIN_IN;
  const y = PAGE_MARGIN_IN;
  const shapes: Shape[] = [
    { kind: 'text', xIn: x, yIn: y + 0.16, sizeIn: 0.16, text: title },
    { kind: 'text', xIn: widthIn - PAGE_MARGIN_IN - 0.9, yIn: y + 0.16, sizeIn: 0.1, text: `page ${pageNo} of ${pageCount}` },
  ];
  // 1 inch bar in quarter-inch checkers, then a 50 mm bar in 10 mm checkers: measure both after printing.
  const barY = y + 0.32;
  const barH = 0.12;
  for (let i = 0; i < 4; i++) if (i % 2 === 0) shapes.push({ kind: 'fill', xIn: x + i * 0.25, yIn: barY, wIn: 0.25, hIn: barH });
  shapes.push({ kind: 'cut', xIn: x, yIn: barY, wIn: 1, hIn: barH });
  shapes.push({ kind: 'text', xIn: x, yIn: barY + barH + 0.13, sizeIn: 0.09, text: '1 inch' });
  const x2 = x + 1.4;
  const mm10 = 10 / MM_PER_IN;
  for (let i = 0; i < 5; i++) if (i % 2 === 0) shapes.push({ kind: 'fill', xIn: x2 + i * mm10, yIn: barY, wIn: mm10, hIn: barH });
  shapes.push({ kind: 'cut', xIn: x2, yIn: barY, wIn: 5 * mm10, hIn: barH });
  shapes.push({ kind: 'text', xIn: x2, yIn: barY + barH + 0.13, sizeIn: 0.09, text: '50 mm' });
  shapes.push({
    kind: 'text',
    xIn: x2 + 2.3,
    yIn: barY + 0.1,
    sizeIn: 0.085,
    text: 'Print at 100% (actual size). Check both bars with a ruler.',
  });
  return shapes;
}

interface Placed {
  readonly item: TagItem;
  readonly cellW: number;
  readonly cellH: number;
}

/** Shapes for one tag with its cell's top-left at (x, y). */
function tagShapes(p: Placed, x: number, y: number): Shape[] {
  const q = quietZoneIn(p.item);
  const cut = p.item.sizeIn + 2 * q;
  const cutX = x + (p.cellW - cut) / 2;
  const shapes: Shape[] = [
    { kind: 'cut', xIn: cutX, yIn: y, wIn: cut, hIn: cut },
    ...markerFillRects(p.item.modules, cutX + q, y + q, p.item.sizeIn),
  ];
  const idText = `#${p.item.tagId}`;
  const lines = [idText, ...(p.item.label ? [p.item.label] : []), ...(p.item.detail ? [p.item.detail] : [])];
  lines.forEach((text, i) => {
    const size = fitTextSizeIn(text, p.cellW);
    shapes.push({ kind: 'text', xIn: x + p.cellW / 2, yIn: y + cut + LABEL_LINE_IN * (i + 1) - 0.02, sizeIn: size, text, centred: true });
  });
  return shapes;
}

/** Pages of tags, without headers (add them with `addPageHeaders` once every page is known). */
export function layoutTagSheets(items: readonly TagItem[], paper: PaperName): Sheet[] {
  const { widthIn, heightIn } = PAPER_SIZES_IN[paper];
  const usableW = widthIn - 2 * PAGE_MARGIN_IN;
  const top = PAGE_MARGIN_IN + HEADER_IN;
  const bottom = heightIn - PAGE_MARGIN_IN;
  const pages: { x: number; y: number; p: Placed }[][] = [[]];
  let x = 0;
  let y = top;
  let rowH = 0;
  for (const item of items) {
    if (!(item.sizeIn > 0)) throw new Error(`tag ${item.tagId}: size must be positive`);
    const cut = item.sizeIn + 2 * quietZoneIn(item);
    const labelEm = Math.max(textWidthEm(item.label), item.detail ? textWidthEm(item.detail) : 0, MIN_LABEL_EM);
    const labelW = Math.min(1.6, 0.8 * MAX_LABEL_SIZE_IN * labelEm);
    const cellW = Math.max(cut, labelW);
    const cellH = cut + (item.detail ? 3 : 2) * LABEL_LINE_IN + 0.02;
    if (cellW > usableW || cellH > bottom - top) throw new Error(`tag ${item.tagId} (${item.sizeIn} in) does not fit on ${paper} paper`);
    if (x > 0 && x + cellW > usableW) {
      x = 0;
      y += rowH + GAP_IN;
      rowH = 0;
    }
    if (y + cellH > bottom) {
      pages.push([]);
      x = 0;
      y = top;
      rowH = 0;
    }
    pages[pages.length - 1]!.push({ x: PAGE_MARGIN_IN + x, y, p: { item, cellW, cellH } });
    x += cellW + GAP_IN;
    rowH = Math.max(rowH, cellH);
  }
  return pages.map((placed) => ({ widthIn, heightIn, shapes: placed.flatMap((pl) => tagShapes(pl.p, pl.x, pl.y)) }));
}

/** Title, page x of n and the scale bars on every sheet. */
export function addPageHeaders(sheets: readonly Sheet[], title: string): Sheet[] {
  return sheets.map((s, i) => ({ ...s, shapes: [...pageHeader(title, i + 1, sheets.length, s.widthIn), ...s.shapes] }));
}
