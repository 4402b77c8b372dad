/**
 * Wedges (arcs of fire, charge arcs) as generic primitives. A wedge is bounded by two rays: the left ray
 * and the right ray, as seen looking out of the wedge. Either both rays start at one apex (a classic arc,
 * any opening up to 360°), or they start at two points (e.g. a stand's two front corners) and the wedge is
 * the region ahead of the base segment between them, between the rays (opening < 180° in total).
 * Rule sets decide which wedge their arc is; this module only answers "is it inside".
 */
import type { PointIn } from '../model/units.ts';
import { headingToVector, normalizeDeg } from './angles.ts';
import { closestPointOnSegment } from './distance.ts';
import { standCorners, type StandShape } from './footprint.ts';
import { hypot2 } from './hypot.ts';
import { pointInPolygon, segmentIntersection, segmentsIntersect } from './intersect.ts';

/** A wedge bounded by a left and a right ray (as seen looking out of it). */
export interface Wedge {
  readonly leftOrigin: PointIn;
  /** Direction of the left ray, degrees CCW from +x. */
  readonly leftDirDeg: number;
  readonly rightOrigin: PointIn;
  readonly rightDirDeg: number;
}

/** Length used for "infinite" rays, inches: far beyond any table. */
const RAY_LENGTH_IN = 10_000;
const EPS = 1e-9;

/**
 * True when `point` lies in the arc at `apex` swept counter-clockwise from `rightDirDeg` to `leftDirDeg`
 * (boundaries included). The apex itself is inside.
 * @example pointInWedge({xIn:0,yIn:0}, 45, -45, {xIn:5,yIn:1}) // true: a 90° arc facing +x
 */
export function pointInWedge(apex: PointIn, leftDirDeg: number, rightDirDeg: number, point: PointIn): boolean {
  const dx = point.xIn - apex.xIn;
  const dy = point.yIn - apex.yIn;
  if (Math.abs(dx) < EPS && Math.abs(dy) < EPS) return true;
  const sweep = normalizeDeg(leftDirDeg - rightDirDeg);
  const a = normalizeDeg((Math.atan2(dy, dx) * 180) / Math.PI - rightDirDeg);
  // A tiny angular tolerance keeps points exactly on a boundary ray inside despite rounding.
  return a <= sweep + 1e-9 || a >= 360 - 1e-9;
}

/** A wedge whose two rays leave one apex. */
export function wedgeFromApex(apex: PointIn, leftDirDeg: number, rightDirDeg: number): Wedge {
  return { leftOrigin: apex, leftDirDeg, rightOrigin: apex, rightDirDeg };
}

function isApexWedge(w: Wedge): boolean {
  return Math.abs(w.leftOrigin.xIn - w.rightOrigin.xIn) < EPS && Math.abs(w.leftOrigin.yIn - w.rightOrigin.yIn) < EPS;
}

/** True when `point` is inside the wedge (boundaries included). */
export function pointInWedgeShape(wedge: Wedge, point: PointIn): boolean {
  if (isApexWedge(wedge)) return pointInWedge(wedge.leftOrigin, wedge.leftDirDeg, wedge.rightDirDeg, point);
  const lr = (wedge.leftDirDeg * Math.PI) / 180;
  const rr = (wedge.rightDirDeg * Math.PI) / 180;
  const L = wedge.leftOrigin;
  const R = wedge.rightOrigin;
  // Clockwise of (right of) the left ray.
  const cl = Math.cos(lr) * (point.yIn - L.yIn) - Math.sin(lr) * (point.xIn - L.xIn);
  if (cl > EPS) return false;
  // Counter-clockwise of (left of) the right ray.
  const cr = Math.cos(rr) * (point.yIn - R.yIn) - Math.sin(rr) * (point.xIn - R.xIn);
  if (cr < -EPS) return false;
  // Ahead of the base segment, i.e. on the side the rays point to: right-to-left base turned clockwise.
  const bx = L.xIn - R.xIn;
  const by = L.yIn - R.yIn;
  const cb = bx * (point.yIn - R.yIn) - by * (point.xIn - R.xIn);
  return cb <= EPS;
}

/**
 * The wedge as a polygon with rays cut at `rangeIn` from their origins (for drawing and for overlap tests).
 * Apex wedges get an arc of `segments` chords; two-ray wedges are a quadrilateral.
 */
