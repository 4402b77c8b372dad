/**
 * Drawable shapes in table inches: what the rules want shown, with no rules knowledge needed to draw it.
 * Views (projector, stream overlay, map, operator) map `layer` to a toggle and `style` to colours.
 */
import type { PointIn } from '../model/units.ts';
import type { SideId } from '../model/tableState.ts';

/** Groups that a view can switch on and off. */
export type LayerId = 'movement' | 'fire' | 'charge' | 'command' | 'formation' | 'labels' | 'measure' | 'warnings';

/**
 * Named looks. A view picks colours per style (and per side where `side` is set):
 * reach = where a unit can move; blocked = where it may not go; arc = a fire arc; target = a line to a
 * fire target; charge = charge reach; link = command link; label = text; warning = something wrong.
 */
export type StyleId =
  | 'reach'
  | 'reach-road'
  | 'blocked'
  | 'arc'
  | 'arc-artillery'
  | 'target'
  | 'target-priority'
  | 'charge'
  | 'link'
  | 'link-broken'
  | 'formation'
  | 'label'
  | 'warning'
  | 'measure';

interface ShapeCommon {
  /** Stable across frames for the same meaning, so views can diff. */
  readonly id: string;
  readonly layer: LayerId;
  readonly style: StyleId;
  /** The unit this shape is about (selection in the operator view shows only its shapes). */
  readonly unitId?: string;
  readonly side?: SideId;
}

export interface PolygonShape extends ShapeCommon {
  readonly kind: 'polygon';
  readonly vertices: readonly PointIn[];
}

export interface PolylineShape extends ShapeCommon {
  readonly kind: 'polyline';
  readonly points: readonly PointIn[];
  /** Arrow head at the last point. */
  readonly arrow?: boolean;
}

export interface CircleShape extends ShapeCommon {
  readonly kind: 'circle';
  readonly center: PointIn;
  readonly radiusIn: number;
}

/** A sector (or annular sector when innerRadiusIn > 0) from startDeg counter-clockwise to endDeg. */
export interface SectorShape extends ShapeCommon {
  readonly kind: 'sector';
  readonly center: PointIn;
  readonly radiusIn: number;
  readonly innerRadiusIn?: number;
  readonly startDeg: number;
  readonly endDeg: number;
}

export interface LabelShape extends ShapeCommon {
  readonly kind: 'label';
  readonly at: PointIn;
  readonly text: string;
  /** Text height in inches; views clamp to a readable minimum. */
  readonly sizeIn?: number;
}

export type Shape = PolygonShape | PolylineShape | CircleShape | SectorShape | LabelShape;
