/**
 * The vision bench's game sequences (`npm run bench -- vision`, part `sequences`): a rendered game
 * (`fixtures/generator/gameSequence.ts`: 150 stands, ten moving up to 6 in/s and stopping, one lifted for
 * 20 frames and put down 5 in away, a hand over about ten stands for 15 frames, blur, noise, JPEG q90) run
 * through the tracking engine and the tracker exactly as `muster track` runs it, and through the
 * project's own full-frame detection on the same frames in the same run, for the ratio.
 *
 * Frames are rendered first (rendering is not timed, and does not compete with the scan worker).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createFrameDetector } from '../../apps/vision/src/detect/frameDetector.ts';
import { createTrackingEngine } from '../../apps/vision/src/pipeline/trackingEngine.ts';
import type { TableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { createTracker } from '../../apps/vision/src/track/tracker.ts';
import { trackFrames } from '../../apps/vision/src/track/trackFrames.ts';
import { createGameSequence, type GameFrame } from '../../fixtures/generator/gameSequence.ts';
import type { CameraSpec } from '../../fixtures/generator/renderTableFrame.ts';
import { scoreDetection } from '../../fixtures/generator/scoreDetection.ts';
import { median, percentile, round } from './stats.ts';

const log = (msg: string): void => void process.stderr.write(`  vision: ${msg}\n`);

export async function runGameSequence(label: string, profile: TableProfile, camera: CameraSpec, frames = 120): Promise<Record<string, unknown>> {
  log(`${label}: rendering ${frames} frames`);
  const seq = await createGameSequence({ profile, camera, frames });
  const game: GameFrame[] = [];
  for (let i = 0; i < seq.frameCount; i++) game.push(await seq.frame(i));

  // --- Engine + tracker (the `muster track` loop).
  const engine = await createTrackingEngine(profile, { fps: seq.fps });
  await engine.scanner!.ready;
  const tracker = createTracker();
  async function* replay(): AsyncGenerator<GameFrame['frame']> {
    for (const g of game) yield g.frame;
  }
  const frameMs: number[] = [];
  const foundFraction: number[] = [];
  const falseIds = new Set<number>();
  const still: number[] = [];
  const moving: number[] = [];
  const stoppedTwoFramesLater: number[] = [];
  let heldMoved = 0;
  let liftedFoundAfterFrames: number | null = null;
  let handBackAfterFrames: number | null = null;
  const lastFresh = new Map<number, { xIn: number; yIn: number }>();
  const liftTo = game.findIndex((g, i) => i > 0 && g.hiddenIds.has(seq.liftedId) === false && game[i - 1]!.hiddenIds.has(seq.liftedId));
  const handTo = game.findIndex((g, i) => i > 0 && seq.handCoveredIds.every((id) => !g.hiddenIds.has(id)) && seq.handCoveredIds.some((id) => game[i - 1]!.hiddenIds.has(id)));
  let windowsArea = 0;
  for await (const t of trackFrames(replay(), engine, tracker)) {
    const g = game[t.frame.seq]!;
    if (t.frame.seq > 0) frameMs.push(t.processingMs);
    windowsArea = Math.max(windowsArea, engine.lastPlan?.windowAreaPx ?? 0);
    const inScene = new Map(g.truth.tags.filter((x) => !x.isAnchor).map((x) => [x.id, x]));
    // A tag whose quiet zone the hand touches may or may not be found: counted neither way.
    const visible = [...inScene.values()].filter((x) => !g.hiddenIds.has(x.id) && !g.partlyCoveredIds.has(x.id));
    let found = 0;
    for (const k of t.snapshot.tracks) {
      const truth = inScene.get(k.markerId);
      if (!truth && k.markerId !== seq.liftedId) falseIds.add(k.markerId);
      if (k.stale) {
        const was = lastFresh.get(k.markerId);
        if (was && (was.xIn !== k.pose.xIn || was.yIn !== k.pose.yIn)) heldMoved++;
        continue;
      }
      lastFresh.set(k.markerId, { xIn: k.pose.xIn, yIn: k.pose.yIn });
      if (!truth || g.hiddenIds.has(k.markerId) || g.partlyCoveredIds.has(k.markerId)) continue;
      found++;
      const e = Math.hypot(k.pose.xIn - truth.xIn, k.pose.yIn - truth.yIn);
      if (g.movingIds.has(k.markerId)) moving.push(e);
      else if (seq.moverIds.includes(k.markerId) && g.framesSinceStop === 2) stoppedTwoFramesLater.push(e);
      else if (!seq.moverIds.includes(k.markerId) && k.markerId !== seq.liftedId) still.push(e);
    }
    if (t.frame.seq > 0) foundFraction.push(found / visible.length);
    const fresh = (id: number): boolean => t.snapshot.tracks.some((k) => k.markerId === id && !k.stale);
    if (liftedFoundAfterFrames === null && t.frame.seq >= liftTo && fresh(seq.liftedId)) liftedFoundAfterFrames = t.frame.seq - liftTo;
    if (handBackAfterFrames === null && t.frame.seq >= handTo && seq.handCoveredIds.every(fresh)) handBackAfterFrames = t.frame.seq - handTo;
  }
  await engine.dispose();

  // --- The project's own full-frame detection on the same frames (every 4th), same run.
  log(`${label}: full-frame detection on the same frames`);
  const full = await createFrameDetector(profile);
  const fullMs: number[] = [];
  const fullFound: number[] = [];
  const fullFalse = new Set<number>();
  for (let i = 0; i < game.length; i += 4) {
    const g = game[i]!;
    const t0 = performance.now();
    const d = full.detect(g.frame);
    fullMs.push(performance.now() - t0);
    const s = scoreDetection(d, g.truth);
    // Hidden stands are in the truth but not in the picture: count only the visible ones.
    const counted = (id: number): boolean => !g.hiddenIds.has(id) && !g.partlyCoveredIds.has(id);
    const visible = g.truth.tags.filter((x) => !x.isAnchor && x.inFrame && counted(x.id)).length;
    fullFound.push(d.markers.filter((m) => counted(m.id) && g.truth.tags.some((x) => x.id === m.id)).length / visible);
    for (const id of s.falseIds) fullFalse.add(id);
  }
  full.dispose();

  const rms = (xs: number[]): number => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / Math.max(1, xs.length));
  const p50 = median(frameMs);
  const fullP50 = median(fullMs);
  const result = {
    frame: `${camera.widthPx}x${camera.heightPx}`,
    tagSizeIn: profile.markerSizeIn,
    frames: game.length,
    movers: seq.moverIds.length,
    handCovers: seq.handCoveredIds.length,
    engine: {
      p50Ms: round(p50, 2),
      p95Ms: round(percentile(frameMs, 95), 2),
      foundPctMedian: round(100 * median(foundFraction), 2),
      foundPctMin: round(100 * Math.min(...foundFraction), 2),
      falseIds: [...falseIds],
      stillRmsIn: round(rms(still), 4),
      stillMaxIn: round(Math.max(...still), 4),
      movingRmsIn: round(rms(moving), 4),
      movingMaxIn: round(Math.max(...moving), 4),
      stoppedTwoFramesLaterMaxIn: stoppedTwoFramesLater.length ? round(Math.max(...stoppedTwoFramesLater), 4) : null,
      heldPosesThatMoved: heldMoved,
      liftedFoundAfterFrames,
      handStandsBackAfterFrames: handBackAfterFrames,
      largestWindowAreaPctOfFrame: round((100 * windowsArea) / (camera.widthPx * camera.heightPx), 2),
    },
    fullFrame: {
      p50Ms: round(fullP50, 1),
      frames: fullMs.length,
      foundPctMedian: round(100 * median(fullFound), 2),
      foundPctMin: round(100 * Math.min(...fullFound), 2),
      falseIds: [...fullFalse],
    },
    engineP50OverFullFrameP50: round(p50 / fullP50, 3),
  };
  log(`${label}: engine p50 ${result.engine.p50Ms} ms, full frame p50 ${result.fullFrame.p50Ms} ms, ratio ${result.engineP50OverFullFrameP50}`);
  return result;
}
