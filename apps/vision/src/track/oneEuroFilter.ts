/**
 * The One-Euro filter (Casiez, Roussel, Vogel, CHI 2012): a low-pass filter whose cut-off rises with speed,
 * so a stand at rest loses its jitter while a stand being pushed across the table is followed without lag.
 *
 * `minCutoffHz` sets smoothing at rest (lower = smoother), `beta` how fast the cut-off opens with speed
 * (cut-off Hz gained per unit/s of speed), `dCutoffHz` smooths the speed estimate itself.
 *
 * @example
 * const f = createOneEuroFilter({ minCutoffHz: 0.5, beta: 1, dCutoffHz: 1 });
 * f.filter(10.02, 0); f.filter(9.98, 33); // ≈ 10
 */
export interface OneEuroParams {
  readonly minCutoffHz: number;
  readonly beta: number;
  readonly dCutoffHz: number;
}

export interface OneEuroFilter {
  /** Filters `value` observed at `timeMs`; returns the smoothed value. */
  filter(value: number, timeMs: number): number;
  /** Forgets history; the next value passes through unchanged (used after a jump). */
  reset(): void;
  /** Last filtered rate of change, units per second (0 before two samples). */
  readonly ratePerS: number;
}

function smoothingFactor(cutoffHz: number, dtS: number): number {
  const tau = 1 / (2 * Math.PI * cutoffHz);
  return 1 / (1 + tau / dtS);
}

export function createOneEuroFilter(params: OneEuroParams): OneEuroFilter {
  let last: { value: number; timeMs: number } | null = null;
  let rate = 0;
  /** Samples since the start (or reset). */
  let samples = 0;
  return {
    filter(value, timeMs) {
      if (last === null || timeMs <= last.timeMs) {
        // First sample, or a repeated/out-of-order timestamp: nothing to estimate a speed from.
        if (last === null) {
          last = { value, timeMs };
          samples = 1;
        }
        return last.value;
      }
      samples++;
      const dtS = (timeMs - last.timeMs) / 1000;
      const rawRate = (value - last.value) / dtS;
      rate += smoothingFactor(params.dCutoffHz, dtS) * (rawRate - rate);
      const cutoff = params.minCutoffHz + params.beta * Math.abs(rate);
      // Warm-up: until the filter has seen 1/α samples it is the plain mean of them (equal weights),
      // not the first sample plus a small share of the rest; so a stand that has just stopped (the
      // tracker restarts the filter there) is averaged over its first still frames at once.
      const alpha = Math.max(smoothingFactor(cutoff, dtS), 1 / samples);
      const filtered = last.value + alpha * (value - last.value);
      last = { value: filtered, timeMs };
      return filtered;
    },
    reset() {
      last = null;
      rate = 0;
      samples = 0;
    },
    get ratePerS() {
      return rate;
    },
  };
}
