/**
 * The composition root: the one place that wires a source → (detector) → tracker → roster → rules →
 * publisher → server. `startLive` returns once the server listens; `stop()` undoes everything.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRoster } from '../roster/loadRoster.ts';
import type { Roster } from '../roster/roster.ts';
import { openDataStore, type DataStore } from '../persist/dataStore.ts';
import { DataDirLockedError } from '../persist/dataLock.ts';
import type { RunningServer } from '../server/createServer.ts';
import { startLiveServer, type LiveServer } from './liveServer.ts';
import { loadDemoScript, type DemoScript } from '../demo/demoScript.ts';
import { createTruthSource, type TickSource } from '../demo/truthSource.ts';
import type { FrameDetector } from '../detect/frameDetector.ts';
import type { FrameDetection, GrayFrame } from '../pipeline/types.ts';
import { openGameSession } from './gameSession.ts';
import type { CameraLiveOptions } from './startCamera.ts';
import { createLivePipeline, type LivePipeline } from './livePipeline.ts';
import { loadRuleset } from './rules.ts';
import { createResilientScanner, createTrackedDetect, type ResilientScanner } from './resilientScanner.ts';
import { createBackgroundScanner } from '../detect/backgroundScanner.ts';
import { openProjectorCalibration } from '../calibrate/projectorCalibrationStore.ts';
import { createNewestFrameLoop } from './newestFrameLoop.ts';
import { createScanBackoff } from './scanBackoff.ts';

/** Repository root (this file is apps/vision/src/app/startLive.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const DEFAULT_DEMO_SCRIPT = join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json');
export const DEFAULT_VIEWS_DIR = join(REPO_ROOT, 'apps/overlay/dist');
export const DEFAULT_DEMO_TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');


/** Frames source: start a background full-frame scan at most this often while frames are on time (see scanBackoff.ts). */
const SCAN_EVERY_MS = 400;

export interface DemoLiveOptions {
  readonly mode: 'demo';
  /** 'truth': ground-truth poses from the script; 'frames': rendered frames through the detector. */
  readonly demoSource: 'truth' | 'frames';
  readonly scriptPath?: string;
  /** Frames per second of the demo source. Default 10 (truth). */
  readonly fps?: number;
  /** Replay speed. Default 1. */
  readonly speed?: number;
  /** Rendered frame size for 'frames' (default 1920×1080). */
  readonly frameSize?: { readonly widthPx: number; readonly heightPx: number };
  /** Table profile for 'frames' (default fixtures/demo/demo-table.json: 1" tags, DICT_4X4_250). */
  readonly tablePath?: string;
  /** Cached frames per second of battle time for 'frames' (default 2; the bench uses fewer). */
  readonly cacheFps?: number;
}

export interface LiveOptions {
  readonly source: DemoLiveOptions | CameraLiveOptions;
  /** Data directory; the demo keeps its own game in `<dataDir>/demo`. */
  readonly dataDir: string;
  readonly host?: string;
  readonly port?: number;
  readonly viewsDir?: string;
  /** Default: a fresh random token. */
  readonly operatorToken?: string;
  readonly rulesetId?: string;
  /** Extra server options (tests: hub thresholds). */
  readonly hubHighWaterBytes?: number;
}

export interface RunningLive {
  readonly url: string;
  readonly operatorToken: string;
  readonly server: RunningServer;
  readonly pipeline: LivePipeline;
  readonly store: DataStore;
  readonly sourceDescription: string;
  readonly rulesNote: string;
  /** Frames source only: frames rendered into the cache so far, and in one loop. */
  readonly frameCache: { cached(): number; readonly total: number } | null;
  stop(): Promise<void>;
}

