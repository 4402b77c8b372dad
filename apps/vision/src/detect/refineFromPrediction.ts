/**
 * Fast path of tracked mode: re-measure a tag whose corners are roughly known (from the tracker or
 * the last frame) without running the ArUco detector. Pure TypeScript on the frame bytes.
 *
 * 1. Each of the four edges is sampled at several points; at each, the grey profile across the edge is
 *    searched (±1.5 cells) for the strongest dark-to-bright step going outwards, the black border into
 *    the white quiet zone. Within that range it is the only step of that polarity (data bits inside,
 *    the dark base outside, both step the other way). Sub-pixel by a parabola through the peak.
 * 2. A line is fitted to each edge's points; adjacent lines intersect in the corners.
 * 3. The tag is verified by reading its cells through the corners: border black, quiet zone white,
 *    data bits equal to the expected id's. Anything doubtful returns null and the caller falls back to
 *    the ArUco detector on a window around the prediction.
 */
import type { GrayFrame } from '../pipeline/types.ts';
import { applyHomography, homographyFromPoints, type Homography } from '@muster/table-mapping';

export interface RefineOptions {
  /** Cells per side including the black border (bits + 2). */
  readonly cellsPerSide: number;
  /** Expected cell values row-major from the top-left, 1 = white, including the border. */
  readonly expectedCells: Uint8Array;
  /** Search range across each edge, in cells; default 1.5. */
  readonly searchCells?: number;
  /** Smallest accepted step across an edge, grey levels per pixel; default 8. */
  readonly minGradient?: number;
}

/** Bilinear sample at (u, v) in `PointPx` convention (pixel centres at +0.5); NaN outside. */
export function sample(f: GrayFrame, u: number, v: number): number {
  const x = u - 0.5;
  const y = v - 0.5;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= f.widthPx || y0 + 1 >= f.heightPx) return NaN;
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * f.widthPx + x0;
  const d = f.data;
  const top = d[i]! + (d[i + 1]! - d[i]!) * fx;
  const bottom = d[i + f.widthPx]! + (d[i + f.widthPx + 1]! - d[i + f.widthPx]!) * fx;
  return top + (bottom - top) * fy;
}

interface Line {
  /** A point on the line and its unit direction. */
  px: number;
  py: number;
  dx: number;
  dy: number;
}

/** Total-least-squares line through points (principal axis). */
function fitLine(xs: number[], ys: number[]): Line {
  const n = xs.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const a = xs[i]! - mx;
    const b = ys[i]! - my;
    sxx += a * a;
    sxy += a * b;
    syy += b * b;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { px: mx, py: my, dx: Math.cos(angle), dy: Math.sin(angle) };
}

function intersect(a: Line, b: Line): [number, number] | null {
  const den = a.dx * b.dy - a.dy * b.dx;
  if (Math.abs(den) < 1e-6) return null;
  const t = ((b.px - a.px) * b.dy - (b.py - a.py) * b.dx) / den;
  return [a.px + t * a.dx, a.py + t * a.dy];
}

/**
 * Refined corners [u0,v0,…,u3,v3] (PointPx convention, OpenCV order) of the tag predicted at
 * `predicted`, or null when the tag is not clearly there.
 */
export function refineFromPrediction(frame: GrayFrame, predicted: ArrayLike<number>, opts: RefineOptions): Float64Array | null {
  const out = refineEdges(frame, predicted, opts);
  return out && verifyCells(frame, out, opts) ? out : null;
}

/**
 * Steps 1–2 only: the corners re-measured from the edges, or null; the id is not checked (see
 * `readCells` to find out which tag it is).
 */
