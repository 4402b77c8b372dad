/**
 * Service bench: frame capture → delta received by a ws client latency on the demo replay, and the
 * delivered rate with 50 viewers on loopback, with RSS before/after. The path measured is stated in the
 * result (`path`): 'demo-truth' = ground-truth tag poses → tracker → roster → publish → ws (no
 * rendering or detection); 'demo-frames' = rendered frames through the real detector. Two latencies,
 * because the rules run on a worker thread: `latencyMs` = capture → the first delta carrying that
 * frame's poses; `annotationLatencyMs` = capture of the frame whose table state was evaluated → the
 * delta carrying that evaluation (each evaluation is of the newest state the worker could take).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { ServerMessage } from '@muster/protocol';
import { startLive, type RunningLive } from '../../apps/vision/src/app/startLive.ts';
import { median, percentile, round } from './stats.ts';

const VIEWERS = join(import.meta.dirname, '../service/children/viewers.ts');

interface Viewer {
  ws: WebSocket;
  /** Capture → first delta carrying that frame's poses. */
  latenciesMs: number[];
  /** Capture of the frame whose state was evaluated → the delta carrying that evaluation. */
  annotationMs: number[];
  deltas: number;
  bytes: number;
}

/**
 * Which frame each published state's evaluation was computed from (the rules run on a worker, so a
 * state carries the poses of its own frame and the evaluation of an earlier one), by state seq.
 */
function trackEvaluatedFrames(live: RunningLive): { bySeq: Map<number, number>; stop: () => void } {
  const bySeq = new Map<number, number>();
  const stop = live.pipeline.subscribe((e) => {
    if (e.kind !== 'state') return;
    const f = live.pipeline.evaluationFrame();
    if (f) bySeq.set(live.pipeline.state().seq, f.captureTimeMs);
  });
  return { bySeq, stop };
}