export function wedgePolygon(wedge: Wedge, rangeIn: number, segments = 16): PointIn[] {
  if (isApexWedge(wedge)) {
    const a = wedge.leftOrigin;
    const sweep = normalizeDeg(wedge.leftDirDeg - wedge.rightDirDeg);
    const out: PointIn[] = [a];
    const n = Math.max(1, Math.ceil((segments * sweep) / 90));
    for (let i = 0; i <= n; i++) {
      const d = ((wedge.rightDirDeg + (sweep * i) / n) * Math.PI) / 180;
      out.push({ xIn: a.xIn + Math.cos(d) * rangeIn, yIn: a.yIn + Math.sin(d) * rangeIn });
    }
    return out;
  }
  const lr = (wedge.leftDirDeg * Math.PI) / 180;
  const rr = (wedge.rightDirDeg * Math.PI) / 180;
  return [
    wedge.leftOrigin,
    { xIn: wedge.leftOrigin.xIn + Math.cos(lr) * rangeIn, yIn: wedge.leftOrigin.yIn + Math.sin(lr) * rangeIn },
    { xIn: wedge.rightOrigin.xIn + Math.cos(rr) * rangeIn, yIn: wedge.rightOrigin.yIn + Math.sin(rr) * rangeIn },
    wedge.rightOrigin,
  ];
}

/** A wedge with its ray directions as unit vectors, so repeated tests need no trigonometry. */
export interface PreparedWedge {
  readonly apex: boolean;
  readonly lx: number;
  readonly ly: number;
  readonly lux: number;
  readonly luy: number;
  readonly rx: number;
  readonly ry: number;
  readonly rux: number;
  readonly ruy: number;
  readonly wedge: Wedge;
}

/** The wedge prepared for many polygon tests (`polygonOverlapsPreparedWedge`); callers keep it. */
export function prepareWedge(wedge: Wedge): PreparedWedge {
  const lr = (wedge.leftDirDeg * Math.PI) / 180;
  const rr = (wedge.rightDirDeg * Math.PI) / 180;
  return {
    apex: isApexWedge(wedge),
    lx: wedge.leftOrigin.xIn,
    ly: wedge.leftOrigin.yIn,
    lux: Math.cos(lr),
    luy: Math.sin(lr),
    rx: wedge.rightOrigin.xIn,
    ry: wedge.rightOrigin.yIn,
    rux: Math.cos(rr),
    ruy: Math.sin(rr),
    wedge,
  };
}

function preparedContains(w: PreparedWedge, px: number, py: number): boolean {
  if (w.apex) return pointInWedge(w.wedge.leftOrigin, w.wedge.leftDirDeg, w.wedge.rightDirDeg, { xIn: px, yIn: py });
  if (w.lux * (py - w.ly) - w.luy * (px - w.lx) > EPS) return false;
  if (w.rux * (py - w.ry) - w.ruy * (px - w.rx) < -EPS) return false;
  const bx = w.lx - w.rx;
  const by = w.ly - w.ry;
  return bx * (py - w.ry) - by * (px - w.rx) <= EPS;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Segment–segment test on plain numbers (touching counts), for the hot loops below. */
function segsTouch(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay);
  const d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy);
  const d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  // Collinear and touching cases are measure-zero on a real table; defer to the careful version.
  if (d1 === 0 || d2 === 0 || d3 === 0 || d4 === 0) {
    return segmentsIntersect({ xIn: ax, yIn: ay }, { xIn: bx, yIn: by }, { xIn: cx, yIn: cy }, { xIn: dx, yIn: dy });
  }
  return false;
}

/** True when any part of the polygon (area or boundary) lies inside the wedge. */
export function polygonOverlapsWedge(wedge: Wedge, polygon: readonly PointIn[]): boolean {
  return polygonOverlapsPreparedWedge(prepareWedge(wedge), polygon);
}

