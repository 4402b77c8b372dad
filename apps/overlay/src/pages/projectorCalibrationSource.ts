/**
 * The service's projector calibration (`GET /api/projector`, the file `muster calibrate projector`
 * writes) as the view's `Calibration`. The service validated it already; this only refuses what would
 * draw nonsense (wrong shape, non-finite numbers), so the page falls back to fitting the table.
 */
import { normaliseHomography, toHomography } from '@muster/table-mapping';
import type { Calibration } from '../views/liveTableView.ts';

export function calibrationFromServed(json: unknown): Calibration | null {
  if (typeof json !== 'object' || json === null) return null;
  const o = json as { tableToProjector?: unknown; projectorWidthPx?: unknown; projectorHeightPx?: unknown };
  const { tableToProjector: h, projectorWidthPx: w, projectorHeightPx: hpx } = o;
  if (!Array.isArray(h) || typeof w !== 'number' || typeof hpx !== 'number' || !(w > 0) || !(hpx > 0)) return null;
  try {
    return { homography: normaliseHomography(toHomography(h as number[])), sizePx: { widthPx: w, heightPx: hpx } };
  } catch {
    return null;
  }
}
