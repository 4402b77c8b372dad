/**
 * Worker thread body of `backgroundScanner.ts`: its own opencv.js instance and ArUco detector, scanning
 * whole frames it is sent and posting back the raw detections (image pixels).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseTableProfile } from '../profile/tableProfile.ts';
import { createFrameDetector } from './frameDetector.ts';
import type { ScanRequest, ScanResult } from './scanProtocol.ts';

const port = parentPort;
if (!port) throw new Error('scanWorkerMain must run in a worker thread');
const profile = parseTableProfile((workerData as { profileJson: unknown }).profileJson, 'background scanner');
// Only ids and rough corners are needed here: the tracked detector re-measures every tag it takes from
// a scan from its edges on the current frame, so ArUco's own corner refinement is skipped, and one
// threshold pass is enough (a tag missed by one scan is caught by the next): ~95 instead of ~160 ms
// CPU per 4K frame.
const allThresholds = (workerData as { allThresholds?: boolean }).allThresholds === true;
const detector = await createFrameDetector(profile, { params: { cornerRefinementMethod: 0 }, edgeRefine: false, singleThresholdWindow: !allThresholds });
port.on('message', (req: ScanRequest | 'close') => {
  if (req === 'close') {
    detector.dispose();
    port.close();
    return;
  }
  const t0 = performance.now();
  const frame = { widthPx: req.widthPx, heightPx: req.heightPx, data: new Uint8Array(req.data), seq: req.seq, captureTimeMs: 0 };
  const markers = detector.detectRaw(frame);
  const corners = new Float64Array(markers.length * 8);
  markers.forEach((m, i) => corners.set(m.corners, i * 8));
  const result: ScanResult = { seq: req.seq, ids: markers.map((m) => m.id), corners: corners.buffer, scanMs: performance.now() - t0 };
  port.postMessage(result, [corners.buffer]);
});
port.postMessage('ready');