/** `polygonOverlapsWedge` for a wedge prepared once (`prepareWedge`) and tested against many polygons. */
export function polygonOverlapsPreparedWedge(w: PreparedWedge, polygon: readonly PointIn[]): boolean {
  for (const v of polygon) if (preparedContains(w, v.xIn, v.yIn)) return true;
  // No vertex inside: the polygon may still straddle the wedge, crossing its boundary rays (left ray, right
  // ray, and the front edge between the origins unless the wedge has a single apex).
  const n = polygon.length;
  for (let r = 0; r < (w.apex ? 2 : 3); r++) {
    const ax = r === 1 ? w.rx : w.lx;
    const ay = r === 1 ? w.ry : w.ly;
    const bx = r === 0 ? w.lx + w.lux * RAY_LENGTH_IN : r === 1 ? w.rx + w.rux * RAY_LENGTH_IN : w.rx;
    const by = r === 0 ? w.ly + w.luy * RAY_LENGTH_IN : r === 1 ? w.ry + w.ruy * RAY_LENGTH_IN : w.ry;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const p = polygon[j]!;
      const q = polygon[i]!;
      if (segsTouch(ax, ay, bx, by, p.xIn, p.yIn, q.xIn, q.yIn)) return true;
    }
  }
  // Or the polygon may contain the wedge's origin (a stand standing on the apex).
  return pointInPolygon(w.wedge.leftOrigin, polygon);
}

/**
 * True when the whole polygon lies inside the wedge. Exact for wedges of at most 180° (convex);
 * for wider apex wedges it checks the vertices only.
 */
export function polygonInsideWedge(wedge: Wedge, polygon: readonly PointIn[]): boolean {
  const w = prepareWedge(wedge);
  for (const v of polygon) if (!preparedContains(w, v.xIn, v.yIn)) return false;
  return polygon.length > 0;
}

/**
 * A stand's corner-to-corner arc: rays from the front corners continuing the base diagonals
 * (rear-right → front-left, rear-left → front-right). Many rulebooks use this as the fire arc; the rule
 * set decides whether it applies.
 */
export function standDiagonalWedge(stand: StandShape): Wedge {
  return diagonalWedgeOfCorners(standCorners(stand));
}

/** `standDiagonalWedge` from the stand's corners [FL, FR, RR, RL] when the caller already has them. */
export function diagonalWedgeOfCorners(corners: readonly PointIn[]): Wedge {
  const fl = corners[0]!, fr = corners[1]!, rr = corners[2]!, rl = corners[3]!;
  return {
    leftOrigin: fl,
    leftDirDeg: normalizeDeg((Math.atan2(fl.yIn - rr.yIn, fl.xIn - rr.xIn) * 180) / Math.PI),
    rightOrigin: fr,
    rightDirDeg: normalizeDeg((Math.atan2(fr.yIn - rl.yIn, fr.xIn - rl.xIn) * 180) / Math.PI),
  };
}

/**
 * A stand's straight-ahead corridor: rays from the front corners parallel to its heading (the region
 * directly in front of the base).
 */
export function standFrontCorridor(stand: StandShape): Wedge {
  const [fl, fr] = standCorners(stand);
  return { leftOrigin: fl, leftDirDeg: stand.pose.headingDeg, rightOrigin: fr, rightDirDeg: stand.pose.headingDeg };
}

/**
 * The point of `polygon` (area, not just outline) nearest to `apex` among those within `halfDeg` of
 * `headingDeg` as seen from the apex; undefined when no part of the polygon lies in the arc.
 *
 * @param apex the arc's apex, inches
 * @param headingDeg the arc's centre line, degrees CCW from +x
 * @param halfDeg half the opening, degrees (45 for a 90° arc)
 * @param polygon a simple polygon, inches
 * @example closestPointInArc({xIn:0,yIn:0}, 0, 45, square) // nearest point of the square in front
 */
export function closestPointInArc(apex: PointIn, headingDeg: number, halfDeg: number, polygon: readonly PointIn[]): PointIn | undefined {
  if (pointInPolygon(apex, polygon)) return apex;
  const left = headingDeg + halfDeg;
  const right = headingDeg - halfDeg;
  const inArc = (p: PointIn): boolean => pointInWedge(apex, left, right, p);
  let best: PointIn | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  const consider = (p: PointIn): void => {
    const d = hypot2(p.xIn - apex.xIn, p.yIn - apex.yIn);
    if (d < bestD && inArc(p)) {
      bestD = d;
      best = p;
    }
  };
  const rays = [left, right].map((deg) => {
    const v = headingToVector(deg);
    return { xIn: apex.xIn + v.x * RAY_LENGTH_IN, yIn: apex.yIn + v.y * RAY_LENGTH_IN };
  });
  const n = polygon.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = polygon[j]!;
    const b = polygon[i]!;
    consider(b);
    consider(closestPointOnSegment(apex, a, b));
    // Where the arc's boundary rays enter the polygon.
    for (const end of rays) {
      const hit = segmentIntersection(apex, end, a, b);
      if (hit) consider(hit.point);
    }
  }
  return best;
}
