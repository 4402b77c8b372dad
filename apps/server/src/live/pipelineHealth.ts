/**
 * The `Health` a published state carries: 'starting' before the first frame, 'degraded' when frames
 * stopped (`STALE_AFTER_MS`) or the rules fail, else 'ok'; with frame rate, processing time, counts and
 * the warnings of every stage (at most 20).
 */
import type { Health } from '@muster/protocol';
import type { FrameStats } from './frameStats.ts';

/** No frame for this long: health says 'degraded'. */
export const STALE_AFTER_MS = 3000;

export interface HealthInputs {
  /** Now, ms (the pipeline's clock). */
  readonly t: number;
  readonly startedMs: number;
  readonly frames: FrameStats;
  /** The stages' warnings, in order (a stale-frames warning goes first). */
  readonly warnings: readonly string[];
  /** The rules failed or their worker gave up. */
  readonly rulesDegraded: boolean;
  readonly trackedStands: number;
  readonly unknownTags: number;
  readonly clients: number;
}

export function pipelineHealth(input: HealthInputs): Health {
  const { t, frames } = input;
  const warnings = [...input.warnings];
  const lastFrameAgeMs = frames.count() > 0 ? t - frames.lastMs()! : Infinity;
  if (frames.count() > 0 && lastFrameAgeMs > STALE_AFTER_MS) warnings.unshift(`no frames for ${Math.round(lastFrameAgeMs / 1000)} s`);
  return {
    status: frames.count() === 0 ? 'starting' : lastFrameAgeMs > STALE_AFTER_MS || input.rulesDegraded ? 'degraded' : 'ok',
    frameRateHz: frames.frameRateHz(),
    trackedStands: input.trackedStands,
    unknownTags: input.unknownTags,
    processingMs: frames.processingMs(),
    clients: input.clients,
    uptimeS: Math.round((t - input.startedMs) / 1000),
    warnings: warnings.slice(0, 20),
  };
}
