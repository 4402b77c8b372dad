import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHARUCO_BOARD } from '../../apps/vision/src/calibrate/charucoBoardSpec.ts';
import { createCharucoCornerDetector } from '../../apps/vision/src/calibrate/detectCharucoCorners.ts';
import { run as runMarkers, svgPagePath } from '../../apps/server/src/cli/commands/markers.ts';
import { loadCv, type Cv } from '../../apps/vision/src/cv/loadCv.ts';
import { charucoBoardSheet } from '../../apps/vision/src/markers/charucoBoardSheet.ts';
import { addPageHeaders, layoutTagSheets, type TagItem } from '../../apps/vision/src/markers/layoutTagSheets.ts';
import { markerModules } from '../../apps/vision/src/markers/markerModules.ts';
import { renderPdf } from '../../apps/vision/src/markers/renderPdf.ts';
import { renderSvg } from '../../apps/vision/src/markers/renderSvg.ts';
import { MM_PER_IN, type Sheet } from '../../apps/vision/src/markers/sheet.ts';
import { loadRoster } from '../../apps/server/src/roster/loadRoster.ts';
import { rosterTagIds } from '../../apps/server/src/roster/roster.ts';

/**
 * Raster resolution, px per inch. sharp (librsvg) renders a physically sized SVG at density²/72 px per
 * inch, so density 120 gives 200 px/in; the tests measure the scale from the page width anyway.
 */
const DPI = 200;
const DENSITY = Math.sqrt(DPI * 72);
const repoRoot = join(import.meta.dirname, '../..');

