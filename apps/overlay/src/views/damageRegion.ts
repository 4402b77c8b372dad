/**
 * What part of the canvas a published change touches. A demo publish moves one stand or one command link,
 * yet redrawing the whole table cost a software rasteriser tens of ms (and Chrome's main thread waits for
 * it when it reads the canvas back); redrawing only the boxes that changed costs a few. Each group of
 * drawn items (stands, shapes, tags, ghosts) is kept as id → (what it was built from, its box in table
 * inches); the damage of an update is the old and new boxes of every item that changed, came or went.
 * Pure, no three.js: tested in node.
 */
import type { PointIn, Shape } from '@muster/rules';
import { shapeOutline } from '../geometry/shapeOutline.ts';
import { tableToScreenPx, type Homography } from '../mapping/homography.ts';
import type { RectIn } from '../geometry/clipTriangles.ts';

/** One drawn item: `ref` is compared by identity (or equality for strings) to see whether it changed. */
export interface ItemBox {
  readonly ref: unknown;
  readonly box: RectIn;
}

/** A screen rectangle, CSS px, y down. */
export interface ScreenRectPx {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** The box around `points` grown by `marginIn` on every side; null for no points. */
export function boxOfPoints(points: readonly PointIn[], marginIn: number): RectIn | null {
  if (points.length === 0) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of points) {
    if (p.xIn < x0) x0 = p.xIn;
    if (p.xIn > x1) x1 = p.xIn;
    if (p.yIn < y0) y0 = p.yIn;
    if (p.yIn > y1) y1 = p.yIn;
  }
  return { x0: x0 - marginIn, y0: y0 - marginIn, x1: x1 + marginIn, y1: y1 + marginIn };
}

/**
 * The box a shape's drawing can reach: its fill and strokes, plus `marginIn` for stroke width, dash caps
 * and the arrowhead. Labels are DOM text, not canvas: null.
 */
export function shapeBox(shape: Shape, marginIn: number): RectIn | null {
  if (shape.kind === 'label') return null;
  const o = shapeOutline(shape);
  return boxOfPoints([...(o.fill ?? []), ...o.strokes.flat()], marginIn);
}

/** Boxes of items that differ between two builds (changed `ref`, added or removed): old and new boxes. */
export function changedBoxes(prev: ReadonlyMap<string, ItemBox>, next: ReadonlyMap<string, ItemBox>): RectIn[] {
  const out: RectIn[] = [];
  for (const [key, a] of prev) {
    const b = next.get(key);
    if (b === undefined || b.ref !== a.ref) {
      out.push(a.box);
      if (b) out.push(b.box);
    }
  }
  for (const [key, b] of next) if (!prev.has(key)) out.push(b.box);
  return out;
}

/** More separate rectangles than this are drawn as their one bounding box (each is a pass over the scene). */
const MAX_RECTS = 4;

/**
 * Table boxes → screen rectangles through `h`, grown by `padPx` (pixel rounding, a line's edge pixels),
 * cut to the view, overlapping ones merged; at most `MAX_RECTS` (else their bounding box). Empty when
 * nothing of it is in view.
 */
export function screenRects(boxes: readonly RectIn[], h: Homography, viewPx: { readonly widthPx: number; readonly heightPx: number }, padPx = 2): ScreenRectPx[] {
  let rects: { x0: number; y0: number; x1: number; y1: number }[] = [];
  for (const b of boxes) {
    const q = [
      tableToScreenPx(h, { xIn: b.x0, yIn: b.y0 }),
      tableToScreenPx(h, { xIn: b.x1, yIn: b.y0 }),
      tableToScreenPx(h, { xIn: b.x1, yIn: b.y1 }),
      tableToScreenPx(h, { xIn: b.x0, yIn: b.y1 }),
    ];
    if (q.some((p) => !Number.isFinite(p.xPx) || !Number.isFinite(p.yPx))) return [{ x: 0, y: 0, w: viewPx.widthPx, h: viewPx.heightPx }];
    const x0 = Math.max(0, Math.floor(Math.min(...q.map((p) => p.xPx)) - padPx));
    const y0 = Math.max(0, Math.floor(Math.min(...q.map((p) => p.yPx)) - padPx));
    const x1 = Math.min(viewPx.widthPx, Math.ceil(Math.max(...q.map((p) => p.xPx)) + padPx));
    const y1 = Math.min(viewPx.heightPx, Math.ceil(Math.max(...q.map((p) => p.yPx)) + padPx));
    if (x1 > x0 && y1 > y0) rects.push({ x0, y0, x1, y1 });
  }
  // Merge overlapping rectangles until none overlap (a pixel drawn twice would cost twice).
  for (let merged = true; merged; ) {
    merged = false;
    outer: for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i]!;
        const b = rects[j]!;
        if (a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) {
          rects[i] = { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
          rects.splice(j, 1);
          merged = true;
          break outer;
        }
      }
    }
  }
  if (rects.length > MAX_RECTS) {
    rects = [{ x0: Math.min(...rects.map((r) => r.x0)), y0: Math.min(...rects.map((r) => r.y0)), x1: Math.max(...rects.map((r) => r.x1)), y1: Math.max(...rects.map((r) => r.y1)) }];
  }
  return rects.map((r) => ({ x: r.x0, y: r.y0, w: r.x1 - r.x0, h: r.y1 - r.y0 }));
}