async function connect(url: string, evaluated?: Map<number, number>): Promise<Viewer> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
  const v: Viewer = { ws, latenciesMs: [], annotationMs: [], deltas: 0, bytes: 0 };
  let lastFrameSeq = -1;
  ws.on('message', (data: Buffer) => {
    const now = Date.now();
    v.bytes += data.length;
    const msg = JSON.parse(data.toString()) as ServerMessage;
    if (msg.type === 'delta') {
      v.deltas++;
      // An evaluation arriving later republishes the same frame's poses: count each frame once.
      if (msg.frameSeq !== lastFrameSeq) v.latenciesMs.push(now - msg.captureTimeMs);
      lastFrameSeq = msg.frameSeq;
      const evalCapture = msg.evaluation ? evaluated?.get(msg.seq) : undefined;
      if (evalCapture !== undefined) v.annotationMs.push(now - evalCapture);
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return v;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number): number => round(bytes / 1024 / 1024, 1);

function summary(latencies: number[]): Record<string, number> {
  return { p50: round(median(latencies), 1), p95: round(percentile(latencies, 95), 1), max: round(Math.max(...latencies), 1), samples: latencies.length };
}

interface StageSamples {
  detectMs: number[];
  trackMs: number[];
  rosterMs: number[];
  rulesMs: number[];
  publishMs: number[];
}

function recordStages(live: RunningLive): { samples: StageSamples; stop: () => void } {
  const samples: StageSamples = { detectMs: [], trackMs: [], rosterMs: [], rulesMs: [], publishMs: [] };
  let last = live.pipeline.state().frameSeq;
  // Inside a 'state' listener lastTimings() is the previous publication's (its publish time is only
  // known after). Only frame publications are sampled (not the evaluation republications).
  const unsubscribe = live.pipeline.subscribe((e) => {
    if (e.kind !== 'state') return;
    const seq = live.pipeline.state().frameSeq;
    if (seq === last) return;
    last = seq;
    const t = live.pipeline.lastTimings();
    samples.detectMs.push(t.detectMs);
    samples.trackMs.push(t.trackMs);
    samples.rosterMs.push(t.rosterMs);
    samples.rulesMs.push(t.rulesMs);
    samples.publishMs.push(t.publishMs);
  });
  return { samples, stop: unsubscribe };
}

function stageSummary(s: StageSamples): Record<string, { p50: number; p95: number }> {
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const [k, v] of Object.entries(s) as [keyof StageSamples, number[]][]) {
    if (v.length > 0) out[k] = { p50: round(median(v), 1), p95: round(percentile(v, 95), 1) };
  }
  return out;
}

/** The real detector path: a few rendered frames (cached in a temp dir), replayed through the detector. */
async function framesPath(widthPx: number, heightPx: number, framesInLoop: number, playS: number): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'muster-bench-frames-'));
  const speed = 8;
  const live = await startLive({
    source: { mode: 'demo', demoSource: 'frames', fps: 5, speed, frameSize: { widthPx, heightPx }, cacheFps: framesInLoop / 150 },
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
    const evaluated = trackEvaluatedFrames(live);
    const viewer = await connect(live.url, evaluated.bySeq);
    await sleep(1500); // tracker settles; the first background scans have found the stands
    viewer.latenciesMs.length = 0;
    viewer.annotationMs.length = 0;
    const stages = recordStages(live);
    process.stderr.write(`service bench: ${widthPx}×${heightPx} frames through the detector, 1 viewer for ${playS} s...\n`);
    await sleep(playS * 1000);
    stages.stop();
    evaluated.stop();
    viewer.ws.close();
    const state = live.pipeline.state();
    return {
      path: `demo-frames ${widthPx}×${heightPx} (cached rendered frame, decoded → real detector (tracked on the frame loop, full-frame scans on the background worker) → tracker → roster → ws; rules on their worker)`,
      framesRendered: cache.total,
      renderSPerFrame: round(renderS / cache.total, 1),
      standsTracked: state.tableState.stands.length,
      latencyMs: summary(viewer.latenciesMs),
      annotationLatencyMs: summary(viewer.annotationMs),
      stagesMs: stageSummary(stages.samples),
      deliveredPerS: round(viewer.deltas / playS, 1),
    };
  } finally {
    await live.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'muster-bench-service-'));
  const fps = 10;
  const speed = 5; // the 150 s battle in 30 s: every phase (advance, fire, charge) is covered
  const live = await startLive({ source: { mode: 'demo', demoSource: 'truth', fps, speed }, dataDir, host: '127.0.0.1', port: 0, operatorToken: 'bench-token' });
  let truth: Record<string, unknown>;
  try {
    // Phase 1: one viewer, a whole loop of the battle.
    const evaluated = trackEvaluatedFrames(live);
    const one = await connect(live.url, evaluated.bySeq);
    const loopMs = (150 / speed) * 1000;
    process.stderr.write(`service bench: truth path, 1 viewer for ${loopMs / 1000} s...\n`);
    const seq0 = live.pipeline.state().seq;
    const stages = recordStages(live);
    await sleep(loopMs);
    stages.stop();
    evaluated.stop();
    const published1 = live.pipeline.state().seq - seq0;
    one.ws.close();

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
      latencyNote: 'latencyMs: capture → first delta with that frame\'s poses; annotationLatencyMs: capture of the frame whose state was evaluated → the delta carrying that evaluation',
      stands: live.pipeline.state().tableState.stands.length,
      sourceFps: fps,
      replaySpeed: speed,
      oneViewer: {
        latencyMs: summary(one.latenciesMs),
        annotationLatencyMs: summary(one.annotationMs),
        stagesMs: stageSummary(stages.samples),
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
  const frames1080 = await framesPath(1920, 1080, 8, 20);
  const frames4k = await framesPath(3840, 2160, 3, 20);
  return { truth, frames1080p: frames1080, frames4k };
}
