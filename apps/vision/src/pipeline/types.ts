/**
 * Plain data that flows between the vision stages. Pixels stay on this side: the table state handed to
 * `@muster/rules` holds inches only.
 */

/** A point in image pixels: u to the right, v down, origin at the top-left pixel's corner. */
export interface PointPx {
  readonly uPx: number;
  readonly vPx: number;
}

/** One 8-bit grayscale frame, row-major, `widthPx * heightPx` bytes. */
export interface GrayFrame {
  readonly widthPx: number;
  readonly heightPx: number;
  readonly data: Uint8Array;
  /** Capture time, ms since the epoch (or since the replay started, for recorded frames). */
  readonly captureTimeMs: number;
  /** Frame sequence number from the source, from 0. */
  readonly seq: number;
}

/** A stand tag seen in one frame, already mapped to table inches. */
export interface MarkerObservation {
  readonly id: number;
  readonly xIn: number;
  readonly yIn: number;
  /** Direction from the tag centre to the midpoint of its top edge, degrees CCW from +x, [0, 360). */
  readonly headingDeg: number;
  /** Image corners in OpenCV order: top-left, top-right, bottom-right, bottom-left of the tag. */
  readonly cornersPx: readonly [PointPx, PointPx, PointPx, PointPx];
}

/** What the detector made of one frame. */
export interface FrameDetection {
  readonly seq: number;
  readonly captureTimeMs: number;
  /** Anchor ids seen this frame. */
  readonly anchorIds: readonly number[];
  /** Image pixels → table inches, row-major 3×3; null until a first solution exists. */
  readonly homography: readonly number[] | null;
  /** RMS reprojection error of the anchors' corners, inches; null when not solved this frame. */
  readonly homographyResidualIn: number | null;
  /** Stand tags (anchors excluded). */
  readonly markers: readonly MarkerObservation[];
  /** Ids seen more than once in this frame, each reported once. */
  readonly duplicateIds: readonly number[];
  /** Human-readable warnings (too few anchors, kept last homography, ...). */
  readonly warnings: readonly string[];
  /** Processing time of this frame, ms. */
  readonly processingMs: number;
  /**
   * Stand-tag size in this view (with a homography): expected side where the table is seen smallest and
   * largest, the median side of the tags found, px, and the tag size advised when the smallest is below
   * what is read reliably (`detect/tagSizeAdvice.ts`; also said in `warnings`).
   */
  readonly tagSize?: TagSizeSeen;
}

export interface TagSizeSeen {
  readonly minSidePx: number;
  readonly maxSidePx: number;
  /** Median black-square side of the stand tags found this frame, px; null when none. */
  readonly seenMedianSidePx: number | null;
  readonly reliable: boolean;
  /** Null when the tags are big enough (or no size up to 2 in would be). */
  readonly advisedSizeIn: number | null;
}
