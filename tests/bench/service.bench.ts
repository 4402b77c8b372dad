/**
 * Service bench: frame capture → delta received by a ws client latency on the demo replay, and the
 * delivered rate with 50 viewers on loopback, with RSS before/after. The path measured is stated in the
 * result (`path`): 'demo-truth' = ground-truth tag poses → tracker → roster → publish → ws (no
 * rendering or detection); 'demo-frames' = rendered frames through the real detector. Latencies, all
 * from what the client receives on the wire (the rules run on a worker thread, so a delta carries its
 * own frame's poses and the evaluation of an earlier state, named by `evaluatedState`):
 * - `latencyMs`: capture → the first delta carrying that frame's poses;
 * - `annotationLatencyMs`: `evaluatedState.captureTimeMs` → the first delta carrying that evaluation
 *   (every new evaluation, changed or not);
 * - `annotationChangedLatencyMs`: the same, counting only deltas whose evaluation changed (the measure
 *   of the earlier runs, which took the evaluated frame from inside the server);
 * - `rulesLagFrames`: `frameSeq - evaluatedState.frameSeq` per delta;
 * - `framesDroppedPct`: frame seqs the client never saw (the loop skipped them: newest frame wins).
 * `eventLoopDelayMs` is the server process's main-thread delay; `loadAvg` the 1-min load at start/end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { WireRecord } from './wireViewer.ts';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import type { RunningLive } from '../../apps/server/src/compose/liveOptions.ts';
import { median, percentile, round } from './stats.ts';

const VIEWERS = join(import.meta.dirname, '../service/children/viewers.ts');
const WIRE_VIEWER = join(import.meta.dirname, 'wireViewer.ts');

interface Viewer {
  /** Capture → first delta carrying that frame's poses. */
  latenciesMs: number[];
  /** Capture of the evaluated state's frame → the first delta carrying that evaluation. */
  annotationMs: number[];
  /** The same, only deltas whose evaluation changed. */
  annotationChangedMs: number[];
  /** Poses frame seq minus evaluated frame seq, per delta. */
  lagFrames: number[];
  framesSeen: number;
  framesSkipped: number;
  deltas: number;
  bytes: number;
  /** Where the evaluated frame came from: the wire (protocol 2) or the server's own record (protocol 1). */
  evaluatedFrom: 'wire' | 'server';
}

type EvaluatedRef = { readonly seq: number; readonly frameSeq: number; readonly captureTimeMs: number };

/**
 * The evaluated frame of each published state as the server knows it, by state seq: only used when the
 * wire does not say (a protocol 1 server, for before/after runs against an older build).
 */
function serverEvaluatedFrames(live: RunningLive): { bySeq: Map<number, EvaluatedRef>; stop: () => void } {
  const bySeq = new Map<number, EvaluatedRef>();
  const stop = live.pipeline.subscribe((e) => {
    if (e.kind !== 'state') return;
    const f = live.pipeline.evaluationFrame() as { seq?: number; frameSeq: number; captureTimeMs: number } | null;
    // Protocol 1 builds name only the frame: the frame stands in for the state.
    if (f) bySeq.set(live.pipeline.state().seq, { seq: f.seq ?? f.frameSeq, frameSeq: f.frameSeq, captureTimeMs: f.captureTimeMs });
  });
  return { bySeq, stop };
}

/**
 * One viewer in a child process (`wireViewer.ts`) for `seconds` after `warmupS`; resolves with what it
 * measured. `onMeasuring` runs when its measurement starts (to align the server-side samples).
 */
