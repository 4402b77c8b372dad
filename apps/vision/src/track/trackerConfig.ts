import type { OneEuroParams } from './oneEuroFilter.ts';

/**
 * Tracker parameters, each with its unit and default. Validated once at start-up by `resolveTrackerConfig`;
 * a bad value is a clear error naming the field, not a silent NaN later.
 */
export interface TrackerConfig {
  /** Smoothing of x and y (inches). Default { minCutoffHz: 0.5, beta: 1.0 per in/s, dCutoffHz: 1 }. */
  readonly position: OneEuroParams;
  /** Smoothing of heading (degrees). Default { minCutoffHz: 0.5, beta: 0.05 per deg/s, dCutoffHz: 1 }. */
  readonly heading: OneEuroParams;
  /**
   * How long a track that is no longer seen (a hand over it, a stand lifted) keeps its last pose, marked
   * stale, before it ends; ms. A tag that reappears within this time, wherever it is, continues the same
   * track: lifting a stand and putting it down elsewhere is one move. Default 5000.
   */
  readonly holdMs: number;
  /**
   * A new observation further than this from the filtered pose (inches) restarts the filter at the new
   * pose instead of gliding there (a stand lifted and put down elsewhere). Default 1.5.
   */
  readonly jumpResetIn: number;
  /**
   * Ids in the roster. Ids outside it are reported and only become tracks after being seen in
   * `unknownConfirmFrames` frames spanning at least `unknownConfirmMs`. Undefined: every id is known.
   */
  readonly knownIds?: readonly number[];
  /** Frames an id not in the roster must be seen in before it counts. Default 10. */
  readonly unknownConfirmFrames: number;
  /** Time an id not in the roster must persist (first to latest sighting) before it counts, ms. Default 500. */
  readonly unknownConfirmMs: number;
  /** A pending unknown id not seen for this long is forgotten, ms. Default 1000. */
  readonly unknownForgetMs: number;
  /** Predicted corners are extrapolated by at most this far ahead of the last sighting, ms. Default 500. */
  readonly maxPredictAheadMs: number;
  /**
   * Smallest step (inches) that counts as motion: a measurement further than the track's own noise
   * (3σ, at least this) from the last one, or one that follows the track's velocity, is reported as
   * measured (no smoothing lag); below it the One-Euro filter removes a still stand's jitter. Default
   * 0.01 (1080p with 1 in tags: 0.0034 in RMS detection noise).
   */
  readonly minMotionIn: number;
  /** The same for the heading, degrees; default 1 (heading noise ~0.35° RMS). */
  readonly minMotionDeg: number;
  /**
   * A still stand's reported pose changes only once its smoothed pose is this far (inches) from the pose
   * last reported: the smoothing's leftover jitter (about 0.001 in at the default noise) no longer makes
   * every stand on the table change every frame, so the rules recompute only what moved. A moving stand is
   * reported every frame. Default 0.01.
   */
  readonly reportStepIn: number;
  /** The same for the heading, degrees; default 0.25 (the smoothed heading's jitter is ~0.08°). */
  readonly reportStepDeg: number;
}

export type TrackerConfigInput = {
  readonly [K in keyof TrackerConfig]?: TrackerConfig[K] extends OneEuroParams ? Partial<OneEuroParams> : TrackerConfig[K];
};

export const DEFAULT_TRACKER_CONFIG: TrackerConfig = {
  position: { minCutoffHz: 0.5, beta: 1.0, dCutoffHz: 1 },
  heading: { minCutoffHz: 0.5, beta: 0.05, dCutoffHz: 1 },
  holdMs: 5000,
  jumpResetIn: 1.5,
  unknownConfirmFrames: 10,
  unknownConfirmMs: 500,
  unknownForgetMs: 1000,
  maxPredictAheadMs: 500,
  minMotionIn: 0.01,
  minMotionDeg: 1,
  reportStepIn: 0.01,
  reportStepDeg: 0.25,
};

const KNOWN_KEYS = new Set<string>([...Object.keys(DEFAULT_TRACKER_CONFIG), 'knownIds']);