let cv: Cv;
let dir: string;
beforeAll(async () => {
  cv = await loadCv();
  dir = mkdtempSync(join(tmpdir(), 'muster-markers-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rasterise(svg: string): Promise<{ widthPx: number; heightPx: number; data: Uint8Array }> {
  const { data, info } = await sharp(Buffer.from(svg), { density: DENSITY }).removeAlpha().greyscale().raw().toBuffer({ resolveWithObject: true });
  return { widthPx: info.width, heightPx: info.height, data: new Uint8Array(data) };
}

/** Detected tag ids with their mean side length in pixels. */
function detectTags(image: { widthPx: number; heightPx: number; data: Uint8Array }, dictionary: string): Map<number, number> {
  const dict = cv.getPredefinedDictionary(cv[dictionary]);
  const params = new cv.aruco_DetectorParameters();
  const refine = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_ArucoDetector(dict, params, refine);
  const mat = new cv.Mat(image.heightPx, image.widthPx, cv.CV_8UC1);
  const corners = new cv.MatVector();
  const ids = new cv.Mat();
  const rejected = new cv.MatVector();
  try {
    mat.data.set(image.data);
    detector.detectMarkers(mat, corners, ids, rejected);
    const out = new Map<number, number>();
    for (let i = 0; i < ids.rows; i++) {
      const c = corners.get(i);
      const p = Array.from(c.data32F as Float32Array);
      c.delete();
      let side = 0;
      for (let k = 0; k < 4; k++) side += Math.hypot(p[(2 * k + 2) % 8]! - p[2 * k]!, p[(2 * k + 3) % 8]! - p[2 * k + 1]!) / 4;
      out.set(ids.data32S[i] as number, side);
    }
    return out;
  } finally {
    for (const m of [mat, corners, ids, rejected, detector, refine, params, dict]) m.delete();
  }
}

describe('tag sheets', () => {
  it('SVG pages have the physical paper size', () => {
    const items: TagItem[] = [{ tagId: 7, label: 'x', sizeIn: 0.5, modules: markerModules(cv, 'DICT_4X4_50', 7) }];
    const letter = renderSvg(layoutTagSheets(items, 'letter')[0]!);
    expect(letter).toMatch(/width="8.5in" height="11in" viewBox="0 0 612 792"/);
    const a4 = renderSvg(layoutTagSheets(items, 'a4')[0]!);
    const m = /width="([\d.]+)in" height="([\d.]+)in"/.exec(a4)!;
    expect(Number(m[1]) * MM_PER_IN).toBeCloseTo(210, 3);
    expect(Number(m[2]) * MM_PER_IN).toBeCloseTo(297, 3);
  });

  it('every tag printed from the SVG is detected with its id at its true size', async () => {
    const sizes = [0.5, 0.75, 1, 2];
    const items: TagItem[] = Array.from({ length: 24 }, (_, i) => {
      const tagId = i * 2 + 1;
      return { tagId, label: `Unit ${i} stand`, sizeIn: sizes[i % sizes.length]!, modules: markerModules(cv, 'DICT_4X4_50', tagId) };
    });
    const sheets = addPageHeaders(layoutTagSheets(items, 'letter'), 'test');
    expect(sheets.length).toBeGreaterThanOrEqual(1);
    const found = new Map<number, number>();
    for (const sheet of sheets) {
      const image = await rasterise(renderSvg(sheet));
      expect(Math.abs(image.widthPx - 8.5 * DPI)).toBeLessThanOrEqual(1);
      for (const [id, side] of detectTags(image, 'DICT_4X4_50')) found.set(id, side);
    }
    expect([...found.keys()].sort((a, b) => a - b)).toEqual(items.map((t) => t.tagId));
    for (const t of items) {
      // Side of the black square, measured on the raster: within 1.5 px at 200 dpi (0.19 mm).
      expect(Math.abs(found.get(t.tagId)! - t.sizeIn * DPI), `tag ${t.tagId}`).toBeLessThan(1.5);
    }
  });

  it('the printed ChArUco board is detected with every corner at the right spacing', async () => {
    const sheet = charucoBoardSheet(cv, DEFAULT_CHARUCO_BOARD, 'a4');
    const image = await rasterise(renderSvg(sheet));
    expect(Math.abs(image.widthPx - (210 / MM_PER_IN) * DPI)).toBeLessThanOrEqual(1);
    const detector = createCharucoCornerDetector(cv, DEFAULT_CHARUCO_BOARD);
    const found = detector.detect(image);
    detector.delete();
    expect(found.ids.length).toBe(24);
    const squarePx = (DEFAULT_CHARUCO_BOARD.squareLengthMm / MM_PER_IN) * DPI;
    // Corners 0 and 1 are one square apart along a row, 0 and 4 along a column.
    const c = found.cornersPx;
    const at = (id: number) => c[found.ids.indexOf(id)]!;
    expect(Math.abs(at(1).uPx - at(0).uPx - squarePx)).toBeLessThan(0.5);
    expect(Math.abs(at(4).vPx - at(0).vPx - squarePx)).toBeLessThan(0.5);
  });
});

/** Structural PDF check: header, objects at the xref offsets, page count, stream lengths. */
function checkPdf(bytes: Uint8Array): { pages: number; text: string; mediaBoxes: string[] } {
  const text = Buffer.from(bytes).toString('latin1');
  expect(text.startsWith('%PDF-1.')).toBe(true);
  expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(text)![1]);
  expect(text.slice(startxref, startxref + 4)).toBe('xref');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref))!;
  expect(Number(first)).toBe(0);
  const entries = text.slice(startxref).split('\n').slice(2, 2 + Number(count));
  entries.slice(1).forEach((e, i) => {
    const off = Number(e.slice(0, 10));
    expect(text.slice(off).startsWith(`${i + 1} 0 obj`), `object ${i + 1} at ${off}`).toBe(true);
  });
  for (const m of text.matchAll(/<< \/Length (\d+)[^\n]*>>\nstream\n/g)) {
    const start = m.index + m[0].length;
    expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
  }
  const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(text)![1]);
  expect((text.match(/\/Type \/Page /g) ?? []).length).toBe(pages);
  return { pages, text, mediaBoxes: [...text.matchAll(/\/MediaBox \[([^\]]+)\]/g)].map((m) => m[1]!) };
}

/** The decoded data of stream object `id` (Flate-compressed or not). */
function pdfStream(text: string, id: number): Buffer {
  const m = new RegExp(`(?:^|\\n)${id} 0 obj\\n<< /Length (\\d+)([^\\n]*)>>\\nstream\\n`).exec(text);
  expect(m, `stream object ${id}`).not.toBeNull();
  const start = m!.index + m![0].length;
  const raw = Buffer.from(text.slice(start, start + Number(m![1])), 'latin1');
  return m![2]!.includes('/FlateDecode') ? inflateSync(raw) : raw;
}

/** A text run as PDF.js (Mozilla's PDF reader) extracts it: the string and where it starts and ends, in points. */
interface PdfTextRun {
  readonly str: string;
  readonly xPt: number;
  readonly widthPt: number;
}

