/**
 * The black/white module grid of one ArUco marker, border included, read from the dictionary through
 * opencv.js once so the printers can draw every module as a vector square.
 */
import type { Cv } from '../cv/loadCv.ts';

/** rows[r][c] is true where the module is black; (bits + 2) × (bits + 2) with the black border. */
export type MarkerModules = readonly (readonly boolean[])[];

export function markerModules(cv: Cv, dictionaryName: string, id: number): MarkerModules {
  const dictId = cv[dictionaryName];
  if (typeof dictId !== 'number') throw new Error(`unknown ArUco dictionary "${dictionaryName}"`);
  const dict = cv.getPredefinedDictionary(dictId);
  const img = new cv.Mat();
  try {
    const count = dict.bytesList.rows as number;
    if (!Number.isInteger(id) || id < 0 || id >= count) throw new Error(`tag id ${id} is not in ${dictionaryName} (ids 0-${count - 1})`);
    const side = (dict.markerSize as number) + 2;
    // One pixel per module: the image is the module grid itself.
    dict.generateImageMarker(id, side, img, 1);
    const rows: boolean[][] = [];
    for (let r = 0; r < side; r++) {
      const row: boolean[] = [];
      for (let c = 0; c < side; c++) row.push((img.data[r * side + c] as number) < 128);
      rows.push(row);
    }
    return rows;
  } finally {
    img.delete();
    dict.delete();
  }
}

/** Vector squares for a marker whose black square is `sizeIn` wide with its top-left at (xIn, yIn). */
export function markerFillRects(
  modules: MarkerModules,
  xIn: number,
  yIn: number,
  sizeIn: number,
): { kind: 'fill'; xIn: number; yIn: number; wIn: number; hIn: number }[] {
  const n = modules.length;
  const m = sizeIn / n;
  const out: { kind: 'fill'; xIn: number; yIn: number; wIn: number; hIn: number }[] = [];
  modules.forEach((row, r) => {
    // Merge horizontal runs so a printer draws few, gap-free rectangles.
    let c = 0;
    while (c < n) {
      if (!row[c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < n && row[c]) c++;
      out.push({ kind: 'fill', xIn: xIn + start * m, yIn: yIn + r * m, wIn: (c - start) * m, hIn: m });
    }
  });
  return out;
}
