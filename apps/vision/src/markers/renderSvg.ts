/**
 * One sheet as a standalone SVG whose width/height are physical (inches). User units are points
 * (1/72 in), not inches: renderers hint text badly at font sizes below one user unit.
 */
import { LABEL_FONT_FAMILY } from './labelFont.ts';
import type { Sheet } from './sheet.ts';

/**
 * Text as XML character data in a UTF-8 document: the markup characters escaped, text in NFC (as the PDF
 * prints it), and what XML 1.0 cannot hold at all (control characters, lone surrogates, U+FFFE/U+FFFF)
 * replaced by U+FFFD, so any Unicode label gives a well-formed file.
 */
export function escapeXmlText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export const SVG_UNITS_PER_IN = 72;

/** Inches → user units, 4 decimals of a point (0.04 µm): exact enough, short enough. */
function n(vIn: number): string {
  return String(Math.round(vIn * SVG_UNITS_PER_IN * 1e4) / 1e4);
}

function inches(v: number): string {
  return String(Math.round(v * 1e6) / 1e6);
}

export function renderSvg(sheet: Sheet): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${inches(sheet.widthIn)}in" height="${inches(sheet.heightIn)}in" viewBox="0 0 ${n(sheet.widthIn)} ${n(sheet.heightIn)}">`,
    `<rect x="0" y="0" width="${n(sheet.widthIn)}" height="${n(sheet.heightIn)}" fill="#fff"/>`,
  ];
  // All black areas as one path: touching modules are filled as a union, so no anti-aliasing seams.
  const fills: string[] = [];
  const cuts: string[] = [];
  const texts: string[] = [];
  for (const s of sheet.shapes) {
    if (s.kind === 'fill') fills.push(`M${n(s.xIn)} ${n(s.yIn)}h${n(s.wIn)}v${n(s.hIn)}h${n(-s.wIn)}z`);
    else if (s.kind === 'cut') cuts.push(`<rect x="${n(s.xIn)}" y="${n(s.yIn)}" width="${n(s.wIn)}" height="${n(s.hIn)}"/>`);
    else if (s.kind === 'line') cuts.push(`<line x1="${n(s.x1In)}" y1="${n(s.y1In)}" x2="${n(s.x2In)}" y2="${n(s.y2In)}"/>`);
    else {
      const anchor = s.centred ? ' text-anchor="middle"' : '';
      texts.push(`<text x="${n(s.xIn)}" y="${n(s.yIn)}" font-size="${n(s.sizeIn)}"${anchor}>${escapeXmlText(s.text)}</text>`);
    }
  }
  if (fills.length > 0) out.push(`<path fill="#000" d="${fills.join('')}"/>`);
  // Cut lines: thin grey dashes, outside the tag's quiet zone, so they never touch the black border.
  out.push(`<g fill="none" stroke="#888" stroke-width="0.5" stroke-dasharray="2.9 2.2">${cuts.join('')}</g>`);
  // The PDF's embedded font first, so a system that has it lays labels out the same; SVG embeds no font.
  out.push(`<g fill="#000" font-family="'${LABEL_FONT_FAMILY}', Helvetica, Arial, sans-serif">${texts.join('')}</g>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
