/**
 * One string picks the source, for the CLI and the service config:
 * a folder (frames in name order), an image file, a video file, `/dev/videoN` (USB webcam),
 * `rtsp://...` or `http(s)://...` (IP camera).
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { createIpCameraSource, createVideoFileSource, createWebcamSource, type CameraOptions } from './ffmpegSource.ts';
import type { FrameSource } from './frameSource.ts';
import { createFolderSource, createImageFileSource, IMAGE_EXTENSIONS } from './stillImageSources.ts';

export interface OpenFrameSourceOptions extends CameraOptions {
  /** Replay rate for a folder of frames (and a video without a rate). Default 30. */
  readonly fps?: number;
}

export type FrameSourceKind = 'folder' | 'image' | 'video' | 'webcam' | 'ip-camera';

/** Which kind of source `spec` names; throws a clear error when it names nothing usable. */
export async function frameSourceKind(spec: string): Promise<FrameSourceKind> {
  if (/^(rtsps?|https?):\/\//i.test(spec)) return 'ip-camera';
  if (/^\/dev\/video\d+$/.test(spec)) return 'webcam';
  let s;
  try {
    s = await stat(spec);
  } catch (err) {
    throw new Error(`${spec}: no such file, folder or device (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a folder of frames, an image, a video file, /dev/videoN or an rtsp:// or http:// URL`);
  }
  if (s.isDirectory()) return 'folder';
  if (IMAGE_EXTENSIONS.includes(extname(spec).toLowerCase())) return 'image';
  return 'video';
}

export async function openFrameSource(spec: string, options: OpenFrameSourceOptions = {}): Promise<FrameSource> {
  switch (await frameSourceKind(spec)) {
    case 'ip-camera':
      return createIpCameraSource(spec, options);
    case 'webcam':
      return createWebcamSource(spec, options);
    case 'folder':
      return createFolderSource(spec, options.fps !== undefined ? { fps: options.fps } : {});
    case 'image':
      return createImageFileSource(spec);
    case 'video':
      return createVideoFileSource(spec, options);
  }
}