export async function startLive(options: LiveOptions): Promise<RunningLive> {
  const src = options.source;
  // Vision modules load only when used, so the default demo never depends on them.
  if (src.mode === 'camera') return (await import('./startCamera.ts')).startCamera(src, options);
  const scriptPath = src.scriptPath ?? DEFAULT_DEMO_SCRIPT;
  // The script names its roster relative to the repository root.
  const { readFileSync } = await import('node:fs');
  const rosterRef = (JSON.parse(readFileSync(scriptPath, 'utf8')) as { roster?: unknown }).roster;
  if (typeof rosterRef !== 'string') throw new Error(`${scriptPath}: "roster" must name the roster file`);
  const rosterPath = resolve(REPO_ROOT, rosterRef);
  const roster: Roster = await loadRoster(rosterPath);
  const script: DemoScript = loadDemoScript(scriptPath, roster);

  let store: DataStore;
  let dataNote = '';
  try {
    store = openDataStore(join(options.dataDir, 'demo'));
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    // Another demo runs on this data directory: run this one on its own (the demo must always start).
    store = openDataStore(join(options.dataDir, `demo-${process.pid}`));
    dataNote = ` (${join(options.dataDir, 'demo')} is used by pid ${err.pid}; this demo keeps its game apart)`;
  }
  const frameSize = src.frameSize ?? { widthPx: 1920, heightPx: 1080 };
  const tablePath = src.tablePath ?? DEFAULT_DEMO_TABLE;
  store.write('roster', roster);
  store.write('table-profile', { name: script.name, widthIn: script.table.widthIn, depthIn: script.table.depthIn, anchors: script.anchors });

  const { session, forwardLogTo } = openGameSession({
    store,
    baseRoster: roster,
    initialTerrain: script.terrain,
    seed: script.name,
    // The action deck comes from the rule set the rules run with.
    ...(options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {}),
  });
  const rules = await loadRuleset(options.rulesetId);
  const pipeline = createLivePipeline({
    session,
    table: script.table,
    ruleset: rules.ruleset,
    rulesUnavailableReason: rules.note,
    // Rules run on a worker thread so a slow evaluation never holds back the poses.
    ...(rules.ruleset ? { rulesWorker: options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {} } : {}),
    profile: {
      name: script.name,
      source: src.demoSource === 'frames' ? 'demo-frames' : 'demo-truth',
      frameWidthPx: src.demoSource === 'frames' ? frameSize.widthPx : null,
      frameHeightPx: src.demoSource === 'frames' ? frameSize.heightPx : null,
    },
    tableProfileDoc: { name: script.name, ...script.table, anchors: script.anchors },
    poseLogBy: 'demo',
  });
  forwardLogTo((e) => pipeline.notifyLog(e));

  let live: LiveServer;
  try {
    live = await startLiveServer(pipeline, {
      ...(options.operatorToken !== undefined ? { operatorToken: options.operatorToken } : {}),
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      viewsDir: options.viewsDir ?? DEFAULT_VIEWS_DIR,
      // The demo must always start: a bad saved projector calibration is reported, not fatal.
      projector: openProjectorCalibration(store, { tolerateBadSaved: true, warn: (m) => console.error(`muster: ${m}`) }),
      ...(options.hubHighWaterBytes !== undefined ? { hubHighWaterBytes: options.hubHighWaterBytes } : {}),
    });
  } catch (err) {
    session.close();
    throw err;
  }
  const { server, operatorToken } = live;

  const fps = src.fps ?? (src.demoSource === 'frames' ? 5 : 10);
  let stopSource: () => Promise<void>;
  let frameCache: RunningLive['frameCache'] = null;
  let description: string;
  const onFrameError = (err: unknown): void => console.error('muster: frame failed:', err);
  if (src.demoSource === 'frames') {
    let detector: FrameDetector;
    let scanner: ResilientScanner | null = null;
    // Scans back off while frames come out late (they would only make the next frames later still).
    const scanBackoff = createScanBackoff({ baseIntervalMs: SCAN_EVERY_MS, lateAfterMs: Math.max(60, 500 / fps) });
    let anchorIds = new Set<number>();
    let createFramesSource: typeof import('../demo/framesSource.ts').createFramesSource;
    try {
      const { loadTableProfile } = await import('../profile/tableProfile.ts');
      const { createFrameDetector } = await import('../detect/frameDetector.ts');
      ({ createFramesSource } = await import('../demo/framesSource.ts'));
      const profile = loadTableProfile(tablePath);
      anchorIds = new Set(profile.anchors.map((a) => a.id));
      // Full-frame scans (new stands) run on the scanner's worker thread, never in the frame loop.
      // All thresholds: the demo replays identical frames, so a tag one scan misses every scan would miss.
      scanner = await createResilientScanner(profile, (m) => console.error(`muster: ${m}`), (p) => createBackgroundScanner(p, { allThresholds: true }), scanBackoff);
      detector = await createFrameDetector(profile, { backgroundScanner: scanner });
    } catch (err) {
      await scanner?.dispose();
      await server.close();
      pipeline.close();
      session.close();
      throw err;
    }
    const detectTracked = createTrackedDetect(detector, scanner!, anchorIds);
    const frames = createFramesSource({
      script,
      scriptPath,
      rosterPath,
      tablePath,
      dataDir: options.dataDir,
      ...frameSize,
      playFps: fps,
      speed: src.speed ?? 1,
      ...(src.cacheFps !== undefined ? { cacheFps: src.cacheFps } : {}),
      onLog: (line) => console.error(`muster: ${line}`),
    });
    // Newest frame wins: a frame is detected on a later turn of the event loop (after pending rules
    // results), and one a newer frame replaced meanwhile is dropped, never detected late.
    const frameLoop = createNewestFrameLoop<GrayFrame>({
      // Tracked mode only (around predicted tags and the background scan's newest finds), even with
      // no predictions yet: then the anchors are searched and stands arrive from the first scan.
      process: (frame) => pipeline.process(detectTracked(frame, pipeline.predictions(frame.captureTimeMs))),
      onOutcome: (outcome) => scanBackoff.frameDone(outcome),
      onError: onFrameError,
    });
    frames.start((frame) => {
      live.setNewestFrame(frame);
      frameLoop.offer(frame);
    });
    frameCache = { cached: () => frames.cached(), total: frames.spec.frames };
    stopSource = async () => {
      frameLoop.close();
      await frames.stop();
      detector.dispose();
      await scanner?.dispose();
    };
    description = `demo "${script.name}" from rendered ${frameSize.widthPx}×${frameSize.heightPx} frames through the detector at ${fps} fps (${frames.mode === 'live' ? 'rendered live' : `cache ${frames.spec.dir}: ${frames.cached()}/${frames.spec.frames} frames rendered`})`;
  } else {
    const source: TickSource = createTruthSource({ script, roster, fps, speed: src.speed ?? 1 });
    const detectionLoop = createNewestFrameLoop<FrameDetection>({ process: (d) => pipeline.process(d), onError: onFrameError });
    source.start((detection) => detectionLoop.offer(detection));
    stopSource = async () => {
      detectionLoop.close();
      source.stop();
    };
    description = `demo "${script.name}" from ground-truth poses at ${fps} fps (${scriptPath})`;
  }

  let stopped = false;
  return {
    url: server.url,
    operatorToken,
    server,
    pipeline,
    store,
    sourceDescription: description + dataNote,
    frameCache,
    rulesNote: rules.note,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await stopSource();
      await server.close();
      pipeline.close();
      session.close();
    },
  };
}

export function viewsBuilt(viewsDir = DEFAULT_VIEWS_DIR): boolean {
  return existsSync(join(viewsDir, 'index.html'));
}
