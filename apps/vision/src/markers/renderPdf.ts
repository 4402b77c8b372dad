/**
 * A minimal PDF 1.4 writer for sheets: one page per sheet, vector rectangles and lines, text in the
 * standard Helvetica font (no embedding needed). Hand-written instead of a dependency because the
 * sheets need only four operators; the cross-reference table is computed from real byte offsets.
 */
import type { Sheet } from './sheet.ts';

const PT_PER_IN = 72;

function num(v: number): string {
  return String(Math.round(v * 1000) / 1000);
}

/** PDF literal string: escape \ ( ) and keep to printable ASCII (Helvetica's standard encoding). */
function pdfString(text: string): string {
  const ascii = text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '?');
  return `(${ascii.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function pageContent(sheet: Sheet): string {
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
    // Centring needs the width: Helvetica averages about 0.52 em per character in labels.
    const x = s.centred ? s.xIn - (0.52 * s.sizeIn * s.text.length) / 2 : s.xIn;
    ops.push(`BT /F1 ${num(s.sizeIn * PT_PER_IN)} Tf ${X(x)} ${Y(s.yIn)} Td ${pdfString(s.text)} Tj ET`);
  }
  return ops.join('\n');
}

export function renderPdf(sheets: readonly Sheet[], title = 'Muster tags'): Uint8Array {
  if (sheets.length === 0) throw new Error('renderPdf: no pages');
  // Object numbers: 1 catalog, 2 pages, 3 font, 4 info, then (page, content) pairs.
  const objects: string[] = [];
  const pageIds = sheets.map((_, i) => 5 + 2 * i);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${sheets.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = `<< /Title ${pdfString(title)} /Producer (muster markers) >>`;
  sheets.forEach((sheet, i) => {
    const pageId = pageIds[i]!;
    const content = pageContent(sheet);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(sheet.widthIn * PT_PER_IN)} ${num(sheet.heightIn * PT_PER_IN)}] ` +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Uint8Array.from(Buffer.from(body, 'latin1'));
}
