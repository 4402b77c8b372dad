/**
 * The camera's frame source: a webcam, IP camera, video file or folder of frames (`openFrameSource`), or
 * the phone (`phoneCamera.ts`). Live cameras drop frames they cannot keep up with; recordings wait.
 * `status()` is what the camera is doing, as health shows it (`Health.camera`).
 */
import type { CameraHealth } from '@muster/protocol';
import { frameSourceKind, openFrameSource, type FrameSource } from '@muster/vision';
import { WebSocketFrameSource } from '../http/webSocketFrameSource.ts';
import { PHONE_CAMERA, PHONE_CAMERA_PATH } from './phoneCamera.ts';

export interface OpenCamera {
  readonly source: FrameSource;
  /** A live camera (newest frame wins) rather than a recording (every frame, in order). */
  readonly live: boolean;
  /** What the camera is doing now, for health (passwords in URLs hidden: every viewer reads health). */
  status(): CameraHealth;
}

/** `rtsp://user:secret@host/…` → `rtsp://user:***@host/…`, in a spec or in any text quoting it. */
export function hideUrlPasswords(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi, '$1:***@');
}

export function cameraHealth(spec: string, source: FrameSource): CameraHealth {
  const s = source.status();
  const phoneWaiting = spec === PHONE_CAMERA && s.state === 'connecting';
  return {
    state: s.state,
    source: hideUrlPasswords(spec),
    detail: phoneWaiting ? `waiting for the phone: open /phone.html?token=<operator token> on it` : hideUrlPasswords(s.detail),
    since: s.sinceMs,
  };
}

export async function openCamera(spec: string, fps: number | undefined): Promise<OpenCamera> {
  const live = spec === PHONE_CAMERA || ['webcam', 'ip-camera'].includes(await frameSourceKind(spec));
  const source = spec === PHONE_CAMERA ? new WebSocketFrameSource({ path: PHONE_CAMERA_PATH }) : await openFrameSource(spec, fps !== undefined ? { fps } : {});
  return { source, live, status: () => cameraHealth(spec, source) };
}
