/**
 * Tracking and the detect+track loop:
 * - `tracker.update` + `predictions` with 150 tags jittering on the table (the tracker's own cost per frame);
 * - the synthetic clip (`fixtures/video/stands-moving.mp4`, 960×640, 4 stands) through V1's detector and
 *   the tracker, searching the whole frame every frame vs only around predictions (full scan every 10th
 *   frame, and while a stand is held): what the ROI search saves. Frames are decoded first, so only
 *   detect + track is timed;
 * - the position jitter (std, inches) of the clip's still stands as detected and as tracked.
 * Medians (and p95) in milliseconds, wall-clock.
 */
import { createFrameDetector } from '../../apps/vision/src/detect/frameDetector.ts';
import type { FrameDetection, GrayFrame, MarkerObservation } from '../../apps/vision/src/pipeline/types.ts';
import { createVideoFileSource } from '../../apps/vision/src/sources/ffmpegSource.ts';
import { createTracker } from '../../apps/vision/src/track/tracker.ts';
import { trackFrames } from '../../apps/vision/src/track/trackFrames.ts';
import { loadClipProfile } from '../../fixtures/video/renderStandsClip.ts';
import { median, percentile, round } from './stats.ts';

function trackerOnly(tags: number, frames: number): number[] {
  const tracker = createTracker();
  let seed = 1;
  const noise = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff - 0.5;
  };
  const ms: number[] = [];
  for (let f = 0; f < frames; f++) {
    const markers: MarkerObservation[] = [];
    for (let id = 4; id < 4 + tags; id++) {
      const x = (id % 15) * 4.5 + 2 + 0.02 * noise();
      const y = Math.floor(id / 15) * 4.2 + 2 + 0.02 * noise();
      const c = { uPx: x * 50, vPx: y * 50 };
      markers.push({ id, xIn: x, yIn: y, headingDeg: 90 + noise(), cornersPx: [c, c, c, c] });
    }
    const d: FrameDetection = { seq: f, captureTimeMs: f * 33.3, anchorIds: [0, 1, 2, 3], homography: null, homographyResidualIn: null, markers, duplicateIds: [], warnings: [], processingMs: 0 };
    const t0 = performance.now();
    tracker.update(d);
    tracker.predictions();
    ms.push(performance.now() - t0);
  }
  return ms.slice(10);
}

/** Still stands' position jitter (std of x and y, inches, pooled), as detected and as tracked. */
const jitter = { rawIn: [] as number[], smoothIn: [] as number[] };

function std(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
}

async function clipLoop(frames: GrayFrame[], fullScanEveryFrames: number): Promise<number[]> {
  const detector = await createFrameDetector(loadClipProfile());
  const ms: number[] = [];
  const raw = new Map<number, { x: number[]; y: number[] }>();
  const smooth = new Map<number, { x: number[]; y: number[] }>();
  const add = (m: Map<number, { x: number[]; y: number[] }>, id: number, x: number, y: number): void => {
    const e = m.get(id) ?? { x: [], y: [] };
    e.x.push(x);
    e.y.push(y);
    m.set(id, e);
  };
  async function* replay(): AsyncGenerator<GrayFrame> {
    yield* frames;
  }
  try {
    for await (const t of trackFrames(replay(), detector, createTracker(), { fullScanEveryFrames })) {
      ms.push(t.processingMs);
      // Tag 10 before the hand comes (frames < 40) and tag 13 before it is lifted (< 18) stand still.
      for (const m of t.detection.markers) if ((m.id === 10 && t.frame.seq < 40) || (m.id === 13 && t.frame.seq < 18)) add(raw, m.id, m.xIn, m.yIn);
      for (const k of t.snapshot.tracks) if (!k.stale && ((k.markerId === 10 && t.frame.seq < 40) || (k.markerId === 13 && t.frame.seq < 18))) add(smooth, k.markerId, k.pose.xIn, k.pose.yIn);
    }
  } finally {
    detector.dispose();
  }
  if (fullScanEveryFrames === 1) {
    for (const e of raw.values()) jitter.rawIn.push(std(e.x), std(e.y));
    for (const e of smooth.values()) jitter.smoothIn.push(std(e.x), std(e.y));
  }
  return ms.slice(1); // the first frame pays for opencv.js warm-up
}

export async function run(): Promise<Record<string, unknown>> {
  const t150 = trackerOnly(150, 300);
  const frames: GrayFrame[] = [];
  for await (const f of createVideoFileSource(new URL('../../fixtures/video/stands-moving.mp4', import.meta.url).pathname)) frames.push(f);
  const full = await clipLoop(frames, 1);
  const roi = await clipLoop(frames, 10);
  const stat = (ms: number[]) => ({ medianMs: round(median(ms)), p95Ms: round(percentile(ms, 95)) });
  return {
    trackerUpdate150Tags: stat(t150),
    clip960x640: { frames: frames.length, fullFrameEveryFrame: stat(full), roiWithScanEvery10: stat(roi) },
    stillStandJitterStdIn: { detected: round(Math.max(...jitter.rawIn), 5), tracked: round(Math.max(...jitter.smoothIn), 5) },
  };
}
