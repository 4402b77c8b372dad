/**
 * Full-frame ArUco scans on the second core. Tracked mode only looks where tags are expected, so a
 * stand put down on the table must be found by a full scan; at 4K that costs ~0.4 s, too slow for
 * every frame, so a worker thread (with its own opencv.js instance) scans the most recent frame it was
 * offered, over and over, and the tracked detector adds whatever it finds to its predictions.
 */
import { Worker } from 'node:worker_threads';
import type { GrayFrame } from '../pipeline/types.ts';
import { tableProfileToJson, type TableProfile } from '../profile/tableProfile.ts';
import type { BackgroundScanner, CompletedScan, ScanRequest, ScanResult } from './scanProtocol.ts';

export type { BackgroundScanner, CompletedScan } from './scanProtocol.ts';

export interface BackgroundScannerOptions {
  /**
   * Threshold at every derived window size, as a full-frame `detect` does (~160 instead of ~95 ms CPU
   * per 4K scan). For scenes where one scan's miss repeats in every scan (a still frame replayed, as in
   * the demo), so the single-threshold miss would never be caught. Default false.
   */
  readonly allThresholds?: boolean;
}

export function createBackgroundScanner(profile: TableProfile, options: BackgroundScannerOptions = {}): BackgroundScanner {
  const worker = new Worker(new URL('./scanWorker.mjs', import.meta.url), {
    workerData: { profileJson: tableProfileToJson(profile), allThresholds: options.allThresholds === true },
  });
  let busy = true; // until 'ready'
  let latest: CompletedScan | null = null;
  let failure: Error | null = null;
  const waiters: ((s: CompletedScan) => void)[] = [];
  let markReady: () => void = () => {};
  let markFailed: (e: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  worker.on('message', (msg: ScanResult | 'ready') => {
    busy = false;
    if (msg === 'ready') {
      markReady();
      return;
    }
    const all = new Float64Array(msg.corners);
    const scan: CompletedScan = { seq: msg.seq, scanMs: msg.scanMs, markers: msg.ids.map((id, i) => ({ id, corners: all.slice(i * 8, i * 8 + 8) })) };
    latest = scan;
    for (const w of waiters.splice(0)) w(scan);
  });
  worker.on('error', (err) => {
    failure = err;
    markFailed(err);
  });
  return {
    ready,
    offer(frame) {
      if (failure) throw new Error(`background scanner failed: ${failure.message}`);
      if (busy) return false;
      busy = true;
      const data = frame.data.slice().buffer;
      const req: ScanRequest = { seq: frame.seq, widthPx: frame.widthPx, heightPx: frame.heightPx, data };
      worker.postMessage(req, [data]);
      return true;
    },
    take() {
      const s = latest;
      latest = null;
      return s;
    },
    next() {
      return new Promise((resolve) => waiters.push(resolve));
    },
    async dispose() {
      worker.postMessage('close');
      await worker.terminate();
    },
  };
}
