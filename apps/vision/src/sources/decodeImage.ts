import sharp from 'sharp';
import type { GrayFrame } from '../pipeline/types.ts';

/**
 * Decodes a still image (PNG, JPEG, WebP, TIFF, ... anything sharp reads) to an 8-bit grayscale frame.
 * `what` names the image in the error (a path, "WebSocket message 12").
 */
export async function decodeImage(input: Buffer | Uint8Array | string, what: string, seq: number, captureTimeMs: number): Promise<GrayFrame> {
  try {
    const { data, info } = await sharp(input).grayscale().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`expected 1 channel after grayscale, got ${info.channels}`);
    return { widthPx: info.width, heightPx: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), captureTimeMs, seq };
  } catch (err) {
    throw new Error(`${what}: cannot decode the image (${(err as Error).message})`);
  }
}
