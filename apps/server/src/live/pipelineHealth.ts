/**
 * The `Health` a published state carries: 'starting' before the first frame, 'degraded' when frames
 * stopped (`STALE_AFTER_MS`), the camera is not streaming (connecting for longer than
 * `CAMERA_CONNECTING_DEGRADED_MS`, reconnecting, ended), the rules fail, or the game session has warnings (a save that failed); else
 * 'ok'. With frame rate (falling to 0 when frames stop), processing time, counts, the camera's status
 * and the warnings of every stage (at most 20).
 */
import type { CameraHealth, Health } from '@muster/protocol';
import type { FrameStats } from './frameStats.ts';

/** No frame for this long: health says 'degraded'. */
export const STALE_AFTER_MS = 3000;

/**
 * A camera still connecting (no first frame) this long after it was opened: health says 'degraded'
 * (with the watchdog's 0.5 s tick, within 3 s of the start for a camera that never answers).
 */
export const CAMERA_CONNECTING_DEGRADED_MS = 2000;

export interface HealthInputs {
  /** Now, ms (the pipeline's clock). */
  readonly t: number;
  readonly startedMs: number;
  readonly frames: FrameStats;
  /** The stages' warnings, in order (the stale-frames, camera and session warnings go first). */
  readonly warnings: readonly string[];
  /** The game session's warnings (e.g. a save that failed): health is 'degraded' while there are any. */
  readonly sessionWarnings?: readonly string[];
  /** The rules failed or their worker gave up. */
  readonly rulesDegraded: boolean;
  readonly trackedStands: number;
  readonly unknownTags: number;
  readonly clients: number;
  /** Camera mode: what the camera is doing (`since` on the wall clock). */
  readonly camera?: CameraHealth | null;
  /** Wall clock now, for the camera's age. Default `Date.now()`. */
  readonly wallMs?: number;
}

/** "camera rtsp://…: reconnecting for 4 s (attempt 2 …)"; null while it streams. */
export function cameraWarning(camera: CameraHealth, wallMs: number): string | null {
  const s = Math.max(0, Math.round((wallMs - camera.since) / 1000));
  switch (camera.state) {
    case 'streaming':
      return null;
    case 'ended':
      return `camera ${camera.source}: ended ${s} s ago (${camera.detail})`;
    default:
      return `camera ${camera.source}: ${camera.state} for ${s} s (${camera.detail})`;
  }
}

/** The camera keeps the service from working: reconnecting, ended, or connecting for longer than `CAMERA_CONNECTING_DEGRADED_MS`. */
function cameraDown(camera: CameraHealth | null | undefined, wallMs: number): boolean {
  if (!camera) return false;
  if (camera.state === 'reconnecting' || camera.state === 'ended') return true;
  return camera.state === 'connecting' && wallMs - camera.since >= CAMERA_CONNECTING_DEGRADED_MS;
}

export function pipelineHealth(input: HealthInputs): Health {
  const { t, frames, camera } = input;
  const rulesMs = frames.rulesMs();
  const wallMs = input.wallMs ?? Date.now();
  const sessionWarnings = input.sessionWarnings ?? [];
  const lastFrameAgeMs = frames.count() > 0 ? t - frames.lastMs()! : Infinity;
  const stale = frames.count() > 0 && lastFrameAgeMs > STALE_AFTER_MS;
  const cameraLine = camera ? cameraWarning(camera, wallMs) : null;
  const warnings = [
    ...(stale ? [`no frames for ${Math.round(lastFrameAgeMs / 1000)} s`] : []),
    ...(cameraLine ? [cameraLine] : []),
    ...sessionWarnings,
    ...input.warnings,
  ];
  const troubled = cameraDown(camera, wallMs) || sessionWarnings.length > 0;
  return {
    status: frames.count() === 0 ? (troubled ? 'degraded' : 'starting') : stale || troubled || input.rulesDegraded ? 'degraded' : 'ok',
    frameRateHz: frames.frameRateHz(t),
    trackedStands: input.trackedStands,
    unknownTags: input.unknownTags,
    processingMs: frames.processingMs(),
    ...(rulesMs !== undefined ? { rulesMs } : {}),
    clients: input.clients,
    uptimeS: Math.round((t - input.startedMs) / 1000),
    warnings: warnings.slice(0, 20),
    ...(camera ? { camera } : {}),
  };
}
