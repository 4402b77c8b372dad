/**
 * Text as DOM over the canvas: sharp at any zoom and device pixel ratio, selectable by screen readers,
 * and cheap to restyle per view (outlined for the stream, large for the projector).
 */
import type { PointIn } from '@muster/rules';
import type { ScreenPointPx } from '../mapping/homography.ts';

export interface LabelSpec {
  readonly key: string;
  readonly at: PointIn;
  readonly text: string;
  readonly className: string;
  readonly color?: string;
  /** Font size in table inches; converted with the current scale and clamped readable. */
  readonly sizeIn?: number;
  /**
   * Table points the label must not cover (a unit's stand corners): the label is set just below their
   * on-screen bounding box instead of centred on `at`, whichever way the view is turned.
   */
  readonly below?: readonly PointIn[];
}

/** A screen rectangle, CSS px. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** Gap between a unit and its label, CSS px. */
const BELOW_GAP_PX = 3;

/** Smallest font drawn, CSS px: below this text is noise on a phone. */
const MIN_FONT_PX = 11;
const MAX_FONT_PX = 48;

export class LabelLayer {
  readonly element: HTMLDivElement;
  private readonly nodes = new Map<string, HTMLDivElement>();
  private specs: readonly LabelSpec[] = [];
  private widthPx = 0;
  private readonly sizes = new WeakMap<HTMLDivElement, { key: string; w: number; h: number }>();

  /** @param minFontPx smallest font, CSS px (0 on the projector: there sizes are true inches on the cloth). */
  constructor(container: HTMLElement, private readonly minFontPx = MIN_FONT_PX) {
    this.element = document.createElement('div');
    this.element.className = 'label-layer';
    container.appendChild(this.element);
  }

  setLabels(specs: readonly LabelSpec[]): void {
    this.specs = specs;
    const keep = new Set(specs.map((s) => s.key));
    for (const [key, node] of this.nodes) {
      if (!keep.has(key)) {
        node.remove();
        this.nodes.delete(key);
      }
    }
    for (const s of specs) {
      let node = this.nodes.get(s.key);
      if (!node) {
        node = document.createElement('div');
        this.nodes.set(s.key, node);
        this.element.appendChild(node);
      }
      node.className = `label ${s.className}`;
      if (node.textContent !== s.text) node.textContent = s.text;
      node.style.color = s.color ?? '';
    }
  }

  /**
   * Re-positions every label; `pxPerIn` is the local scale used to size text given in inches. Labels are
   * placed in order; one that would overlap an earlier one or an obstacle (the stands: text never sits on
   * a miniature) moves to the nearest free place around its spot, a line or a width away, and is hidden
   * if there is none (the rules often put several "n dice" labels on the same spot).
   */
  layout(toScreen: (p: PointIn) => ScreenPointPx, pxPerIn: number, obstacles: readonly Rect[] = []): void {
    this.widthPx = this.element.clientWidth;
    const placed: Rect[] = [];
    const blocked = (r: Rect) => placed.some((q) => overlaps(q, r)) || obstacles.some((q) => overlaps(q, r));
    for (const s of this.specs) {
      const node = this.nodes.get(s.key);
      if (!node) continue;
      if (s.sizeIn !== undefined) {
        const fontPx = `${Math.min(MAX_FONT_PX, Math.max(this.minFontPx, s.sizeIn * pxPerIn)).toFixed(0)}px`;
        if (node.style.fontSize !== fontPx) node.style.fontSize = fontPx;
      }
      const size = this.measure(node);
      let x: number;
      let y: number;
      if (s.below && s.below.length > 0) {
        const pts = s.below.map(toScreen);
        x = (Math.min(...pts.map((q) => q.xPx)) + Math.max(...pts.map((q) => q.xPx))) / 2 - size.w / 2;
        y = Math.max(...pts.map((q) => q.yPx)) + BELOW_GAP_PX;
      } else {
        const p = toScreen(s.at);
        x = p.xPx - size.w / 2;
        y = p.yPx - size.h / 2;
      }
      // Kept inside the view: a name at the screen's edge moves in rather than being cut ("3rd Union Regim").
      if (this.widthPx > 0) x = Math.max(2, Math.min(this.widthPx - size.w - 2, x));
      const base: Rect = { x, y, w: size.w, h: size.h };
      let rect = base;
      if (blocked(rect)) {
        const { w, h } = size;
        const tries: [number, number][] = [[0, h], [0, -h], [0, 2 * h], [0, -2 * h], [w * 0.6 + 4, 0], [-w * 0.6 - 4, 0], [w * 0.6 + 4, h], [-w * 0.6 - 4, h], [0, 3 * h], [0, -3 * h]];
        for (const [dx, dy] of tries) {
          const r = { ...base, x: base.x + dx, y: base.y + dy };
          if (!blocked(r)) {
            rect = r;
            break;
          }
        }
      }
      const hidden = blocked(rect);
      node.style.visibility = hidden ? 'hidden' : '';
      if (!hidden) placed.push(rect);
      node.style.transform = `translate(${rect.x.toFixed(1)}px, ${rect.y.toFixed(1)}px)`;
    }
  }

  /** Text box size, measured once per text and font size (reading it forces a browser layout). */
  private measure(node: HTMLDivElement): { w: number; h: number } {
    const key = `${node.textContent}|${node.style.fontSize}|${node.className}`;
    const cached = this.sizes.get(node);
    if (cached && cached.key === key) return cached;
    const fresh = { key, w: node.offsetWidth, h: node.offsetHeight };
    this.sizes.set(node, fresh);
    return fresh;
  }
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
