/**
 * The tracking engine on its detection thread (`createThreadedTrackingEngine`, what the service runs):
 * a rendered frame detected there gives the same detection as the engine on the calling thread, the
 * caller keeps its frame, and a frame the engine refuses (a prediction for an id the dictionary does not
 * have) is a rejected promise with the engine's message, after which the thread goes on detecting.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThreadedTrackingEngine, type ThreadedTrackingEngine } from '../../apps/vision/src/pipeline/threadedTrackingEngine.ts';
import { createTrackingEngine } from '../../apps/vision/src/pipeline/trackingEngine.ts';
import type { GrayFrame } from '../../apps/vision/src/pipeline/types.ts';
import { loadTableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { createFastTableRenderer } from '../../fixtures/generator/fastTableRenderer.ts';
import { cameraLookingDown, scatterStands } from '../../fixtures/generator/renderTableFrame.ts';

const profile = loadTableProfile(fileURLToPath(new URL('../../fixtures/demo/demo-table.json', import.meta.url)));
let frame: GrayFrame;
let threaded: ThreadedTrackingEngine;

beforeAll(async () => {
  const renderer = await createFastTableRenderer(profile, cameraLookingDown(profile, 1920, 1080), { seed: 4, blurSigmaPx: 0.6, noiseSigma: 1.5 });
  frame = renderer.render({ tags: scatterStands(profile, 30, 4) }, 1, 1000).frame;
  threaded = await createThreadedTrackingEngine(profile, { fps: 30 });
}, 60_000);
afterAll(async () => {
  await threaded?.dispose();
});

describe('createThreadedTrackingEngine', () => {
  it('detects on its own thread what the engine detects on this one', async () => {
    const before = frame.data.slice(0, 64);
    const there = await threaded.detect(frame, []);
    expect(frame.data.byteLength).toBe(1920 * 1080); // the caller's frame is not taken away
    expect(frame.data.slice(0, 64)).toEqual(before);
    const local = await createTrackingEngine(profile, { scanner: 'none' });
    try {
      const here = local.detect(frame, []);
      expect(there.anchorIds).toEqual([0, 1, 2, 3]);
      expect(there.markers).toHaveLength(30);
      expect(there.markers.map((m) => [m.id, m.xIn.toFixed(4), m.yIn.toFixed(4)])).toEqual(here.markers.map((m) => [m.id, m.xIn.toFixed(4), m.yIn.toFixed(4)]));
    } finally {
      await local.dispose();
    }
  });

  it('rejects a frame the engine refuses with its message, and goes on', async () => {
    const corner = { uPx: 10, vPx: 10 };
    await expect(threaded.detect({ ...frame, seq: 2, captureTimeMs: 1033 }, [{ id: 9999, cornersPx: [corner, corner, corner, corner], stale: false }])).rejects.toThrow(
      /prediction for id 9999: not an id of DICT_4X4_250/,
    );
    const again = await threaded.detect({ ...frame, seq: 3, captureTimeMs: 1066 }, []);
    expect(again.seq).toBe(3);
    expect(again.anchorIds).toEqual([0, 1, 2, 3]);
  });
});
