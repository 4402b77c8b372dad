import { deltaDeg, normalizeDeg } from './angles.ts';
import { createOneEuroFilter, type OneEuroFilter, type OneEuroParams } from './oneEuroFilter.ts';

/**
 * A One-Euro filter for headings in degrees. Filtering the raw number would average 359° and 1° to 180°;
 * instead each new heading is unwrapped onto a continuous angle (last unwrapped + shortest rotation), that
 * continuous angle is filtered, and the result is normalised back to [0, 360).
 *
 * @example
 * const f = createAngleOneEuroFilter({ minCutoffHz: 0.5, beta: 0.05, dCutoffHz: 1 });
 * f.filter(359, 0); f.filter(1, 33); // ≈ 359.x or 0.x, never 180
 */
export function createAngleOneEuroFilter(params: OneEuroParams): OneEuroFilter {
  const inner = createOneEuroFilter(params);
  let unwrapped: number | null = null;
  return {
    filter(headingDeg, timeMs) {
      unwrapped = unwrapped === null ? headingDeg : unwrapped + deltaDeg(unwrapped, headingDeg);
      return normalizeDeg(inner.filter(unwrapped, timeMs));
    },
    reset() {
      unwrapped = null;
      inner.reset();
    },
    get ratePerS() {
      return inner.ratePerS;
    },
  };
}
