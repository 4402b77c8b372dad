/**
 * `GET /api/frame.jpg`: the newest camera frame as a JPEG (the operator view draws terrain over it).
 * Encoded on request with sharp, once per frame: every client asking for the same frame shares one
 * encoding, and frames nobody asks for are never encoded (the frame loop pays nothing).
 */
import sharp from 'sharp';
import type { GrayFrame } from '@muster/vision';

export interface FrameJpeg {
  readonly seq: number;
  readonly captureTimeMs: number;
  readonly widthPx: number;
  readonly heightPx: number;
  readonly body: Buffer;
}

/** Quality 80: the grey camera image under the overlay, not a measurement. ~100–250 KB at 1080p. */
const QUALITY = 80;

export function createFrameJpegEncoder(latest: () => GrayFrame | null): () => Promise<FrameJpeg | null> {
  let cached: { frame: GrayFrame; jpeg: Promise<FrameJpeg> } | null = null;
  return async () => {
    const frame = latest();
    if (!frame) return null;
    if (cached?.frame !== frame) {
      const jpeg = sharp(frame.data, { raw: { width: frame.widthPx, height: frame.heightPx, channels: 1 } })
        .jpeg({ quality: QUALITY })
        .toBuffer()
        .then((body) => ({ seq: frame.seq, captureTimeMs: frame.captureTimeMs, widthPx: frame.widthPx, heightPx: frame.heightPx, body }));
      cached = { frame, jpeg };
      // A failed encoding is not kept: the next request tries again.
      jpeg.catch(() => {
        if (cached?.jpeg === jpeg) cached = null;
      });
    }
    return cached.jpeg;
  };
}
