/**
 * What a view exposes on `window.__muster` for end-to-end tests and for debugging from the console:
 * enough to compute where something should be on screen without re-implementing the mapping.
 */
import type { Stand } from '@muster/rules';
import type { ScreenPointPx } from '../mapping/homography.ts';

export interface MusterHooks {
  /** Which page this is: 'map', 'operator', 'projector', 'overlay'. */
  readonly view: string;
  /** True once a snapshot has been drawn. */
  ready: boolean;
  /** seq of the live state last drawn; -1 before the first. */
  lastSeq: number;
  /** Frames drawn so far (labels placed; the canvas too when something on it changed). */
  frames: number;
  /** Frames in which the WebGL canvas was drawn (all of it or the parts that changed). */
  canvasDraws?: number;
  /** CSS px² of the canvas drawn in its last draw (less than all of it when only some parts changed). */
  lastDrawnAreaPx?: number;
  /** Draws the whole canvas again on the next frame. */
  redrawAll?: () => void;
  /** How long the last frame took on the main thread: rebuilding changed groups, and submitting to WebGL, ms. */
  lastRebuildMs: number;
  lastRenderMs: number;
  /** WebGL context losses so far (a white or blank canvas in a screenshot: look here first). */
  contextLosses: number;
  connection: string;
  selectedUnitId: string | null;
  /** Table inches → CSS pixels relative to the page's top-left. */
  tableToScreenPx(xIn: number, yIn: number): ScreenPointPx;
  /** CSS pixels (page) → table inches. */
  screenPxToTable(xPx: number, yPx: number): { xIn: number; yIn: number };
  /** The stand under a page point, if any. */
  standAt(xPx: number, yPx: number): Stand | null;
  /** The ghosts drawn now: each stand's pose before its last move (table inches, degrees). */
  ghosts: { standId: string; unitId: string; xIn: number; yIn: number; headingDeg: number }[];
}

declare global {
  interface Window {
    __muster?: MusterHooks;
  }
}

export function installHooks(hooks: MusterHooks): MusterHooks {
  window.__muster = hooks;
  return hooks;
}
