/**
 * One string picks the source, for the CLI and the service config:
 * a folder (frames in name order), an image file, a video file, a webcam (`/dev/videoN` on Linux,
 * `avfoundation:<index or name>` on macOS, `dshow:<name>` on Windows, or `0`, `1`, … on any of them;
 * see `webcamSpec.ts`), `rtsp://...` or `http(s)://...` (IP camera).
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { resolveWebcamDevice } from './cameraListing.ts';
import { createIpCameraSource, createVideoFileSource, createWebcamSource, type CameraOptions } from './ffmpegSource.ts';
import type { FrameSource } from './frameSource.ts';
import { createFolderSource, createImageFileSource, IMAGE_EXTENSIONS } from './stillImageSources.ts';
import { hasCameraSettings, parseWebcamSpec, webcamSpecHint } from './webcamSpec.ts';

export interface OpenFrameSourceOptions {
  /**
   * Replay rate of a recording: a folder of frames (default 30), and a video that does not say its own.
   * Never asked of a camera: that is `camera.fps`.
   */
  readonly fps?: number;
  /**
   * A live camera's options: for a webcam the size, rate and format asked of it; for any live source the
   * backoff, timeouts and ffmpeg path. Size, rate and format are refused for an IP camera (the stream
   * decides) and for recordings.
   */
  readonly camera?: CameraOptions;
  /** Whose webcam names apply. Default `process.platform`. */
  readonly platform?: string;
}

export type FrameSourceKind = 'folder' | 'image' | 'video' | 'webcam' | 'ip-camera';

/** Which kind of source `spec` names; throws a clear error when it names nothing usable. */
export async function frameSourceKind(spec: string, platform: string = process.platform): Promise<FrameSourceKind> {
  if (/^(rtsps?|https?):\/\//i.test(spec)) return 'ip-camera';
  // A bare number is the nth camera, unless a file or folder of that name is here (frames in "1/").
  if (parseWebcamSpec(spec, platform) !== null && !(/^\d+$/.test(spec) && (await stat(spec).then(() => true, () => false)))) return 'webcam';
  let s;
  try {
    s = await stat(spec);
  } catch (err) {
    throw new Error(`${spec}: no such file, folder or device (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a folder of frames, an image, a video file, a webcam (${webcamSpecHint(platform)}) or an rtsp:// or http:// URL`);
  }
  if (s.isDirectory()) return 'folder';
  if (IMAGE_EXTENSIONS.includes(extname(spec).toLowerCase())) return 'image';
  return 'video';
}

export async function openFrameSource(spec: string, options: OpenFrameSourceOptions = {}): Promise<FrameSource> {
  const platform = options.platform ?? process.platform;
  const camera = options.camera ?? {};
  const kind = await frameSourceKind(spec, platform);
  if (kind !== 'webcam' && hasCameraSettings(camera)) {
    const why = kind === 'ip-camera' ? 'an IP camera: the stream decides (set them in the camera\'s own settings)' : `a recording (${kind})`;
    throw new Error(`${spec}: the camera size, frame rate and format apply to webcams only, not to ${why}`);
  }
  switch (kind) {
    case 'ip-camera':
      return createIpCameraSource(spec, camera);
    case 'webcam': {
      const device = await resolveWebcamDevice(parseWebcamSpec(spec, platform)!, camera.ffmpegPath !== undefined ? { ffmpegPath: camera.ffmpegPath } : {});
      return createWebcamSource(device, { ...camera, description: camera.description ?? spec }, platform);
    }
    case 'folder':
      return createFolderSource(spec, options.fps !== undefined ? { fps: options.fps } : {});
    case 'image':
      return createImageFileSource(spec);
    case 'video':
      return createVideoFileSource(spec, {
        ...(options.fps !== undefined ? { fps: options.fps } : {}),
        ...(camera.ffmpegPath !== undefined ? { ffmpegPath: camera.ffmpegPath } : {}),
      });
  }
}
