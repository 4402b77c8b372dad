/**
 * Decides, measurement by measurement, whether a track's value (position in inches, or heading in
 * degrees) holds still or moves, so the tracker smooths only what is noise and reports motion as
 * measured, without the lag a smoothing filter adds to a moving stand.
 *
 * A step (measurement to measurement) within the gate is *still*: the One-Euro filter smooths it. The
 * gate is 3× the track's own noise, learnt from its still steps (at least `minGate`). A step beyond the
 * gate is *moving*: reported as measured. Noise steps alternate in direction, real motion does not, so a
 * second step beyond the gate in about the same direction as the one before cannot be noise, and only
 * first steps may (slowly) open the gate. After a gap (the tag was hidden) a stand that was moving when
 * last seen is still moving; one that stood still is *unsure*: a reading near its held pose after a hand
 * passed is smoothed back in, not snapped to.
 */
export type MotionKind = 'still' | 'moving' | 'unsure';

export interface MotionGate {
  /**
   * Classify `value` measured at `timeMs`. `afterGap`: the tag was not seen in the previous frame(s),
   * so the velocity is unknown.
   */
  classify(value: readonly number[], timeMs: number, afterGap: boolean): MotionKind;
  /** The current gate: steps up to this are noise. */
  gate(): number;
  /** Forget everything (the stand was put down somewhere else). */
  reset(): void;
}

/** `diff(a, b)`: a − b per component (headings wrap). */
export function createMotionGate(minGate: number, diff: (a: readonly number[], b: readonly number[]) => number[]): MotionGate {
  let last: readonly number[] | null = null;
  let lastMs = 0;
  /** The previous measurement-to-measurement step (null after a gap). */
  let lastStep: number[] | null = null;
  let lastKind: MotionKind = 'still';
  // Noise estimate (mean squared residual), starting at a third of the gate floor.
  let variance = (minGate / 3) ** 2;
  const norm = (v: readonly number[]): number => Math.hypot(...v);
  const cosine = (a: readonly number[], b: readonly number[]): number => a.reduce((sum, x, i) => sum + x * b[i]!, 0) / (norm(a) * norm(b));
  return {
    classify(value, timeMs, afterGap) {
      if (last === null || afterGap) {
        // After a gap: a stand that was moving when last seen is still moving (report it as measured);
        // one that stood still is smoothed back in (a noisy first reading should not jerk it).
        const kind: MotionKind = last === null ? 'still' : lastKind === 'moving' ? 'moving' : 'unsure';
        last = value;
        lastMs = timeMs;
        lastStep = null;
        lastKind = kind;
        return kind;
      }
      const dtMs = timeMs - lastMs;
      if (dtMs <= 0) return 'still';
      const step = diff(value, last);
      const dStill = norm(step);
      const sigma = Math.sqrt(variance);
      const gate = Math.max(minGate, 3 * sigma);
      let kind: MotionKind;
      if (dStill <= gate) {
        kind = 'still';
        // The noise of a still stand: what the gate is made of.
        variance = 0.95 * variance + 0.05 * Math.min(dStill, 3 * sigma) ** 2;
      } else if (lastStep !== null && norm(lastStep) > gate && cosine(step, lastStep) > 0.3) {
        // A second step in about the same direction: real motion (noise steps alternate).
        kind = 'moving';
      } else {
        // A first step beyond the gate: a nudge, the start of a move, or noise larger than thought
        // (the gate opens slowly, so a stand that really moves cannot open it).
        kind = 'moving';
        variance = 0.9 * variance + 0.1 * Math.min(dStill, 2 * sigma) ** 2;
      }
      lastStep = step;
      last = value;
      lastMs = timeMs;
      lastKind = kind;
      return kind;
    },
    gate() {
      return Math.max(minGate, 3 * Math.sqrt(variance));
    },
    reset() {
      last = null;
      lastStep = null;
      lastKind = 'still';
      variance = (minGate / 3) ** 2;
    },
  };
}
