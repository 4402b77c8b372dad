/**
 * Webcams through ffmpeg's own capture input on each platform, as pure functions (the platform is passed
 * in, so all three are tested on any machine):
 *
 * | platform | `--camera` spec | ffmpeg input |
 * | --- | --- | --- |
 * | Linux | `/dev/video0`, `/dev/v4l/by-id/…`, `v4l2:<path>`, or `0` (= `/dev/video0`) | `-f v4l2 -i /dev/video0` |
 * | macOS | `avfoundation:0`, `avfoundation:FaceTime HD Camera`, or `0` (the first camera) | `-f avfoundation -i "0:none"` |
 * | Windows | `dshow:Integrated Webcam`, or `0` / `dshow:0` (the first camera, by listing) | `-f dshow -i "video=Integrated Webcam"` |
 *
 * What can be asked of the camera (`CameraSettings`), per platform:
 *
 * | setting | V4L2 (Linux) | AVFoundation (macOS) | DirectShow (Windows) |
 * | --- | --- | --- | --- |
 * | size | `-video_size WxH` | `-video_size WxH` | `-video_size WxH` |
 * | rate | `-framerate n` | `-framerate n` (default 30: ffmpeg's own default, 29.97, is refused by most Mac cameras) | `-framerate n` |
 * | `mjpeg` | `-input_format mjpeg` | not available (AVFoundation hands over decoded frames only) | `-vcodec mjpeg` |
 * | `yuyv` | `-input_format yuyv422` | `-pixel_format yuyv422` | `-pixel_format yuyv422` |
 * | `h264` | `-input_format h264` | not available | `-vcodec h264` |
 */

export type CameraFormat = 'mjpeg' | 'yuyv' | 'h264';
export const CAMERA_FORMATS: readonly CameraFormat[] = ['mjpeg', 'yuyv', 'h264'];

/** What is asked of the camera itself (not scaled afterwards). */
export interface CameraSettings {
  /** Capture size; give both or neither. */
  readonly widthPx?: number;
  readonly heightPx?: number;
  /** Capture frame rate. */
  readonly fps?: number;
  /** The camera's own encoding: MJPEG (most USB webcams' only way to 1080p at 30 fps), raw YUYV, or H.264. */
  readonly format?: CameraFormat;
}

/** ffmpeg's capture input: Linux V4L2, macOS AVFoundation, Windows DirectShow. */
export type WebcamInput = 'v4l2' | 'avfoundation' | 'dshow';

/**
 * A webcam: `device` is the V4L2 device path, or for AVFoundation and DirectShow the device's name or its
 * index (a number: the nth video device, counting from 0).
 */
export type WebcamDevice =
  | { readonly input: 'v4l2'; readonly device: string }
  | { readonly input: 'avfoundation' | 'dshow'; readonly device: string | number };

const PLATFORM_INPUT: Readonly<Record<string, WebcamInput>> = { linux: 'v4l2', darwin: 'avfoundation', win32: 'dshow' };
const PLATFORM_NAME: Readonly<Record<WebcamInput, string>> = { v4l2: 'Linux', avfoundation: 'macOS', dshow: 'Windows' };

/** The webcam input of a platform (`process.platform`), or null where ffmpeg has none we support. */
export function platformWebcamInput(platform: string): WebcamInput | null {
  return PLATFORM_INPUT[platform] ?? null;
}

/** How a webcam is named on this platform, for errors and help. */
export function webcamSpecHint(platform: string): string {
  switch (platformWebcamInput(platform)) {
    case 'v4l2':
      return '/dev/videoN (or 0, 1, …)';
    case 'avfoundation':
      return 'avfoundation:<index or name> (or 0, 1, …)';
    case 'dshow':
      return 'dshow:<name> (or 0, 1, …)';
    default:
      return 'a webcam on Linux, macOS or Windows';
  }
}

/**
 * The webcam `spec` names on `platform`, or null when it names no webcam (a file, folder or URL). Throws
 * when it names a webcam this platform cannot open (`avfoundation:0` on Linux, `/dev/video0` on macOS).
 */
