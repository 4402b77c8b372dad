/**
 * The projector calibration pattern: AprilTag 36h11 tags (as OpenCV's ArUco module reads them,
 * `DICT_APRILTAG_36h11`) at known projector pixels, black on a white screen. One pure module used by
 * both sides, so they cannot disagree: the projector page draws `patternBlackRects(projectorPattern(w, h))`
 * and the solver matches each detected tag id to `projectorPattern(w, h).tags`.
 *
 * Why this dictionary: a table profile may only name DICT_4X4_*, DICT_5X5_* or DICT_6X6_*, so the
 * AprilTag family never shares a dictionary with the anchors or stands; and the ids below are those of
 * 36h11 whose codes differ by at least 7 bits (under every rotation) from every DICT_6X6_1000 code,
 * the only profile dictionaries with the same 6×6 grid, so neither detector can read one as the other
 * (each corrects at most 3 bits). `projectorPattern.test` re-derives all of this from opencv.js.
 *
 * Why white: a white screen lights the table, so the anchors stay visible in the same camera frame.
 *
 * Pixel convention (as `PointPx`): pixel (u, v) covers [u, u+1) × [v, v+1); tag corners are pixel
 * corners, so a canvas that fills whole pixels draws them exactly.
 */
import { createRng } from '@muster/rules';

/** The ArUco dictionary of the projected tags (opencv.js constant name). */
export const PROJECTOR_PATTERN_DICTIONARY = 'DICT_APRILTAG_36h11';

/** Data bits per side (36h11: 6×6), plus a one-module black border on each side. */
export const PATTERN_TAG_BITS = 6;
const MODULES = PATTERN_TAG_BITS + 2;

/**
 * [id, code]: the 36 data bits of each usable tag, row-major from the top-left, most significant first,
 * 1 = white. Read from opencv.js's dictionary (verified by the test).
 */
export const PATTERN_TAG_CODES: readonly (readonly [number, string])[] = [
  [0, '21a146bab'], [1, '92d18fe9b'], [2, '7089014bb'], [3, '193979e27'], [4, '44153d3d7'],
  [6, 'a10ba56a0'], [7, '2b874a608'], [8, 'b57fb8d44'], [10, '61d897f2c'], [11, 'ab3469ffc'],
  [12, '594ca45c2'], [13, 'fa1c2d2e2'], [14, '97c24b972'], [15, '75928624a'], [16, '1caafe99a'],
  [17, '3236ddc16'], [18, '884e527d6'], [19, '5771a8c7e'], [20, 'f52925b81'], [21, '2e59cc1a1'],
  [22, '7fa58ab31'], [23, 'eb43384f9'], [24, '3913d5345'], [25, 'd79b1a3b5'], [26, '0dfbe768d'],
  [27, '5cd7a031d'], [28, 'b9c8f7a4b'], [29, '46987e06b'], [31, '5bc567bb4'], [32, '1e6302bc2'],
  [33, '8ac7d046a'], [34, 'a65fe2326'], [35, '5400eb616'], [37, '2dd0afdf6'], [38, '3b9cb60b1'],
  [39, 'ad6a1caf9'], [40, '93b62efb5'], [41, 'bb210d93d'], [42, 'dee55094b'], [43, 'a0cd1479b'],
];

/** A point in projector pixels (origin at the top-left pixel's corner). */
export interface ProjectorPointPx {
  readonly xPx: number;
  readonly yPx: number;
}

export interface PatternTag {
  readonly id: number;
  /** Top-left corner of the black square, whole projector pixels. */
  readonly leftPx: number;
  readonly topPx: number;
  /** Side of one module, whole pixels; the black square is 8 modules wide. */
  readonly modulePx: number;
  /** Corners of the black square in OpenCV order: top-left, top-right, bottom-right, bottom-left. */
  readonly cornersPx: readonly [ProjectorPointPx, ProjectorPointPx, ProjectorPointPx, ProjectorPointPx];
}

export interface ProjectorPattern {
  readonly widthPx: number;
  readonly heightPx: number;
  readonly tags: readonly PatternTag[];
  /** Where the page writes the size it drew the pattern at (left empty of tags). */
  readonly labelBoxPx: { readonly leftPx: number; readonly topPx: number; readonly widthPx: number; readonly heightPx: number };
}

/** Smallest projector the pattern is defined for (modules must stay ≥ 3 px). */
export const MIN_PROJECTOR_SIZE_PX = { widthPx: 320, heightPx: 200 } as const;

/**
 * The order in which the codes are dealt to the grid cells for a projector size: a shuffle seeded by the
 * size. A pattern shown at one size and solved as another then has the wrong ids at almost every
 * position, so the fit fails loudly instead of returning a map scaled by the size ratio (a fixed order,
 * or one merely rotated by a size-dependent offset, would still line up most tags by a shift of a cell).
 */
