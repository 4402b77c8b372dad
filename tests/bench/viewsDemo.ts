/**
 * The demo battle as `npm start` serves it, in one view at 1600×900 under SwiftShader: how many frames a
 * second the page presents (requestAnimationFrame callbacks) and draws (the view's own frame count), how
 * busy its main thread is (Chrome's TaskDuration over wall time), its long tasks (> 50 ms), and publish →
 * drawn latency (the delta's `sentTimeMs`, stamped by the server, to the frame the page reports it drawn
 * in; one clock, one machine). Used by `views.bench.ts`, also against a baseline build of the views.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startLive } from '../../apps/server/src/compose/startLive.ts';
import { median, percentile, round } from './stats.ts';

const TOKEN = 'bench-views-demo';

/** Installed before any page script: notes each delta's seq and server send time as it arrives. */
const RECORDER = `(() => {
  const sent = new Map();
  window.__benchSent = sent;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        if (typeof ev.data !== 'string' || !ev.data.startsWith('{"type":"delta"')) return;
        const seq = /"seq":(\\d+)/.exec(ev.data);
        const at = /"sentTimeMs":(\\d+)/.exec(ev.data);
        if (seq && at) sent.set(Number(seq[1]), Number(at[1]));
      });
    }
  };
  const lat = [];
  window.__benchLatency = lat;
  window.__benchRaf = 0;
  let last = -1;
  const tick = () => {
    window.__benchRaf++;
    const m = window.__muster;
    if (m && m.lastSeq !== last) {
      last = m.lastSeq;
      const s = sent.get(last);
      if (s !== undefined) lat.push(Date.now() - s);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__benchLong = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__benchLong.push(e.duration); }).observe({ type: 'longtask', buffered: false });
  } catch {}
})();`;

/**
 * CPU seconds (user + system) used so far by this process's Chromium GPU and renderer processes, from
 * /proc: what the page costs whatever else the machine is doing (wall-clock figures fall with its load;
 * SwiftShader rasterises on worker threads of the GPU process, which the trace does not show).
 */
function chromiumCpuSeconds(): { gpu: number; renderer: number } {
  const tick = 100; // USER_HZ on Linux
  const procs = new Map<number, { ppid: number; cpuS: number; cmd: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      procs.set(Number(name), { ppid: Number(fields[1]), cpuS: (Number(fields[11]) + Number(fields[12])) / tick, cmd });
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = procs.get(pid), hops = 0; p && hops < 10; p = procs.get(p.ppid), hops++) if (p.ppid === process.pid) return true;
    return false;
  };
  let gpu = 0;
  let renderer = 0;
  for (const [pid, p] of procs) {
    if (!ours(pid)) continue;
    if (p.cmd.includes('--type=gpu-process')) gpu += p.cpuS;
    else if (p.cmd.includes('--type=renderer')) renderer += p.cpuS;
  }
  return { gpu, renderer };
}

export interface DemoViewFigures {
  readonly presentedFps: number;
  readonly drawnFps: number;
  readonly mainThreadBusyPct: number;
  /** Parts of it: running JavaScript (WebGL calls included), and style + layout (the DOM labels). */
  readonly scriptPct: number;
  readonly layoutAndStylePct: number;
  readonly longTasksOver50Ms: number;
  readonly longestTaskMs: number;
  readonly publishToDrawnMsMedian: number;
  readonly publishToDrawnMsP95: number;
  /** CPU time per drawn frame of Chromium's GPU process (SwiftShader) and renderers, ms: load-independent. */
  readonly gpuCpuMsPerFrame: number;
  readonly rendererCpuMsPerFrame: number;
}

/** Opens `path` on a live demo serving `viewsDir`, waits `warmupMs`, then measures for `measureMs`. */
export async function measureDemoView(browser: Browser, viewsDir: string, path: string, measureMs: number, warmupMs = 4000): Promise<DemoViewFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'muster-bench-views-'));
  const live = await startLive({ source: { mode: 'demo', demoSource: 'truth' }, dataDir, host: '127.0.0.1', port: 0, viewsDir, operatorToken: TOKEN });
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  try {
    await context.addInitScript(RECORDER);
    const page = await context.newPage();
    await page.goto(`${live.url}${path.replace('{token}', TOKEN)}`);
    await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 60_000 });
    await page.waitForTimeout(warmupMs);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metricSeconds = async (): Promise<Record<string, number>> => {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
    };
    const read = () =>
      page.evaluate(() => {
        const w = window as unknown as { __benchRaf: number; __benchLatency: number[]; __benchLong: number[] };
        return { raf: w.__benchRaf, frames: window.__muster!.frames, lat: w.__benchLatency.length, long: w.__benchLong.length };
      });
    const before = await read();
    const busy0 = await metricSeconds();
    const cpu0 = chromiumCpuSeconds();
    const t0 = performance.now();
    await page.waitForTimeout(measureMs);
    const after = await read();
    const busy1 = await metricSeconds();
    const cpu1 = chromiumCpuSeconds();
    const drawn = Math.max(1, after.frames - before.frames);
    const wallS = (performance.now() - t0) / 1000;
    const tail = await page.evaluate(
      ({ lat, long }) => {
        const w = window as unknown as { __benchLatency: number[]; __benchLong: number[] };
        return { latencies: w.__benchLatency.slice(lat), longTasks: w.__benchLong.slice(long) };
      },
      { lat: before.lat, long: before.long },
    );
    const latencies = tail.latencies.length > 0 ? tail.latencies : [NaN];
    return {
      presentedFps: round((after.raf - before.raf) / wallS, 1),
      drawnFps: round((after.frames - before.frames) / wallS, 1),
      mainThreadBusyPct: round((100 * (busy1.TaskDuration! - busy0.TaskDuration!)) / wallS, 1),
      scriptPct: round((100 * (busy1.ScriptDuration! - busy0.ScriptDuration!)) / wallS, 1),
      layoutAndStylePct: round((100 * (busy1.LayoutDuration! - busy0.LayoutDuration! + busy1.RecalcStyleDuration! - busy0.RecalcStyleDuration!)) / wallS, 1),
      longTasksOver50Ms: tail.longTasks.length,
      longestTaskMs: round(Math.max(0, ...tail.longTasks), 0),
      publishToDrawnMsMedian: round(median(latencies), 0),
      publishToDrawnMsP95: round(percentile(latencies, 95), 0),
      gpuCpuMsPerFrame: round((1000 * (cpu1.gpu - cpu0.gpu)) / drawn, 1),
      rendererCpuMsPerFrame: round((1000 * (cpu1.renderer - cpu0.renderer)) / drawn, 1),
    };
  } finally {
    await context.close();
    await live.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
