/**
 * The tracking engine (`createTrackingEngine`, behind `muster track`, the camera service and the demo)
 * with the real tracker, real opencv.js and the real background-scan worker, over a rendered game
 * sequence (`fixtures/generator/gameSequence.ts`): 1080p, 1 in tags, 60 stands; ten move (up to 6 in/s,
 * turning) and stop, one is lifted and put down 5 in away, a hand covers several for half a second.
 * Asserts against the truth: the frame loop never searches the whole frame after the first frame, moving
 * stands do not lag, stopped ones settle at once, still ones stay steady, the put-down stand is found where
 * it lands, and the covered stands are held (never moved) and back as soon as the hand leaves.
 */
import { fileURLToPath } from 'node:url';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrackingEngine, type EnginePlan, type TrackingEngine } from '../../apps/vision/src/pipeline/trackingEngine.ts';
import { loadTableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { createTracker, type TrackSnapshot } from '../../apps/vision/src/track/tracker.ts';
import { cameraLookingDown } from '../../fixtures/generator/renderTableFrame.ts';
import { createGameSequence, type GameFrame, type GameSequence } from '../../fixtures/generator/gameSequence.ts';

const profile = loadTableProfile(fileURLToPath(new URL('../../fixtures/demo/demo-table.json', import.meta.url)));
const LIFT: [number, number] = [15, 30];
const HAND: [number, number] = [60, 72];
const MOVE: [number, number] = [5, 45];

interface Step {
  readonly truth: GameFrame;
  readonly snapshot: TrackSnapshot;
  readonly plan: EnginePlan;
}

let engine: TrackingEngine;
let sequence: GameSequence;
const steps: Step[] = [];

beforeAll(async () => {
  sequence = await createGameSequence({
    profile,
    camera: cameraLookingDown(profile, 1920, 1080),
    stands: 60,
    frames: 85,
    moveFrames: MOVE,
    liftFrames: LIFT,
    handFrames: HAND,
    handCovers: 6,
    seed: 3,
  });
  const frames: GameFrame[] = [];
  for (let i = 0; i < sequence.frameCount; i++) frames.push(await sequence.frame(i));
  engine = await createTrackingEngine(profile, { fps: sequence.fps });
  await engine.scanner!.ready;
  const tracker = createTracker();
  for (const g of frames) {
    const detection = engine.detect(g.frame, tracker.predictions(g.frame.captureTimeMs));
    const snapshot = tracker.update(detection);
    engine.frameDone({ latencyMs: detection.processingMs, droppedBefore: 0 });
    steps.push({ truth: g, snapshot, plan: engine.lastPlan! });
    await nextTurn(); // let the scanner's results in, as a real source does between frames
  }
}, 180_000);

afterAll(async () => {
  await engine?.dispose();
});

const truthOf = (s: Step, id: number) => s.truth.truth.tags.find((t) => t.id === id && !t.isAnchor);
const trackOf = (s: Step, id: number) => s.snapshot.tracks.find((k) => k.markerId === id);
const errIn = (s: Step, id: number): number => {
  const t = truthOf(s, id)!;
  const k = trackOf(s, id)!;
  return Math.hypot(k.pose.xIn - t.xIn, k.pose.yIn - t.yIn);
};

describe('createTrackingEngine over a rendered game', () => {
  it('searches the whole frame only for the first frame; hands and lifted stands cost windows', () => {
    expect(steps[0]!.plan.mode).toBe('full');
    expect(steps.slice(1).map((s) => s.plan.mode)).toEqual(steps.slice(1).map(() => 'tracked'));
    // While the hand is there, its stands are searched in windows, well under the whole frame.
    const handSteps = steps.slice(HAND[0] + 1, HAND[1]);
    for (const s of handSteps) expect(s.plan.staleWindows + s.plan.staleRefineOnly).toBeGreaterThanOrEqual(s.truth.hiddenIds.size);
    for (const s of handSteps) expect(s.plan.windowAreaPx).toBeLessThan(0.1 * 1920 * 1080);
  });

  it('finds every visible stand in every frame once it was seen, with no false ids', () => {
    for (const s of steps.slice(1)) {
      // Tags whose quiet zone the hand touches may or may not be found: not counted either way.
      const visible = s.truth.truth.tags.filter((t) => !t.isAnchor && !s.truth.hiddenIds.has(t.id) && !s.truth.partlyCoveredIds.has(t.id));
      const fresh = new Set(s.snapshot.tracks.filter((k) => !k.stale).map((k) => k.markerId));
      const missing = visible.filter((t) => !fresh.has(t.id)).map((t) => t.id);
      expect(missing, `frame ${s.truth.frame.seq}`).toEqual([]);
      const inScene = new Set(s.truth.truth.tags.map((t) => t.id));
      expect(s.snapshot.tracks.filter((k) => !inScene.has(k.markerId) && k.markerId !== sequence.liftedId)).toEqual([]);
    }
  });

  it('reports moving stands where they are (no smoothing lag) and stopped ones settled two frames later', () => {
    let worstMoving = 0;
    let moving = 0;
    for (const s of steps) {
      for (const id of s.truth.movingIds) {
        if (trackOf(s, id)?.stale !== false) continue;
        worstMoving = Math.max(worstMoving, errIn(s, id));
        moving++;
      }
    }
    expect(moving).toBeGreaterThan(300);
    expect(worstMoving).toBeLessThan(0.05);
    // Two frames after the stop the pose is already where it settles (no smoothing tail), and within
    // the detection's own bias at 1080p with 1 in tags (up to 0.013 in for one stand here) of the truth.
    const twoAfter = steps.find((s) => s.truth.framesSinceStop === 2)!;
    const settled = steps.find((s) => s.truth.framesSinceStop === 12)!;
    for (const id of sequence.moverIds) {
      const a = trackOf(twoAfter, id)!.pose;
      const b = trackOf(settled, id)!.pose;
      expect(Math.hypot(a.xIn - b.xIn, a.yIn - b.yIn), `mover ${id}`).toBeLessThan(0.004);
      expect(errIn(twoAfter, id), `mover ${id}`).toBeLessThan(0.015);
    }
  });

  it('keeps still stands steady', () => {
    let sq = 0;
    let n = 0;
    for (const s of steps.slice(5)) {
      for (const k of s.snapshot.tracks) {
        if (k.stale || s.truth.movingIds.has(k.markerId) || sequence.moverIds.includes(k.markerId) || k.markerId === sequence.liftedId) continue;
        sq += errIn(s, k.markerId) ** 2;
        n++;
      }
    }
    expect(Math.sqrt(sq / n)).toBeLessThan(0.006);
  });

  it('holds a lifted stand, then finds it where it is put down, in the first frame there', () => {
    const id = sequence.liftedId;
    const before = trackOf(steps[LIFT[0] - 1]!, id)!;
    for (const s of steps.slice(LIFT[0], LIFT[1])) {
      const k = trackOf(s, id)!;
      expect(k.stale).toBe(true);
      expect(k.pose).toEqual(before.pose); // held, never jumped
      expect(k.trackId).toBe(before.trackId);
    }
    const down = steps[LIFT[1]]!;
    expect(trackOf(down, id)!.stale).toBe(false);
    expect(trackOf(down, id)!.trackId).toBe(before.trackId);
    expect(down.snapshot.relocatedTrackIds).toContain(before.trackId);
    expect(errIn(down, id)).toBeLessThan(0.02);
  });

  it('holds the stands under the hand and has them back when it leaves', () => {
    expect(sequence.handCoveredIds.length).toBeGreaterThanOrEqual(4);
    const held = new Map(sequence.handCoveredIds.map((id) => [id, trackOf(steps[HAND[0] - 1]!, id)!.pose]));
    for (const s of steps.slice(HAND[0], HAND[1])) {
      for (const [id, pose] of held) {
        const k = trackOf(s, id)!;
        if (!s.truth.hiddenIds.has(id)) continue;
        expect(k.stale).toBe(true);
        expect(k.pose).toEqual(pose);
      }
    }
    const after = steps[HAND[1]]!;
    for (const id of held.keys()) {
      expect(trackOf(after, id)!.stale, `tag ${id}`).toBe(false);
      expect(errIn(after, id)).toBeLessThan(0.02);
    }
  });
});
