/**
 * Webcams on Linux, macOS and Windows through ffmpeg's own capture inputs: which input a `--camera`
 * spec names on each platform (the platform injected), the input options size, rate and format become,
 * what ffmpeg is actually started with (a stand-in ffmpeg records its arguments), and the `start`
 * flags (`--camera-size`, `--camera-fps`, `--camera-format`, and `--fps` kept to the demo and recordings).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebcamSource,
  frameSourceKind,
  openFrameSource,
  parseWebcamSpec,
  webcamInputArgs,
  type FrameSource,
} from '../../apps/vision/src/sources/index.ts';
import { cameraSettingsFromFlags, openCamera } from '../../apps/server/src/compose/openCamera.ts';

const here = dirname(fileURLToPath(import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'muster-webcam-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('webcam specs per platform', () => {
  it('Linux: /dev/videoN, /dev/v4l/by-id/…, v4l2:<path> and a bare number are V4L2 devices', () => {
    expect(parseWebcamSpec('/dev/video2', 'linux')).toEqual({ input: 'v4l2', device: '/dev/video2' });
    expect(parseWebcamSpec('/dev/v4l/by-id/usb-046d_C920-video-index0', 'linux')).toEqual({ input: 'v4l2', device: '/dev/v4l/by-id/usb-046d_C920-video-index0' });
    expect(parseWebcamSpec('1', 'linux')).toEqual({ input: 'v4l2', device: '/dev/video1' });
    expect(parseWebcamSpec('clip.mp4', 'linux')).toBeNull();
    expect(parseWebcamSpec('rtsp://cam/live', 'linux')).toBeNull();
  });

  it('macOS: avfoundation:<index or name>, or a bare number', () => {
    expect(parseWebcamSpec('avfoundation:1', 'darwin')).toEqual({ input: 'avfoundation', device: 1 });
    expect(parseWebcamSpec('avfoundation:FaceTime HD Camera', 'darwin')).toEqual({ input: 'avfoundation', device: 'FaceTime HD Camera' });
    expect(parseWebcamSpec('0', 'darwin')).toEqual({ input: 'avfoundation', device: 0 });
  });

  it('Windows: dshow:<name> or an index', () => {
    expect(parseWebcamSpec('dshow:Integrated Webcam', 'win32')).toEqual({ input: 'dshow', device: 'Integrated Webcam' });
    expect(parseWebcamSpec('0', 'win32')).toEqual({ input: 'dshow', device: 0 });
  });

  it("another platform's camera is refused with how to name one here", () => {
    expect(() => parseWebcamSpec('/dev/video0', 'darwin')).toThrow(/v4l2 cameras exist on Linux only; on this machine \(darwin\) name a camera as avfoundation:<index or name>/);
    expect(() => parseWebcamSpec('dshow:Cam', 'linux')).toThrow(/dshow cameras exist on Windows only; .*\/dev\/videoN/);
    expect(() => parseWebcamSpec('avfoundation:', 'darwin')).toThrow(/name the camera after "avfoundation:"/);
    expect(() => parseWebcamSpec('dshow:Cam "A"', 'win32')).toThrow(/use the camera's index/);
  });

  it('a bare number is a folder of frames when one of that name is here, else the camera', async () => {
    const cwd = process.cwd();
    await mkdir(join(dir, 'here', '1'), { recursive: true });
    process.chdir(join(dir, 'here'));
    try {
      expect(await frameSourceKind('1', 'linux')).toBe('folder');
      expect(await frameSourceKind('2', 'linux')).toBe('webcam');
    } finally {
      process.chdir(cwd);
    }
  });

  it('frameSourceKind follows the injected platform', async () => {
    expect(await frameSourceKind('avfoundation:0', 'darwin')).toBe('webcam');
    expect(await frameSourceKind('dshow:Integrated Webcam', 'win32')).toBe('webcam');
    await expect(frameSourceKind('avfoundation:0', 'linux')).rejects.toThrow(/avfoundation cameras exist on macOS only/);
  });
});

describe('size, rate and format as ffmpeg input options', () => {
  const settings = { widthPx: 1920, heightPx: 1080, fps: 30, format: 'mjpeg' } as const;

  it('V4L2: -input_format, -framerate, -video_size before -i', () => {
    expect(webcamInputArgs({ input: 'v4l2', device: '/dev/video0' }, settings)).toEqual(['-f', 'v4l2', '-input_format', 'mjpeg', '-framerate', '30', '-video_size', '1920x1080', '-i', '/dev/video0']);
    expect(webcamInputArgs({ input: 'v4l2', device: '/dev/video0' }, { format: 'yuyv' })).toEqual(['-f', 'v4l2', '-input_format', 'yuyv422', '-i', '/dev/video0']);
    expect(webcamInputArgs({ input: 'v4l2', device: '/dev/video0' })).toEqual(['-f', 'v4l2', '-i', '/dev/video0']);
  });

  it('DirectShow: -vcodec mjpeg (or -pixel_format yuyv422), video=<name>', () => {
    expect(webcamInputArgs({ input: 'dshow', device: 'HD Pro Webcam C920' }, settings)).toEqual(['-f', 'dshow', '-vcodec', 'mjpeg', '-framerate', '30', '-video_size', '1920x1080', '-i', 'video=HD Pro Webcam C920']);
    expect(webcamInputArgs({ input: 'dshow', device: 'Cam' }, { format: 'yuyv' })).toEqual(['-f', 'dshow', '-pixel_format', 'yuyv422', '-i', 'video=Cam']);
    expect(() => webcamInputArgs({ input: 'dshow', device: 0 })).toThrow(/opened by name; resolve the index first/);
  });

  it('AVFoundation: a frame rate always (30 unless asked), <index>:none, and no MJPEG (it hands over decoded frames)', () => {
    expect(webcamInputArgs({ input: 'avfoundation', device: 0 }, { widthPx: 1280, heightPx: 720 })).toEqual(['-f', 'avfoundation', '-framerate', '30', '-video_size', '1280x720', '-i', '0:none']);
    expect(webcamInputArgs({ input: 'avfoundation', device: 'FaceTime HD Camera' }, { fps: 15, format: 'yuyv' })).toEqual(['-f', 'avfoundation', '-pixel_format', 'yuyv422', '-framerate', '15', '-i', 'FaceTime HD Camera:none']);
    expect(() => webcamInputArgs({ input: 'avfoundation', device: 0 }, { format: 'mjpeg' })).toThrow(/format mjpeg cannot be asked of a camera on macOS/);
  });

  it('bad settings are refused, naming the setting', () => {
    expect(() => webcamInputArgs({ input: 'v4l2', device: '/dev/video0' }, { widthPx: 1920 })).toThrow(/give both the width and the height/);
    expect(() => webcamInputArgs({ input: 'v4l2', device: '/dev/video0' }, { fps: 0 })).toThrow(/frame rate must be a number in \(0, 1000\]/);
  });
});

/** A stand-in ffmpeg: `-list_devices` answers with the DirectShow sample; anything else records its arguments and fails. */
async function recordingFfmpeg(name: string): Promise<{ path: string; args(): Promise<string[]> }> {
  const path = join(dir, name);
  const argsFile = join(dir, `${name}.args`);
  const listing = join(here, 'samples', 'dshow-list-devices.txt');
  await writeFile(
    path,
    '#!/bin/sh\n' +
      `for a in "$@"; do if [ "$a" = "-list_devices" ]; then cat '${listing}' >&2; exit 1; fi; done\n` +
      `for a in "$@"; do printf '%s\\n' "$a"; done > '${argsFile}'\n` +
      'echo "cannot open the camera (stand-in ffmpeg)" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  return {
    path,
    args: async () => {
      for (let i = 0; i < 200; i++) {
        const text = await readFile(argsFile, 'utf8').catch(() => '');
        if (text.endsWith('\n')) return text.slice(0, -1).split('\n');
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the stand-in ffmpeg was never started');
    },
  };
}

async function closeQuietly(source: FrameSource): Promise<void> {
  source.on('error', () => {});
  await source.close();
}

describe('what ffmpeg is started with', () => {
  it('Linux: the settings reach ffmpeg as V4L2 input options', async () => {
    const ff = await recordingFfmpeg('ffmpeg-linux');
    const source = createWebcamSource('/dev/video0', { widthPx: 1280, heightPx: 720, fps: 60, format: 'mjpeg', ffmpegPath: ff.path, backoff: { initialMs: 5000, maxMs: 5000 } }, 'linux');
    source.on('error', () => {});
    const args = await ff.args();
    await closeQuietly(source);
    const i = args.indexOf('-f');
    expect(args.slice(i, args.indexOf('-i') + 2)).toEqual(['-f', 'v4l2', '-input_format', 'mjpeg', '-framerate', '60', '-video_size', '1280x720', '-i', '/dev/video0']);
  });

  it('Windows (platform injected): openFrameSource resolves camera 2 through the listing and opens it by its unique alternative name', async () => {
    const ff = await recordingFfmpeg('ffmpeg-win');
    const source = await openFrameSource('dshow:2', { platform: 'win32', camera: { fps: 30, format: 'mjpeg', ffmpegPath: ff.path, backoff: { initialMs: 5000, maxMs: 5000 } } });
    const errors: string[] = [];
    source.on('error', (e) => errors.push(e.message));
    const args = await ff.args();
    while (errors.length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(errors[0]).toMatch(/^dshow:2: ffmpeg exited with code 1: cannot open the camera \(stand-in ffmpeg\)/); // named as the user named it
    await closeQuietly(source);
    const input = args[args.indexOf('-i') + 1]!;
    expect(args.slice(args.indexOf('-f'), args.indexOf('-i'))).toEqual(['-f', 'dshow', '-vcodec', 'mjpeg', '-framerate', '30']);
    expect(input).toMatch(/^video=@device_pnp_.*9a8b7c6d/);
  });

  it('macOS (platform injected): avfoundation:1 opens "1:none" at the asked size', async () => {
    const ff = await recordingFfmpeg('ffmpeg-mac');
    const source = await openFrameSource('avfoundation:1', { platform: 'darwin', camera: { widthPx: 1920, heightPx: 1080, ffmpegPath: ff.path, backoff: { initialMs: 5000, maxMs: 5000 } } });
    source.on('error', () => {});
    const args = await ff.args();
    await closeQuietly(source);
    expect(args.slice(args.indexOf('-f'), args.indexOf('-i') + 2)).toEqual(['-f', 'avfoundation', '-framerate', '30', '-video_size', '1920x1080', '-i', '1:none']);
  });
});

describe('start flags', () => {
  it('--camera-size, --camera-fps and --camera-format become the webcam settings', () => {
    expect(cameraSettingsFromFlags({ size: '1920x1080', fps: '30', format: 'MJPEG' })).toEqual({ widthPx: 1920, heightPx: 1080, fps: 30, format: 'mjpeg' });
    expect(cameraSettingsFromFlags({ format: 'yuyv422' })).toEqual({ format: 'yuyv' });
    expect(cameraSettingsFromFlags({})).toBeUndefined();
  });

  it('bad flags are refused, naming the flag and what it takes', () => {
    expect(() => cameraSettingsFromFlags({ size: '1920' })).toThrow(/--camera-size must be WIDTHxHEIGHT in pixels, e.g. 1920x1080 \(got "1920"\)/);
    expect(() => cameraSettingsFromFlags({ fps: 'fast' })).toThrow(/--camera-fps must be a number/);
    expect(() => cameraSettingsFromFlags({ fps: '-5' })).toThrow(/frame rate must be a number in \(0, 1000\]/);
    expect(() => cameraSettingsFromFlags({ format: 'rgb' })).toThrow(/--camera-format must be one of mjpeg, yuyv, h264 \(got "rgb"\)/);
  });

  it('camera settings are refused for an IP camera and for a recording', async () => {
    const clip = join(dir, 'clip.mp4');
    await writeFile(clip, 'x');
    await expect(openCamera({ spec: 'rtsp://admin:secret@10.0.0.5/live', camera: { fps: 30 } })).rejects.toThrow(
      /^rtsp:\/\/admin:\*\*\*@10\.0\.0\.5\/live: --camera-size, --camera-fps and --camera-format apply to webcams only, not to an IP camera/,
    );
    await expect(openCamera({ spec: clip, camera: { widthPx: 640, heightPx: 480 } })).rejects.toThrow(/apply to webcams only, not to a recording \(video\)/);
  });
});
