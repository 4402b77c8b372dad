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

/** Gap between a unit and its label, CSS px. */
const BELOW_GAP_PX = 3;

/** Smallest font drawn, CSS px: below this text is noise on a phone. */
const MIN_FONT_PX = 11;
const MAX_FONT_PX = 48;

export class LabelLayer {
  readonly element: HTMLDivElement;
  private readonly nodes = new Map<string, HTMLDivElement>();
  private specs: readonly LabelSpec[] = [];
  private readonly sizes = new WeakMap<HTMLDivElement, { key: string; w: number; h: number }>();

  constructor(container: HTMLElement) {
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
   * placed in order; one that would overlap an earlier one is nudged down a line, up to twice, and hidden
   * if it still overlaps (the rules often put several "n dice" labels on the same spot).
   */
  layout(toScreen: (p: PointIn) => ScreenPointPx, pxPerIn: number): void {
    const placed: Rect[] = [];
    for (const s of this.specs) {
      const node = this.nodes.get(s.key);
      if (!node) continue;
      if (s.sizeIn !== undefined) {
        const fontPx = `${Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, s.sizeIn * pxPerIn)).toFixed(0)}px`;
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
      let rect: Rect = { x, y, w: size.w, h: size.h };
      for (let tries = 0; tries < 2 && placed.some((r) => overlaps(r, rect)); tries++) rect = { ...rect, y: rect.y + size.h };
      const hidden = placed.some((r) => overlaps(r, rect));
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

interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
