/**
 * Tag tracking, TUIO-style: one track per tag id, with a track id of its own (a tag that is gone longer
 * than the hold time and comes back gets a new track id). Pure data in, data out: feed it each
 * `FrameDetection`, read back a `TrackSnapshot` and `predictions()` for the detector's ROI search.
 */
import type { PoseIn } from '@muster/rules';
import type { FrameDetection, MarkerObservation, PointPx } from '../pipeline/types.ts';
import { createAngleOneEuroFilter } from './angleOneEuroFilter.ts';
import { createOneEuroFilter, type OneEuroFilter } from './oneEuroFilter.ts';
import { createMotionGate, type MotionGate } from './motionGate.ts';
import { resolveTrackerConfig, type TrackerConfig, type TrackerConfigInput } from './trackerConfig.ts';

export type CornersPx = readonly [PointPx, PointPx, PointPx, PointPx];

/** A live track: one tag on the table. */
export interface TagTrack {
  /** Session-unique id of this track, from 1; separate from the tag id. */
  readonly trackId: number;
  /** The ArUco tag id. */
  readonly markerId: number;
  /** Smoothed pose, table inches. */
  readonly pose: PoseIn;
  /** Pose as last observed, unsmoothed. */
  readonly rawPose: PoseIn;
  /** True when the tag was not seen in the latest frame: `pose` is held from the last sighting. */
  readonly stale: boolean;
  /** False for an id outside the roster that passed the persistence check. */
  readonly known: boolean;
  readonly firstSeenMs: number;
  readonly lastSeenMs: number;
  /** Image corners of the last sighting. */
  readonly cornersPx: CornersPx;
}

/** An id outside the roster, seen recently. */
export interface UnknownIdReport {
  readonly id: number;
  /** Frames it was seen in so far. */
  readonly frames: number;
  readonly firstSeenMs: number;
  /** True once it persisted long enough to become a track. */
  readonly confirmed: boolean;
}

export interface TrackSnapshot {
  readonly seq: number;
  readonly captureTimeMs: number;
  /** Live tracks (fresh and stale), by tag id. */
  readonly tracks: readonly TagTrack[];
  /** Track ids that started this frame. */
  readonly startedTrackIds: readonly number[];
  /** Track ids that ended this frame (hold time ran out). */
  readonly endedTrackIds: readonly number[];
  /** Track ids whose tag reappeared away from its held pose (a stand lifted and put down elsewhere). */
  readonly relocatedTrackIds: readonly number[];
  /** Tag ids seen more than once in this frame. */
  readonly duplicateIds: readonly number[];
  /** Ids outside the roster seen recently, pending or confirmed. */
  readonly unknownIds: readonly UnknownIdReport[];
  readonly warnings: readonly string[];
}

/** Where the detector should look for a tag in the next frame. */
export interface TagPrediction {
  readonly id: number;
  /** Expected image corners, OpenCV order. */
  readonly cornersPx: CornersPx;
  /** The tag was not seen in the latest frame; the corners are its last sighting. */
  readonly stale: boolean;
  /** When the tag was last seen (capture time, ms): how far a stale one may have gone since. */
  readonly lastSeenMs?: number;
}

export interface Tracker {
  readonly config: TrackerConfig;
  update(detection: FrameDetection): TrackSnapshot;
  /**
   * Expected corners of every live track at `atMs` (default: one frame interval after the latest frame),
   * from the last sighting's corners plus the image velocity, extrapolated at most `maxPredictAheadMs`;
   * plus the last corners of ids outside the roster that are still proving themselves. By tag id.
   */
  predictions(atMs?: number): TagPrediction[];
  /** The latest snapshot (an empty one before the first update). */
  snapshot(): TrackSnapshot;
}

interface TrackState {
  trackId: number;
  markerId: number;
  known: boolean;
  fx: OneEuroFilter;
  fy: OneEuroFilter;
  fh: OneEuroFilter;
  /** The smoothed pose. */
  pose: PoseIn;
  /** The pose reported: the smoothed one, held while the stand is still and within the report step. */
  reported: PoseIn;
  rawPose: PoseIn;
  stale: boolean;
  firstSeenMs: number;
  lastSeenMs: number;
  /** Update number of the last sighting (timestamps can repeat; update numbers cannot). */
  seenInUpdate: number;
  cornersPx: CornersPx;
  velocityPxPerMs: PointPx;
  /** Still or moving, per measurement (see motionGate.ts). */
  positionGate: MotionGate;
  headingGate: MotionGate;
}