async function watchWire(live: RunningLive, warmupS: number, seconds: number, onMeasuring: () => void): Promise<Viewer> {
  const server = serverEvaluatedFrames(live);
  const records = await new Promise<WireRecord[]>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WIRE_VIEWER, live.url, String(warmupS), String(seconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!started && out.startsWith('measuring\n')) {
        started = true;
        onMeasuring();
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`wire viewer failed (${code})`));
      else resolve((JSON.parse(line) as { deltas: WireRecord[] }).deltas);
    });
  });
  server.stop();
  const v: Viewer = { latenciesMs: [], annotationMs: [], annotationChangedMs: [], lagFrames: [], framesSeen: 0, framesSkipped: 0, deltas: 0, bytes: 0, evaluatedFrom: 'wire' };
  let lastFrameSeq = -1;
  let lastEvaluatedSeq = -1;
  for (const r of records) {
    v.deltas++;
    v.bytes += r.bytes;
    // An evaluation arriving later republishes the same frame's poses: count each frame once.
    if (r.frameSeq !== lastFrameSeq) {
      v.latenciesMs.push(r.atMs - r.captureTimeMs);
      if (lastFrameSeq >= 0 && r.frameSeq > lastFrameSeq + 1) v.framesSkipped += r.frameSeq - lastFrameSeq - 1;
      if (lastFrameSeq >= 0) v.framesSeen++;
    }
    lastFrameSeq = r.frameSeq;
    let ev: EvaluatedRef | null | undefined = r.evaluatedState;
    if (ev === undefined) {
      v.evaluatedFrom = 'server';
      ev = server.bySeq.get(r.seq) ?? null;
    }
    if (!ev) continue;
    v.lagFrames.push(r.frameSeq - ev.frameSeq);
    if (ev.seq !== lastEvaluatedSeq && lastEvaluatedSeq !== -1) {
      v.annotationMs.push(r.atMs - ev.captureTimeMs);
      if (r.evaluationChanged) v.annotationChangedMs.push(r.atMs - ev.captureTimeMs);
    }
    lastEvaluatedSeq = ev.seq;
  }
  return v;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number): number => round(bytes / 1024 / 1024, 1);

function summary(latencies: number[]): Record<string, number> {
  // A path that delivered nothing in its window (4K under heavy load) says so instead of failing the bench.
  if (latencies.length === 0) return { samples: 0 };
  return { p50: round(median(latencies), 1), p95: round(percentile(latencies, 95), 1), max: round(Math.max(...latencies), 1), samples: latencies.length };
}

/** Everything the client measured, from the wire. */
function clientSummary(v: Viewer): Record<string, unknown> {
  return {
    latencyMs: summary(v.latenciesMs),
    annotationLatencyMs: summary(v.annotationMs),
    annotationChangedLatencyMs: summary(v.annotationChangedMs),
    rulesLagFrames: v.lagFrames.length === 0 ? null : { p50: median(v.lagFrames), p95: percentile(v.lagFrames, 95), max: Math.max(...v.lagFrames) },
    framesDroppedPct: round((100 * v.framesSkipped) / Math.max(1, v.framesSeen + v.framesSkipped), 1),
    evaluatedFrameFrom: v.evaluatedFrom,
  };
}

interface StageSamples {
  detectMs: number[];
  trackMs: number[];
  rosterMs: number[];
  publishMs: number[];
  /** Sampled per evaluation (rules worker): evaluating, waiting for the worker, result → main thread. */
  rulesMs: number[];
  rulesWaitMs: number[];
  rulesReturnMs: number[];
}

function recordStages(live: RunningLive): { samples: StageSamples; stop: () => void } {
  const samples: StageSamples = { detectMs: [], trackMs: [], rosterMs: [], publishMs: [], rulesMs: [], rulesWaitMs: [], rulesReturnMs: [] };
  let last = live.pipeline.state().frameSeq;
  // evaluationFrame(), not state().evaluatedState: the same bench runs against protocol 1 builds.
  const evaluatedKey = (): string => {
    const f = live.pipeline.evaluationFrame() as { seq?: number; frameSeq: number } | null;
    return f ? `${f.seq ?? ''}/${f.frameSeq}` : '';
  };
  const push = (a: number[], x: number | undefined): void => {
    if (typeof x === 'number') a.push(x);
  };
  let lastEvaluated = evaluatedKey();
  // Inside a 'state' listener lastTimings() is still the previous publication's (the publish time is
  // only known after the listeners ran): read it once the publication has finished.
  const unsubscribe = live.pipeline.subscribe((e) => {
    if (e.kind !== 'state') return;
    const state = live.pipeline.state();
    if (state.frameSeq !== last) {
      last = state.frameSeq;
      queueMicrotask(() => {
        const t = live.pipeline.lastTimings();
        samples.detectMs.push(t.detectMs);
        samples.trackMs.push(t.trackMs);
        samples.rosterMs.push(t.rosterMs);
        samples.publishMs.push(t.publishMs);
      });
    }
    const evaluated = evaluatedKey();
    if (evaluated !== lastEvaluated) {
      lastEvaluated = evaluated;
      queueMicrotask(() => {
        const r = live.pipeline.lastTimings();
        push(samples.rulesMs, r.rulesMs);
        push(samples.rulesWaitMs, r.rulesWaitMs);
        push(samples.rulesReturnMs, r.rulesReturnMs);
      });
    }
  });
  return { samples, stop: unsubscribe };
}

