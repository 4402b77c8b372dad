/**
 * three.js geometry for the rules' shapes: fills under the stands, strokes over them, labels handed back
 * for the DOM label layer (crisp text at any zoom, and legible on a phone).
 */
import * as THREE from 'three';
import type { LayerId, LabelShape, Shape, StyleId } from '@muster/rules';
import { shapeOutline } from '../geometry/shapeOutline.ts';
import { arrowHead, polylineStrip } from '../geometry/polylineStrip.ts';
import { dashPolyline } from '../geometry/dashedLine.ts';
import { addIfAny } from './meshFactory.ts';
import { TriangleBatch } from './triangleBatch.ts';
import { LAYER_ORDER, STYLE_PAINT } from './palette.ts';
import { RENDER_ORDER } from './renderOrder.ts';

/** Stable order of styles inside a layer (and so of their depth groups). */
const STYLE_ORDER = Object.keys(STYLE_PAINT) as (keyof typeof STYLE_PAINT)[];

export interface AnnotationFilter {
  /** Layers drawn; a shape on any other layer is skipped. */
  readonly layers: ReadonlySet<LayerId>;
  /** When set, only shapes about this unit (and shapes about no unit) are drawn. */
  readonly unitId: string | null;
  /** Multiplies stroke widths (the projector wants bolder lines than the map). */
  readonly strokeScale?: number;
  /** When given, annotations are cut at the table's edges. */
  readonly table?: { readonly widthIn: number; readonly depthIn: number };
  /** False: outlines only, no area washes (the projector: light on the cloth only where a line is). */
  readonly fills?: boolean;
  /** Styles left out (the map's fire arcs while no unit is selected). */
  readonly hiddenStyles?: ReadonlySet<StyleId>;
  /** When set, only shapes about these units are drawn (not even shapes about no unit); beats `unitId`. */
  readonly unitIds?: ReadonlySet<string> | null;
}

export function shapeVisible(shape: Shape, filter: AnnotationFilter): boolean {
  if (!filter.layers.has(shape.layer)) return false;
  if (filter.hiddenStyles?.has(shape.style)) return false;
  // A focus set is strict: shapes about no unit (a commander's radius, table warnings) wait too.
  if (filter.unitIds) return shape.unitId !== undefined && filter.unitIds.has(shape.unitId);
  if (shape.unitId === undefined) return true;
  if (filter.unitId !== null && shape.unitId !== filter.unitId) return false;
  return true;
}

export interface AnnotationBuild {
  readonly group: THREE.Group;
  readonly labels: readonly LabelShape[];
  /** Styles actually drawn, in draw order: what the legend lists. */
  readonly styles: readonly StyleId[];
}

export function buildAnnotations(shapes: readonly Shape[], filter: AnnotationFilter): AnnotationBuild {
  const group = new THREE.Group();
  group.name = 'annotations';
  const labels: LabelShape[] = [];
  const strokeScale = filter.strokeScale ?? 1;
  const drawFills = filter.fills ?? true;
  const styles = new Set<StyleId>();
  // Two batches (fills under the stands, strokes over them), each in layer order then shape order.
  // Fills of one layer and style form one depth group: where they overlap they blend once (a union), so
  // many arcs or reaches over the same ground stay readable instead of stacking to a solid colour.
  const styleRank = (s: Shape) => STYLE_ORDER.indexOf(s.style);
  const visible = shapes
    .filter((shape) => shapeVisible(shape, filter))
    .map((shape, index) => ({ shape, index, rank: Math.max(0, LAYER_ORDER.indexOf(shape.layer as (typeof LAYER_ORDER)[number])) }))
    .sort((a, b) => a.rank - b.rank || styleRank(a.shape) - styleRank(b.shape) || a.index - b.index);
  let depthGroup = 0;
  let lastKey = '';
  // Cut at the table's edges as they are built (no stencil pass: see clipTriangles.ts).
  const clip = filter.table ? { x0: 0, y0: 0, x1: filter.table.widthIn, y1: filter.table.depthIn } : null;
  const fills = new TriangleBatch(clip);
  const strokes = new TriangleBatch(clip);
  for (const { shape } of visible) {
    if (shape.kind === 'label') {
      labels.push(shape);
      continue;
    }
    const paint = STYLE_PAINT[shape.style];
    const outline = shapeOutline(shape);
    const key = `${shape.layer}/${shape.style}`;
    if (key !== lastKey) {
      lastKey = key;
      depthGroup += 1;
    }
    if (drawFills && outline.fill && paint.fill) {
      fills.addPolygon(outline.fill, paint.fill, outline.hole, depthGroup);
      styles.add(shape.style);
    }
    if (paint.strokeWidthIn > 0) {
      const widthIn = paint.strokeWidthIn * strokeScale;
      // Dashes scale with the line so a bolder projector line keeps the same look.
      const dash = paint.dashIn ? ([paint.dashIn[0] * Math.sqrt(strokeScale), paint.dashIn[1] * Math.sqrt(strokeScale)] as const) : null;
      // An arrow's tip is left solid so the arrowhead sits on a drawn line.
      for (const line of outline.strokes) {
        for (const piece of dash ? dashPolyline(line, dash[0], dash[1]) : [line]) strokes.addTriangles(polylineStrip(piece, widthIn), paint.stroke);
      }
      if (shape.kind === 'polyline' && shape.arrow) strokes.addTriangles(arrowHead(shape.points, Math.max(0.5, widthIn * 5)), paint.stroke);
      styles.add(shape.style);
    }
  }
  addIfAny(group, fills.toMesh(RENDER_ORDER.annotationFill, { unionSameZ: true }));
  addIfAny(group, strokes.toMesh(RENDER_ORDER.annotationStroke));
  return { group, labels, styles: STYLE_ORDER.filter((st) => styles.has(st)) };
}
