/**
 * A small PDF 1.4 writer for sheets: one page per sheet, vector rectangles and lines, and text in full
 * Unicode. Hand-written instead of a PDF library because the sheets need only a few operators and the
 * geometry must stay exactly as the sheet model says; the cross-reference table is computed from real
 * byte offsets.
 *
 * Text: the label font (`labelFont.ts`, DejaVu Sans) is embedded as a subset of the glyphs the document
 * uses (fontkit writes the TrueType subset): a Type0 font with Identity-H encoding, one CID per distinct
 * code point in first-use order, a CIDToGIDMap from CIDs to the subset's glyphs, the real advance widths
 * (/W) and a ToUnicode CMap, so a PDF reader extracts and searches the exact text. A character the font
 * lacks prints as U+FFFD and is reported through `warn` (stderr by default), once per distinct label.
 * Streams are Flate-compressed (node:zlib).
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Glyph } from 'fontkit';
import { describeCodePoints, LABEL_FONT_FAMILY, labelChars, labelFont } from './labelFont.ts';
import type { Sheet } from './sheet.ts';

const PT_PER_IN = 72;

function num(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/** PDF text string (Info dictionary): a literal for printable ASCII, else UTF-16BE with a BOM in hex. */
function pdfTextString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const units = [0xfeff, ...Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))];
  return `<${units.map((u) => hex4(u)).join('')}>`;
}

function hex4(v: number): string {
  return v.toString(16).toUpperCase().padStart(4, '0');
}

/** UTF-16BE hex of one code point (a surrogate pair above U+FFFF), for the ToUnicode CMap. */
function utf16Hex(cp: number): string {
  return cp > 0xffff ? hex4(0xd800 + ((cp - 0x10000) >> 10)) + hex4(0xdc00 + ((cp - 0x10000) & 0x3ff)) : hex4(cp);
}

/** The code points the document prints, each given a CID (1, 2, ... in first-use order). */
class FontUse {
  readonly cidOf = new Map<number, number>();
  readonly chars: { codePoint: number; glyph: Glyph }[] = [];
  /** Label → the code points the font lacks (reported once per distinct label). */
  readonly missing = new Map<string, number[]>();

  /** The text as a hex string of 2-byte CIDs, and its advance width in ems. */
  encode(text: string): { hex: string; widthEm: number } {
    const { chars, missing } = labelChars(text);
    if (missing.length > 0) this.missing.set(text, missing);
    let hex = '';
    let width = 0;
    for (const c of chars) {
      let cid = this.cidOf.get(c.codePoint);
      if (cid === undefined) {
        this.chars.push(c);
        cid = this.chars.length;
        this.cidOf.set(c.codePoint, cid);
      }
      hex += hex4(cid);
      width += c.glyph.advanceWidth;
    }
    return { hex, widthEm: width / labelFont().unitsPerEm };
  }
}

function pageContent(sheet: Sheet, fonts: FontUse): string {
  const h = sheet.heightIn;
  // Sheet y runs down from the top; PDF y runs up from the bottom.
  const X = (xIn: number): string => num(xIn * PT_PER_IN);
  const Y = (yIn: number): string => num((h - yIn) * PT_PER_IN);
  const ops: string[] = ['0 g'];
  // Every black rectangle in one path, filled once: touching modules become one area (no seams).
  for (const s of sheet.shapes) {
    if (s.kind === 'fill') ops.push(`${X(s.xIn)} ${Y(s.yIn + s.hIn)} ${num(s.wIn * PT_PER_IN)} ${num(s.hIn * PT_PER_IN)} re`);
  }
  if (sheet.shapes.some((s) => s.kind === 'fill')) ops.push('f');
  ops.push('q 0.53 G 0.5 w [2.9 2.2] 0 d');
  for (const s of sheet.shapes) {
    if (s.kind === 'cut') ops.push(`${X(s.xIn)} ${Y(s.yIn + s.hIn)} ${num(s.wIn * PT_PER_IN)} ${num(s.hIn * PT_PER_IN)} re S`);
    else if (s.kind === 'line') ops.push(`${X(s.x1In)} ${Y(s.y1In)} m ${X(s.x2In)} ${Y(s.y2In)} l S`);
  }
  ops.push('Q');
  for (const s of sheet.shapes) {
    if (s.kind !== 'text') continue;
    const { hex, widthEm } = fonts.encode(s.text);
    // Centred text: the font's own advance widths, the same ones the /W array gives the reader.
    const x = s.centred ? s.xIn - (widthEm * s.sizeIn) / 2 : s.xIn;
    ops.push(`BT /F1 ${num(s.sizeIn * PT_PER_IN)} Tf ${X(x)} ${Y(s.yIn)} Td <${hex}> Tj ET`);
  }
  return ops.join('\n');
}