function eventLoopDelay(): { stop: () => Record<string, number> } {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  return {
    stop: () => {
      h.disable();
      return { p50: round(h.percentile(50) / 1e6, 1), p95: round(h.percentile(95) / 1e6, 1), max: round(h.max / 1e6, 1) };
    },
  };
}

function stageSummary(s: StageSamples): Record<string, { p50: number; p95: number }> {
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const [k, v] of Object.entries(s) as [keyof StageSamples, number[]][]) {
    if (v.length > 0) out[k] = { p50: round(median(v), 1), p95: round(percentile(v, 95), 1) };
  }
  return out;
}

/** The real detector path: a few rendered frames (cached in a temp dir), replayed through the detector. */
/**
 * The bench's standard artificial load (as in the server README's measurements): `n` child processes
 * each spinning a core flat out (`node -e "for(;;){}"`) for as long as they live.
 */
function busyChildren(n: number): { stop: () => void } {
  const children = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return { stop: () => children.forEach((c) => c.kill('SIGKILL')) };
}

async function framesPath(widthPx: number, heightPx: number, framesInLoop: number, playS: number, fps = 5, load = 0): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'muster-bench-frames-'));
  const speed = 8;
  const live = await startLive({
    source: { mode: 'demo', demoSource: 'frames', fps, speed, frameSize: { widthPx, heightPx }, cacheFps: framesInLoop / 150 },
    dataDir,
    host: '127.0.0.1',
    port: 0,
    operatorToken: 'bench-token',
  });
  try {
    const cache = live.frameCache!;
    const t0 = Date.now();
    process.stderr.write(`service bench: rendering ${cache.total} frames at ${widthPx}×${heightPx}...\n`);
    while (cache.cached() < cache.total) await sleep(250);
    const renderS = (Date.now() - t0) / 1000;
    process.stderr.write(`service bench: ${widthPx}×${heightPx} frames at ${fps} fps through the detector, load ${load}, 1 viewer (own process) for ${playS} s...\n`);
    const busy = busyChildren(load);
    // Measure from the first published stands on: under load the first frame (detection thread and scan
    // worker still loading, first scan) can take longer than the warm-up below. Said in the result.
    const waitStart = Date.now();
    while (live.pipeline.state().tableState.stands.length === 0 && Date.now() - waitStart < 60_000) await sleep(250);
    const firstStandsAfterS = round((Date.now() - waitStart) / 1000, 1);
    let stages: ReturnType<typeof recordStages> | null = null;
    let loop: ReturnType<typeof eventLoopDelay> | null = null;
    let loadStart = 0;
    // 1.5 s warm-up: the tracker settles, the first background scans have found the stands.
    const viewer = await watchWire(live, 1.5, playS, () => {
      stages = recordStages(live);
      loop = eventLoopDelay();
      loadStart = round(loadavg()[0]!, 1);
    }).finally(() => busy.stop());
    const eventLoopDelayMs = loop!.stop();
    stages!.stop();
    const state = live.pipeline.state();
    return {
      loadAvg: { start: loadStart, end: round(loadavg()[0]!, 1) },
      path: `demo-frames ${widthPx}×${heightPx} at ${fps} fps (cached rendered frame, decoded → tracking engine on the detection thread (tracked search, full-frame scans on its scan thread) → tracker → roster → ws; rules on their worker)`,
      sourceFps: fps,
      artificialLoadProcesses: load,
      firstStandsAfterS,
      framesRendered: cache.total,
      renderSPerFrame: round(renderS / cache.total, 1),
      standsTracked: state.tableState.stands.length,
      ...clientSummary(viewer),
      stagesMs: stageSummary(stages!.samples),
      eventLoopDelayMs,
      framesPerS: round(viewer.framesSeen / playS, 1),
      deliveredPerS: round(viewer.deltas / playS, 1),
    };
  } finally {
    await live.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `SERVICE_BENCH_PATHS=frames1080p,frames4k` runs only those paths (default: truth, frames1080p,
 * frames1080pLoaded, frames4k, frames4kLoaded). 1080p frames come at 15 fps, 4K at 5 fps; the `Loaded`
 * paths run beside the standard artificial load (3 busy processes).
 */
const PATHS = new Set((process.env.SERVICE_BENCH_PATHS ?? 'truth,frames1080p,frames1080pLoaded,frames4k,frames4kLoaded').split(',').map((p) => p.trim()));

export async function run(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (PATHS.has('truth')) out.truth = await truthPath();
  if (PATHS.has('frames1080p')) out.frames1080p = await framesPath(1920, 1080, 8, 20, 15);
  if (PATHS.has('frames1080pLoaded')) out.frames1080pLoaded = await framesPath(1920, 1080, 8, 20, 15, 3);
  if (PATHS.has('frames4k')) out.frames4k = await framesPath(3840, 2160, 3, 20, 5);
  if (PATHS.has('frames4kLoaded')) out.frames4kLoaded = await framesPath(3840, 2160, 3, 20, 5, 3);
  return out;
}

async function truthPath(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'muster-bench-service-'));
  const fps = 10;
  const speed = 5; // the 150 s battle in 30 s: every phase (advance, fire, charge) is covered
  const live = await startLive({ source: { mode: 'demo', demoSource: 'truth', fps, speed }, dataDir, host: '127.0.0.1', port: 0, operatorToken: 'bench-token' });
  let truth: Record<string, unknown>;
  try {
    // Phase 1: one viewer, a whole loop of the battle.
    const loopMs = (150 / speed) * 1000;
    process.stderr.write(`service bench: truth path, 1 viewer (own process) for ${loopMs / 1000} s...\n`);
    let seq0 = 0;
    let stages: ReturnType<typeof recordStages> | null = null;
    let loop: ReturnType<typeof eventLoopDelay> | null = null;
    let loadStart = 0;
    const one = await watchWire(live, 0.5, loopMs / 1000, () => {
      seq0 = live.pipeline.state().seq;
      stages = recordStages(live);
      loop = eventLoopDelay();
      loadStart = round(loadavg()[0]!, 1);
    });
    const eventLoopDelayMs = loop!.stop();
    const loadEnd = round(loadavg()[0]!, 1);
    stages!.stop();
    const published1 = live.pipeline.state().seq - seq0;

    // Phase 2: 50 viewers in a child process (their JSON parsing must not load the server's loop).
    global.gc?.();
    const rssBeforeMb = mb(process.memoryUsage().rss);
    const phase2S = 15;
    process.stderr.write(`service bench: truth path, 50 viewers (separate process) for ${phase2S} s...\n`);
    let seq1 = 0;
    let rssWith50Mb = 0;
    const fifty = await new Promise<{ latencies: number[]; deltas: number[]; bytes: number }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', VIEWERS, live.url, '50', String(phase2S)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.startsWith('connected\n') && seq1 === 0) {
          seq1 = live.pipeline.state().seq;
          setTimeout(() => {
            rssWith50Mb = mb(process.memoryUsage().rss);
          }, (phase2S * 1000) / 2);
        }
      });
      child.on('error', reject);
      child.on('exit', (code) => {
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (code !== 0 || !line) reject(new Error(`viewers process failed (${code})`));
        else resolve(JSON.parse(line) as { latencies: number[]; deltas: number[]; bytes: number });
      });
    });
    const published2 = live.pipeline.state().seq - seq1;
    const rates = fifty.deltas.map((d) => d / phase2S);
    const all = fifty.latencies;
    const bytes = fifty.bytes;
    await sleep(500);
    global.gc?.();
    const rssAfterMb = mb(process.memoryUsage().rss);

    truth = {
      path: 'demo-truth (ground-truth tag poses → real tracker → roster → diff → ws; devil-to-pay rules on their worker → diff → ws); no rendering/detection',
      latencyNote: 'from the wire: latencyMs: capture → first delta with that frame\'s poses; annotationLatencyMs: evaluatedState.captureTimeMs → first delta carrying that evaluation; annotationChangedLatencyMs: the same, deltas whose evaluation changed only',
      stands: live.pipeline.state().tableState.stands.length,
      sourceFps: fps,
      replaySpeed: speed,
      oneViewer: {
        loadAvg: { start: loadStart, end: loadEnd },
        ...clientSummary(one),
        stagesMs: stageSummary(stages!.samples),
        eventLoopDelayMs,
        publishedPerS: round(published1 / (loopMs / 1000), 1),
        deliveredPerS: round(one.deltas / (loopMs / 1000), 1),
      },
      fiftyViewers: {
        latencyMs: summary(all),
        publishedPerS: round(published2 / phase2S, 1),
        deliveredPerSPerViewer: { median: round(median(rates), 1), min: round(Math.min(...rates), 1) },
        totalMBPerS: round(bytes / phase2S / 1024 / 1024, 2),
      },
      rssMb: { note: 'server process (viewers run in a child process)', before50: rssBeforeMb, with50: rssWith50Mb, after50: rssAfterMb },
    };
  } finally {
    await live.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return truth;
}