export function patternCodeOrder(widthPx: number, heightPx: number): number[] {
  // Seeded by the size (any fixed mixing would do; both sides call this same function).
  const rng = createRng((Math.imul(widthPx, 0x9e3779b1) ^ Math.imul(heightPx + 0x5bd1e995, 0x85ebca6b)) >>> 0);
  const random = rng.nextFloat;
  const order = PATTERN_TAG_CODES.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * The pattern for a projector of `widthPx × heightPx` pixels: a grid of 8 columns and (for 16:9)
 * 5 rows of cells, one tag centred in each, except the four corner cells (where the table's anchors
 * usually are: projected edges across an anchor could hide it) and the two middle cells of the middle
 * row (the size label).
 *
 * @example projectorPattern(1920, 1080).tags.length // 34, each 128 px (16 px modules)
 */
export function projectorPattern(widthPx: number, heightPx: number): ProjectorPattern {
  if (!Number.isInteger(widthPx) || !Number.isInteger(heightPx) || widthPx < MIN_PROJECTOR_SIZE_PX.widthPx || heightPx < MIN_PROJECTOR_SIZE_PX.heightPx) {
    throw new Error(
      `projector size must be whole pixels of at least ${MIN_PROJECTOR_SIZE_PX.widthPx}×${MIN_PROJECTOR_SIZE_PX.heightPx} (got ${widthPx}×${heightPx})`,
    );
  }
  const landscape = widthPx >= heightPx;
  const long = 8;
  const short = Math.max(3, Math.min(8, Math.round((long * Math.min(widthPx, heightPx)) / Math.max(widthPx, heightPx))));
  const cols = landscape ? long : short;
  const rows = landscape ? short : long;
  const cellW = widthPx / cols;
  const cellH = heightPx / rows;
  const modulePx = Math.floor((0.62 * Math.min(cellW, cellH)) / MODULES);
  const sidePx = modulePx * MODULES;
  const midRow = Math.floor(rows / 2);
  const midCols = cols % 2 === 0 ? [cols / 2 - 1, cols / 2] : [(cols - 1) / 2];
  const isCorner = (c: number, r: number): boolean => (c === 0 || c === cols - 1) && (r === 0 || r === rows - 1);
  const order = patternCodeOrder(widthPx, heightPx);
  const tags: PatternTag[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (isCorner(c, r) || (r === midRow && midCols.includes(c))) continue;
      // At most 8×8 − 6 = 58 cells but only 40 codes: a square-ish screen gets a coarser grid (short ≤ 8 → ≤ 58 cells). Guard anyway.
      if (tags.length >= order.length) continue;
      const code = PATTERN_TAG_CODES[order[tags.length]!]!;
      const leftPx = Math.round((c + 0.5) * cellW - sidePx / 2);
      const topPx = Math.round((r + 0.5) * cellH - sidePx / 2);
      tags.push({
        id: code[0],
        leftPx,
        topPx,
        modulePx,
        cornersPx: [
          { xPx: leftPx, yPx: topPx },
          { xPx: leftPx + sidePx, yPx: topPx },
          { xPx: leftPx + sidePx, yPx: topPx + sidePx },
          { xPx: leftPx, yPx: topPx + sidePx },
        ],
      });
    }
  }
  const labelLeft = Math.round(midCols[0]! * cellW);
  return {
    widthPx,
    heightPx,
    tags,
    labelBoxPx: { leftPx: labelLeft, topPx: Math.round(midRow * cellH), widthPx: Math.round(midCols.length * cellW), heightPx: Math.round(cellH) },
  };
}

/** The tag's modules, border included: `[row][col]`, true = black. */
export function patternTagModules(id: number): boolean[][] {
  const entry = PATTERN_TAG_CODES.find(([i]) => i === id);
  if (!entry) throw new Error(`tag ${id} is not one of the projector pattern's tags`);
  const bits = BigInt(`0x${entry[1]}`);
  const rows: boolean[][] = [];
  for (let r = 0; r < MODULES; r++) {
    const row: boolean[] = [];
    for (let c = 0; c < MODULES; c++) {
      if (r === 0 || c === 0 || r === MODULES - 1 || c === MODULES - 1) row.push(true);
      else {
        const bitIndex = (r - 1) * PATTERN_TAG_BITS + (c - 1);
        const white = (bits >> BigInt(PATTERN_TAG_BITS * PATTERN_TAG_BITS - 1 - bitIndex)) & 1n;
        row.push(white === 0n);
      }
    }
    rows.push(row);
  }
  return rows;
}

/** Black rectangles (whole pixels) to fill on a white screen: horizontal runs of black modules. */
export function patternBlackRects(pattern: ProjectorPattern): { leftPx: number; topPx: number; widthPx: number; heightPx: number }[] {
  const out: { leftPx: number; topPx: number; widthPx: number; heightPx: number }[] = [];
  for (const tag of pattern.tags) {
    const m = tag.modulePx;
    patternTagModules(tag.id).forEach((row, r) => {
      let c = 0;
      while (c < MODULES) {
        if (!row[c]) {
          c++;
          continue;
        }
        const start = c;
        while (c < MODULES && row[c]) c++;
        out.push({ leftPx: tag.leftPx + start * m, topPx: tag.topPx + r * m, widthPx: (c - start) * m, heightPx: m });
      }
    });
  }
  return out;
}

/**
 * Whether the projector lights the point (xPx, yPx) with this pattern: false on a tag's black module
 * and outside the screen. For renderers that sample the pattern (the solver's tests).
 */
export function patternLitAt(pattern: ProjectorPattern, modulesById: ReadonlyMap<number, boolean[][]>, xPx: number, yPx: number): boolean {
  if (!(xPx >= 0 && yPx >= 0 && xPx < pattern.widthPx && yPx < pattern.heightPx)) return false;
  for (const tag of pattern.tags) {
    const c = Math.floor((xPx - tag.leftPx) / tag.modulePx);
    const r = Math.floor((yPx - tag.topPx) / tag.modulePx);
    if (c < 0 || r < 0 || c >= MODULES || r >= MODULES) continue;
    return !modulesById.get(tag.id)![r]![c];
  }
  return true;
}
