/**
 * Camera mode of the composition root: a frame source (webcam, IP camera, video file or folder of frames,
 * `sources/openFrameSource`) → detector (table profile) → the same pipeline, session and server as the
 * demo. The roster and table profile given on the command line are saved in the data directory, so a
 * later start without them continues the same game.
 */
import { readFileSync } from 'node:fs';
import { parseRoster } from '../roster/loadRoster.ts';
import { parseTableProfile, type TableProfile } from '../profile/tableProfile.ts';
import type { Roster } from '../roster/roster.ts';
import { createFrameDetector } from '../detect/frameDetector.ts';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketFrameSource } from '../sources/webSocketFrameSource.ts';
import { tokenMatches } from '../server/operatorToken.ts';
import { createLensModel, loadLensModel, parseLensCalibration, type LensModel } from '../calibrate/lensModel.ts';
import { frameSourceKind, openFrameSource } from '../sources/openFrameSource.ts';
import type { FrameSource } from '../sources/frameSource.ts';
import { openDataStore } from '../persist/dataStore.ts';
import { openProjectorCalibration, type ProjectorCalibrationSource } from '../calibrate/projectorCalibrationStore.ts';
import { startLiveServer, type LiveServer } from './liveServer.ts';
import { openGameSession } from './gameSession.ts';
import { createLivePipeline } from './livePipeline.ts';
import { loadRuleset } from './rules.ts';
import { createResilientScanner, createTrackedDetect, type ResilientScanner } from './resilientScanner.ts';
import { createBackgroundScanner } from '../detect/backgroundScanner.ts';
import { createNewestFrameLoop } from './newestFrameLoop.ts';
import { createScanBackoff } from './scanBackoff.ts';
import type { GrayFrame } from '../pipeline/types.ts';
import { DEFAULT_VIEWS_DIR, type LiveOptions, type RunningLive } from './startLive.ts';

export interface CameraLiveOptions {
  readonly mode: 'camera';
  /** Device, URL, video file or folder (see openFrameSource). */
  readonly spec: string;
  /** Table profile JSON; default: the one saved in the data directory. */
  readonly tablePath?: string;
  /** Army file (YAML/JSON); default: the one saved in the data directory. */
  readonly rosterPath?: string;
  /**
   * Lens calibration JSON (`muster calibrate lens`); saved in the data directory like the table profile,
   * so later starts use it without the option. Without one, corners are used as the camera gives them.
   */
  readonly lensPath?: string;
  /** Projector calibration JSON (`muster calibrate projector`); saved likewise, served at `/api/projector`. */
  readonly projectorPath?: string;
  readonly fps?: number;
}

/** A saved source document: the file as given, re-parsed at start. */
interface SavedSource {
  readonly sourceName: string;
  readonly text: string;
}


function checkSaved(v: unknown): SavedSource {
  const o = v as Partial<SavedSource>;
  if (typeof o?.sourceName !== 'string' || typeof o.text !== 'string') throw new Error('expected { sourceName, text }');
  return o as SavedSource;
}

