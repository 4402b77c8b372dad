/**
 * The camera backdrop's geometry: a regular grid over the camera image, each node pushed through the
 * image→table homography, with the node's texture coordinate. Drawn as triangles the photo then lies
 * where the table is; a homography is not affine, so one quad would bend straight lines, but at a few
 * dozen cells per side the piecewise-linear error is far below a pixel on screen.
 */
import { tableToScreenPx, type Homography } from '../mapping/homography.ts';

export interface BackdropGrid {
  /** Table inches, [x, y, 0] per node (ready for a three.js position attribute). */
  readonly positions: Float32Array;
  /** Texture coordinates per node, v = 1 at the image's top row (three's default flipY). */
  readonly uvs: Float32Array;
  /** Two triangles per cell, counter-clockwise in image space. */
  readonly indices: Uint32Array;
}

export interface ImageSizePx {
  readonly widthPx: number;
  readonly heightPx: number;
}

/**
 * @param imageToTable row-major 3×3, image pixels → table inches (what the service publishes).
 * @param size the image size the homography was solved in.
 * @param cols,rows cells across and down.
 * @example backdropGrid(IDENTITY_HOMOGRAPHY, { widthPx: 2, heightPx: 2 }, 1, 1).positions // 4 nodes: the image corners
 */
export function backdropGrid(imageToTable: Homography, size: ImageSizePx, cols = 32, rows = 18): BackdropGrid {
  if (!(cols >= 1 && rows >= 1 && Number.isInteger(cols) && Number.isInteger(rows))) throw new Error(`grid needs whole cols, rows >= 1, got ${cols}×${rows}`);
  if (!(size.widthPx > 0 && size.heightPx > 0)) throw new Error(`image size must be positive, got ${size.widthPx}×${size.heightPx}`);
  const nodes = (cols + 1) * (rows + 1);
  const positions = new Float32Array(nodes * 3);
  const uvs = new Float32Array(nodes * 2);
  for (let r = 0; r <= rows; r++) {
    for (let c = 0; c <= cols; c++) {
      const i = r * (cols + 1) + c;
      const u = c / cols;
      const v = r / rows;
      // Homography applies to any plane-to-plane map; here the "table" argument is the image point.
      const p = tableToScreenPx(imageToTable, { xIn: u * size.widthPx, yIn: v * size.heightPx });
      positions[i * 3] = p.xPx;
      positions[i * 3 + 1] = p.yPx;
      uvs[i * 2] = u;
      uvs[i * 2 + 1] = 1 - v;
    }
  }
  const indices = new Uint32Array(cols * rows * 6);
  let k = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const a = r * (cols + 1) + c;
      const b = a + 1;
      const d = a + cols + 1;
      const e = d + 1;
      indices.set([a, b, e, a, e, d], k);
      k += 6;
    }
  }
  return { positions, uvs, indices };
}
