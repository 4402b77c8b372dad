/**
 * The tracking engine (`trackingEngine.ts`) on a thread of its own, for the live service: the main
 * thread only routes data (a frame and the tracker's predictions go in, a `FrameDetection` comes back),
 * so ws fan-out, the rules' results and HTTP stay responsive while a frame is detected, and the frame
 * loop keeps the camera's rate as long as detection does. The engine's background scans run on a third
 * thread, started by the detection thread.
 *
 * A frame is copied to the thread (the caller keeps its frame, e.g. for `/api/frame.jpg`). When the
 * thread dies, the frames in flight fail with its error, it is said once (`onWarning`) and a new thread
 * is started for the next frame.
 *
 * @example
 * const engine = await createThreadedTrackingEngine(profile, { fps: 30 });
 * const detection = await engine.detect(frame, tracker.predictions(frame.captureTimeMs));
 * await engine.dispose();
 */
import { Worker } from 'node:worker_threads';
import type { LensModel } from '../calibrate/lensModel.ts';
import { tableProfileToJson, type TableProfile } from '../profile/tableProfile.ts';
import type { TagPrediction } from '../track/tracker.ts';
import type { DetectionWorkerData, FromDetectionWorker, ToDetectionWorker } from './detectionProtocol.ts';
import type { StaleSearchOptions } from './trackingEngine.ts';
import type { FrameDetection, GrayFrame } from './types.ts';

export interface ThreadedTrackingEngineOptions {
  readonly lens?: LensModel | null;
  readonly fps?: number;
  readonly scanEveryMs?: number;
  /** See `TrackingEngineOptions.fullFirst`; default true. */
  readonly fullFirst?: boolean;
  /** Background scans threshold at every window size (for replayed identical frames, as the demo). Default false. */
  readonly allThresholds?: boolean;
  readonly staleSearch?: Partial<StaleSearchOptions>;
  /** Said when the detection thread or its scanner failed and was restarted. */
  readonly onWarning?: (message: string) => void;
}

export interface ThreadedTrackingEngine {
  /** Detects `frame` (a copy) on the detection thread around `predictions`. */
  detect(frame: GrayFrame, predictions: readonly TagPrediction[]): Promise<FrameDetection>;
  /** Feed every processed frame's outcome (paces the background scans). */
  frameDone(outcome: { readonly latencyMs: number; readonly droppedBefore: number }): void;
  dispose(): Promise<void>;
}

interface Thread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  failed: Error | null;
}

/** Starts the thread; resolves once its engine is loaded (rejects, with nothing left running, if it cannot load). */
export async function createThreadedTrackingEngine(profile: TableProfile, options: ThreadedTrackingEngineOptions = {}): Promise<ThreadedTrackingEngine> {
  const workerData: DetectionWorkerData = {
    profileJson: tableProfileToJson(profile),
    lens: options.lens ?? null,
    fps: options.fps ?? null,
    scanEveryMs: options.scanEveryMs ?? null,
    fullFirst: options.fullFirst ?? true,
    allThresholds: options.allThresholds ?? false,
    staleSearch: options.staleSearch ?? null,
  };
  const warn = options.onWarning ?? (() => {});
  const pending = new Map<number, { resolve: (d: FrameDetection) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let disposed = false;

  const start = (): Thread => {
    const worker = new Worker(new URL('./detectionWorker.mjs', import.meta.url), { workerData });
    let markReady: () => void = () => {};
    let markFailed: (e: Error) => void = () => {};
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    const thread: Thread = { worker, ready, failed: null };
    const fail = (err: Error): void => {
      if (thread.failed) return;
      thread.failed = err;
      markFailed(err);
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new Error(`detection thread failed: ${err.message}`));
      }
    };
    worker.on('message', (m: FromDetectionWorker) => {
      if (m.type === 'ready') markReady();
      else if (m.type === 'warning') warn(m.message);
      else {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.type === 'detection') p.resolve(m.detection);
        else p.reject(new Error(m.message));
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!disposed) fail(new Error(`exited with code ${code}`));
    });
    return thread;
  };

  let thread = start();
  try {
    await thread.ready;
  } catch (err) {
    disposed = true;
    await thread.worker.terminate();
    throw err;
  }

  const send = (m: ToDetectionWorker, transfer: ArrayBuffer[] = []): void => thread.worker.postMessage(m, transfer);

  return {
    async detect(frame, predictions) {
      if (disposed) throw new Error('tracking engine used after dispose()');
      if (thread.failed) {
        warn(`detection thread failed (${thread.failed.message}); restarted`);
        void thread.worker.terminate();
        thread = start();
      }
      await thread.ready;
      const id = nextId++;
      const data = frame.data.slice().buffer;
      const result = new Promise<FrameDetection>((resolve, reject) => pending.set(id, { resolve, reject }));
      send({ type: 'detect', id, widthPx: frame.widthPx, heightPx: frame.heightPx, seq: frame.seq, captureTimeMs: frame.captureTimeMs, data, predictions }, [data]);
      return result;
    },
    frameDone(outcome) {
      if (disposed || thread.failed) return;
      send({ type: 'frameDone', latencyMs: outcome.latencyMs, droppedBefore: outcome.droppedBefore });
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      const exited = new Promise<void>((resolve) => thread.worker.once('exit', () => resolve()));
      if (!thread.failed) {
        send({ type: 'close' });
        // The thread disposes its engine (and the scanner's thread) and closes its port; wait at most 5 s.
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
      }
      await thread.worker.terminate();
      for (const [id, p] of pending) {
        pending.delete(id);
        p.reject(new Error('tracking engine disposed'));
      }
    },
  };
}
