/**
 * Units of measure as types. Table space is inches; headings are degrees counter-clockwise from +x in
 * [0, 360). Field names carry the unit (`xIn`, `headingDeg`) so a pixel point (`uPx`, `vPx`, defined in
 * apps/vision) can never be passed where a table point is expected: that is a compile error, not a convention.
 */

/** A point on the table, in inches. Origin at the near-left corner, x along the near edge, y away from it. */
export interface PointIn {
  readonly xIn: number;
  readonly yIn: number;
}

/** Where a stand is and which way it faces. */
export interface PoseIn {
  readonly xIn: number;
  readonly yIn: number;
  /** Degrees counter-clockwise from +x, normalised to [0, 360). */
  readonly headingDeg: number;
}
