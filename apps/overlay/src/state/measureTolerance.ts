/**
 * How far a measured distance can be trusted. Each end of a measurement is a tracked stand whose position
 * carries the calibration's residual, so the error bound is the two residuals added (worst case, both
 * errors pointing apart). Stated on screen next to every measurement.
 */
import type { TableProfileSummary } from '@muster/protocol';

export interface MeasureTolerance {
  /** ± inches, or null when unknown. */
  readonly toleranceIn: number | null;
  /** Human text: '±0.06" from tracking', 'exact (demo ground truth)', ... */
  readonly text: string;
}

/** Floor for the bound: the tracker's smoothing jitter stays around a few hundredths even with a perfect fit. */
export const MIN_TRACKING_TOLERANCE_IN = 0.05;

export function measureTolerance(profile: Pick<TableProfileSummary, 'source' | 'residualIn'> | null | undefined): MeasureTolerance {
  if (!profile) return { toleranceIn: null, text: 'tolerance unknown (no table profile)' };
  if (profile.source === 'demo-truth') return { toleranceIn: 0, text: 'exact (demo ground truth)' };
  if (profile.residualIn === null) return { toleranceIn: null, text: 'tolerance unknown (camera not calibrated)' };
  const tol = Math.max(MIN_TRACKING_TOLERANCE_IN, 2 * profile.residualIn);
  return { toleranceIn: tol, text: `±${tol.toFixed(2)}" from tracking` };
}
