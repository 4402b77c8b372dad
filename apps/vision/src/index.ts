/**
 * The public surface of @muster/vision: camera frames → stand poses in table inches. The service and the
 * CLI (apps/server) import only from here; everything else in src/ is this package's own business.
 */

// Plain data between the stages.
export type { FrameDetection, GrayFrame, MarkerObservation, PointPx, TagSizeSeen } from './pipeline/types.ts';

// opencv.js, loaded once.
export { loadCv, type Cv } from './cv/loadCv.ts';

// Frame sources: cameras, recordings, folders, and the queue an outside source (the phone page) fills.
export { decodeImage } from './sources/decodeImage.ts';
export { type FrameSource, QueuedFrameSource } from './sources/frameSource.ts';
export { frameSourceKind, openFrameSource, type OpenFrameSourceOptions } from './sources/openFrameSource.ts';
export { FfmpegFrameSource, type CameraOptions } from './sources/ffmpegSource.ts';
export { CAMERA_FORMATS, checkCameraSettings, hasCameraSettings, type CameraFormat, type CameraSettings } from './sources/webcamSpec.ts';
export { listCameras, type CameraListing } from './sources/cameraListing.ts';

// Table profile: the table's size, anchors and dictionary.
export { loadTableProfile, parseTableProfile, type TableProfile, TableProfileError } from './profile/tableProfile.ts';

// Detection: ArUco on the full frame or around predictions, with a background full-frame scanner.
export { createBackgroundScanner } from './detect/backgroundScanner.ts';
export { createFrameDetector, type FrameDetector } from './detect/frameDetector.ts';
export { ADVISED_TAG_SIDE_PX, inchesLabel, MIN_RELIABLE_TAG_SIDE_PX, tagSizeAdvice, tagSizeWarning, type TagSizeAdvice } from './detect/tagSizeAdvice.ts';

// The frame loop: newest frame first, tracked detection with a paced background scan.
export { createNewestFrameLoop } from './pipeline/newestFrameLoop.ts';
export { createResilientScanner, createTrackedDetect, type ResilientScanner } from './pipeline/resilientScanner.ts';
export { createScanBackoff } from './pipeline/scanBackoff.ts';
export { createTrackingEngine, DEFAULT_STALE_SEARCH, type EnginePlan, type TrackingEngine, type TrackingEngineOptions } from './pipeline/trackingEngine.ts';
export { createThreadedTrackingEngine, type ThreadedTrackingEngine, type ThreadedTrackingEngineOptions } from './pipeline/threadedTrackingEngine.ts';

// Tracking: tag tracks with smoothing and occlusion, and the offline tracker of a recording.
export { normalizeDeg } from './track/angles.ts';
export { median, trackFrames, trackJsonLine } from './track/trackFrames.ts';
export { createTracker, type TagPrediction, type TagTrack, type Tracker } from './track/tracker.ts';
export { type TrackerConfigInput } from './track/trackerConfig.ts';

// Calibration: lens (ChArUco), projector (a projected AprilTag pattern).
export { calibrateLens, CalibrationInputError, type CalibrationView } from './calibrate/calibrateLens.ts';
export { calibrateProjector, ProjectorCalibrationInputError, projectorCalibrationJson } from './calibrate/calibrateProjector.ts';
export { type CharucoBoardSpec, DEFAULT_CHARUCO_BOARD, loadCharucoBoardSpec } from './calibrate/charucoBoardSpec.ts';
export { createCharucoCornerDetector } from './calibrate/detectCharucoCorners.ts';
export { createLensModel, type LensModel, loadLensModel, parseLensCalibration } from './calibrate/lensModel.ts';
export { loadGrayImage } from './calibrate/loadGrayImage.ts';
export { loadProjectorCalibration, parseProjectorCalibration, ProjectorCalibrationError, type ProjectorCalibrationJson } from './calibrate/projectorCalibration.ts';
export { undistortImage } from './calibrate/undistortImage.ts';

// Tag sheets: printable pages of tags, the anchors and a ChArUco board.
export { anchorTagItems } from './markers/anchorTagItems.ts';
export { charucoBoardSheet } from './markers/charucoBoardSheet.ts';
export { addPageHeaders, layoutTagSheets, type TagItem } from './markers/layoutTagSheets.ts';
export { renderPdf } from './markers/renderPdf.ts';
export { renderSvg } from './markers/renderSvg.ts';
export { type PaperName, type Sheet } from './markers/sheet.ts';
export { markerModules } from './markers/markerModules.ts';
