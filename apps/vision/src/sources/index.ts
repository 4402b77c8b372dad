// Frame sources: everything that turns a camera, a recording or a phone into GrayFrames.
export type { FrameSource, FrameSourceEventMap } from './frameSource.ts';
export { decodeImage } from './decodeImage.ts';
export { createFolderSource, createImageFileSource, listFrameFiles } from './stillImageSources.ts';
export { createIpCameraSource, createVideoFileSource, createWebcamSource, FfmpegFrameSource, type CameraOptions } from './ffmpegSource.ts';
export { frameSourceKind, openFrameSource } from './openFrameSource.ts';
