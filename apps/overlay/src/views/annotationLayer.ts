/**
 * three.js geometry for the rules' shapes: fills under the stands, strokes over them, labels handed back
 * for the DOM label layer (crisp text at any zoom, and legible on a phone).
 */
import * as THREE from 'three';
import type { LayerId, LabelShape, Shape } from '@muster/rules';
import { shapeOutline } from '../geometry/shapeOutline.ts';
import { arrowHead, polylineStrip } from '../geometry/polylineStrip.ts';
import { addIfAny } from './meshFactory.ts';
import { TriangleBatch, tableStencilMesh } from './triangleBatch.ts';
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
}

export function shapeVisible(shape: Shape, filter: AnnotationFilter): boolean {
  if (!filter.layers.has(shape.layer)) return false;
  if (filter.unitId !== null && shape.unitId !== undefined && shape.unitId !== filter.unitId) return false;
  return true;
}

export interface AnnotationBuild {
  readonly group: THREE.Group;
  readonly labels: readonly LabelShape[];
}

export function buildAnnotations(shapes: readonly Shape[], filter: AnnotationFilter): AnnotationBuild {
  const group = new THREE.Group();
  group.name = 'annotations';
  const labels: LabelShape[] = [];
  const strokeScale = filter.strokeScale ?? 1;
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
  const fills = new TriangleBatch();
  const strokes = new TriangleBatch();
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
    if (outline.fill && paint.fill) fills.addPolygon(outline.fill, paint.fill, outline.hole, depthGroup);
    if (paint.strokeWidthIn > 0) {
      const widthIn = paint.strokeWidthIn * strokeScale;
      for (const line of outline.strokes) strokes.addTriangles(polylineStrip(line, widthIn), paint.stroke);
      if (shape.kind === 'polyline' && shape.arrow) strokes.addTriangles(arrowHead(shape.points, Math.max(0.5, widthIn * 5)), paint.stroke);
    }
  }
  addIfAny(group, fills.toMesh(RENDER_ORDER.annotationFill, { unionSameZ: true, clipToTable: filter.table !== undefined }));
  addIfAny(group, strokes.toMesh(RENDER_ORDER.annotationStroke, { clipToTable: filter.table !== undefined }));
  if (filter.table) group.add(tableStencilMesh(filter.table.widthIn, filter.table.depthIn, RENDER_ORDER.tableStencil));
  return { group, labels };
}
