/**
 * The ChArUco calibration board as vector shapes, centred on its own page, in OpenCV's layout (black
 * square at the top-left, markers in the white squares numbered row by row, each centred in its square),
 * so `aruco_CharucoDetector` with the same board definition finds its corners.
 */
import type { CharucoBoardSpec } from '../calibrate/charucoBoardSpec.ts';
import type { Cv } from '../cv/loadCv.ts';
import { HEADER_IN, PAGE_MARGIN_IN } from './layoutTagSheets.ts';
import { markerFillRects, markerModules } from './markerModules.ts';
import { MM_PER_IN, PAPER_SIZES_IN, type PaperName, type Shape, type Sheet } from './sheet.ts';

export function charucoBoardSheet(cv: Cv, spec: CharucoBoardSpec, paper: PaperName): Sheet {
  const { widthIn, heightIn } = PAPER_SIZES_IN[paper];
  const sq = spec.squareLengthMm / MM_PER_IN;
  const mk = spec.markerLengthMm / MM_PER_IN;
  const boardW = spec.squaresX * sq;
  const boardH = spec.squaresY * sq;
  const top = PAGE_MARGIN_IN + HEADER_IN + 0.35;
  if (boardW > widthIn - 2 * PAGE_MARGIN_IN || boardH > heightIn - PAGE_MARGIN_IN - top) {
    throw new Error(`the ${spec.squaresX}×${spec.squaresY} board with ${spec.squareLengthMm} mm squares does not fit on ${paper} paper`);
  }
  const x0 = (widthIn - boardW) / 2;
  const y0 = top;
  const shapes: Shape[] = [
    {
      kind: 'text',
      xIn: PAGE_MARGIN_IN,
      yIn: top - 0.15,
      sizeIn: 0.1,
      text: `ChArUco ${spec.squaresX}x${spec.squaresY}, ${spec.dictionary}: squares ${spec.squareLengthMm} mm, markers ${spec.markerLengthMm} mm. Glue flat to card; measure a square and fix the board file if it differs.`,
    },
  ];
  let markerId = 0;
  for (let r = 0; r < spec.squaresY; r++) {
    for (let c = 0; c < spec.squaresX; c++) {
      const x = x0 + c * sq;
      const y = y0 + r * sq;
      if ((r + c) % 2 === 0) {
        shapes.push({ kind: 'fill', xIn: x, yIn: y, wIn: sq, hIn: sq });
      } else {
        const off = (sq - mk) / 2;
        shapes.push(...markerFillRects(markerModules(cv, spec.dictionary, markerId), x + off, y + off, mk));
        markerId++;
      }
    }
  }
  return { widthIn, heightIn, shapes };
}
