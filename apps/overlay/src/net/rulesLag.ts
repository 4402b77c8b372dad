/**
 * How far the rules overlay lags the poses, from what the service says on the wire (protocol 2:
 * `evaluatedState`). The rules run beside the frame loop, so one frame of lag is normal; more means
 * the evaluation is falling behind (a slow rule set, a loaded machine) and the arcs and reach drawn may
 * be of where the stands were a moment ago.
 */
import type { LiveState } from '@muster/protocol';

/** Show a lag above this many frames. Default for `rulesLagText`. */
export const RULES_LAG_SHOWN_ABOVE_FRAMES = 2;

/** Frames between the poses and the state the evaluation came from; null when nothing was evaluated. */
export function rulesLagFrames(state: Pick<LiveState, 'frameSeq' | 'evaluatedState'>): number | null {
  const ev = state.evaluatedState;
  if (!ev || ev.frameSeq < 0 || state.frameSeq < 0) return null;
  return Math.max(0, state.frameSeq - ev.frameSeq);
}

/** "rules lag 4 frames (0.8 s)" when the lag is above `aboveFrames`, else null. */
export function rulesLagText(state: Pick<LiveState, 'frameSeq' | 'captureTimeMs' | 'evaluatedState'>, aboveFrames = RULES_LAG_SHOWN_ABOVE_FRAMES): string | null {
  const frames = rulesLagFrames(state);
  if (frames === null || frames <= aboveFrames) return null;
  const seconds = (state.captureTimeMs - state.evaluatedState!.captureTimeMs) / 1000;
  return `rules lag ${frames} frame${frames === 1 ? '' : 's'}${seconds > 0 ? ` (${seconds.toFixed(1)} s)` : ''}`;
}
