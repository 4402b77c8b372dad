/**
 * Camera mode's frame pump: every frame the camera gives goes to the server (the newest frame, for
 * `/api/frame.jpg`) and to the detection loop, until the source ends or fails (said on stderr).
 */
import type { FrameSource, LensModel } from '@muster/vision';
import type { FrameDetectionLoop } from './detectFrames.ts';
import type { LiveServer } from './liveServer.ts';
import { log } from '../log/logger.ts';

/** Resolves when the source has ended. */
export async function pumpCameraFrames(spec: string, frames: FrameSource, lens: LensModel | null, live: LiveServer, frameLoop: FrameDetectionLoop): Promise<void> {
  let lensMismatchReported = false;
  try {
    for await (const frame of frames) {
      live.setNewestFrame(frame);
      if (lens && (frame.widthPx !== lens.imageWidthPx || frame.heightPx !== lens.imageHeightPx)) {
        // Every frame would fail the same way: say it once, clearly, and keep serving what we have.
        if (!lensMismatchReported) {
          lensMismatchReported = true;
          log.warn(
            `camera frames are ${frame.widthPx}×${frame.heightPx} but the lens calibration is for ` +
              `${lens.imageWidthPx}×${lens.imageHeightPx}; set the camera to that size or calibrate again at this one`,
          );
        }
        continue;
      }
      // A recording waits for each frame to be published; a live camera's loop returns at once.
      await frameLoop.offer(frame);
    }
  } catch (err) {
    log.warn(`camera ${spec} ended: ${(err as Error).message}`);
  }
}
