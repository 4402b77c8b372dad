/**
 * Thin owner of one `cv.aruco_ArucoDetector`: runs it on an 8-bit image and returns plain arrays.
 * Corners come back in the `PointPx` convention (origin at the top-left pixel's corner), i.e. OpenCV's
 * pixel-centre coordinates + 0.5.
 */
import type { Cv } from '../cv/loadCv.ts';
import { withMats } from '../cv/withMats.ts';
import type { DictionaryName } from '../profile/tableProfile.ts';
import type { DetectorParams } from '../profile/detectorParams.ts';

/** One raw detection: id and four corners [u0,v0,u1,v1,u2,v2,u3,v3] in image pixels (PointPx convention). */
export interface RawMarker {
  readonly id: number;
  readonly corners: Float64Array;
}

export interface ArucoDetector {
  /** Detect in a CV_8UC1 Mat (not deleted). `longSidePx` of the frame the params were derived for. */
  detect(gray: Cv): RawMarker[];
  /** Use these parameters for images of this size (rates are rescaled when the size differs). */
  setParams(params: DetectorParams, paramsLongSidePx: number, imageLongSidePx: number): void;
  dispose(): void;
}

function applyParams(cv: Cv, target: Cv, params: DetectorParams, scale: number): void {
  target.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMin;
  target.adaptiveThreshWinSizeMax = params.adaptiveThreshWinSizeMax;
  target.adaptiveThreshWinSizeStep = params.adaptiveThreshWinSizeStep;
  target.adaptiveThreshConstant = params.adaptiveThreshConstant;
  target.minMarkerPerimeterRate = params.minMarkerPerimeterRate * scale;
  target.maxMarkerPerimeterRate = params.maxMarkerPerimeterRate * scale;
  target.polygonalApproxAccuracyRate = params.polygonalApproxAccuracyRate;
  target.minDistanceToBorder = params.minDistanceToBorder;
  target.cornerRefinementMethod = params.cornerRefinementMethod;
  target.cornerRefinementWinSize = params.cornerRefinementWinSize;
  target.cornerRefinementMaxIterations = params.cornerRefinementMaxIterations;
  target.cornerRefinementMinAccuracy = params.cornerRefinementMinAccuracy;
  target.perspectiveRemovePixelPerCell = params.perspectiveRemovePixelPerCell;
  target.perspectiveRemoveIgnoredMarginPerCell = params.perspectiveRemoveIgnoredMarginPerCell;
  target.errorCorrectionRate = params.errorCorrectionRate;
  void cv;
}

export function createArucoDetector(cv: Cv, dictionary: DictionaryName): ArucoDetector {
  const dict = cv.getPredefinedDictionary(cv[dictionary]);
  const cvParams = new cv.aruco_DetectorParameters();
  const refine = new cv.aruco_RefineParameters(10, 3, true);
  const detector = new cv.aruco_ArucoDetector(dict, cvParams, refine);
  let disposed = false;
  return {
    setParams(params, paramsLongSidePx, imageLongSidePx) {
      applyParams(cv, cvParams, params, paramsLongSidePx / imageLongSidePx);
      detector.setDetectorParameters(cvParams);
    },
    detect(gray) {
      if (disposed) throw new Error('detector used after dispose()');
      return withMats((track) => {
        const corners = track(new cv.MatVector());
        const rejected = track(new cv.MatVector());
        const ids = track(new cv.Mat());
        detector.detectMarkers(gray, corners, ids, rejected);
        const n: number = ids.rows * ids.cols;
        const idData = ids.data32S as Int32Array;
        const out: RawMarker[] = [];
        for (let i = 0; i < n; i++) {
          const c = track(corners.get(i));
          const f = c.data32F as Float32Array;
          const pts = new Float64Array(8);
          for (let k = 0; k < 8; k++) pts[k] = f[k]! + 0.5;
          out.push({ id: idData[i]!, corners: pts });
        }
        return out;
      });
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      detector.delete();
      refine.delete();
      cvParams.delete();
      dict.delete();
    },
  };
}
