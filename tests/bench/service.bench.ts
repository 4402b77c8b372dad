/**
 * Service bench: frame capture → delta received by a ws client latency on the demo replay, and the
 * delivered rate with 50 viewers on loopback, with RSS before/after. The path measured is stated in the
 * result (`path`): 'demo-truth' = ground-truth tag poses → tracker → roster → rules → publish → ws
 * (no rendering or detection); the detector path is measured when it exists.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { ServerMessage } from '@muster/protocol';
import { startLive } from '../../apps/vision/src/app/startLive.ts';
import { median, percentile, round } from './stats.ts';

interface Viewer {
  ws: WebSocket;
  latenciesMs: number[];
  deltas: number;
  bytes: number;
}

async function connect(url: string): Promise<Viewer> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`);
  const v: Viewer = { ws, latenciesMs: [], deltas: 0, bytes: 0 };
  ws.on('message', (data: Buffer) => {
    const now = Date.now();
    v.bytes += data.length;
    const msg = JSON.parse(data.toString()) as ServerMessage;
    if (msg.type === 'delta') {
      v.deltas++;
      v.latenciesMs.push(now - msg.captureTimeMs);
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

export async function run(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'muster-bench-service-'));
  const fps = 10;
  const speed = 5; // the 150 s battle in 30 s: every phase (advance, fire, charge) is covered
  const live = await startLive({ source: { mode: 'demo', demoSource: 'truth', fps, speed }, dataDir, host: '127.0.0.1', port: 0, operatorToken: 'bench-token' });
  try {
    // Phase 1: one viewer, a whole loop of the battle.
    const one = await connect(live.url);
    const loopMs = (150 / speed) * 1000;
    process.stderr.write(`service bench: 1 viewer for ${loopMs / 1000} s...\n`);
    const seq0 = live.pipeline.state().seq;
    await sleep(loopMs);
    const published1 = live.pipeline.state().seq - seq0;
    const processing = live.pipeline.state().health.processingMs;
    one.ws.close();

    // Phase 2: 50 viewers.
    global.gc?.();
    const rssBeforeMb = mb(process.memoryUsage().rss);
    const viewers = await Promise.all(Array.from({ length: 50 }, () => connect(live.url)));
    const phase2S = 15;
    process.stderr.write(`service bench: 50 viewers for ${phase2S} s...\n`);
    const seq1 = live.pipeline.state().seq;
    await sleep(phase2S * 1000);
    const published2 = live.pipeline.state().seq - seq1;
    const rssWith50Mb = mb(process.memoryUsage().rss);
    const rates = viewers.map((v) => v.deltas / phase2S);
    const all = viewers.flatMap((v) => v.latenciesMs);
    const bytes = viewers.reduce((s, v) => s + v.bytes, 0);
    for (const v of viewers) v.ws.close();
    await sleep(500);
    global.gc?.();
    const rssAfterMb = mb(process.memoryUsage().rss);

    return {
      path: 'demo-truth (ground-truth tag poses → real tracker → roster → devil-to-pay rules → diff → ws); no rendering/detection',
      stands: live.pipeline.state().tableState.stands.length,
      sourceFps: fps,
      replaySpeed: speed,
      oneViewer: {
        latencyMs: summary(one.latenciesMs),
        publishedPerS: round(published1 / (loopMs / 1000), 1),
        deliveredPerS: round(one.deltas / (loopMs / 1000), 1),
        medianProcessingMs: processing,
      },
      fiftyViewers: {
        latencyMs: summary(all),
        publishedPerS: round(published2 / phase2S, 1),
        deliveredPerSPerViewer: { median: round(median(rates), 1), min: round(Math.min(...rates), 1) },
        totalMBPerS: round(bytes / phase2S / 1024 / 1024, 2),
      },
      rssMb: { before50: rssBeforeMb, with50: rssWith50Mb, after50: rssAfterMb },
    };
  } finally {
    await live.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
