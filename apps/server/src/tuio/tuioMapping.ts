/**
 * Muster's table space → the TUIO 1.1 surface.
 *
 * Muster: inches, origin at the near-left corner (the player's left), +x along the near edge to the
 * right, +y away from the player; headings in degrees counter-clockwise from +x (seen from above), so
 * 90° points away from the player.
 *
 * TUIO 1.1 (`/tuio/2Dobj set`): x and y normalised to 0..1 over the surface, origin at the top-left with
 * y growing downwards, as on a screen; the angle `a` in radians, [0, 2π). "Top" of the surface is the
 * far edge of the table (what a projector or a screen laid on the table shows at the top when it faces
 * the player), so:
 *
 *   x = xIn / widthIn              near-left corner (0, 0)"        → (0, 1)
 *   y = 1 − yIn / depthIn          far-right corner (W, D)"        → (1, 0)
 *   a = (2π − heading in radians) mod 2π
 *
 * The angle: flipping y turns Muster's counter-clockwise into clockwise on the screen, so `a` is measured
 * clockwise from the surface's +x (right), the way an angle turns in y-down screen coordinates: a client
 * draws the stand's facing as the direction (cos a, sin a) in TUIO x/y. Heading 0° (facing right) → 0;
 * heading 90° (facing away from the player, "up" on the surface) → 3π/2; heading 180° → π; heading 270°
 * (facing the player, "down") → π/2. This is how a y-down canvas turns (Processing's `rotate(a)`, a
 * canvas 2D context, an OpenGL ortho view with y down), which is how the TUIO client examples draw an
 * object rotated by its angle.
 *
 * Positions are clamped to [0, 1] (a stand hanging over the edge stays on the surface); velocities are
 * computed from the unclamped positions (`tuioFrames.ts`).
 */
import type { PoseIn } from '@muster/rules';

export interface TableSizeIn {
  readonly widthIn: number;
  readonly depthIn: number;
}

export interface TuioPose {
  /** 0..1 left → right (may leave 0..1 when the stand's centre is off the table; clamp to send). */
  readonly x: number;
  /** 0..1 far edge (top) → near edge (bottom). */
  readonly y: number;
  /** Radians clockwise from +x in y-down surface coordinates, [0, 2π). */
  readonly a: number;
}

const TWO_PI = 2 * Math.PI;

/** Muster heading (degrees CCW from +x, y away from the player) → TUIO angle (radians, CW, y down). */
export function tuioAngle(headingDeg: number): number {
  const a = ((-headingDeg * Math.PI) / 180) % TWO_PI;
  const wrapped = a < 0 ? a + TWO_PI : a;
  // -0 and values that round up to 2π are 0.
  return wrapped >= TWO_PI || wrapped === 0 ? 0 : wrapped;
}

/** A pose in table inches → the TUIO surface, unclamped. */
export function toTuioPose(pose: PoseIn, table: TableSizeIn): TuioPose {
  return { x: pose.xIn / table.widthIn, y: 1 - pose.yIn / table.depthIn, a: tuioAngle(pose.headingDeg) };
}

export function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}
