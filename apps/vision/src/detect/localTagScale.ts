/**
 * The size of a stand tag in pixels where it lies in the image, from the image → table homography: with
 * a tilted camera near tags are large and far tags small (15 px against 11 px at 4K for 0.5 in tags, a
 * camera at the end of a 72 in table tilted 35°), so one set of detector sizes does not fit the whole
 * frame. Used for the second, magnified pass over the part of the frame where tags are small
 * (`frameDetector.ts`) and for the tag-size report (`tagSizeReport.ts`).
 */
import { applyHomography, invertHomography, type Homography } from '@muster/table-mapping';
import type { WindowPx } from './mosaic.ts';

/** Side in image px of a `sizeIn` square centred at table point (xIn, yIn), through table → image `toImage`. */
export function tagSidePxAt(toImage: Homography, xIn: number, yIn: number, sizeIn: number): number {
  const h = sizeIn / 2;
  const p = [
    [xIn - h, yIn - h],
    [xIn + h, yIn - h],
    [xIn + h, yIn + h],
    [xIn - h, yIn + h],
  ].map(([x, y]) => applyHomography(toImage, x!, y!));
  let sum = 0;
  for (let k = 0; k < 4; k++) sum += Math.hypot(p[(k + 1) % 4]![0] - p[k]![0], p[(k + 1) % 4]![1] - p[k]![1]);
  return sum / 4;
}

export interface TableScale {
  /** Smallest and largest stand-tag side over the table, image px. */
  readonly minSidePx: number;
  readonly maxSidePx: number;
}

/** Smallest and largest stand-tag side over the table's area (sampled on a 9×9 grid), image px. */
export function tableTagScale(imageToTable: Homography, table: { widthIn: number; heightIn: number }, sizeIn: number): TableScale {
  const toImage = invertHomography(imageToTable);
  let minSidePx = Infinity;
  let maxSidePx = 0;
  for (let i = 0; i <= 8; i++) {
    for (let j = 0; j <= 8; j++) {
      const s = tagSidePxAt(toImage, (table.widthIn * i) / 8, (table.heightIn * j) / 8, sizeIn);
      minSidePx = Math.min(minSidePx, s);
      maxSidePx = Math.max(maxSidePx, s);
    }
  }
  return { minSidePx, maxSidePx };
}

/**
 * The bounding box of the frame's tiles (`tilePx` square) whose centre lies on the table and where a
 * stand tag is smaller than `smallSidePx`, grown by `marginPx`; null when there is none.
 */
export function smallTagWindow(
  imageToTable: Homography,
  frame: { widthPx: number; heightPx: number },
  table: { widthIn: number; heightIn: number },
  sizeIn: number,
  smallSidePx: number,
  tilePx = 128,
  marginPx = 0,
): WindowPx | null {
  const toImage = invertHomography(imageToTable);
  let u0 = Infinity;
  let v0 = Infinity;
  let u1 = -Infinity;
  let v1 = -Infinity;
  for (let v = 0; v < frame.heightPx; v += tilePx) {
    for (let u = 0; u < frame.widthPx; u += tilePx) {
      const cu = Math.min(u + tilePx / 2, frame.widthPx);
      const cv = Math.min(v + tilePx / 2, frame.heightPx);
      const [x, y] = applyHomography(imageToTable, cu, cv);
      if (!(x >= -sizeIn && y >= -sizeIn && x <= table.widthIn + sizeIn && y <= table.heightIn + sizeIn)) continue;
      if (tagSidePxAt(toImage, x, y, sizeIn) >= smallSidePx) continue;
      u0 = Math.min(u0, u);
      v0 = Math.min(v0, v);
      u1 = Math.max(u1, Math.min(u + tilePx, frame.widthPx));
      v1 = Math.max(v1, Math.min(v + tilePx, frame.heightPx));
    }
  }
  if (!(u1 > u0)) return null;
  return { u0: Math.max(0, u0 - marginPx), v0: Math.max(0, v0 - marginPx), u1: Math.min(frame.widthPx, u1 + marginPx), v1: Math.min(frame.heightPx, v1 + marginPx) };
}
