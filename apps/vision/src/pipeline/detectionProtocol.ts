/**
 * Messages between the main thread and the detection thread (`threadedTrackingEngine.ts`,
 * `detectionWorkerMain.ts`). Plain, structured-clone data only; frames travel as transferred buffers.
 */
import type { LensModel } from '../calibrate/lensModel.ts';
import type { TagPrediction } from '../track/tracker.ts';
import type { StaleSearchOptions } from './trackingEngine.ts';
import type { FrameDetection } from './types.ts';

/** What the detection thread builds its tracking engine from (`workerData`). */
export interface DetectionWorkerData {
  readonly profileJson: unknown;
  readonly lens: LensModel | null;
  readonly fps: number | null;
  readonly scanEveryMs: number | null;
  readonly fullFirst: boolean;
  /** The background scanner thresholds at every window size (see `createBackgroundScanner`). */
  readonly allThresholds: boolean;
  readonly staleSearch: Partial<StaleSearchOptions> | null;
}

export type ToDetectionWorker =
  | {
      readonly type: 'detect';
      readonly id: number;
      readonly widthPx: number;
      readonly heightPx: number;
      readonly seq: number;
      readonly captureTimeMs: number;
      readonly data: ArrayBuffer;
      readonly predictions: readonly TagPrediction[];
    }
  | { readonly type: 'frameDone'; readonly latencyMs: number; readonly droppedBefore: number }
  | { readonly type: 'close' };

export type FromDetectionWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'detection'; readonly id: number; readonly detection: FrameDetection }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }
  | { readonly type: 'warning'; readonly message: string };
