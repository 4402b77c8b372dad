/**
 * Body of the detection thread (`threadedTrackingEngine.ts`): its own opencv.js and tracking engine
 * (which starts its own background-scan thread), detecting each frame it is sent around the predictions
 * that come with it, and posting back the `FrameDetection`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createBackgroundScanner } from '../detect/backgroundScanner.ts';
import { parseTableProfile } from '../profile/tableProfile.ts';
import type { DetectionWorkerData, FromDetectionWorker, ToDetectionWorker } from './detectionProtocol.ts';
import { createTrackingEngine } from './trackingEngine.ts';

const port = parentPort;
if (!port) throw new Error('detectionWorkerMain must run in a worker thread');
const data = workerData as DetectionWorkerData;
const profile = parseTableProfile(data.profileJson, 'detection thread');
const post = (m: FromDetectionWorker): void => port.postMessage(m);
const engine = await createTrackingEngine(profile, {
  ...(data.lens ? { lens: data.lens } : {}),
  ...(data.fps !== null ? { fps: data.fps } : {}),
  ...(data.scanEveryMs !== null ? { scanEveryMs: data.scanEveryMs } : {}),
  ...(data.staleSearch ? { staleSearch: data.staleSearch } : {}),
  fullFirst: data.fullFirst,
  createScanner: (p) => createBackgroundScanner(p, { allThresholds: data.allThresholds }),
  onWarning: (message) => post({ type: 'warning', message }),
});
port.on('message', (msg: ToDetectionWorker) => {
  if (msg.type === 'close') {
    void engine.dispose().finally(() => port.close());
    return;
  }
  if (msg.type === 'frameDone') {
    engine.frameDone(msg);
    return;
  }
  try {
    const frame = { widthPx: msg.widthPx, heightPx: msg.heightPx, seq: msg.seq, captureTimeMs: msg.captureTimeMs, data: new Uint8Array(msg.data) };
    post({ type: 'detection', id: msg.id, detection: engine.detect(frame, msg.predictions) });
  } catch (err) {
    post({ type: 'failed', id: msg.id, message: (err as Error).message });
  }
});
post({ type: 'ready' });
