/**
 * The demo without rendering: every tick, the demo script's ground-truth stand poses become tag
 * observations (`FrameDetection`, as a perfect detector would report them) for the real tracker, roster
 * and rules. Image corners are a fixed top-down projection (20 px per inch) so the tracker's predictions
 * have something to work with.
 */
import type { FrameDetection, MarkerObservation, PointPx } from '@muster/vision';
import { tagPoseFromStand } from '../roster/standPoseFromTag.ts';
import type { Roster, RosterStand } from '../roster/roster.ts';
import { scenePoses, type DemoScript } from './demoScript.ts';

export const TRUTH_PX_PER_IN = 20;
const TAG_SIZE_IN = 1;

function corners(xIn: number, yIn: number, headingDeg: number, depthIn: number): [PointPx, PointPx, PointPx, PointPx] {
  const h = (headingDeg * Math.PI) / 180;
  const ux = Math.cos(h) * (TAG_SIZE_IN / 2);
  const uy = Math.sin(h) * (TAG_SIZE_IN / 2);
  // Tag frame: "up" = heading, "right" = heading turned clockwise.
  const rx = uy;
  const ry = -ux;
  const px = (x: number, y: number): PointPx => ({ uPx: x * TRUTH_PX_PER_IN, vPx: (depthIn - y) * TRUTH_PX_PER_IN });
  return [
    px(xIn + ux - rx, yIn + uy - ry),
    px(xIn + ux + rx, yIn + uy + ry),
    px(xIn - ux + rx, yIn - uy + ry),
    px(xIn - ux - rx, yIn - uy - ry),
  ];
}

/** Ground-truth detection of the scene `tS` seconds into the demo loop. */
export function truthDetection(script: DemoScript, roster: Roster, tS: number, seq: number, captureTimeMs: number): FrameDetection {
  const t0 = performance.now();
  const scene = scenePoses(script, roster, tS);
  const standsById = new Map<string, RosterStand>();
  for (const u of roster.units) for (const s of u.stands) standsById.set(s.id, s);
  for (const c of roster.commanders) if (c.stand) standsById.set(c.stand.id, c.stand);
  const markers: MarkerObservation[] = [];
  const depth = script.table.depthIn;
  for (const [standId, pose] of scene.stands) {
    const stand = standsById.get(standId);
    if (!stand || stand.tag === null) continue;
    const tag = tagPoseFromStand(pose, stand.tagOffset);
    markers.push({ id: stand.tag, xIn: tag.xIn, yIn: tag.yIn, headingDeg: tag.headingDeg, cornersPx: corners(tag.xIn, tag.yIn, tag.headingDeg, depth) });
  }
  for (const [tag, pose] of scene.chips) {
    markers.push({ id: tag, xIn: pose.xIn, yIn: pose.yIn, headingDeg: pose.headingDeg, cornersPx: corners(pose.xIn, pose.yIn, pose.headingDeg, depth) });
  }
  const s = TRUTH_PX_PER_IN;
  return {
    seq,
    captureTimeMs,
    anchorIds: script.anchors.map((a) => a.tag),
    // Pixels → inches for the top-down projection: x = u/s, y = depth - v/s.
    homography: [1 / s, 0, 0, 0, -1 / s, depth, 0, 0, 1],
    homographyResidualIn: 0,
    markers,
    duplicateIds: [],
    warnings: [],
    processingMs: performance.now() - t0,
  };
}

export interface TruthSourceOptions {
  readonly script: DemoScript;
  /** The physical roster (tags as printed on the stands). */
  readonly roster: Roster;
  /** Frames per second. */
  readonly fps: number;
  /** Replay speed (1 = real time). */
  readonly speed?: number;
  readonly now?: () => number;
}

export interface TickSource {
  start(sink: (detection: FrameDetection) => void): void;
  stop(): void;
}

/** Emits a detection every 1/fps s, the battle looping every `script.loopS` seconds. */
export function createTruthSource(options: TruthSourceOptions): TickSource {
  const now = options.now ?? Date.now;
  const intervalMs = 1000 / options.fps;
  const speed = options.speed ?? 1;
  let timer: NodeJS.Timeout | null = null;
  let seq = 0;
  let stopped = false;
  return {
    start(sink): void {
      const t0 = now();
      let next = t0;
      const tick = (): void => {
        if (stopped) return;
        const captureTimeMs = now();
        const tS = (((captureTimeMs - t0) / 1000) * speed) % options.script.loopS;
        sink(truthDetection(options.script, options.roster, tS, seq++, captureTimeMs));
        next += intervalMs;
        const wait = next - now();
        if (wait < -intervalMs) next = now(); // fell behind: do not burst to catch up
        timer = setTimeout(tick, Math.max(0, wait));
      };
      timer = setTimeout(tick, 0);
    },
    stop(): void {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