function readSource(path: string, what: string): SavedSource {
  try {
    return { sourceName: path, text: readFileSync(path, 'utf8') };
  } catch (err) {
    throw new Error(`${path}: cannot read the ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** `--camera phone`: frames pushed by the phone page (`/phone.html`) over a WebSocket on this path. */
export const PHONE_CAMERA = 'phone';
export const PHONE_CAMERA_PATH = '/camera';

/**
 * Takes upgrades on the phone path, only with the operator token (`?token=`): whoever sends frames
 * decides what the table shows, so a viewer may not.
 */
function phoneUpgrade(source: WebSocketFrameSource, operatorToken: string) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PHONE_CAMERA_PATH) return false;
    if (!tokenMatches(url.searchParams.get('token') ?? '', operatorToken)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return true;
    }
    return source.handleUpgrade(req, socket, head);
  };
}

export async function startCamera(src: CameraLiveOptions, options: LiveOptions): Promise<RunningLive> {
  const store = openDataStore(options.dataDir);
  const rosterDoc = src.rosterPath !== undefined ? readSource(src.rosterPath, 'roster') : store.read('roster', checkSaved);
  const tableDoc = src.tablePath !== undefined ? readSource(src.tablePath, 'table profile') : store.read('table-profile', checkSaved);
  if (!rosterDoc || !tableDoc) {
    store.close();
    throw new Error(`camera mode needs --table and --roster the first time (nothing saved in ${store.dir})`);
  }
  let roster: Roster;
  let profile: TableProfile;
  try {
    roster = parseRoster(rosterDoc.text, rosterDoc.sourceName);
    let json: unknown;
    try {
      json = JSON.parse(tableDoc.text);
    } catch (err) {
      throw new Error(`${tableDoc.sourceName}: not valid JSON (${(err as Error).message})`);
    }
    profile = parseTableProfile(json, tableDoc.sourceName);
  } catch (err) {
    store.close();
    throw err;
  }
  // Only files that parsed are saved: a bad --roster never replaces a good saved one.
  if (src.rosterPath !== undefined) store.write('roster', rosterDoc);
  if (src.tablePath !== undefined) store.write('table-profile', tableDoc);

  const table = { widthIn: profile.widthIn, depthIn: profile.heightIn };
  const { session, forwardLogTo } = openGameSession({
    store,
    baseRoster: roster,
    seed: roster.name,
    // The action deck comes from the rule set the rules run with.
    ...(options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {}),
  });
  const { ruleset, note: rulesNote } = await loadRuleset(options.rulesetId);
  // A lens given on the command line is checked before anything is saved; a bad file stops the start
  // and leaves the saved calibration as it was.
  let lens: LensModel | null = null;
  let calibration: unknown = null;
  let projector: ProjectorCalibrationSource;
  try {
    if (src.lensPath !== undefined) {
      lens = loadLensModel(src.lensPath);
      calibration = JSON.parse(readFileSync(src.lensPath, 'utf8')) as unknown;
    } else {
      calibration = store.read('calibration', (v) => v) ?? null;
      if (calibration !== null) {
        try {
          lens = createLensModel(parseLensCalibration(calibration));
        } catch (err) {
          throw new Error(`the lens calibration saved in ${options.dataDir} is not usable (${(err as Error).message}); start once with --lens <file>`);
        }
      }
    }
    // Checked before it is saved: a bad --projector file stops the start and keeps the saved one.
    projector = openProjectorCalibration(store, src.projectorPath !== undefined ? { path: src.projectorPath } : {});
  } catch (err) {
    session.close();
    throw err;
  }
  if (src.lensPath !== undefined) store.write('calibration', calibration);
  const pipeline = createLivePipeline({
    session,
    table,
    ruleset,
    rulesUnavailableReason: rulesNote,
    // Rules run on a worker thread so a slow evaluation never holds back the poses.
    ...(ruleset ? { rulesWorker: options.rulesetId !== undefined ? { rulesetId: options.rulesetId } : {} } : {}),
    profile: { name: profile.sourceName, source: 'camera', frameWidthPx: null, frameHeightPx: null },
    tableProfileDoc: JSON.parse(tableDoc.text) as unknown,
    calibrationDoc: calibration ?? null,
    poseLogBy: 'vision',
  });
  forwardLogTo((e) => pipeline.notifyLog(e));

  let detector;
  let source: FrameSource;
  let scanner: ResilientScanner | null = null;
  // Scans back off while frames come out late (they would only make the next frames later still).
  // Late: over half the frame interval when the rate is known, else over 60 ms.
  const scanBackoff = createScanBackoff({ baseIntervalMs: 400, lateAfterMs: Math.max(60, src.fps !== undefined ? 500 / src.fps : 0) });
  let liveSource = true;
  try {
    // Full-frame scans (new stands) run on the scanner's worker, not in the frame loop (see createTrackedDetect).
    scanner = await createResilientScanner(profile, (m) => console.error(`muster: ${m}`), (p) => createBackgroundScanner(p, { allThresholds: true }), scanBackoff);
    detector = await createFrameDetector(profile, { backgroundScanner: scanner, ...(lens ? { lens } : {}) });
    liveSource = src.spec === PHONE_CAMERA || ['webcam', 'ip-camera'].includes(await frameSourceKind(src.spec));
    source = src.spec === PHONE_CAMERA ? new WebSocketFrameSource({ path: PHONE_CAMERA_PATH }) : await openFrameSource(src.spec, src.fps !== undefined ? { fps: src.fps } : {});
  } catch (err) {
    detector?.dispose();
    await scanner?.dispose();
    session.close();
    throw err;
  }
  let live: LiveServer;
  try {
    const phone = source instanceof WebSocketFrameSource ? source : null;
    live = await startLiveServer(pipeline, {
      ...(options.operatorToken !== undefined ? { operatorToken: options.operatorToken } : {}),
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      viewsDir: options.viewsDir ?? DEFAULT_VIEWS_DIR,
      projector,
      ...(options.hubHighWaterBytes !== undefined ? { hubHighWaterBytes: options.hubHighWaterBytes } : {}),
      ...(phone ? { otherUpgrade: (token: string) => phoneUpgrade(phone, token) } : {}),
    });
  } catch (err) {
    await source.close();
    detector.dispose();
    await scanner.dispose();
    session.close();
    throw err;
  }
  const { server, operatorToken } = live;
  source.on('error', (err) => console.error(`muster: camera ${src.spec}: ${err.message}`));
  const det = detector;
  const scan = scanner;
  const detectTracked = createTrackedDetect(det, scan, new Set(profile.anchors.map((a) => a.id)), true);
  const frames = source;
  let lensMismatchReported = false;
  const detectFrame = (frame: GrayFrame): void => {
    pipeline.process(detectTracked(frame, pipeline.predictions(frame.captureTimeMs)));
  };
  // A live camera: newest frame wins (frames a newer one replaced before detection are dropped, never
  // detected late). A recording: every frame, in order (its source waits for us).
  const frameLoop = liveSource
    ? createNewestFrameLoop<GrayFrame>({
        process: detectFrame,
        onOutcome: (outcome) => scanBackoff.frameDone(outcome),
        onError: (err) => console.error('muster: frame failed:', err),
      })
    : null;
  const loop = (async () => {
    try {
      for await (const frame of frames) {
        live.setNewestFrame(frame);
        if (lens && (frame.widthPx !== lens.imageWidthPx || frame.heightPx !== lens.imageHeightPx)) {
          // Every frame would fail the same way: say it once, clearly, and keep serving what we have.
          if (!lensMismatchReported) {
            lensMismatchReported = true;
            console.error(
              `muster: camera frames are ${frame.widthPx}×${frame.heightPx} but the lens calibration is for ` +
                `${lens.imageWidthPx}×${lens.imageHeightPx}; set the camera to that size or calibrate again at this one`,
            );
          }
          continue;
        }
        if (frameLoop) {
          frameLoop.offer(frame);
          continue;
        }
        const startMs = Date.now();
        try {
          detectFrame(frame);
        } catch (err) {
          console.error('muster: frame failed:', err);
        }
        scanBackoff.frameDone({ latencyMs: Date.now() - startMs, droppedBefore: 0 });
      }
    } catch (err) {
      console.error(`muster: camera ${src.spec} ended: ${(err as Error).message}`);
    }
  })();

  let stopped = false;
  return {
    url: server.url,
    operatorToken,
    server,
    pipeline,
    store,
    sourceDescription: `camera ${src.spec} with table ${profile.sourceName} and roster "${roster.name}"`,
    rulesNote,
    frameCache: null,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      frameLoop?.close();
      await frames.close();
      await loop;
      det.dispose();
      await scan.dispose();
      await server.close();
      pipeline.close();
      session.close();
    },
  };
}
