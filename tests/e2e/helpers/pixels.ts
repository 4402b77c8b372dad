/** Reading colours out of a page screenshot at CSS-pixel positions. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

export interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
}

export interface Shot {
  /** Colour at a CSS pixel (averaged over a 3×3 device-pixel patch to step over antialiasing). */
  at(xCss: number, yCss: number): Rgba;
}

export async function decodeShot(png: Buffer, deviceScale: number, artifactName?: string): Promise<Shot> {
  if (artifactName) {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    writeFileSync(join(ARTIFACTS_DIR, artifactName), png);
  }
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    at(xCss, yCss) {
      const cx = Math.round(xCss * deviceScale);
      const cy = Math.round(yCss * deviceScale);
      const sum = [0, 0, 0, 0];
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = Math.min(info.width - 1, Math.max(0, cx + dx));
          const y = Math.min(info.height - 1, Math.max(0, cy + dy));
          const i = (y * info.width + x) * 4;
          for (let c = 0; c < 4; c++) sum[c]! += data[i + c]!;
          n++;
        }
      }
      return { r: sum[0]! / n, g: sum[1]! / n, b: sum[2]! / n, a: sum[3]! / n };
    },
  };
}

export function hexRgb(hex: number): Rgba {
  return { r: (hex >> 16) & 255, g: (hex >> 8) & 255, b: hex & 255, a: 255 };
}

/** `over` at `alpha` composited on `under`, in sRGB bytes (how the canvas blends). */
export function blend(under: number, over: number, alpha: number): Rgba {
  const u = hexRgb(under);
  const o = hexRgb(over);
  return { r: u.r * (1 - alpha) + o.r * alpha, g: u.g * (1 - alpha) + o.g * alpha, b: u.b * (1 - alpha) + o.b * alpha, a: 255 };
}

export function colorDistance(a: Rgba, b: Rgba): number {
  return Math.max(Math.abs(a.r - b.r), Math.abs(a.g - b.g), Math.abs(a.b - b.b));
}

export function describe(c: Rgba): string {
  return `rgba(${c.r.toFixed(0)}, ${c.g.toFixed(0)}, ${c.b.toFixed(0)}, ${c.a.toFixed(0)})`;
}