/** The ToUnicode CMap: each CID back to its code point. */
function toUnicodeCMap(codePoints: readonly number[]): string {
  const lines = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
  ];
  // At most 100 entries per bfchar block.
  for (let i = 0; i < codePoints.length; i += 100) {
    const block = codePoints.slice(i, i + 100);
    lines.push(`${block.length} beginbfchar`);
    block.forEach((cp, k) => lines.push(`<${hex4(i + k + 1)}> <${utf16Hex(cp)}>`));
    lines.push('endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
  return lines.join('\n');
}

/** A deterministic six-letter subset tag (same glyphs, same name), as PDF requires for subsets. */
function subsetTag(codePoints: readonly number[]): string {
  const digest = createHash('sha256').update(codePoints.join(',')).digest();
  return Array.from(digest.subarray(0, 6), (b) => String.fromCharCode(65 + (b % 26))).join('');
}

export interface RenderPdfOptions {
  /** Receives one message per distinct label with characters the font lacks (default: stderr). */
  readonly warn?: (message: string) => void;
}

export function renderPdf(sheets: readonly Sheet[], title = 'Muster tags', options: RenderPdfOptions = {}): Uint8Array {
  if (sheets.length === 0) throw new Error('renderPdf: no pages');
  const warn = options.warn ?? ((m: string) => void process.stderr.write(`${m}\n`));
  const hasText = sheets.some((s) => s.shapes.some((sh) => sh.kind === 'text'));

  // Objects by number (index = number - 1): a dictionary, or a dictionary's extra entries and a stream.
  const objects: ({ dict: string } | { dict: string; stream: Uint8Array })[] = [];
  const reserve = (): number => objects.push({ dict: 'null' });
  const set = (id: number, dict: string): void => void (objects[id - 1] = { dict });
  /** A Flate-compressed stream; `extra` are further dictionary entries. */
  const setStream = (id: number, data: Uint8Array, extra = ''): void =>
    void (objects[id - 1] = { dict: `/Filter /FlateDecode${extra}`, stream: deflateSync(data, { level: 9 }) });

  const catalogId = reserve();
  const pagesId = reserve();
  const infoId = reserve();
  const fontId = hasText ? reserve() : 0;
  const pageIds = sheets.map(() => {
    const page = reserve();
    reserve(); // its content stream, page + 1
    return page;
  });

  const fonts = new FontUse();
  set(catalogId, `<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  set(pagesId, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${sheets.length} >>`);
  set(infoId, `<< /Title ${pdfTextString(title)} /Producer (muster markers) >>`);
  sheets.forEach((sheet, i) => {
    const pageId = pageIds[i]!;
    const resources = hasText ? `/Resources << /Font << /F1 ${fontId} 0 R >> >> ` : '/Resources << >> ';
    set(
      pageId,
      `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${num(sheet.widthIn * PT_PER_IN)} ${num(sheet.heightIn * PT_PER_IN)}] ` +
        `${resources}/Contents ${pageId + 1} 0 R >>`,
    );
    setStream(pageId + 1, Buffer.from(pageContent(sheet, fonts), 'latin1'));
  });

  if (hasText) {
    const font = labelFont();
    const codePoints = fonts.chars.map((c) => c.codePoint);
    const subset = font.createSubset();
    // fontkit's includeGlyph returns the glyph's id in the subset (its typings say boolean).
    const gids = fonts.chars.map((c) => subset.includeGlyph(c.glyph) as unknown as number);
    const fontFile = subset.encode();
    const scale = 1000 / font.unitsPerEm;
    const cidToGid = Buffer.alloc(2 * (gids.length + 1));
    gids.forEach((gid, i) => cidToGid.writeUInt16BE(gid, 2 * (i + 1)));
    const widths = fonts.chars.map((c) => Math.round(c.glyph.advanceWidth * scale));
    const baseFont = `${subsetTag(codePoints)}+${font.postscriptName.replace(/[^A-Za-z0-9-]/g, '')}`;
    const b = font.bbox;

    const cidFontId = reserve();
    const descriptorId = reserve();
    const fontFileId = reserve();
    const toUnicodeId = reserve();
    const cidToGidId = reserve();
    set(fontId, `<< /Type /Font /Subtype /Type0 /BaseFont /${baseFont} /Encoding /Identity-H /DescendantFonts [${cidFontId} 0 R] /ToUnicode ${toUnicodeId} 0 R >>`);
    set(
      cidFontId,
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${baseFont} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> ` +
        `/FontDescriptor ${descriptorId} 0 R /DW 1000 /W [1 [${widths.join(' ')}]] /CIDToGIDMap ${cidToGidId} 0 R >>`,
    );
    set(
      descriptorId,
      `<< /Type /FontDescriptor /FontName /${baseFont} /FontFamily ${pdfTextString(LABEL_FONT_FAMILY)} /Flags 4 ` +
        `/FontBBox [${[b.minX, b.minY, b.maxX, b.maxY].map((v) => Math.round(v * scale)).join(' ')}] /ItalicAngle ${num(font.italicAngle)} ` +
        `/Ascent ${Math.round(font.ascent * scale)} /Descent ${Math.round(font.descent * scale)} /CapHeight ${Math.round(font.capHeight * scale)} ` +
        `/StemV 80 /FontFile2 ${fontFileId} 0 R >>`,
    );
    setStream(fontFileId, fontFile, ` /Length1 ${fontFile.length}`);
    setStream(toUnicodeId, Buffer.from(toUnicodeCMap(codePoints), 'latin1'));
    setStream(cidToGidId, cidToGid);
  }

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0]!.length;
  const push = (b: Buffer): void => {
    chunks.push(b);
    length += b.length;
  };
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(length);
    if ('stream' in obj) {
      push(Buffer.from(`${i + 1} 0 obj\n<< /Length ${obj.stream.length} ${obj.dict} >>\nstream\n`, 'latin1'));
      push(Buffer.from(obj.stream));
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else {
      push(Buffer.from(`${i + 1} 0 obj\n${obj.dict}\nendobj\n`, 'latin1'));
    }
  });
  const size = objects.length + 1;
  let tail = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (const off of offsets) tail += `${String(off).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${size} /Root ${catalogId} 0 R /Info ${infoId} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  push(Buffer.from(tail, 'latin1'));

  for (const [text, missing] of fonts.missing) {
    warn(`warning: the tag sheet label ${JSON.stringify(text)} has characters the label font (${LABEL_FONT_FAMILY}) lacks: ${describeCodePoints(missing)}; they print as \u{fffd}`);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
