/**
 * Views bench: a crowded table (200 stands, ~100 shapes) in the map view, one stand moving per published
 * state. Reports, per viewport size, the main-thread time of a frame (rebuilding the changed groups, and
 * submitting to WebGL) from the page's own hooks, and publish → drawn latency (server publish until the
 * page reports that seq drawn). Headless Chromium with SwiftShader: with software compositing Chrome reads
 * the WebGL canvas back on every commit and the main thread waits for the rasteriser, so this is a floor for
 * "how slow can a weak machine get", not a GPU number.
 */
import type { Shape, Stand, Unit } from '@muster/rules';
import { startServer } from '../../apps/server/src/http/createServer.ts';
import { ensureViewsBuilt, VIEWS_DIST } from '../e2e/helpers/buildViews.ts';
import { fixtureLiveState } from '../e2e/helpers/fixtureScene.ts';
import { SceneBackend } from '../e2e/helpers/sceneBackend.ts';
import { median, percentile, round } from './stats.ts';
import { launchChromium } from '../e2e/helpers/browser.ts';
import { measureDemoView, type DemoViewFigures } from './viewsDemo.ts';

/** Seconds each demo view is measured for. */
const DEMO_MEASURE_MS = 12_000;
/** Rounds of (map, operator) × builds. */
const DEMO_ROUNDS = 2;

/**
 * The demo battle at 1600×900 in the map and operator views, for the build under test and, when
 * `MUSTER_VIEWS_BASELINE` names another views build (e.g. one built from an earlier commit with
 * `vite build --outDir /tmp/views-before`), for that build in the same run, with after/before ratios.
 */
async function demoFigures(browser: Awaited<ReturnType<typeof launchChromium>>): Promise<Record<string, unknown>> {
  const builds: [string, string][] = [['current', VIEWS_DIST]];
  const baseline = process.env.MUSTER_VIEWS_BASELINE;
  if (baseline) builds.unshift(['baseline', baseline]);
  // Builds alternate within each round, so load from elsewhere on the machine falls on both alike; each
  // figure is the median over the rounds.
  const runs: Record<string, Record<string, DemoViewFigures[]>> = {};
  for (let round = 0; round < DEMO_ROUNDS; round++) {
    for (const [view, path] of [['map', '/'], ['operator', '/operator.html?token={token}']] as const) {
      for (const [name, dir] of builds) {
        process.stderr.write(`bench: views demo round ${round + 1} ${view} ${name}\n`);
        ((runs[name] ??= {})[view] ??= []).push(await measureDemoView(browser, dir, path, DEMO_MEASURE_MS));
      }
    }
  }
  const out: Record<string, Record<string, Record<string, number>>> = {};
  for (const [name, views] of Object.entries(runs)) {
    out[name] = {};
    for (const [view, list] of Object.entries(views)) {
      const keys = Object.keys(list[0]!) as (keyof DemoViewFigures)[];
      out[name]![view] = Object.fromEntries(keys.map((k) => [k, round(median(list.map((f) => f[k])), 1)]));
    }
  }
  const result: Record<string, unknown> = { viewport: '1600x900', measuredS: DEMO_MEASURE_MS / 1000, rounds: DEMO_ROUNDS, ...out };
  if (out.baseline) {
    const ratios: Record<string, Record<string, number>> = {};
    for (const view of Object.keys(out.current!)) {
      const a = out.current![view]!;
      const b = out.baseline[view]!;
      ratios[view] = Object.fromEntries(Object.keys(a).map((k) => [k, b[k] ? round(a[k]! / b[k]!, 2) : NaN]));
    }
    result.currentOverBaseline = ratios;
  }
  return result;
}

const UNITS = 50;
const STANDS_PER_UNIT = 4;
const UPDATES = 40;

function crowdedState() {
  const base = fixtureLiveState();
  const stands: Stand[] = [];
  const units: Unit[] = [];
  const shapes: Shape[] = [...base.evaluation!.shapes];
  for (let u = 0; u < UNITS; u++) {
    const cx = 6 + (u % 10) * 7;
    const cy = 4 + Math.floor(u / 10) * 9;
    const ids: string[] = [];
    for (let k = 0; k < STANDS_PER_UNIT; k++) {
      const id = `b${u}-${k}`;
      ids.push(id);
      stands.push({ id, unitId: `b${u}`, pose: { xIn: cx - 2.25 + k * 1.5, yIn: cy, headingDeg: 90 }, widthIn: 1.5, depthIn: 1, role: 'base' });
    }
    units.push({ id: `b${u}`, name: `Unit ${u}`, side: u % 2 ? 'union' : 'confederate', arm: 'infantry', quality: 'veteran', weapon: 'rifled-musket', standIds: ids });
    shapes.push({ id: `b${u}/arc`, kind: 'sector', layer: 'fire', style: 'arc', unitId: `b${u}`, center: { xIn: cx, yIn: cy + 0.5 }, radiusIn: 12, startDeg: 45, endDeg: 135 });
    shapes.push({ id: `b${u}/reach`, kind: 'circle', layer: 'movement', style: 'reach', unitId: `b${u}`, center: { xIn: cx, yIn: cy }, radiusIn: 6 });
  }
  return { ...base, tableState: { ...base.tableState, stands, units }, evaluation: { ...base.evaluation!, shapes } };
}

export async function run(): Promise<Record<string, unknown>> {
  ensureViewsBuilt();
  const backend = new SceneBackend(crowdedState());
  const server = await startServer({ backend, operatorToken: 'bench-token', host: '127.0.0.1', port: 0, viewsDir: VIEWS_DIST });
  const browser = await launchChromium();
  const result: Record<string, unknown> = {
    path: 'publish → ws delta → store → rebuild changed groups → WebGL (SwiftShader) → hook reports seq',
    stands: UNITS * STANDS_PER_UNIT,
    shapes: backend.state().evaluation!.shapes.length,
    updates: UPDATES,
  };
  try {
    result.demo = await demoFigures(browser);
    for (const viewport of [{ width: 1280, height: 800 }, { width: 640, height: 400 }]) {
      const page = await browser.newPage({ viewport });
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => window.__muster?.ready === true, undefined, { timeout: 30_000 });
      const latencies: number[] = [];
      const rebuild: number[] = [];
      const submit: number[] = [];
      for (let i = 0; i < UPDATES; i++) {
        const t0 = performance.now();
        const next = backend.publish((s) => ({
          ...s,
          tableState: { ...s.tableState, stands: s.tableState.stands.map((x, j) => (j === i % s.tableState.stands.length ? { ...x, pose: { ...x.pose, xIn: x.pose.xIn + 0.1 } } : x)) },
        }));
        await page.waitForFunction((q) => (window.__muster?.lastSeq ?? -1) >= q, next.seq, { polling: 'raf', timeout: 30_000 });
        latencies.push(performance.now() - t0);
        const [rb, r] = await page.evaluate(() => [window.__muster!.lastRebuildMs, window.__muster!.lastRenderMs]);
        rebuild.push(rb!);
        submit.push(r!);
      }
      result[`${viewport.width}x${viewport.height}`] = {
        publishToDrawnMsMedian: round(median(latencies), 1),
        publishToDrawnMsP90: round(percentile(latencies, 90), 1),
        rebuildMsMedian: round(median(rebuild), 2),
        webglSubmitMsMedian: round(median(submit), 2),
      };
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return result;
}
