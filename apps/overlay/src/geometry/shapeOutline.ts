/**
 * Turns the rules' plain shapes into outlines a renderer can fill or stroke: arcs become polylines at a
 * fixed angular step, so a renderer never needs to know what a sector is. Pure, no three.js.
 */
import type { PointIn, Shape } from '@muster/rules';

export interface ShapeOutline {
  /** Closed ring to fill (no repeated first point), or null when the shape is a line or a label. */
  readonly fill: readonly PointIn[] | null;
  /** A ring to cut out of `fill` (a full-circle annulus); null otherwise. */
  readonly hole: readonly PointIn[] | null;
  /** Open polylines to stroke; a closed outline repeats its first point at the end. */
  readonly strokes: readonly (readonly PointIn[])[];
}

/** Largest angle between arc vertices, degrees: smooth enough at projector size, few enough vertices. */
export const ARC_STEP_DEG = 5;

/**
 * Points along an arc from startDeg counter-clockwise to endDeg, both ends included.
 * A sweep of 360° or more gives a full turn; endDeg < startDeg wraps through 0.
 */
export function arcPoints(center: PointIn, radiusIn: number, startDeg: number, endDeg: number): PointIn[] {
  let sweep = endDeg - startDeg;
  if (sweep < 0) sweep = (sweep % 360) + 360;
  if (sweep > 360) sweep = 360;
  const steps = Math.max(1, Math.ceil(sweep / ARC_STEP_DEG));
  const pts: PointIn[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = ((startDeg + (sweep * i) / steps) * Math.PI) / 180;
    pts.push({ xIn: center.xIn + radiusIn * Math.cos(a), yIn: center.yIn + radiusIn * Math.sin(a) });
  }
  return pts;
}

function closed(ring: readonly PointIn[]): PointIn[] {
  return ring.length > 0 ? [...ring, ring[0]!] : [];
}

/** Sweep of a sector in degrees, (0, 360]. */
function sectorSweepDeg(startDeg: number, endDeg: number): number {
  const raw = endDeg - startDeg;
  if (raw >= 360) return 360;
  const s = ((raw % 360) + 360) % 360;
  return s === 0 ? 360 : s;
}

export function shapeOutline(shape: Shape): ShapeOutline {
  switch (shape.kind) {
    case 'polygon':
      return { fill: shape.vertices, hole: null, strokes: [closed(shape.vertices)] };
    case 'polyline':
      return { fill: null, hole: null, strokes: [shape.points] };
    case 'circle': {
      const ring = arcPoints(shape.center, shape.radiusIn, 0, 360).slice(0, -1);
      return { fill: ring, hole: null, strokes: [closed(ring)] };
    }
    case 'sector': {
      const sweep = sectorSweepDeg(shape.startDeg, shape.endDeg);
      const inner = shape.innerRadiusIn ?? 0;
      const end = shape.startDeg + sweep;
      if (sweep >= 360) {
        const outer = arcPoints(shape.center, shape.radiusIn, 0, 360).slice(0, -1);
        const innerRing = inner > 0 ? arcPoints(shape.center, inner, 0, 360).slice(0, -1) : null;
        return {
          fill: outer,
          hole: innerRing,
          strokes: innerRing ? [closed(outer), closed(innerRing)] : [closed(outer)],
        };
      }
      const outerArc = arcPoints(shape.center, shape.radiusIn, shape.startDeg, end);
      const ring: PointIn[] =
        inner > 0
          ? [...outerArc, ...arcPoints(shape.center, inner, shape.startDeg, end).reverse()]
          : [shape.center, ...outerArc];
      return { fill: ring, hole: null, strokes: [closed(ring)] };
    }
    case 'label':
      return { fill: null, hole: null, strokes: [] };
  }
}
