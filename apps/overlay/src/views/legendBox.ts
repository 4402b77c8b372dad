/**
 * The legend: one line per style actually on screen, its swatch drawn with the same colour, width and dash
 * as the table, named by what the look means (from `palette.ts`), never by a rule set's own words. Rebuilt
 * only when the list of styles changes.
 */
import type { StyleId } from '@muster/rules';
import { STYLE_PAINT, cssColor } from './palette.ts';

const SVG = 'http://www.w3.org/2000/svg';

function swatch(style: StyleId, fills: boolean): SVGSVGElement {
  const paint = STYLE_PAINT[style];
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', '34');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  if (paint.fill && fills) {
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', '1');
    rect.setAttribute('y', '1');
    rect.setAttribute('width', '32');
    rect.setAttribute('height', '12');
    rect.setAttribute('fill', cssColor(paint.fill.color));
    rect.setAttribute('fill-opacity', String(Math.max(0.25, paint.fill.opacity)));
    svg.append(rect);
  }
  const line = document.createElementNS(SVG, 'line');
  line.setAttribute('x1', '1');
  line.setAttribute('x2', '33');
  line.setAttribute('y1', '7');
  line.setAttribute('y2', '7');
  line.setAttribute('stroke', cssColor(paint.stroke.color));
  // Widths and dashes in inches, drawn at 10 px per inch (bounded so thin lines still show).
  line.setAttribute('stroke-width', String(Math.max(1.5, Math.min(4, paint.strokeWidthIn * 16))));
  if (paint.dashIn) line.setAttribute('stroke-dasharray', `${Math.max(2, paint.dashIn[0] * 10)} ${Math.max(2, paint.dashIn[1] * 10)}`);
  svg.append(line);
  return svg;
}

export class LegendBox {
  readonly element: HTMLElement;
  private key = '';

  /** @param fills false when the view draws outlines only (the projector): swatches then show no fill. */
  constructor(container: HTMLElement, private readonly fills = true) {
    this.element = document.createElement('div');
    this.element.className = 'legend';
    this.element.setAttribute('aria-label', 'Legend');
    this.element.hidden = true;
    container.appendChild(this.element);
  }

  /** `extra`: entries a page adds for its own marks (status on stands, a measurement). */
  set(styles: readonly StyleId[], extra: readonly { readonly key: string; readonly text: string; readonly swatch: Node }[] = []): void {
    const key = [...styles, ...extra.map((e) => e.key)].join(',');
    if (key === this.key) return;
    this.key = key;
    const rows = styles
      .filter((s) => s !== 'label')
      .map((s) => {
        const row = document.createElement('div');
        row.className = 'legend-row';
        row.dataset.style = s;
        row.append(swatch(s, this.fills), document.createTextNode(STYLE_PAINT[s].legend));
        return row;
      });
    for (const e of extra) {
      const row = document.createElement('div');
      row.className = 'legend-row';
      row.dataset.key = e.key;
      row.append(e.swatch, document.createTextNode(e.text));
      rows.push(row);
    }
    this.element.replaceChildren(...rows);
    this.element.hidden = rows.length === 0;
  }
}

/** Legend lines for the status marks drawn on stands (`tableSceneBuilder.ts`), for those present. */
export function statusLegend(present: { readonly disordered: boolean; readonly prone: boolean; readonly hit: boolean }, paint: { readonly disordered: number; readonly prone: number; readonly hit: number }): { key: string; text: string; swatch: Node }[] {
  const mk = (draw: (svg: SVGSVGElement) => void): SVGSVGElement => {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('width', '34');
    svg.setAttribute('height', '14');
    svg.setAttribute('aria-hidden', 'true');
    draw(svg);
    return svg;
  };
  const el = (name: string, attrs: Record<string, string>): SVGElement => {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  const out: { key: string; text: string; swatch: Node }[] = [];
  if (present.disordered) out.push({ key: 'status-disordered', text: 'Disordered', swatch: mk((s) => s.append(el('rect', { x: '4', y: '2', width: '26', height: '10', fill: 'none', stroke: cssColor(paint.disordered), 'stroke-width': '2', 'stroke-dasharray': '3 2' }))) });
  if (present.prone) out.push({ key: 'status-prone', text: 'Prone', swatch: mk((s) => s.append(el('rect', { x: '6', y: '2', width: '22', height: '10', fill: '#777' }), el('line', { x1: '6', x2: '28', y1: '10', y2: '10', stroke: cssColor(paint.prone), 'stroke-width': '3' }))) });
  if (present.hit) out.push({ key: 'status-hit', text: 'Hit', swatch: mk((s) => s.append(el('rect', { x: '6', y: '2', width: '22', height: '10', fill: '#777' }), el('path', { d: 'M9 3 L25 11 M25 3 L9 11', stroke: cssColor(paint.hit), 'stroke-width': '2' }))) });
  return out;
}

/** The legend line for ghosts: an outline footprint with a thin dashed line to where the stand is now. */
export function ghostLegend(color: number): { key: string; text: string; swatch: Node } {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', '34');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  const rect = document.createElementNS(SVG, 'rect');
  for (const [k, v] of Object.entries({ x: '2', y: '3', width: '12', height: '8', fill: 'none', stroke: cssColor(color), 'stroke-width': '1.5' })) rect.setAttribute(k, v);
  const line = document.createElementNS(SVG, 'line');
  for (const [k, v] of Object.entries({ x1: '14', y1: '7', x2: '32', y2: '7', stroke: cssColor(color), 'stroke-width': '1', 'stroke-dasharray': '3 2' })) line.setAttribute(k, v);
  svg.append(rect, line);
  return { key: 'ghost', text: 'Before its move', swatch: svg };
}
