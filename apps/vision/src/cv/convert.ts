/** GrayFrame ↔ cv.Mat conversions. The Mat returned is owned by the caller (delete it, or `track` it). */
import type { GrayFrame } from '../pipeline/types.ts';
import type { Cv } from './loadCv.ts';

/** Copy a GrayFrame into a new CV_8UC1 Mat. */
export function grayFrameToMat(cv: Cv, frame: GrayFrame): Cv {
  const expected = frame.widthPx * frame.heightPx;
  if (frame.data.length !== expected) {
    throw new Error(`frame ${frame.seq}: data has ${frame.data.length} bytes, expected ${frame.widthPx}×${frame.heightPx} = ${expected}`);
  }
  const mat = new cv.Mat(frame.heightPx, frame.widthPx, cv.CV_8UC1);
  (mat.data as Uint8Array).set(frame.data);
  return mat;
}

/** Copy a CV_8UC1 Mat out of the WASM heap into a GrayFrame. */
export function matToGrayFrame(cv: Cv, mat: Cv, seq = 0, captureTimeMs = 0): GrayFrame {
  if (mat.type() !== cv.CV_8UC1) throw new Error(`matToGrayFrame needs an 8-bit single-channel Mat (type ${mat.type()})`);
  const widthPx: number = mat.cols;
  const heightPx: number = mat.rows;
  const data = new Uint8Array(widthPx * heightPx);
  if (mat.isContinuous()) {
    data.set((mat.data as Uint8Array).subarray(0, data.length));
  } else {
    // A ROI view: its rows are strided, so copy through a compact clone.
    const compact = mat.clone();
    try {
      data.set((compact.data as Uint8Array).subarray(0, data.length));
    } finally {
      compact.delete();
    }
  }
  return { widthPx, heightPx, data, seq, captureTimeMs };
}