/** Every text run of every page, through the ToUnicode map and the /W widths, as a reader sees them. */
async function extractPdfText(bytes: Uint8Array): Promise<PdfTextRun[][]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: PdfTextRun[][] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const content = await (await doc.getPage(p)).getTextContent();
      const runs: PdfTextRun[] = [];
      for (const item of content.items) {
        if ('str' in item && item.str !== '') runs.push({ str: item.str, xPt: item.transform[4] as number, widthPt: item.width });
      }
      pages.push(runs);
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/** The embedded label font: its subset tag and name, the font program's size and its glyph count. */
function embeddedFont(text: string): { baseFont: string; length1: number; compressed: number; numGlyphs: number } {
  const fonts = [...text.matchAll(/\/FontFile2 (\d+) 0 R/g)];
  expect(fonts.length).toBe(1);
  const id = Number(fonts[0]![1]);
  const header = new RegExp(`\\n${id} 0 obj\\n<< /Length (\\d+)[^\\n]*/Length1 (\\d+)`).exec(text)!;
  const program = pdfStream(text, id);
  expect(program.length).toBe(Number(header[2]));
  const font = fontkit.create(program) as fontkit.Font;
  return { baseFont: /\/Subtype \/Type0 \/BaseFont \/(\S+)/.exec(text)![1]!, length1: program.length, compressed: Number(header[1]), numGlyphs: font.numGlyphs };
}

/**
 * Rasterises the filled rectangles of each PDF page (the only fill operator the writer emits) at `DPI`,
 * so the PDF's own geometry, not the SVG's, goes through the ArUco detector.
 */
function rasterisePdfFills(text: string): { widthPx: number; heightPx: number; data: Uint8Array }[] {
  const pages: { widthPx: number; heightPx: number; data: Uint8Array }[] = [];
  const pageDicts = [...text.matchAll(/\/Type \/Page [^\n]*\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\][^\n]*\/Contents (\d+) 0 R/g)];
  expect(pageDicts.length).toBe((text.match(/\/Type \/Page /g) ?? []).length);
  const s = DPI / 72;
  pageDicts.forEach((page) => {
    const [wPt, hPt] = [Number(page[1]), Number(page[2])];
    const content = pdfStream(text, Number(page[3])).toString('latin1');
    const widthPx = Math.round(wPt * s);
    const heightPx = Math.round(hPt * s);
    const data = new Uint8Array(widthPx * heightPx).fill(255);
    for (const line of content.split('\n')) {
      const m = /^(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re$/.exec(line);
      if (!m) continue;
      const [x, y, w, h] = m.slice(1).map(Number) as [number, number, number, number];
      // PDF y is up from the bottom; fill pixels whose centre lies inside the rectangle.
      const u0 = Math.round(x * s), u1 = Math.round((x + w) * s);
      const v0 = Math.round((hPt - y - h) * s), v1 = Math.round((hPt - y) * s);
      for (let v = Math.max(0, v0); v < Math.min(heightPx, v1); v++) data.fill(0, v * widthPx + Math.max(0, u0), v * widthPx + Math.min(widthPx, u1));
    }
    pages.push({ widthPx, heightPx, data });
  });
  return pages;
}

describe('muster markers', () => {
  const roster = join(repoRoot, 'fixtures/rosters/opening-battle.yaml');
  const table = join(repoRoot, 'calibration/tables/large-72x48.json');
  const quiet = <T>(fn: () => Promise<T>): Promise<T> => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    return fn().finally(() => log.mockRestore());
  };

  it('writes a well-formed PDF with every tag, the anchors and the board', async () => {
    const out = join(dir, 'tags.pdf');
    expect(await quiet(() => runMarkers(['--roster', roster, '--table', table, '--paper', 'a4', '--out', out]))).toBe(0);
    const pdf = checkPdf(readFileSync(out));
    expect(pdf.pages).toBeGreaterThanOrEqual(2);
    for (const box of pdf.mediaBoxes) expect(box).toBe('0 0 595.276 841.89');
    // Every roster tag and anchor id is labelled; the opening battle uses 10..108 and anchors 0..3.
    const ids = [0, 1, 2, 3, ...rosterTagIds(await loadRoster(roster))];
    expect(ids.length).toBeGreaterThan(40);
    const runs = (await extractPdfText(readFileSync(out))).flat().map((r) => r.str);
    for (const id of ids) expect(runs).toContain(`#${id}`);
    expect(runs).toContain("Alley's Battery (3-inch rifles)");
    expect(runs.some((r) => r.startsWith('ChArUco 5x7'))).toBe(true);

    // The PDF's rectangles, rasterised, detect as every tag id at true size (anchors 2 in, stands 0.5 in).
    const pages = rasterisePdfFills(pdf.text);
    const found = new Map<number, number>();
    for (const page of pages.slice(0, -1)) for (const [id, side] of detectTags(page, 'DICT_4X4_250')) found.set(id, side);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    for (const [id, side] of found) expect(Math.abs(side - (id <= 3 ? 2 : 0.5) * DPI), `tag ${id}`).toBeLessThan(1.5);
    const detector = createCharucoCornerDetector(cv, DEFAULT_CHARUCO_BOARD);
    expect(detector.detect(pages.at(-1)!).ids.length).toBe(24);
    detector.delete();
  });

  it('writes one SVG per page', async () => {
    const out = join(dir, 'tags.svg');
    expect(await quiet(() => runMarkers(['--roster', roster, '--table', table, '--out', out]))).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(existsSync(svgPagePath(out, 2))).toBe(true);
    expect(readFileSync(out, 'utf8')).toContain('width="8.5in"');
  });

  it('refuses roster tags outside the profile dictionary, naming a profile that holds them', async () => {
    // Without --table a profile that holds them is picked (tests/cli/commands.test.ts); a given one is kept.
    await expect(runMarkers(['--roster', roster, '--table', join(repoRoot, 'calibration/tables/default-72x48.json'), '--out', join(dir, 'x.pdf')]))
      .rejects.toThrow(/tags 50, .* cannot be stands on .*default-72x48\.json \(DICT_4X4_50, .*use --table calibration\/tables\/large-72x48\.json/);
    await expect(runMarkers(['--out', join(dir, 'x.png')])).rejects.toThrow(/\.pdf or \.svg/);
  });
});