export function parseWebcamSpec(spec: string, platform: string): WebcamDevice | null {
  const native = platformWebcamInput(platform);
  const prefixed = /^(v4l2|avfoundation|dshow):(.*)$/s.exec(spec);
  let device: WebcamDevice;
  if (prefixed) {
    const input = prefixed[1] as WebcamInput;
    const rest = prefixed[2]!;
    if (rest.trim() === '') throw new Error(`${spec}: name the camera after "${input}:" (run muster cameras to list them)`);
    if (input === 'v4l2') {
      if (!rest.startsWith('/dev/')) throw new Error(`${spec}: a V4L2 camera is a device path such as v4l2:/dev/video0`);
      device = { input, device: rest };
    } else device = { input, device: /^\d+$/.test(rest) ? Number(rest) : rest };
  } else if (/^\/dev\/(video\d+|v4l\/.+)$/.test(spec)) device = { input: 'v4l2', device: spec };
  else if (/^\d{1,3}$/.test(spec)) {
    if (native === null) throw new Error(`${spec}: webcams are supported on Linux, macOS and Windows only (this is ${platform})`);
    device = native === 'v4l2' ? { input: 'v4l2', device: `/dev/video${Number(spec)}` } : { input: native, device: Number(spec) };
  } else return null;
  if (device.input !== native) {
    throw new Error(`${spec}: ${device.input} cameras exist on ${PLATFORM_NAME[device.input]} only; on this machine (${platform}) name a camera as ${webcamSpecHint(platform)}; muster cameras lists them`);
  }
  if (device.input === 'dshow' && typeof device.device === 'string' && /[:"]/.test(device.device)) {
    throw new Error(`${spec}: a DirectShow name with ':' or '"' cannot be passed to ffmpeg; use the camera's index (muster cameras lists them)`);
  }
  return device;
}

/** The spec that names `device` (what `muster cameras` prints for `--camera`). */
export function webcamSpec(device: WebcamDevice): string {
  return device.input === 'v4l2' ? device.device : `${device.input}:${device.device}`;
}

/** Checks size, rate and format; throws an error naming the bad one. */
export function checkCameraSettings(settings: CameraSettings, what = 'camera'): void {
  const { widthPx, heightPx, fps, format } = settings;
  if ((widthPx === undefined) !== (heightPx === undefined)) throw new Error(`${what}: give both the width and the height of the camera size, or neither`);
  for (const [name, v] of [['width', widthPx], ['height', heightPx]] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 8 && v <= 16384)) throw new Error(`${what}: the camera ${name} must be an integer 8..16384 (got ${v})`);
  }
  if (fps !== undefined && !(Number.isFinite(fps) && fps > 0 && fps <= 1000)) throw new Error(`${what}: the camera frame rate must be a number in (0, 1000] (got ${fps})`);
  if (format !== undefined && !CAMERA_FORMATS.includes(format)) throw new Error(`${what}: the camera format must be one of ${CAMERA_FORMATS.join(', ')} (got ${String(format)})`);
}

/** True when any of size, rate or format is given. */
export function hasCameraSettings(settings: CameraSettings | undefined): boolean {
  return settings !== undefined && (settings.widthPx !== undefined || settings.heightPx !== undefined || settings.fps !== undefined || settings.format !== undefined);
}

/**
 * The ffmpeg arguments that open `device` with `settings` (everything up to and including `-i …`).
 * Throws for a setting the platform's input cannot ask for, and for a DirectShow index (resolve it to a
 * name first: `resolveWebcamDevice`).
 */
export function webcamInputArgs(device: WebcamDevice, settings: CameraSettings = {}): string[] {
  const spec = webcamSpec(device);
  checkCameraSettings(settings, spec);
  const { widthPx, heightPx, fps, format } = settings;
  const size = widthPx !== undefined && heightPx !== undefined ? ['-video_size', `${widthPx}x${heightPx}`] : [];
  switch (device.input) {
    case 'v4l2': {
      const fmt = format === undefined ? [] : ['-input_format', format === 'yuyv' ? 'yuyv422' : format];
      return ['-f', 'v4l2', ...fmt, ...(fps !== undefined ? ['-framerate', String(fps)] : []), ...size, '-i', device.device];
    }
    case 'avfoundation': {
      if (format === 'mjpeg' || format === 'h264') {
        throw new Error(`${spec}: format ${format} cannot be asked of a camera on macOS (AVFoundation hands ffmpeg decoded frames only); leave the format out, or use yuyv`);
      }
      const fmt = format === 'yuyv' ? ['-pixel_format', 'yuyv422'] : [];
      // ffmpeg's default rate is 29.97 (ntsc), which most Mac cameras refuse ("Selected framerate is not supported").
      return ['-f', 'avfoundation', ...fmt, '-framerate', String(fps ?? 30), ...size, '-i', `${device.device}:none`];
    }
    case 'dshow': {
      if (typeof device.device === 'number') throw new Error(`${spec}: a DirectShow camera is opened by name; resolve the index first (resolveWebcamDevice)`);
      const fmt = format === undefined ? [] : format === 'yuyv' ? ['-pixel_format', 'yuyv422'] : ['-vcodec', format];
      return ['-f', 'dshow', ...fmt, ...(fps !== undefined ? ['-framerate', String(fps)] : []), ...size, '-i', `video=${device.device}`];
    }
  }
}
