/**
 * Finds the ChArUco corners of the calibration board in one grayscale image (opencv.js
 * aruco_CharucoDetector, sub-pixel corners interpolated from the detected markers).
 */
import type { PointPx } from '../pipeline/types.ts';
import type { CharucoBoardSpec } from './charucoBoardSpec.ts';
import type { Cv } from '../cv/loadCv.ts';

export interface GrayImage {
  readonly widthPx: number;
  readonly heightPx: number;
  /** 8-bit, row-major, widthPx * heightPx bytes. */
  readonly data: Uint8Array;
}

export interface CharucoCorners {
  /** ChArUco corner ids (0 .. (squaresX-1)(squaresY-1)-1), same order as cornersPx. */
  readonly ids: number[];
  readonly cornersPx: PointPx[];
  /** ArUco markers of the board that were found (diagnostics: markers without corners mean blur/tilt). */
  readonly markerCount: number;
}

export function cvDictionaryId(cv: Cv, name: string): number {
  const id = cv[name];
  if (typeof id !== 'number') throw new Error(`unknown ArUco dictionary "${name}" (try DICT_4X4_50)`);
  return id;
}

/** Owns the WASM board and detector; call `delete()` when done. */
export interface CharucoCornerDetector {
  detect(image: GrayImage): CharucoCorners;
  delete(): void;
}

export function createCharucoCornerDetector(cv: Cv, spec: CharucoBoardSpec): CharucoCornerDetector {
  const dictionary = cv.getPredefinedDictionary(cvDictionaryId(cv, spec.dictionary));
  const noIds = new cv.Mat();
  const board = new cv.aruco_CharucoBoard(
    new cv.Size(spec.squaresX, spec.squaresY),
    spec.squareLengthMm,
    spec.markerLengthMm,
    dictionary,
    noIds,
  );
  const charucoParams = new cv.aruco_CharucoParameters();
  const detectorParams = new cv.aruco_DetectorParameters();
  const refineParams = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_CharucoDetector(board, charucoParams, detectorParams, refineParams);
  return {
    detect(image) {
      if (image.data.length !== image.widthPx * image.heightPx) {
        throw new Error(`image data is ${image.data.length} bytes, expected ${image.widthPx}×${image.heightPx}`);
      }
      const mat = new cv.Mat(image.heightPx, image.widthPx, cv.CV_8UC1);
      const corners = new cv.Mat();
      const ids = new cv.Mat();
      const markerCorners = new cv.MatVector();
      const markerIds = new cv.Mat();
      try {
        mat.data.set(image.data);
        detector.detectBoard(mat, corners, ids, markerCorners, markerIds);
        const n = ids.rows as number;
        const out: CharucoCorners = { ids: [], cornersPx: [], markerCount: markerIds.rows as number };
        for (let i = 0; i < n; i++) {
          out.ids.push(ids.data32S[i] as number);
          out.cornersPx.push({ uPx: corners.data32F[2 * i] as number, vPx: corners.data32F[2 * i + 1] as number });
        }
        return out;
      } finally {
        mat.delete();
        corners.delete();
        ids.delete();
        markerCorners.delete();
        markerIds.delete();
      }
    },
    delete() {
      detector.delete();
      refineParams.delete();
      detectorParams.delete();
      charucoParams.delete();
      board.delete();
      noIds.delete();
      dictionary.delete();
    },
  };
}
