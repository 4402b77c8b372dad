/**
 * The live pipeline's watchdog: health must change when nothing else publishes. Twice a second it works out
 * the health a state would carry now and republishes when that differs from the published one (the
 * uptime aside): frames stopped ("no frames for N s", counting on; the frame rate falling to 0), the
 * camera's status changed (connecting → reconnecting with the last error, ended), a session warning came
 * or went. Without this, a camera that never answers would leave health at 'starting' for ever, and a
 * source that ended would freeze at its last frame rate.
 */
import type { Health } from '@muster/protocol';

export interface WatchdogOptions {
  /** The health a state computed now would carry. */
  health(): Health;
  /** The health of the published state. */
  published(): Health;
  republish(): void;
  /** Check period, ms. Default 500. */
  readonly everyMs?: number;
}

/**
 * Health compared without the uptime (it changes every second and alone is no news) and without the
 * warnings' order (a rules worker's result puts its failure first).
 */
export function sameHealth(a: Health, b: Health): boolean {
  const key = (h: Health): string => JSON.stringify({ ...h, uptimeS: 0, warnings: [...h.warnings].sort() });
  return key(a) === key(b);
}

/** Checks every `everyMs` (without keeping the process alive); returns the stop. */
export function startWatchdog(options: WatchdogOptions): () => void {
  const watchdog = setInterval(() => {
    if (!sameHealth(options.health(), options.published())) options.republish();
  }, options.everyMs ?? 500);
  watchdog.unref();
  return () => clearInterval(watchdog);
}
