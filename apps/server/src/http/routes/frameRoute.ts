/**
 * GET /frame.jpg: the newest camera frame (or the demo renderer's) as JPEG, never cached; 404 before the
 * first frame or on a service without frames. The frame's seq and capture time are in headers.
 */
import type { Router } from 'express';
import type { GrayFrame } from '@muster/vision';
import { createFrameJpegEncoder } from '../frameJpeg.ts';
import { sendError } from '../sendError.ts';

export function addFrameRoute(api: Router, latestFrame: (() => GrayFrame | null) | undefined): void {
  const frameJpeg = createFrameJpegEncoder(latestFrame ?? (() => null));
  api.get('/frame.jpg', async (_req, res) => {
    const jpeg = await frameJpeg();
    if (!jpeg) {
      sendError(res, 'not-found', latestFrame ? 'no camera frame yet' : 'this service has no camera frames (ground-truth demo)');
      return;
    }
    res
      .status(200)
      .type('image/jpeg')
      // Always the newest frame: never cached by the browser; which frame it is, in headers.
      .set({ 'Cache-Control': 'no-store', 'X-Frame-Seq': String(jpeg.seq), 'X-Capture-Time-Ms': String(jpeg.captureTimeMs) })
      .send(jpeg.body);
  });
}
