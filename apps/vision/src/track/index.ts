// Tag tracking: smoothing, occlusion hold, unknown and duplicate ids, ROI predictions.
export { createTracker, type CornersPx, type TagPrediction, type TagTrack, type Tracker, type TrackSnapshot, type UnknownIdReport } from './tracker.ts';
export { DEFAULT_TRACKER_CONFIG, resolveTrackerConfig, type TrackerConfig, type TrackerConfigInput } from './trackerConfig.ts';
export { createOneEuroFilter, type OneEuroFilter, type OneEuroParams } from './oneEuroFilter.ts';
export { createAngleOneEuroFilter } from './angleOneEuroFilter.ts';
export { predictionsForFrame, trackFrames, trackJsonLine, median, type FrameDetectorLike, type TrackedFrame, type TrackJsonLine } from './trackFrames.ts';
