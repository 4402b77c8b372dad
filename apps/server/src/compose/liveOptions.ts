/**
 * What a start of the live service is asked for (`LiveOptions`: the demo or a camera) and what it hands
 * back (`RunningLive`), with the repository paths the defaults live at. Types and constants only, shared
 * by the demo (`startDemo.ts`) and camera (`startCamera.ts`) composition roots.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningServer, TlsCredentials } from '../http/createServer.ts';
import type { RateLimit } from '../http/tokenBucket.ts';
import type { LivePipeline } from '../live/livePipeline.ts';
import type { DataStore } from '../persist/dataStore.ts';

/** Repository root (this file is apps/server/src/compose/liveOptions.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const DEFAULT_DEMO_SCRIPT = join(REPO_ROOT, 'fixtures/demo/opening-battle.demo.json');
/** A rule set's own demo battle, moving its example army: `fixtures/demo/<rule set id>.demo.json`. */
export const rulesetDemoScript = (rulesetId: string): string => join(REPO_ROOT, 'fixtures/demo', `${rulesetId}.demo.json`);
export const DEFAULT_VIEWS_DIR = join(REPO_ROOT, 'apps/overlay/dist');
export const DEFAULT_DEMO_TABLE = join(REPO_ROOT, 'fixtures/demo/demo-table.json');

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
  /** What to ask of a webcam (`--camera-size`, `--camera-fps`, `--camera-format`); refused for other sources. */
  readonly camera?: { readonly widthPx?: number; readonly heightPx?: number; readonly fps?: number; readonly format?: 'mjpeg' | 'yuyv' | 'h264' };
}

/** The server's connection and rate limits (`ServerOptions`, `LiveHubOptions`); each defaults to the server's. */
export interface ServerLimits {
  readonly maxConnections?: number;
  readonly maxConnectionsPerAddress?: number;
  readonly upgradeRate?: RateLimit;
  readonly messageRate?: RateLimit;
  readonly resyncRate?: RateLimit;
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
  /** Serve https and wss with this certificate (PEM, its chain after it) and key; default plain http. */
  readonly tls?: TlsCredentials;
  readonly rulesetId?: string;
  /** Extra server options (tests: hub thresholds). */
  readonly hubHighWaterBytes?: number;
  /** Most ws viewers at once (`--max-clients`); default the server's (64). */
  readonly maxClients?: number;
  /** Connection and rate limits other than `maxClients`, when not the server's defaults (tests, `ServerLimits`). */
  readonly serverLimits?: ServerLimits;
  /** Host names answered besides localhost (`--allow-host`). */
  readonly allowHosts?: readonly string[];
  /** Origins whose pages may open the ws besides the service's own (`--allow-origin`). */
  readonly allowOrigins?: readonly string[];
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