export function refineEdges(frame: GrayFrame, predicted: ArrayLike<number>, opts: Omit<RefineOptions, 'expectedCells'>): Float64Array | null {
  const n = opts.cellsPerSide;
  const c = predicted;
  const cu = (c[0]! + c[2]! + c[4]! + c[6]!) / 4;
  const cv = (c[1]! + c[3]! + c[5]! + c[7]!) / 4;
  const sidePx = (Math.hypot(c[2]! - c[0]!, c[3]! - c[1]!) + Math.hypot(c[4]! - c[2]!, c[5]! - c[3]!) + Math.hypot(c[6]! - c[4]!, c[7]! - c[5]!) + Math.hypot(c[0]! - c[6]!, c[1]! - c[7]!)) / 4;
  const cellPx = sidePx / n;
  if (cellPx < 1.5) return null; // too small to trust a profile
  const range = (opts.searchCells ?? 1.5) * cellPx;
  const minGradient = opts.minGradient ?? 8;
  const step = 0.5;
  const steps = Math.ceil(range / step);
  const prof = new Float64Array(2 * steps + 1);

  const lines: Line[] = [];
  for (let k = 0; k < 4; k++) {
    const au = c[2 * k]!;
    const av = c[2 * k + 1]!;
    const bu = c[(2 * k + 2) % 8]!;
    const bv = c[(2 * k + 3) % 8]!;
    const len = Math.hypot(bu - au, bv - av);
    let nu = -(bv - av) / len;
    let nv = (bu - au) / len;
    // Outward: away from the centre.
    if (nu * ((au + bu) / 2 - cu) + nv * ((av + bv) / 2 - cv) < 0) {
      nu = -nu;
      nv = -nv;
    }
    const samples = Math.max(4, Math.min(12, Math.round(len / 2)));
    const xs: number[] = [];
    const ys: number[] = [];
    for (let s = 0; s < samples; s++) {
      // Stay clear of the corners (20 %–80 % of the edge), where the two edges' profiles mix.
      const t = 0.2 + (0.6 * (s + 0.5)) / samples;
      const pu = au + (bu - au) * t;
      const pv = av + (bv - av) * t;
      let ok = true;
      for (let i = -steps; i <= steps; i++) {
        const val = sample(frame, pu + nu * i * step, pv + nv * i * step);
        if (Number.isNaN(val)) {
          ok = false;
          break;
        }
        prof[i + steps] = val;
      }
      if (!ok) continue;
      let best = -Infinity;
      let bestI = -1;
      for (let i = 1; i < prof.length - 1; i++) {
        const g = (prof[i + 1]! - prof[i - 1]!) / (2 * step);
        if (g > best) {
          best = g;
          bestI = i;
        }
      }
      if (best < minGradient || bestI <= 1 || bestI >= prof.length - 2) continue;
      const gm = (prof[bestI]! - prof[bestI - 2]!) / (2 * step);
      const gp = (prof[bestI + 2]! - prof[bestI]!) / (2 * step);
      const den = gm - 2 * best + gp;
      const offset = den < 0 ? (0.5 * (gm - gp)) / den : 0;
      const sPx = (bestI - steps + Math.max(-0.5, Math.min(0.5, offset))) * step;
      xs.push(pu + nu * sPx);
      ys.push(pv + nv * sPx);
    }
    if (xs.length < 3) return null;
    // One refit without points more than half a cell off the first line (a neighbouring edge caught
    // near a corner, a speck of dirt).
    let line = fitLine(xs, ys);
    const keepX: number[] = [];
    const keepY: number[] = [];
    for (let i = 0; i < xs.length; i++) {
      const dist = Math.abs((xs[i]! - line.px) * line.dy - (ys[i]! - line.py) * line.dx);
      if (dist <= Math.max(0.75, cellPx * 0.5)) {
        keepX.push(xs[i]!);
        keepY.push(ys[i]!);
      }
    }
    if (keepX.length < 3) return null;
    if (keepX.length < xs.length) line = fitLine(keepX, keepY);
    lines.push(line);
  }

  const out = new Float64Array(8);
  for (let k = 0; k < 4; k++) {
    const p = intersect(lines[(k + 3) % 4]!, lines[k]!);
    if (!p) return null;
    // A corner that moved more than the search range is a different edge, not this tag.
    if (Math.hypot(p[0] - c[2 * k]!, p[1] - c[2 * k + 1]!) > range * 1.5) return null;
    out[2 * k] = p[0];
    out[2 * k + 1] = p[1];
  }
  return out;
}

/** Homography from cell coordinates (0..n across the black square) to image pixels, or null. */
export function cellsToImage(corners: Float64Array, n: number): Homography | null {
  try {
    return homographyFromPoints(
      [
        [0, 0],
        [n, 0],
        [n, n],
        [0, n],
      ],
      [
        [corners[0]!, corners[1]!],
        [corners[2]!, corners[3]!],
        [corners[4]!, corners[5]!],
        [corners[6]!, corners[7]!],
      ],
    );
  } catch {
    return null;
  }
}

