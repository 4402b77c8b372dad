/**
 * The camera's frame source: a webcam, IP camera, video file or folder of frames (`openFrameSource`), or
 * the phone (`phoneCamera.ts`). Live cameras drop frames they cannot keep up with; recordings wait.
 * `status()` is what the camera is doing, as health shows it (`Health.camera`).
 *
 * `camera` (size, rate, format: `--camera-size`, `--camera-fps`, `--camera-format`) is asked of a webcam
 * only; an IP camera, the phone or a recording refuses it (their stream or file decides). `fps` is the
 * replay rate of a recording (a folder of frames, a video without its own) and never goes to a camera.
 */
import type { CameraHealth } from '@muster/protocol';
import { CAMERA_FORMATS, checkCameraSettings, frameSourceKind, hasCameraSettings, openFrameSource, type CameraFormat, type CameraSettings, type FrameSource } from '@muster/vision';
import { WebSocketFrameSource } from '../http/webSocketFrameSource.ts';
import type { CameraLiveOptions } from './liveOptions.ts';
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

export type OpenCameraOptions = Pick<CameraLiveOptions, 'spec' | 'fps' | 'camera'>;

/** `--camera-size WxH`, `--camera-fps n`, `--camera-format f` as given on the command line. */
export interface CameraFlags {
  readonly size?: string | undefined;
  readonly fps?: string | undefined;
  readonly format?: string | undefined;
}

/**
 * The webcam settings the flags ask for (undefined when none is given). Throws an error naming the flag.
 * `yuyv422` (ffmpeg's name, as `muster cameras` lists it) is taken for `yuyv`, `mjpg` for `mjpeg`.
 */
export function cameraSettingsFromFlags(flags: CameraFlags): CameraSettings | undefined {
  const out: { widthPx?: number; heightPx?: number; fps?: number; format?: CameraFormat } = {};
  if (flags.size !== undefined) {
    const m = /^(\d{1,5})[x×](\d{1,5})$/i.exec(flags.size.trim());
    if (!m) throw new Error(`--camera-size must be WIDTHxHEIGHT in pixels, e.g. 1920x1080 (got "${flags.size}")`);
    out.widthPx = Number(m[1]);
    out.heightPx = Number(m[2]);
  }
  if (flags.fps !== undefined) {
    const n = Number(flags.fps);
    if (flags.fps.trim() === '' || !Number.isFinite(n)) throw new Error(`--camera-fps must be a number of frames per second, e.g. 30 (got "${flags.fps}")`);
    out.fps = n;
  }
  if (flags.format !== undefined) {
    const f = flags.format.trim().toLowerCase();
    const format = f === 'yuyv422' ? 'yuyv' : f === 'mjpg' ? 'mjpeg' : f;
    if (!(CAMERA_FORMATS as readonly string[]).includes(format)) throw new Error(`--camera-format must be one of ${CAMERA_FORMATS.join(', ')} (got "${flags.format}")`);
    out.format = format as CameraFormat;
  }
  if (Object.keys(out).length === 0) return undefined;
  try {
    checkCameraSettings(out, 'camera');
  } catch (err) {
    throw new Error(`${(err as Error).message.replace(/^camera: /, '')} (--camera-size WxH, --camera-fps n)`);
  }
  return out;
}

/**
 * The frame rate the source will deliver, when known: what a webcam is asked for (`--camera-fps`), or
 * a recording's replay rate (`--fps`); undefined for a live source that sends at its own rate.
 */
export async function sourceFrameRate(options: OpenCameraOptions): Promise<number | undefined> {
  if (options.camera?.fps !== undefined) return options.camera.fps;
  if (options.fps === undefined || options.spec === PHONE_CAMERA) return undefined;
  try {
    const kind = await frameSourceKind(options.spec);
    return kind === 'webcam' || kind === 'ip-camera' ? undefined : options.fps;
  } catch {
    return undefined; // a source that does not exist is reported when it is opened
  }
}

export async function openCamera(options: OpenCameraOptions): Promise<OpenCamera> {
  const { spec, fps, camera } = options;
  const shown = hideUrlPasswords(spec);
  if (camera !== undefined) {
    try {
      checkCameraSettings(camera, shown);
    } catch (err) {
      throw new Error(`${(err as Error).message} (--camera-size WxH, --camera-fps n, --camera-format mjpeg|yuyv|h264)`);
    }
  }
  const kind = spec === PHONE_CAMERA ? 'phone' : await frameSourceKind(spec);
  if (kind !== 'webcam' && hasCameraSettings(camera)) {
    const why =
      kind === 'ip-camera' ? 'an IP camera: the stream decides its size, rate and format (set them in the camera\'s own settings)'
      : kind === 'phone' ? 'the phone: its page decides what it sends'
      : `a recording (${kind}): the file decides`;
    throw new Error(`${shown}: --camera-size, --camera-fps and --camera-format apply to webcams only, not to ${why}`);
  }
  const live = kind === 'phone' || kind === 'webcam' || kind === 'ip-camera';
  const source =
    kind === 'phone' ? new WebSocketFrameSource({ path: PHONE_CAMERA_PATH })
    : await openFrameSource(spec, {
        // The replay rate of a recording only: a camera is asked for camera.fps, never for the demo's --fps.
        ...(!live && fps !== undefined ? { fps } : {}),
        ...(kind === 'webcam' && camera !== undefined ? { camera } : {}),
      });
  return { source, live, status: () => cameraHealth(spec, source) };
}