interface PendingUnknown {
  frames: number;
  firstSeenMs: number;
  lastSeenMs: number;
  seenInUpdate: number;
  /** Last sighting, so the detector keeps looking there while the id proves itself. */
  cornersPx: CornersPx;
}

function centre(c: CornersPx): PointPx {
  return {
    uPx: (c[0].uPx + c[1].uPx + c[2].uPx + c[3].uPx) / 4,
    vPx: (c[0].vPx + c[1].vPx + c[2].vPx + c[3].vPx) / 4,
  };
}

function shift(c: CornersPx, du: number, dv: number): CornersPx {
  const s = (p: PointPx): PointPx => ({ uPx: p.uPx + du, vPx: p.vPx + dv });
  return [s(c[0]), s(c[1]), s(c[2]), s(c[3])];
}

const positionDiff = (a: readonly number[], b: readonly number[]): number[] => [a[0]! - b[0]!, a[1]! - b[1]!];
/** Heading difference wrapped into (−180, 180]. */
const headingDiff = (a: readonly number[], b: readonly number[]): number[] => {
  const d = (((a[0]! - b[0]!) % 360) + 360) % 360;
  return [d > 180 ? d - 360 : d];
};

function poseOf(m: MarkerObservation): PoseIn {
  return { xIn: m.xIn, yIn: m.yIn, headingDeg: m.headingDeg };
}

/**
 * @example
 * const tracker = createTracker({ knownIds: roster.tagIds, holdMs: 3000 });
 * for await (const frame of source) {
 *   const detection = detector.detect(frame, tracker.predictions(frame.captureTimeMs));
 *   const snap = tracker.update(detection);
 * }
 */
