/**
 * The font every tag-sheet label is printed in: DejaVu Sans (Latin, Greek, Cyrillic and more, ~5900
 * code points), read with fontkit from the `@fontsource/dejavu-sans` npm package, so `npm install` alone
 * brings it on any machine (no system font is used). The PDF writer embeds a subset of it; the layout
 * measures label widths with its metrics. A character the font lacks is printed as U+FFFD (a visible
 * replacement mark) and reported, never dropped.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as fontkit from 'fontkit';

/** The family name, for the SVG's font-family (so a system with DejaVu Sans shows the same shapes). */
export const LABEL_FONT_FAMILY = 'DejaVu Sans';

/** The package file: fontsource's "latin" DejaVu Sans WOFF is the whole font (it is not split by script). */
const FONT_MODULE = '@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff';

/** Printed in place of a character the font has no glyph for. */
export const REPLACEMENT_CHAR = 0xfffd;

let cached: fontkit.Font | undefined;

export function labelFont(): fontkit.Font {
  if (cached) return cached;
  // Loaded on first use, not at import: fontkit takes ~0.1 s to import and most users of the package
  // (the service, the frame loop) never print a label.
  const require = createRequire(import.meta.url);
  const { create } = require('fontkit') as typeof fontkit;
  const path = require.resolve(FONT_MODULE);
  const font = create(readFileSync(path));
  if (!('unitsPerEm' in font)) throw new Error(`${path}: expected one font, found a collection`);
  cached = font;
  return font;
}

/** One printed character: the code point it stands for (U+FFFD if replaced) and the font's glyph. */
export interface LabelChar {
  readonly codePoint: number;
  readonly glyph: fontkit.Glyph;
}

/**
 * The glyphs for a label, one per code point of its NFC form (so "e" + combining acute prints as the
 * font's "é"), and the code points the font lacks, which are printed as the replacement mark.
 */
export function labelChars(text: string): { chars: LabelChar[]; missing: number[] } {
  const font = labelFont();
  const chars: LabelChar[] = [];
  const missing: number[] = [];
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (font.hasGlyphForCodePoint(cp)) {
      chars.push({ codePoint: cp, glyph: font.glyphForCodePoint(cp) });
    } else {
      missing.push(cp);
      const rep = font.hasGlyphForCodePoint(REPLACEMENT_CHAR) ? REPLACEMENT_CHAR : 0x3f;
      chars.push({ codePoint: rep, glyph: font.glyphForCodePoint(rep) });
    }
  }
  return { chars, missing };
}

/** Advance width of the printed label in ems (no kerning, as the PDF prints it). */
export function textWidthEm(text: string): number {
  const font = labelFont();
  let w = 0;
  for (const c of labelChars(text).chars) w += c.glyph.advanceWidth;
  return w / font.unitsPerEm;
}

/** "U+65E5 日, U+672C 本" for a warning. */
export function describeCodePoints(cps: readonly number[]): string {
  return [...new Set(cps)]
    .map((cp) => {
      const ch = String.fromCodePoint(cp);
      return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}${/\p{C}/u.test(ch) ? '' : ` ${ch}`}`;
    })
    .join(', ');
}