describe('tag sheets in full Unicode', () => {
  const LABELS = ["Régiment d'Auvergne", 'Łódź', 'Ελληνικά', 'Москва'];
  const quietAll = <T>(fn: () => Promise<T>): Promise<{ result: T; stderr: string[] }> => {
    const stderr: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    return fn()
      .then((result) => ({ result, stderr }))
      .finally(() => {
        log.mockRestore();
        err.mockRestore();
      });
  };

  it('muster markers prints roster names in Latin, Greek and Cyrillic exactly, and marks and reports what the font lacks', async () => {
    // The opening battle with its regiments and Colonel Alley renamed.
    let yaml = readFileSync(join(repoRoot, 'fixtures/rosters/opening-battle.yaml'), 'utf8')
      .replace('name: Opening battle', 'name: Bataille de Québec')
      .replace('name: 19th Alabama', `name: ${LABELS[0]}`)
      .replace('name: 22nd Alabama', `name: ${LABELS[1]}`)
      .replace('name: 25th Alabama', `name: ${LABELS[2]}`)
      .replace('name: 26th Alabama', `name: ${LABELS[3]}`)
      .replace('name: Col. Alley', 'name: 日本');
    expect(yaml).toContain('name: 日本');
    const roster = join(dir, 'unicode.yaml');
    writeFileSync(roster, yaml);
    const out = join(dir, 'unicode.pdf');
    const table = join(repoRoot, 'calibration/tables/large-72x48.json');
    const { result, stderr } = await quietAll(() => runMarkers(['--roster', roster, '--table', table, '--out', out, '--no-board']));
    expect(result).toBe(0);
    const bytes = readFileSync(out);
    const pdf = checkPdf(bytes);

    // A real reader (PDF.js) extracts each label as one run, character for character.
    const runs = (await extractPdfText(bytes)).flat().map((r) => r.str);
    for (const label of LABELS) {
      expect(runs).toContain(label);
      expect(runs).toContain(`${label} (command)`);
    }
    expect(runs).toContain('Muster tags: Bataille de Québec');
    // Each stand's tag also says what the unit is: the arm and weapon of the army file.
    expect(runs.filter((r) => r === 'infantry, rifled musket').length).toBeGreaterThanOrEqual(LABELS.length * 2);
    expect(runs).toContain('artillery, 3 inch rifle');
    // 日本 is outside DejaVu Sans: printed (and extracted) as two replacement marks, never dropped.
    expect(runs).toContain('\u{fffd}\u{fffd}');
    expect(runs).toContain('token: \u{fffd}\u{fffd}');
    expect(runs.join('\n')).not.toMatch(/[日本]/u);
    // One warning per label that has such characters, naming it: the commander and his token.
    const warnings = stderr.join('').split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('"日本"');
    expect(warnings[0]).toContain('U+65E5 日, U+672C 本');
    expect(warnings[1]).toContain('"token: 日本"');

    // The embedded font is a subset: a few dozen glyphs of DejaVu Sans's 6253, a few KB of its 757 KB.
    const font = embeddedFont(pdf.text);
    expect(font.baseFont).toMatch(/^[A-Z]{6}\+DejaVuSans$/);
    expect(font.numGlyphs).toBeLessThan(120);
    expect(font.length1).toBeLessThan(30_000);
    expect(bytes.length).toBeLessThan(30_000);
  });

  it("muster markers prints each stand's troop type from a rule set's army file", async () => {
    const out = join(dir, 'wtdr.pdf');
    const roster = join(repoRoot, 'fixtures/rosters/while-the-devil-rules-example.yaml');
    const table = join(repoRoot, 'calibration/tables/large-72x48.json');
    const { result } = await quietAll(() => runMarkers(['--roster', roster, '--table', table, '--out', out, '--no-board']));
    expect(result).toBe(0);
    const runs = (await extractPdfText(readFileSync(out))).flat().map((r) => r.str);
    expect(runs).toContain('swedish brigade');
    expect(runs).toContain('commanded shot');
    expect(runs).not.toContain('swedish-brigade');
  });

  it('centres labels with the widths the reader uses', async () => {
    const sheet: Sheet = {
      widthIn: 4,
      heightIn: 2,
      shapes: LABELS.map((text, i) => ({ kind: 'text', xIn: 2, yIn: 0.4 + 0.3 * i, sizeIn: 0.1, text, centred: true })),
    };
    const [runs] = await extractPdfText(renderPdf([sheet]));
    expect(runs!.map((r) => r.str)).toEqual(LABELS);
    for (const r of runs!) {
      expect(r.widthPt).toBeGreaterThan(10);
      expect(Math.abs(r.xPt + r.widthPt / 2 - 2 * 72), r.str).toBeLessThan(0.01);
    }
  });

  it('renderPdf keeps PDF-special characters, Unicode titles and identical text in one subset; rejects an empty document', async () => {
    const text = 'a(b)\\c <d> %e';
    const warnings: string[] = [];
    const bytes = renderPdf(
      [
        { widthIn: 1, heightIn: 1, shapes: [{ kind: 'text', xIn: 0, yIn: 0.5, sizeIn: 0.1, text }] },
        { widthIn: 1, heightIn: 1, shapes: [{ kind: 'text', xIn: 0, yIn: 0.5, sizeIn: 0.1, text: 'e\u0301 日' }, { kind: 'text', xIn: 0, yIn: 0.7, sizeIn: 0.1, text: 'e\u0301 日' }] },
      ],
      'Étiquettes: Москва',
      { warn: (m) => warnings.push(m) },
    );
    const pdf = checkPdf(bytes);
    const pages = await extractPdfText(bytes);
    expect(pages.map((p) => p.map((r) => r.str))).toEqual([[text], ['é \u{fffd}', 'é \u{fffd}']]);
    // The same label twice: one warning.
    expect(warnings).toEqual(['warning: the tag sheet label "e\u0301 日" has characters the label font (DejaVu Sans) lacks: U+65E5 日; they print as \u{fffd}']);
    const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
    expect((await doc.getMetadata()).info).toMatchObject({ Title: 'Étiquettes: Москва' });
    await doc.destroy();
    expect(embeddedFont(pdf.text).numGlyphs).toBeLessThan(20);
    expect(() => renderPdf([])).toThrow(/no pages/);
  });

  it('SVG sheets carry Unicode labels as well-formed UTF-8 XML', async () => {
    const odd = 'a<b & "c" \u0001 \ud800';
    const items: TagItem[] = [...LABELS, '日本', odd].map((label, i) => ({ tagId: i, label, sizeIn: 0.5, modules: markerModules(cv, 'DICT_4X4_50', i) }));
    const svg = renderSvg(addPageHeaders(layoutTagSheets(items, 'letter'), 'Muster tags: Québec')[0]!);
    for (const label of [...LABELS, '日本', 'Muster tags: Québec']) expect(svg).toContain(`>${label}</text>`);
    expect(svg).toContain('>a&lt;b &amp; &quot;c&quot; \u{fffd} \u{fffd}</text>');
    // NFC, as the PDF prints it.
    expect(renderSvg({ widthIn: 1, heightIn: 1, shapes: [{ kind: 'text', xIn: 0, yIn: 0.5, sizeIn: 0.1, text: 'e\u0301' }] })).toContain('>\u00e9</text>');
    // librsvg refuses malformed XML; this one rasterises and its tags still detect.
    const image = await rasterise(svg);
    expect([...detectTags(image, 'DICT_4X4_50').keys()].sort((a, b) => a - b)).toEqual(items.map((t) => t.tagId));
  });
});
