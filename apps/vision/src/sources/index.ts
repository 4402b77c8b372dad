// Frame sources: everything that turns a camera, a recording or a phone into GrayFrames.
export type { FrameSource, FrameSourceEventMap } from './frameSource.ts';
export { decodeImage } from './decodeImage.ts';
export { createFolderSource, createImageFileSource, listFrameFiles } from './stillImageSources.ts';
export { createIpCameraSource, createVideoFileSource, createWebcamSource, FfmpegFrameSource, type CameraOptions } from './ffmpegSource.ts';
export { frameSourceKind, openFrameSource, type FrameSourceKind, type OpenFrameSourceOptions } from './openFrameSource.ts';
export { CAMERA_FORMATS, checkCameraSettings, hasCameraSettings, parseWebcamSpec, webcamInputArgs, webcamSpec, webcamSpecHint, type CameraFormat, type CameraSettings, type WebcamDevice, type WebcamInput } from './webcamSpec.ts';
export { listCameras, parseAvfoundationDevices, parseDshowDevices, parseV4l2CtlFormats, parseV4l2FfmpegFormats, resolveWebcamDevice, type CameraFormatListing, type CameraListing, type ListCamerasOptions } from './cameraListing.ts';
