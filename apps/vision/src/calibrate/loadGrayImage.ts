/** Decodes an image file (PNG, JPEG, TIFF, WebP…) to 8-bit grayscale with sharp; opencv.js decodes nothing. */
import sharp from 'sharp';
import type { GrayImage } from './detectCharucoCorners.ts';

export async function loadGrayImage(path: string): Promise<GrayImage> {
  try {
    const { data, info } = await sharp(path).rotate().removeAlpha().greyscale().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`decoded to ${info.channels} channels, expected 1`);
    return { widthPx: info.width, heightPx: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (err) {
    throw new Error(`cannot read image ${path}: ${(err as Error).message}`);
  }
}
