/**
 * The demo's live render thread (`framesSource.ts`, live mode): the fast renderer with its static
 * background, rendering the battle at the time each request names and sending the pixels back
 * (transferred). Off the main thread, so the service's main thread only routes frames.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadTableProfile } from '@muster/vision';
import { loadRoster } from '../roster/loadRoster.ts';
import { cameraLookingDown } from '../../../../fixtures/generator/renderTableFrame.ts';
import { createFastTableRenderer } from '../../../../fixtures/generator/fastTableRenderer.ts';
import { loadDemoScript } from './demoScript.ts';
import { DEMO_EFFECTS, demoTags } from './demoFrames.ts';

export interface RenderWorkerData {
  readonly scriptPath: string;
  readonly rosterPath: string;
  readonly tablePath: string;
  readonly widthPx: number;
  readonly heightPx: number;
}
export type ToRenderWorker = { readonly type: 'render'; readonly seq: number; readonly tS: number } | { readonly type: 'close' };
export type FromRenderWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'frame'; readonly seq: number; readonly data: ArrayBuffer; readonly renderMs: number }
  | { readonly type: 'failed'; readonly seq: number; readonly message: string };

const port = parentPort;
if (!port) throw new Error('renderWorkerMain must run in a worker thread');
const data = workerData as RenderWorkerData;
const roster = await loadRoster(data.rosterPath);
const script = loadDemoScript(data.scriptPath, roster);
const profile = loadTableProfile(data.tablePath);
const renderer = await createFastTableRenderer(profile, cameraLookingDown(profile, data.widthPx, data.heightPx), {
  seed: 1000,
  ...DEMO_EFFECTS,
  // A little noise that changes every frame, like a camera's.
  frameNoiseSigma: 1,
});
const post = (m: FromRenderWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
port.on('message', (m: ToRenderWorker) => {
  if (m.type === 'close') {
    port.close();
    return;
  }
  const t0 = performance.now();
  try {
    const { frame } = renderer.render({ tags: demoTags(script, roster, m.tS) }, m.seq);
    const buffer = frame.data.buffer.byteLength === frame.data.byteLength ? frame.data.buffer : frame.data.slice().buffer;
    post({ type: 'frame', seq: m.seq, data: buffer as ArrayBuffer, renderMs: performance.now() - t0 }, [buffer as ArrayBuffer]);
  } catch (err) {
    post({ type: 'failed', seq: m.seq, message: (err as Error).message });
  }
});
post({ type: 'ready' });
