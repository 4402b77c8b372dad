/**
 * three.js geometry for the rules' shapes: fills under the stands, strokes over them, labels handed back
 * for the DOM label layer (crisp text at any zoom, and legible on a phone).
 */
import * as THREE from 'three';
import type { LayerId, LabelShape, Shape } from '@muster/rules';
import { shapeOutline } from '../geometry/shapeOutline.ts';
import { arrowHead, polylineStrip } from '../geometry/polylineStrip.ts';
import { addIfAny, fillMesh, trianglesMesh } from './meshFactory.ts';
import { LAYER_ORDER, STYLE_PAINT } from './palette.ts';
import { RENDER_ORDER } from './renderOrder.ts';

export interface AnnotationFilter {
  /** Layers drawn; a shape on any other layer is skipped. */
  readonly layers: ReadonlySet<LayerId>;
  /** When set, only shapes about this unit (and shapes about no unit) are drawn. */
  readonly unitId: string | null;
  /** Multiplies stroke widths (the projector wants bolder lines than the map). */
  readonly strokeScale?: number;
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
  for (const shape of shapes) {
    if (!shapeVisible(shape, filter)) continue;
    if (shape.kind === 'label') {
      labels.push(shape);
      continue;
    }
    // Layer order breaks ties inside the fill and stroke bands.
    const layerRank = Math.max(0, LAYER_ORDER.indexOf(shape.layer as (typeof LAYER_ORDER)[number])) / 100;
    const paint = STYLE_PAINT[shape.style];
    const outline = shapeOutline(shape);
    if (outline.fill && paint.fill) addIfAny(group, fillMesh(outline.fill, paint.fill, RENDER_ORDER.annotationFill + layerRank, outline.hole));
    if (paint.strokeWidthIn > 0) {
      const widthIn = paint.strokeWidthIn * strokeScale;
      for (const line of outline.strokes) addIfAny(group, trianglesMesh(polylineStrip(line, widthIn), paint.stroke, RENDER_ORDER.annotationStroke + layerRank));
      if (shape.kind === 'polyline' && shape.arrow) {
        addIfAny(group, trianglesMesh(arrowHead(shape.points, Math.max(0.5, widthIn * 5)), paint.stroke, RENDER_ORDER.annotationStroke + layerRank));
      }
    }
  }
  return { group, labels };
}
