/**
 * Packs small windows of a frame into one compact image so the ArUco detector runs once over all the
 * places tags are expected, instead of over the full frame (150 half-inch tags at 4K: ~0.4 Mpx of
 * windows against 8.3 Mpx of frame). Windows are copied with plain typed-array row copies (no Mats).
 */
import type { GrayFrame } from '../pipeline/types.ts';

export interface WindowPx {
  /** Frame pixels, fractional allowed; clipped to the frame and rounded outwards. */
  readonly u0: number;
  readonly v0: number;
  readonly u1: number;
  readonly v1: number;
}

export interface Mosaic {
  readonly widthPx: number;
  readonly heightPx: number;
  readonly data: Uint8Array;
  /** Number of windows placed. */
  readonly tiles: number;
  /**
   * Map corners [u0,v0,…,u3,v3] found in the mosaic back to frame pixels; null if the corners do not all
   * lie inside one tile (a quad straddling two windows is not a real tag).
   */
  toFrame(corners: ArrayLike<number>): Float64Array | null;
}

/** Grey level of the gaps between tiles: neutral, so no tile edge looks like a black tag border. */
const GAP_GREY = 128;
const GAP_PX = 4;

interface Tile {
  /** Frame window, integer, clipped. */
  fu: number;
  fv: number;
  w: number;
  h: number;
  /** Position in the mosaic. */
  mu: number;
  mv: number;
}

export function buildMosaic(frame: GrayFrame, windows: readonly WindowPx[]): Mosaic {
  const tiles: Tile[] = [];
  for (const w of windows) {
    const fu = Math.max(0, Math.floor(w.u0));
    const fv = Math.max(0, Math.floor(w.v0));
    const u1 = Math.min(frame.widthPx, Math.ceil(w.u1));
    const v1 = Math.min(frame.heightPx, Math.ceil(w.v1));
    if (u1 - fu < 4 || v1 - fv < 4) continue; // off-frame prediction
    tiles.push({ fu, fv, w: u1 - fu, h: v1 - fv, mu: 0, mv: 0 });
  }
  // Shelf packing: tallest first, rows of about the square root of the total area.
  tiles.sort((a, b) => b.h - a.h);
  const area = tiles.reduce((s, t) => s + (t.w + GAP_PX) * (t.h + GAP_PX), 0);
  const rowWidth = Math.max(Math.ceil(Math.sqrt(area) * 1.05), ...tiles.map((t) => t.w + 2 * GAP_PX), 16);
  let u = GAP_PX;
  let v = GAP_PX;
  let rowH = 0;
  let widthPx = 0;
  for (const t of tiles) {
    if (u + t.w + GAP_PX > rowWidth) {
      u = GAP_PX;
      v += rowH + GAP_PX;
      rowH = 0;
    }
    t.mu = u;
    t.mv = v;
    u += t.w + GAP_PX;
    rowH = Math.max(rowH, t.h);
    widthPx = Math.max(widthPx, u);
  }
  widthPx = Math.max(widthPx, 16);
  const heightPx = Math.max(v + rowH + GAP_PX, 16);
  const data = new Uint8Array(widthPx * heightPx).fill(GAP_GREY);
  for (const t of tiles) {
    for (let r = 0; r < t.h; r++) {
      const src = (t.fv + r) * frame.widthPx + t.fu;
      data.set(frame.data.subarray(src, src + t.w), (t.mv + r) * widthPx + t.mu);
    }
  }

  // Lookup of the tile under a mosaic point: tiles are few (≤ a few hundred), a linear scan is fine.
  const tileAt = (mu: number, mv: number): Tile | undefined =>
    tiles.find((t) => mu >= t.mu && mu < t.mu + t.w && mv >= t.mv && mv < t.mv + t.h);

  return {
    widthPx,
    heightPx,
    data,
    tiles: tiles.length,
    toFrame(corners) {
      const t = tileAt(corners[0]!, corners[1]!);
      if (!t) return null;
      const out = new Float64Array(8);
      for (let k = 0; k < 4; k++) {
        const mu = corners[2 * k]!;
        const mv = corners[2 * k + 1]!;
        if (mu < t.mu || mu > t.mu + t.w || mv < t.mv || mv > t.mv + t.h) return null;
        out[2 * k] = mu - t.mu + t.fu;
        out[2 * k + 1] = mv - t.mv + t.fv;
      }
      return out;
    },
  };
}
