import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { MM_PER_IN } from '../../apps/vision/src/markers/sheet.ts';
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
  for (const m of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = m.index + m[0].length;
    expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
  }
  const pages = Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(text)![1]);
  expect((text.match(/\/Type \/Page /g) ?? []).length).toBe(pages);
  return { pages, text, mediaBoxes: [...text.matchAll(/\/MediaBox \[([^\]]+)\]/g)].map((m) => m[1]!) };
}

/**
 * Rasterises the filled rectangles of each PDF page (the only fill operator the writer emits) at `DPI`,
 * so the PDF's own geometry, not the SVG's, goes through the ArUco detector.
 */
function rasterisePdfFills(text: string): { widthPx: number; heightPx: number; data: Uint8Array }[] {
  const pages: { widthPx: number; heightPx: number; data: Uint8Array }[] = [];
  const boxes = [...text.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)];
  const streams = [...text.matchAll(/stream\n([\s\S]*?)\nendstream/g)];
  expect(streams.length).toBe(boxes.length);
  const s = DPI / 72;
  boxes.forEach((box, i) => {
    const [wPt, hPt] = [Number(box[1]), Number(box[2])];
    const widthPx = Math.round(wPt * s);
    const heightPx = Math.round(hPt * s);
    const data = new Uint8Array(widthPx * heightPx).fill(255);
    for (const line of streams[i]![1]!.split('\n')) {
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
    for (const id of ids) expect(pdf.text).toContain(`(#${id})`);
    expect(pdf.text).toContain('ChArUco 5x7');

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

  it('refuses roster tags outside the profile dictionary', async () => {
    await expect(runMarkers(['--roster', roster, '--out', join(dir, 'x.pdf')])).rejects.toThrow(/not in DICT_4X4_50/);
    await expect(runMarkers(['--out', join(dir, 'x.png')])).rejects.toThrow(/\.pdf or \.svg/);
  });
});

it('renderPdf escapes text and rejects an empty document', () => {
  const pdf = Buffer.from(renderPdf([{ widthIn: 1, heightIn: 1, shapes: [{ kind: 'text', xIn: 0, yIn: 0.5, sizeIn: 0.1, text: 'a(b)\\c' }] }])).toString('latin1');
  expect(pdf).toContain('(a\\(b\\)\\\\c) Tj');
  expect(() => renderPdf([])).toThrow(/no pages/);
});
