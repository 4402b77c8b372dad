/**
 * What the background scanner promises (`BackgroundScanner`, used by the frame detector and the frame
 * loop) and the messages to and from its worker thread. On their own so that the worker body, the
 * detector and the scanner can all name them without importing one another.
 */
import type { GrayFrame } from '../pipeline/types.ts';
import type { RawMarker } from './arucoDetector.ts';

/** Message to the worker: one frame, its bytes transferred. */
export interface ScanRequest {
  readonly seq: number;
  readonly widthPx: number;
  readonly heightPx: number;
  readonly data: ArrayBuffer;
}

/** Message from the worker: ids and corners (8 numbers each, image px) of every tag in the frame. */
export interface ScanResult {
  readonly seq: number;
  readonly ids: number[];
  readonly corners: ArrayBuffer;
  readonly scanMs: number;
}

export interface CompletedScan {
  /** Sequence number of the frame that was scanned. */
  readonly seq: number;
  readonly markers: RawMarker[];
  /** Time the worker spent on the frame, ms. */
  readonly scanMs: number;
}

export interface BackgroundScanner {
  /** Scan a copy of this frame if the worker is idle; returns whether it was taken. */
  offer(frame: GrayFrame): boolean;
  /** The newest finished scan not yet taken, or null. */
  take(): CompletedScan | null;
  /** Resolves when the worker has loaded opencv.js. */
  readonly ready: Promise<void>;
  /** Resolves with the next finished scan (for tests and tools). */
  next(): Promise<CompletedScan>;
  dispose(): Promise<void>;
}