/** Mean of 4 points in the middle of the cell (robust to blur at the cell edges). */
function cellValue(frame: GrayFrame, h: Homography, col: number, row: number): number {
  let s = 0;
  for (const [dx, dy] of [
    [0.35, 0.35],
    [0.65, 0.35],
    [0.35, 0.65],
    [0.65, 0.65],
  ] as const) {
    const [u, v] = applyHomography(h, col + dx, row + dy);
    s += sample(frame, u, v);
  }
  return s / 4;
}

/**
 * Every cell's mean, row-major, and the white reference: the quiet zone half a cell outside the border, at
 * the middle of each side.
 */
function sampleTag(frame: GrayFrame, h: Homography, n: number): { values: Float64Array; quiet: number[] } {
  const values = new Float64Array(n * n);
  for (let r = 0; r < n; r++) for (let col = 0; col < n; col++) values[r * n + col] = cellValue(frame, h, col, r);
  const quiet = [cellValue(frame, h, n / 2 - 0.5, -0.75), cellValue(frame, h, n / 2 - 0.5, n - 0.25), cellValue(frame, h, -0.75, n / 2 - 0.5), cellValue(frame, h, n - 0.25, n / 2 - 0.5)];
  return { values, quiet };
}

/**
 * Read a tag's cells through its corners without knowing its id: 1 = white, row-major from the corner
 * given first, `cellsPerSide`² values including the border. The black level is the border ring's, the
 * white level the quiet zone's; null when the contrast is too low, the border is not all black or the
 * quiet zone not white (not a tag).
 */
export function readCells(frame: GrayFrame, corners: Float64Array, cellsPerSide: number): Uint8Array | null {
  const n = cellsPerSide;
  const h = cellsToImage(corners, n);
  if (!h) return null;
  const { values, quiet } = sampleTag(frame, h, n);
  let black = 0;
  let blackCount = 0;
  for (let r = 0; r < n; r++) {
    for (let col = 0; col < n; col++) {
      if (r === 0 || col === 0 || r === n - 1 || col === n - 1) {
        black += values[r * n + col]!;
        blackCount++;
      }
    }
  }
  black /= blackCount;
  const white = quiet.reduce((a, b) => a + b, 0) / quiet.length;
  if (!(white - black > 30)) return null;
  const threshold = (white + black) / 2;
  if (quiet.some((q) => !(q > threshold))) return null;
  const cells = new Uint8Array(n * n);
  for (let i = 0; i < n * n; i++) cells[i] = values[i]! > threshold ? 1 : 0;
  for (let r = 0; r < n; r++) {
    for (let col = 0; col < n; col++) {
      if ((r === 0 || col === 0 || r === n - 1 || col === n - 1) && cells[r * n + col] === 1) return null;
    }
  }
  return cells;
}

/**
 * Read the tag's cells through its corners and compare with the expected pattern: the number of cells
 * (border included) on the wrong side of the threshold halfway between the black cells and the quiet
 * zone; NaN without contrast (too small or blurred to read here, not a tag, or off the frame).
 */
export function cellMismatches(frame: GrayFrame, corners: Float64Array, opts: RefineOptions): number {
  const n = opts.cellsPerSide;
  const h = cellsToImage(corners, n);
  if (!h) return NaN;
  const { values, quiet } = sampleTag(frame, h, n);
  let black = 0;
  let blackCount = 0;
  for (let i = 0; i < n * n; i++) {
    if (opts.expectedCells[i] === 0) {
      black += values[i]!;
      blackCount++;
    }
  }
  black /= blackCount;
  const white = quiet.reduce((a, b) => a + b, 0) / quiet.length;
  if (!(white - black > 30)) return NaN; // no contrast (or NaN: off-frame)
  const threshold = (white + black) / 2;
  let wrong = 0;
  for (let i = 0; i < n * n; i++) {
    const isWhite = values[i]! > threshold;
    if (isWhite !== (opts.expectedCells[i] === 1)) wrong++;
  }
  return wrong;
}

/** Every cell of the tag, border included, reads as expected (`cellMismatches` = 0). */
export function verifyCells(frame: GrayFrame, corners: Float64Array, opts: RefineOptions): boolean {
  return cellMismatches(frame, corners, opts) === 0;
}