function check(cond: boolean, field: string, want: string, got: unknown): void {
  if (!cond) throw new Error(`tracker config: ${field} must be ${want} (got ${JSON.stringify(got)})`);
}

function resolveFilter(name: string, given: Partial<OneEuroParams> | undefined, dflt: OneEuroParams): OneEuroParams {
  if (given !== undefined && (typeof given !== 'object' || given === null)) {
    throw new Error(`tracker config: ${name} must be an object { minCutoffHz, beta, dCutoffHz }`);
  }
  const p = { ...dflt, ...(given ?? {}) };
  for (const key of Object.keys(given ?? {})) {
    check(key in dflt, `${name}.${key}`, 'one of minCutoffHz, beta, dCutoffHz', key);
  }
  check(Number.isFinite(p.minCutoffHz) && p.minCutoffHz > 0, `${name}.minCutoffHz`, 'a number > 0', p.minCutoffHz);
  check(Number.isFinite(p.beta) && p.beta >= 0, `${name}.beta`, 'a number ≥ 0', p.beta);
  check(Number.isFinite(p.dCutoffHz) && p.dCutoffHz > 0, `${name}.dCutoffHz`, 'a number > 0', p.dCutoffHz);
  return p;
}

/** Fills defaults and validates; throws an Error naming the bad field. */
export function resolveTrackerConfig(input: TrackerConfigInput = {}): TrackerConfig {
  for (const key of Object.keys(input)) {
    check(KNOWN_KEYS.has(key), key, `a known option (${[...KNOWN_KEYS].join(', ')})`, key);
  }
  const c: TrackerConfig = {
    ...DEFAULT_TRACKER_CONFIG,
    ...input,
    position: resolveFilter('position', input.position, DEFAULT_TRACKER_CONFIG.position),
    heading: resolveFilter('heading', input.heading, DEFAULT_TRACKER_CONFIG.heading),
  } as TrackerConfig;
  check(Number.isFinite(c.holdMs) && c.holdMs >= 0, 'holdMs', 'a number of ms ≥ 0', c.holdMs);
  check(Number.isFinite(c.jumpResetIn) && c.jumpResetIn > 0, 'jumpResetIn', 'a number of inches > 0', c.jumpResetIn);
  check(Number.isInteger(c.unknownConfirmFrames) && c.unknownConfirmFrames >= 1, 'unknownConfirmFrames', 'an integer ≥ 1', c.unknownConfirmFrames);
  check(Number.isFinite(c.unknownConfirmMs) && c.unknownConfirmMs >= 0, 'unknownConfirmMs', 'a number of ms ≥ 0', c.unknownConfirmMs);
  check(Number.isFinite(c.unknownForgetMs) && c.unknownForgetMs > 0, 'unknownForgetMs', 'a number of ms > 0', c.unknownForgetMs);
  check(Number.isFinite(c.maxPredictAheadMs) && c.maxPredictAheadMs >= 0, 'maxPredictAheadMs', 'a number of ms ≥ 0', c.maxPredictAheadMs);
  check(Number.isFinite(c.minMotionIn) && c.minMotionIn > 0, 'minMotionIn', 'a number of inches > 0', c.minMotionIn);
  check(Number.isFinite(c.minMotionDeg) && c.minMotionDeg > 0, 'minMotionDeg', 'a number of degrees > 0', c.minMotionDeg);
  check(Number.isFinite(c.reportStepIn) && c.reportStepIn >= 0, 'reportStepIn', 'a number of inches ≥ 0', c.reportStepIn);
  check(Number.isFinite(c.reportStepDeg) && c.reportStepDeg >= 0, 'reportStepDeg', 'a number of degrees ≥ 0', c.reportStepDeg);
  if (c.knownIds !== undefined) {
    check(Array.isArray(c.knownIds) && c.knownIds.every((id) => Number.isInteger(id) && id >= 0), 'knownIds', 'an array of integer tag ids ≥ 0', c.knownIds);
  }
  return c;
}