export function createTracker(input: TrackerConfigInput = {}): Tracker {
  const config = resolveTrackerConfig(input);
  const known = config.knownIds === undefined ? null : new Set(config.knownIds);
  const tracks = new Map<number, TrackState>();
  const pending = new Map<number, PendingUnknown>();
  const confirmedUnknown = new Map<number, PendingUnknown>();
  let nextTrackId = 1;
  /** Counts accepted updates. */
  let updateNo = 0;
  let lastFrameMs: number | null = null;
  let frameIntervalMs = 1000 / 30;
  let last: TrackSnapshot = {
    seq: -1,
    captureTimeMs: 0,
    tracks: [],
    startedTrackIds: [],
    endedTrackIds: [],
    relocatedTrackIds: [],
    duplicateIds: [],
    unknownIds: [],
    warnings: [],
  };

  function startTrack(m: MarkerObservation, t: number, isKnown: boolean): TrackState {
    const s: TrackState = {
      trackId: nextTrackId++,
      markerId: m.id,
      known: isKnown,
      fx: createOneEuroFilter(config.position),
      fy: createOneEuroFilter(config.position),
      fh: createAngleOneEuroFilter(config.heading),
      pose: poseOf(m),
      reported: poseOf(m),
      rawPose: poseOf(m),
      stale: false,
      firstSeenMs: t,
      lastSeenMs: t,
      seenInUpdate: updateNo,
      cornersPx: m.cornersPx,
      velocityPxPerMs: { uPx: 0, vPx: 0 },
      positionGate: createMotionGate(config.minMotionIn, positionDiff),
      headingGate: createMotionGate(config.minMotionDeg, headingDiff),
    };
    s.positionGate.classify([m.xIn, m.yIn], t, false);
    s.headingGate.classify([m.headingDeg], t, false);
    s.fx.filter(m.xIn, t);
    s.fy.filter(m.yIn, t);
    s.fh.filter(m.headingDeg, t);
    tracks.set(m.id, s);
    return s;
  }

  /** Returns true when the observation was a jump (filter restarted). */
  function observe(s: TrackState, m: MarkerObservation, t: number): boolean {
    const dist = Math.hypot(m.xIn - s.pose.xIn, m.yIn - s.pose.yIn);
    // A stand back in its place after a hand passed keeps its smoothing; one put down elsewhere snaps there.
    const jumped = dist > config.jumpResetIn;
    if (jumped) {
      s.fx.reset();
      s.fy.reset();
      s.fh.reset();
    }
    const dtMs = t - s.lastSeenMs;
    if (!jumped && dtMs > 0) {
      const a = centre(s.cornersPx);
      const b = centre(m.cornersPx);
      // Light smoothing: one noisy corner set should not throw the ROI off.
      const vu = (b.uPx - a.uPx) / dtMs;
      const vv = (b.vPx - a.vPx) / dtMs;
      s.velocityPxPerMs = {
        uPx: 0.5 * s.velocityPxPerMs.uPx + 0.5 * vu,
        vPx: 0.5 * s.velocityPxPerMs.vPx + 0.5 * vv,
      };
    } else {
      s.velocityPxPerMs = { uPx: 0, vPx: 0 };
    }
    // No lag: a measurement that moved (beyond the track's own noise, or along its velocity) is reported
    // as measured and the smoothing restarts from it; the One-Euro filter steadies only what holds
    // still. So a moving stand is not trailed by the filter, and one that stops is exact from its first
    // still frame. After a gap (a hand passed) a reading near the held pose is smoothed, not snapped to.
    if (jumped) {
      s.positionGate.reset();
      s.headingGate.reset();
    }
    // A slow stand moves less than the gate per frame: restart the smoothing too once the smoothed
    // pose trails the measurement by more than the gate, so its lag stays within the noise.
    const afterGap = s.seenInUpdate !== updateNo - 1;
    const pos = s.positionGate.classify([m.xIn, m.yIn], t, afterGap);
    const restartPos = pos === 'moving' || (pos === 'still' && Math.hypot(m.xIn - s.pose.xIn, m.yIn - s.pose.yIn) > s.positionGate.gate());
    if (restartPos) {
      s.fx.reset();
      s.fy.reset();
    }
    const head = s.headingGate.classify([m.headingDeg], t, afterGap);
    const restartHead = head === 'moving' || (head === 'still' && Math.abs(headingDiff([m.headingDeg], [s.pose.headingDeg])[0]!) > s.headingGate.gate());
    if (restartHead) s.fh.reset();
    s.pose = {
      xIn: s.fx.filter(m.xIn, t),
      yIn: s.fy.filter(m.yIn, t),
      headingDeg: s.fh.filter(m.headingDeg, t),
    };
    // A still stand keeps the pose last reported while its smoothed pose stays within the report step.
    const still = !jumped && !restartPos && !restartHead && pos === 'still' && head === 'still';
    const withinStep =
      Math.hypot(s.pose.xIn - s.reported.xIn, s.pose.yIn - s.reported.yIn) < config.reportStepIn &&
      Math.abs(headingDiff([s.pose.headingDeg], [s.reported.headingDeg])[0]!) < config.reportStepDeg;
    if (!(still && withinStep)) s.reported = s.pose;
    s.rawPose = poseOf(m);
    s.cornersPx = m.cornersPx;
    s.lastSeenMs = t;
    s.seenInUpdate = updateNo;
    s.stale = false;
    return jumped;
  }

  function update(d: FrameDetection): TrackSnapshot {
    const t = d.captureTimeMs;
    const warnings: string[] = [];
    if (lastFrameMs !== null) {
      if (t < lastFrameMs) {
        warnings.push(`frame ${d.seq} is older than the previous frame (${t} < ${lastFrameMs} ms); ignored`);
        last = { ...last, seq: d.seq, startedTrackIds: [], endedTrackIds: [], relocatedTrackIds: [], warnings };
        return last;
      }
      if (t > lastFrameMs) frameIntervalMs = t - lastFrameMs;
    }
    lastFrameMs = t;
    updateNo += 1;

    // Group observations by id: a tag seen twice is reported, and only kept when a track disambiguates it.
    const byId = new Map<number, MarkerObservation[]>();
    for (const m of d.markers) {
      const list = byId.get(m.id);
      if (list) list.push(m);
      else byId.set(m.id, [m]);
    }
    const duplicateIds = new Set<number>(d.duplicateIds);
    for (const [id, list] of byId) if (list.length > 1) duplicateIds.add(id);

    const started: number[] = [];
    const relocated: number[] = [];
    for (const [id, list] of byId) {
      const s = tracks.get(id);
      let m: MarkerObservation | undefined = list[0];
      if (list.length > 1) {
        if (!s) {
          warnings.push(`tag ${id} seen ${list.length} times in frame ${d.seq} and not tracked yet; ignored`);
          continue;
        }
        // Keep the sighting nearest the held pose: the other copy is a printing mistake or a reflection.
        m = list.reduce((best, o) =>
          Math.hypot(o.xIn - s.pose.xIn, o.yIn - s.pose.yIn) < Math.hypot(best.xIn - s.pose.xIn, best.yIn - s.pose.yIn) ? o : best,
        );
        warnings.push(`tag ${id} seen ${list.length} times in frame ${d.seq}; kept the one nearest its track`);
      }
      if (m === undefined) continue;
      if (s) {
        if (observe(s, m, t)) relocated.push(s.trackId);
        continue;
      }
      const isKnown = known === null || known.has(id);
      if (isKnown) {
        started.push(startTrack(m, t, true).trackId);
        continue;
      }
      // Not in the roster: it must persist before it counts (a misread tag flickers for a frame or two).
      const p = pending.get(id) ?? { frames: 0, firstSeenMs: t, lastSeenMs: t, seenInUpdate: updateNo, cornersPx: m.cornersPx };
      p.frames += 1;
      p.lastSeenMs = t;
      p.seenInUpdate = updateNo;
      p.cornersPx = m.cornersPx;
      pending.set(id, p);
      if (p.frames >= config.unknownConfirmFrames && p.lastSeenMs - p.firstSeenMs >= config.unknownConfirmMs) {
        pending.delete(id);
        confirmedUnknown.set(id, p);
        started.push(startTrack(m, t, false).trackId);
        warnings.push(`tag ${id} is not in the roster; tracking it as unknown`);
      }
    }

    const ended: number[] = [];
    for (const [id, s] of tracks) {
      if (s.seenInUpdate === updateNo) continue;
      s.stale = true;
      if (t - s.lastSeenMs > config.holdMs) {
        tracks.delete(id);
        confirmedUnknown.delete(id);
        ended.push(s.trackId);
      }
    }
    for (const [id, p] of pending) if (t - p.lastSeenMs > config.unknownForgetMs) pending.delete(id);
    for (const [id, p] of confirmedUnknown) {
      // Keep counting sightings after confirmation (the confirming frame was counted while pending).
      const s = tracks.get(id);
      if (s && s.seenInUpdate === updateNo && p.seenInUpdate !== updateNo) {
        p.frames += 1;
        p.seenInUpdate = updateNo;
      }
    }

    const unknownIds: UnknownIdReport[] = [
      ...[...pending].map(([id, p]) => ({ id, frames: p.frames, firstSeenMs: p.firstSeenMs, confirmed: false })),
      ...[...confirmedUnknown].map(([id, p]) => ({ id, frames: p.frames, firstSeenMs: p.firstSeenMs, confirmed: true })),
    ].sort((a, b) => a.id - b.id);

    last = {
      seq: d.seq,
      captureTimeMs: t,
      tracks: [...tracks.values()]
        .sort((a, b) => a.markerId - b.markerId)
        .map((s) => ({
          trackId: s.trackId,
          markerId: s.markerId,
          pose: s.reported,
          rawPose: s.rawPose,
          stale: s.stale,
          known: s.known,
          firstSeenMs: s.firstSeenMs,
          lastSeenMs: s.lastSeenMs,
          cornersPx: s.cornersPx,
        })),
      startedTrackIds: started,
      endedTrackIds: ended,
      relocatedTrackIds: relocated,
      duplicateIds: [...duplicateIds].sort((a, b) => a - b),
      unknownIds,
      warnings,
    };
    return last;
  }

  function predictions(atMs?: number): TagPrediction[] {
    const target = atMs ?? (lastFrameMs ?? 0) + frameIntervalMs;
    // Ids still proving themselves are predicted too: a detector that searches only around predictions
    // would otherwise see them only in full-frame scans, and they could never persist.
    const candidates: TagPrediction[] = [...pending].map(([id, p]) => ({ id, cornersPx: p.cornersPx, stale: p.seenInUpdate !== updateNo, lastSeenMs: p.lastSeenMs }));
    return [...tracks.values()]
      .sort((a, b) => a.markerId - b.markerId)
      .map((s): TagPrediction => {
        if (s.stale) return { id: s.markerId, cornersPx: s.cornersPx, stale: true, lastSeenMs: s.lastSeenMs };
        const ahead = Math.min(Math.max(target - s.lastSeenMs, 0), config.maxPredictAheadMs);
        return {
          id: s.markerId,
          cornersPx: shift(s.cornersPx, s.velocityPxPerMs.uPx * ahead, s.velocityPxPerMs.vPx * ahead),
          stale: false,
          lastSeenMs: s.lastSeenMs,
        };
      })
      .concat(candidates)
      .sort((a, b) => a.id - b.id);
  }

  return { config, update, predictions, snapshot: () => last };
}
