/** Directions sampled around each stand (11.25° apart, so the 45° oblique limit falls on a direction). */
export const REACH_BINS = 32;
