/**
 * Are the printed stand tags big enough for this camera? A 0.5 in tag over a 72 in table is 9–13 px
 * across at 1080p, where ArUco finds few of them (and nothing else says why). Measured on rendered
 * frames (blur σ 0.7 px, noise, JPEG q90; README "Tag size for the camera"), full-frame recall by tag
 * side: 10–12 px 21 %, 12–14 px 61 %, 14–16 px 97 %, 16 px and up 100 %. So below `MIN_RELIABLE_TAG_SIDE_PX`
 * the detector warns, and the advice prints tags at `ADVISED_TAG_SIDE_PX` where the table is seen smallest.
 */
import { tableTagScale } from './localTagScale.ts';
import type { Homography } from '@muster/table-mapping';

/** Smallest tag side (black square, px) read reliably in a full-frame scan. */
export const MIN_RELIABLE_TAG_SIDE_PX = 16;
/** Tag side advised where the table is seen smallest: the reliable size with a margin for blur and light. */
export const ADVISED_TAG_SIDE_PX = 20;
/** Sizes tags are advised in, inches (what a printer and a stand base take). */
export const TAG_SIZES_IN = [0.5, 0.625, 0.75, 0.875, 1, 1.25, 1.5, 2] as const;

export interface TagSizeAdvice {
  /** Stand-tag side at the printed size where the table is seen smallest / largest, px. */
  readonly minSidePx: number;
  readonly maxSidePx: number;
  /** Whether the smallest is at least `MIN_RELIABLE_TAG_SIDE_PX`. */
  readonly reliable: boolean;
  /** The smallest size in `TAG_SIZES_IN` that is `ADVISED_TAG_SIDE_PX` across everywhere (null if none is). */
  readonly advisedSizeIn: number | null;
  /** Its side where the table is seen smallest, px. */
  readonly advisedSidePx: number | null;
}

/** Inches as printed on a sheet: 0.5" → `1/2"`, 1 → `1"`, 1.25 → `1 1/4"`. */
export function inchesLabel(sizeIn: number): string {
  const whole = Math.floor(sizeIn + 1e-9);
  const eighths = Math.round((sizeIn - whole) * 8);
  if (eighths === 0) return `${whole}"`;
  let num = eighths;
  let den = 8;
  while (num % 2 === 0) {
    num /= 2;
    den /= 2;
  }
  return `${whole > 0 ? `${whole} ` : ''}${num}/${den}"`;
}

/**
 * Advice from the smallest and largest px per inch of the table in the image: from a homography
 * (image px → table in) when there is one, else from the table fitted into the frame (a camera straight
 * overhead that frames the table).
 */
export function tagSizeAdvice(
  table: { widthIn: number; heightIn: number },
  markerSizeIn: number,
  view: { imageToTable: Homography } | { widthPx: number; heightPx: number },
): TagSizeAdvice {
  let minPxPerIn: number;
  let maxPxPerIn: number;
  if ('imageToTable' in view) {
    const s = tableTagScale(view.imageToTable, table, 1);
    minPxPerIn = s.minSidePx;
    maxPxPerIn = s.maxSidePx;
  } else {
    minPxPerIn = maxPxPerIn = Math.min(view.widthPx / table.widthIn, view.heightPx / table.heightIn);
  }
  const advisedSizeIn = TAG_SIZES_IN.find((s) => s * minPxPerIn >= ADVISED_TAG_SIDE_PX) ?? null;
  return {
    minSidePx: markerSizeIn * minPxPerIn,
    maxSidePx: markerSizeIn * maxPxPerIn,
    reliable: markerSizeIn * minPxPerIn >= MIN_RELIABLE_TAG_SIDE_PX,
    advisedSizeIn,
    advisedSidePx: advisedSizeIn === null ? null : advisedSizeIn * minPxPerIn,
  };
}

/** One line for a user when the tags are too small; null when they are fine. */
export function tagSizeWarning(advice: TagSizeAdvice, markerSizeIn: number): string | null {
  if (advice.reliable) return null;
  const range = Math.round(advice.minSidePx) === Math.round(advice.maxSidePx) ? `${Math.round(advice.minSidePx)} px` : `${Math.round(advice.minSidePx)}–${Math.round(advice.maxSidePx)} px`;
  const fix =
    advice.advisedSizeIn === null
      ? `no tag size up to 2" is ${ADVISED_TAG_SIDE_PX} px here: use a higher camera resolution or bring the camera closer`
      : `print ${inchesLabel(advice.advisedSizeIn)} tags (about ${Math.round(advice.advisedSidePx!)} px here; set markerSize in the table profile) or use a higher camera resolution`;
  return `stand tags (${inchesLabel(markerSizeIn)}) are ${range} across in this view; below ${MIN_RELIABLE_TAG_SIDE_PX} px many are missed: ${fix}`;
}
