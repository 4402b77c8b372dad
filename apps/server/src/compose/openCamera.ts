/**
 * The camera's frame source: a webcam, IP camera, video file or folder of frames (`openFrameSource`), or
 * the phone (`phoneCamera.ts`). Live cameras drop frames they cannot keep up with; recordings wait.
 */
import { frameSourceKind, openFrameSource, type FrameSource } from '@muster/vision';
import { WebSocketFrameSource } from '../http/webSocketFrameSource.ts';
import { PHONE_CAMERA, PHONE_CAMERA_PATH } from './phoneCamera.ts';

export interface OpenCamera {
  readonly source: FrameSource;
  /** A live camera (newest frame wins) rather than a recording (every frame, in order). */
  readonly live: boolean;
}

export async function openCamera(spec: string, fps: number | undefined): Promise<OpenCamera> {
  const live = spec === PHONE_CAMERA || ['webcam', 'ip-camera'].includes(await frameSourceKind(spec));
  const source = spec === PHONE_CAMERA ? new WebSocketFrameSource({ path: PHONE_CAMERA_PATH }) : await openFrameSource(spec, fps !== undefined ? { fps } : {});
  return { source, live };
}
