/**
 * The live pipeline's watchdog: when frames stop (camera unplugged, source ended) the state is
 * republished so health says so, instead of looking healthy forever.
 */
import { STALE_AFTER_MS } from './pipelineHealth.ts';

export interface WatchdogOptions {
  readonly now: () => number;
  /** When the newest frame was published (undefined before the first). */
  lastFrameMs(): number | undefined;
  /** Whether the published health already says 'degraded'. */
  degraded(): boolean;
  republish(): void;
}

/** Checks every second (without keeping the process alive); returns the stop. */
export function startWatchdog(options: WatchdogOptions): () => void {
  const { now } = options;
  const watchdog = setInterval(() => {
    const last = options.lastFrameMs();
    if (last === undefined || now() - last <= STALE_AFTER_MS) return;
    if (!options.degraded() || now() - last < STALE_AFTER_MS + 1500) options.republish();
  }, 1000);
  watchdog.unref();
  return () => clearInterval(watchdog);
}
