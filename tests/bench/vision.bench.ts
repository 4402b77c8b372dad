/**
 * Vision bench (`npm run bench -- vision`): detection speed and accuracy on rendered frames of a
 * 72×48 in table with 150 stands, at 1920×1080 (1 in tags) and 3840×2160 (0.5 in tags), and memory over
 * a long tracked replay.
 *
 * Times are medians per frame, wall clock and CPU (process user+system time; less sensitive to other
 * processes on a shared machine). Environment knobs:
 * - MUSTER_BENCH_REPLAY_FRAMES (default 18000 = 10 minutes at 30 fps) and
 *   MUSTER_BENCH_REPLAY_SECONDS (default 600): the replay stops at whichever comes first; the frame
 *   count actually run is reported.
 */
import { fileURLToPath } from 'node:url';
import { loadTableProfile, parseTableProfile, tableProfileToJson, type TableProfile } from '../../apps/vision/src/profile/tableProfile.ts';
import { createFrameDetector, type TagPrediction } from '../../apps/vision/src/detect/frameDetector.ts';
import { createBackgroundScanner } from '../../apps/vision/src/detect/backgroundScanner.ts';
import type { FrameDetection, GrayFrame } from '../../apps/vision/src/pipeline/types.ts';
import { cameraLookingDown, renderTableFrame, scatterStands, type RenderedFrame, type SceneTag } from '../../fixtures/generator/renderTableFrame.ts';
import { scoreDetection, truthPredictions, type DetectionScore } from '../../fixtures/generator/scoreDetection.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median, round } from './stats.ts';
import { runGameSequence } from './visionSequence.ts';
import { tiltedCamera } from '../../fixtures/generator/gameSequence.ts';
import { HARD_FRAME_KINDS, renderHardFrame } from '../../fixtures/generator/hardFrames.ts';

// A forced GC before each RSS reading, so garbage not yet collected is not counted as growth.
setFlagsFromString('--expose-gc');
const forceGc = runInNewContext('gc') as () => void;

const STANDS = 150;
const effects = { blurSigmaPx: 0.7, noiseSigma: 3, lightFalloff: 0.3, jpegQuality: 90 };
const log = (msg: string): void => void process.stderr.write(`  vision: ${msg}\n`);

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function timed<T>(fn: () => T): { value: T; wallMs: number; cpuMs: number } {
  const c0 = cpuMs();
  const t0 = performance.now();
  const value = fn();
  return { value, wallMs: performance.now() - t0, cpuMs: cpuMs() - c0 };
}

function summarise(s: DetectionScore): Record<string, unknown> {
  return {
    expected: s.expected,
    foundPct: round(100 * s.foundFraction, 2),
    falseIds: s.falseIds,
    positionRmsIn: round(s.positionRmsIn, 4),
    positionMaxIn: round(s.positionMaxIn, 4),
    headingRmsDeg: round(s.headingRmsDeg, 3),
    headingMaxDeg: round(s.headingMaxDeg, 3),
  };
}

/** Merge several frames' scores into one (pooled RMS). */
function pool(scores: DetectionScore[]): DetectionScore {
  const found = scores.reduce((a, s) => a + s.found, 0);
  const expected = scores.reduce((a, s) => a + s.expected, 0);
  const wsq = (f: (s: DetectionScore) => number): number => Math.sqrt(scores.reduce((a, s) => a + f(s) ** 2 * s.found, 0) / Math.max(1, found));
  return {
    expected,
    found,
    foundFraction: found / expected,
    falseIds: scores.flatMap((s) => s.falseIds),
    missedIds: scores.flatMap((s) => s.missedIds),
    positionRmsIn: wsq((s) => s.positionRmsIn),
    positionMaxIn: Math.max(...scores.map((s) => s.positionMaxIn)),
    headingRmsDeg: wsq((s) => s.headingRmsDeg),
    headingMaxDeg: Math.max(...scores.map((s) => s.headingMaxDeg)),
  };
}

/** Tracker-like predictions: the truth corners off by (du, dv) px. */
function offsetPredictions(r: RenderedFrame, du: number, dv: number): TagPrediction[] {
  return truthPredictions(r.truth).map((p) => ({
    id: p.id,
    cornersPx: p.cornersPx.map((c) => ({ uPx: c.uPx + du, vPx: c.vPx + dv })) as unknown as TagPrediction['cornersPx'],
  }));
}

