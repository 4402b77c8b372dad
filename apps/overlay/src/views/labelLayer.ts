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

  /** Re-positions every label; `pxPerIn` is the local scale used to size text given in inches. */
  layout(toScreen: (p: PointIn) => ScreenPointPx, pxPerIn: number): void {
    for (const s of this.specs) {
      const node = this.nodes.get(s.key);
      if (!node) continue;
      if (s.below && s.below.length > 0) {
        const pts = s.below.map(toScreen);
        const xMid = (Math.min(...pts.map((q) => q.xPx)) + Math.max(...pts.map((q) => q.xPx))) / 2;
        const yBottom = Math.max(...pts.map((q) => q.yPx)) + BELOW_GAP_PX;
        node.style.transform = `translate(${xMid.toFixed(1)}px, ${yBottom.toFixed(1)}px) translate(-50%, 0)`;
      } else {
        const p = toScreen(s.at);
        node.style.transform = `translate(${p.xPx.toFixed(1)}px, ${p.yPx.toFixed(1)}px) translate(-50%, -50%)`;
      }
      if (s.sizeIn !== undefined) {
        node.style.fontSize = `${Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, s.sizeIn * pxPerIn))}px`;
      }
    }
  }
}
