// Lens calibration, undistortion and parallax: the surface other vision modules use.
export { loadLensModel, createLensModel, parseLensCalibration, undistortPointsPx, undistortFlatPx, pixelToNormalized } from './lensModel.ts';
export type { LensModel, LensCalibrationJson } from './lensModel.ts';
export { solveCameraPose, correctParallaxIn, pixelToTableIn, approximateLensModel, projectTablePointPx, cameraPoseFromRt } from './cameraPose.ts';
export type { CameraPose } from './cameraPose.ts';
export { DEFAULT_CHARUCO_BOARD, loadCharucoBoardSpec, parseCharucoBoardSpec } from './charucoBoardSpec.ts';
export type { CharucoBoardSpec } from './charucoBoardSpec.ts';