async function resolution(label: string, profile: TableProfile, widthPx: number, heightPx: number): Promise<Record<string, unknown>> {
  const camera = cameraLookingDown(profile, widthPx, heightPx);
  const frames: RenderedFrame[] = [];
  for (const seed of [101, 202]) {
    log(`${label}: rendering frame seed ${seed}`);
    frames.push(await renderTableFrame({ profile, tags: scatterStands(profile, STANDS, seed) }, camera, { seed, ...effects }));
  }

  const det = await createFrameDetector(profile);
  const fullScores: DetectionScore[] = [];
  const fullWall: number[] = [];
  const fullCpu: number[] = [];
  for (let i = 0; i < 4; i++) {
    const f = frames[i % frames.length]!;
    const t = timed(() => det.detect(f.frame));
    fullWall.push(t.wallMs);
    fullCpu.push(t.cpuMs);
    if (i < frames.length) fullScores.push(scoreDetection(t.value, f.truth));
  }
  log(`${label}: full frame median ${median(fullWall).toFixed(0)} ms`);

  // Tracked mode with predictions 1 px off (a tracker following still or slow stands).
  const trackedScores: DetectionScore[] = [];
  const trackedWall: number[] = [];
  const trackedCpu: number[] = [];
  const preds = frames.map((f) => offsetPredictions(f, 1, -0.7));
  for (let i = 0; i < 60; i++) {
    const k = i % frames.length;
    const t = timed(() => det.detect(frames[k]!.frame, preds[k]));
    if (i >= 4) {
      trackedWall.push(t.wallMs);
      trackedCpu.push(t.cpuMs);
    }
    if (i < frames.length) trackedScores.push(scoreDetection(t.value, frames[k]!.truth));
  }
  const stats = det.lastTrackedStats;
  log(`${label}: tracked median ${median(trackedWall).toFixed(1)} ms`);

  // Windows only (ArUco on a mosaic of the predicted windows, no edge re-measurement): the fallback path.
  const mosaicDet = await createFrameDetector(profile, { edgeRefine: false });
  mosaicDet.detect(frames[0]!.frame);
  const mosaicWall: number[] = [];
  for (let i = 0; i < 6; i++) mosaicWall.push(timed(() => mosaicDet.detect(frames[i % 2]!.frame, preds[i % 2])).wallMs);
  mosaicDet.dispose();

  // Corner refinement, full frame, first frame: ArUco's methods alone (why CONTOUR is its default
  // here), and CONTOUR followed by our edge re-measurement (the detector's default).
  const refinement: Record<string, unknown> = {};
  for (const [name, method, edgeRefine] of [
    ['arucoNone', 0, false],
    ['arucoSubpix', 1, false],
    ['arucoContour', 2, false],
    ['arucoContourThenEdges', 2, true],
  ] as const) {
    const d = await createFrameDetector(profile, { params: { cornerRefinementMethod: method }, edgeRefine });
    const s = scoreDetection(d.detect(frames[0]!.frame), frames[0]!.truth);
    refinement[name] = { positionRmsIn: round(s.positionRmsIn, 4), positionMaxIn: round(s.positionMaxIn, 4), headingRmsDeg: round(s.headingRmsDeg, 3) };
    d.dispose();
  }

  // Tracked mode with the background scanner: per-frame cost while the second thread scans, and how
  // long until a stand that was never predicted is reported.
  const scanner = createBackgroundScanner(profile);
  await scanner.ready;
  const scanned = await createFrameDetector(profile, { backgroundScanner: scanner });
  scanned.detect(frames[0]!.frame);
  const withoutOne = preds[0]!.filter((p) => p.id !== preds[0]![0]!.id);
  const newId = preds[0]![0]!.id;
  const scanWall: number[] = [];
  const t0 = performance.now();
  let newStandMs: number | null = null;
  let seq = 0;
  while (performance.now() - t0 < 8000) {
    const t = timed(() => scanned.detect({ ...frames[0]!.frame, seq: ++seq }, withoutOne));
    scanWall.push(t.wallMs);
    if (newStandMs === null && t.value.markers.some((m) => m.id === newId)) newStandMs = performance.now() - t0;
    if (newStandMs !== null && scanWall.length >= 30) break;
    // Let the worker's message in (a live service gets frames from I/O, which yields anyway).
    await new Promise((r) => setImmediate(r));
  }
  const lastScan = scanner.take();
  scanned.dispose();
  await scanner.dispose();
  det.dispose();

  return {
    frame: `${widthPx}x${heightPx}`,
    tagSizeIn: profile.markerSizeIn,
    stands: STANDS,
    fullFrame: { medianWallMs: round(median(fullWall), 1), medianCpuMs: round(median(fullCpu), 1), runs: fullWall.length, accuracy: summarise(pool(fullScores)) },
    tracked: {
      medianWallMs: round(median(trackedWall), 2),
      medianCpuMs: round(median(trackedCpu), 2),
      fps: round(1000 / median(trackedWall), 1),
      runs: trackedWall.length,
      lastFrame: stats,
      accuracy: summarise(pool(trackedScores)),
    },
    trackedArucoWindowsOnly: { medianWallMs: round(median(mosaicWall), 1), runs: mosaicWall.length },
    trackedWithBackgroundScan: {
      medianWallMs: round(median(scanWall), 2),
      frames: scanWall.length,
      newStandReportedAfterMs: newStandMs === null ? null : round(newStandMs, 0),
      scansUnclaimedAtEnd: lastScan ? 1 : 0,
    },
    cornerRefinementFullFrame: refinement,
  };
}

/**
 * Long replay: tracked mode at 1080p over a cached loop of frames in which the stands drift, each
 * frame predicted from the previous detection (as the tracker would), with a full-frame detection
 * every 300 frames. Reports RSS before and after.
 */
async function replay(profile: TableProfile): Promise<Record<string, unknown>> {
  const maxFrames = Number(process.env['MUSTER_BENCH_REPLAY_FRAMES'] ?? 18000);
  const maxSeconds = Number(process.env['MUSTER_BENCH_REPLAY_SECONDS'] ?? 600);
  const camera = cameraLookingDown(profile, 1920, 1080);
  const start = scatterStands(profile, STANDS, 303);
  const loop: GrayFrame[] = [];
  const steps = 6;
  for (let i = 0; i < steps; i++) {
    // Drift and turn a little each step and come back (a ping-pong loop, no jumps at the wrap).
    const phase = Math.sin((2 * Math.PI * i) / steps);
    const tags: SceneTag[] = start.map((t, k) => ({ ...t, xIn: t.xIn + 0.15 * phase * Math.cos(k), yIn: t.yIn + 0.15 * phase * Math.sin(k), headingDeg: t.headingDeg + 3 * phase }));
    log(`replay: rendering frame ${i + 1}/${steps}`);
    loop.push((await renderTableFrame({ profile, tags }, camera, { seed: 400 + i, ...effects })).frame);
  }
  const det = await createFrameDetector(profile);
  let last: FrameDetection = det.detect(loop[0]!);
  let trackedFrames = 0;
  let windowsTotal = 0;
  const predictionsFrom = (d: FrameDetection): TagPrediction[] => d.markers.map((m) => ({ id: m.id, cornersPx: m.cornersPx }));
  const run = (n: number, from: number): number => {
    for (let i = 0; i < n; i++) {
      const f = loop[(from + i) % steps]!;
      const frame = { ...f, seq: from + i, captureTimeMs: ((from + i) * 1000) / 30 };
      last = (from + i) % 300 === 0 ? det.detect(frame) : det.detect(frame, predictionsFrom(last));
      const st = det.lastTrackedStats;
      if (st) {
        trackedFrames++;
        windowsTotal += st.arucoWindows;
      }
    }
    return n;
  };
  run(300, 0); // warm-up: JIT, caches, WASM heap at its working size
  forceGc();
  const rssBefore = process.memoryUsage().rss;
  const rssEvery3000MB: number[] = [];
  const t0 = performance.now();
  let frames = 0;
  let minStands = Infinity;
  while (frames < maxFrames && performance.now() - t0 < maxSeconds * 1000) {
    frames += run(Math.min(300, maxFrames - frames), 300 + frames);
    minStands = Math.min(minStands, last.markers.length);
    if (frames % 3000 === 0) {
      forceGc();
      rssEvery3000MB.push(round(process.memoryUsage().rss / 2 ** 20, 1));
      log(`replay: ${frames} frames, rss ${rssEvery3000MB.at(-1)} MB`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  forceGc();
  const rssAfter = process.memoryUsage().rss;
  det.dispose();
  return {
    frame: '1920x1080',
    tagSizeIn: profile.markerSizeIn,
    stands: STANDS,
    framesRequested: maxFrames,
    framesRun: frames,
    seconds: round(seconds, 1),
    meanMsPerFrame: round((seconds * 1000) / Math.max(1, frames), 2),
    standsTrackedAtEndOfEachBlockMin: minStands,
    /** Tags per tracked frame that moved too far for the edge re-measurement and went to ArUco windows. */
    arucoWindowsPerTrackedFrame: round(windowsTotal / Math.max(1, trackedFrames), 1),
    rssBeforeMB: round(rssBefore / 2 ** 20, 1),
    rssAfterMB: round(rssAfter / 2 ** 20, 1),
    rssGrowthMB: round((rssAfter - rssBefore) / 2 ** 20, 1),
    rssEvery3000MB,
  };
}

/** Full-frame recall on still frames seen by a camera tilted 25° from straight down (far tags smaller). */
async function tiltedRecall(profile: TableProfile, widthPx: number, heightPx: number): Promise<Record<string, unknown>> {
  const camera = tiltedCamera(profile, widthPx, heightPx, 25);
  const det = await createFrameDetector(profile);
  const scores: DetectionScore[] = [];
  const wall: number[] = [];
  for (const seed of [101, 202]) {
    log(`tilted 25°: rendering frame seed ${seed}`);
    const r = await renderTableFrame({ profile, tags: scatterStands(profile, STANDS, seed) }, camera, { seed, ...effects });
    const t = timed(() => det.detect(r.frame));
    wall.push(t.wallMs);
    scores.push(scoreDetection(t.value, r.truth));
  }
  det.dispose();
  return { frame: `${widthPx}x${heightPx}`, tagSizeIn: profile.markerSizeIn, tiltDeg: 25, fullFrameMedianWallMs: round(median(wall), 1), accuracy: summarise(pool(scores)) };
}

/**
 * Harder still frames (`fixtures/generator/hardFrames.ts`): 4K, 150 half-inch stands, straight down, harsh
 * light with a glossy hot spot, tilted 25° (with and without the harsh light), a camera at the table's
 * end tilted 35°, and foreign prints (ChArUco boards, other dictionaries) beside the stands. Full-frame
 * detection as shipped and with the magnified second pass (`magnifySmallTags: 2`), wall and CPU time and
 * their ratio to the straight frame's in the same run.
 */
async function hardFrames(profile: TableProfile): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const plain = await createFrameDetector(profile);
  const magnified = await createFrameDetector(profile, { magnifySmallTags: 2 });
  let straightMs = NaN;
  let straightCpuMs = NaN;
  for (const kind of HARD_FRAME_KINDS) {
    const scores: DetectionScore[] = [];
    const scoresMag: DetectionScore[] = [];
    const wall: number[] = [];
    const wallMag: number[] = [];
    const cpu: number[] = [];
    const cpuMag: number[] = [];
    for (const seed of [101, 202]) {
      log(`hard frames: ${kind}, seed ${seed}`);
      const r = await renderHardFrame(kind, profile, 3840, 2160, seed);
      const a = timed(() => plain.detect(r.frame));
      const b = timed(() => magnified.detect(r.frame));
      wall.push(a.wallMs);
      wallMag.push(b.wallMs);
      cpu.push(a.cpuMs);
      cpuMag.push(b.cpuMs);
      scores.push(scoreDetection(a.value, r.truth));
      scoresMag.push(scoreDetection(b.value, r.truth));
    }
    if (kind === 'straight') {
      straightMs = median(wall);
      straightCpuMs = median(cpu);
    }
    const s = pool(scores);
    const m = pool(scoresMag);
    out[kind] = {
      found: `${s.found}/${s.expected}`,
      falseIds: s.falseIds,
      medianWallMs: round(median(wall), 1),
      ratioToStraight: round(median(wall) / straightMs, 2),
      medianCpuMs: round(median(cpu), 1),
      cpuRatioToStraight: round(median(cpu) / straightCpuMs, 2),
      magnified: {
        found: `${m.found}/${m.expected}`,
        falseIds: m.falseIds,
        medianWallMs: round(median(wallMag), 1),
        ratioToStraight: round(median(wallMag) / straightMs, 2),
        medianCpuMs: round(median(cpuMag), 1),
        cpuRatioToStraight: round(median(cpuMag) / straightCpuMs, 2),
      },
    };
  }
  plain.dispose();
  magnified.dispose();
  return out;
}

/**
 * Parts, all by default; `MUSTER_BENCH_VISION_PARTS=sequences,tilt` (any of resolutions, sequences,
 * tilt, hard, replay) runs only those.
 */
export async function run(): Promise<Record<string, unknown>> {
  const parts = new Set((process.env['MUSTER_BENCH_VISION_PARTS'] ?? 'resolutions,sequences,tilt,hard,replay').split(','));
  const large = loadTableProfile(fileURLToPath(new URL('../../calibration/tables/large-72x48.json', import.meta.url)));
  const oneInch = parseTableProfile({ ...tableProfileToJson(large), markerSize: 1 }, 'large-72x48 with 1 in tags');
  const out: Record<string, unknown> = {};
  if (parts.has('resolutions')) {
    out['1080p'] = await resolution('1080p', oneInch, 1920, 1080);
    out['4k'] = await resolution('4k', large, 3840, 2160);
  }
  if (parts.has('sequences')) {
    out['game1080p'] = await runGameSequence('game 1080p', oneInch, cameraLookingDown(oneInch, 1920, 1080));
    out['game4k'] = await runGameSequence('game 4k', large, cameraLookingDown(large, 3840, 2160));
  }
  if (parts.has('tilt')) out['tilted4k'] = await tiltedRecall(large, 3840, 2160);
  if (parts.has('hard')) out['hard4k'] = await hardFrames(large);
  if (parts.has('replay')) out['replay'] = await replay(oneInch);
  return out;
}
