/**
 * `muster cameras` and the listing behind it: each platform's ffmpeg (and v4l2-ctl) listing parsed from
 * sample outputs in `samples/`, `listCameras` per platform with the listing command injected, a real
 * run of ffmpeg against a device node that is not a camera, and the real `muster cameras` command.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listCameras,
  parseAvfoundationDevices,
  parseDshowDevices,
  parseV4l2CtlFormats,
  parseV4l2FfmpegFormats,
  resolveWebcamDevice,
} from '../../apps/vision/src/sources/index.ts';
import type { RunTool } from '../../apps/vision/src/sources/cameraListing.ts';
import { camerasText } from '../../apps/server/src/cli/commands/cameras.ts';

const here = dirname(fileURLToPath(import.meta.url));
const MUSTER = join(here, '../../apps/server/bin/muster.js');
const sample = (name: string): Promise<string> => readFile(join(here, 'samples', name), 'utf8');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'muster-cameras-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('AVFoundation (macOS) listing', () => {
  it('reads the video devices with their indexes and leaves out screens and audio devices', async () => {
    expect(parseAvfoundationDevices(await sample('avfoundation-list-devices.txt'))).toEqual([
      { index: 0, name: 'FaceTime HD Camera' },
      { index: 1, name: 'Logitech BRIO' },
      { index: 2, name: 'OBS Virtual Camera' },
    ]);
  });

  it('reads the older "AVFoundation input device" tag too', async () => {
    expect(parseAvfoundationDevices(await sample('avfoundation-list-devices-ffmpeg4.txt'))).toEqual([{ index: 0, name: 'Built-in iSight' }]);
  });
});

describe('DirectShow (Windows) listing', () => {
  it('reads ffmpeg 5+ lines "Name" (video), with alternative names, skipping audio and (none) devices', async () => {
    const devices = parseDshowDevices(await sample('dshow-list-devices.txt'));
    expect(devices.map((d) => [d.index, d.name])).toEqual([
      [0, 'Integrated Webcam'],
      [1, 'HD Pro Webcam C920'],
      [2, 'HD Pro Webcam C920'],
    ]);
    expect(devices[1]!.alternativeName).toMatch(/^@device_pnp_.*1f2e3d4c/);
    expect(devices[2]!.alternativeName).toMatch(/^@device_pnp_.*9a8b7c6d/);
  });

  it('reads ffmpeg 4 headings ("DirectShow video devices") and the newest [in#0 @ …] tags', async () => {
    expect(parseDshowDevices(await sample('dshow-list-devices-ffmpeg4.txt')).map((d) => d.name)).toEqual(['USB2.0 HD UVC WebCam']);
    expect(parseDshowDevices(await sample('dshow-list-devices-in0.txt')).map((d) => d.name)).toEqual(['USB Camera']);
  });
});

describe('V4L2 (Linux) formats', () => {
  it('reads ffmpeg -list_formats all: formats, descriptions with colons, sizes, emulated formats', async () => {
    expect(parseV4l2FfmpegFormats(await sample('v4l2-list-formats.txt'))).toEqual([
      { format: 'mjpeg', description: 'Motion-JPEG', compressed: true, sizes: ['1920x1080', '1280x720', '1024x576', '800x600', '640x480', '320x240'] },
      { format: 'yuyv422', description: 'YUYV 4:2:2', compressed: false, sizes: ['640x480', '320x240', '1280x720', '1920x1080'] },
      { format: 'yuv420p', description: 'Planar YUV 4:2:0', compressed: false, sizes: ['640x480', '320x240'] },
    ]);
  });

  it('keeps a stepwise size range as one entry', async () => {
    const formats = parseV4l2FfmpegFormats(await sample('v4l2-list-formats-stepwise.txt'));
    expect(formats.map((f) => [f.format, f.description, f.sizes])).toEqual([
      ['yuyv422', 'YUYV 4:2:2', ['{32-3840, 2}x{32-2160, 2}']],
      ['h264', 'H.264', ['{32-3840, 2}x{32-2160, 2}']],
    ]);
  });

  it('reads v4l2-ctl --list-formats-ext with the frame rates of each size, fourccs as ffmpeg names them', async () => {
    const formats = parseV4l2CtlFormats(await sample('v4l2-ctl-list-formats-ext.txt'));
    expect(formats).toEqual([
      { format: 'mjpeg', description: 'Motion-JPEG', compressed: true, sizes: ['1920x1080', '1280x720', '640x480'], fpsBySize: { '1920x1080': [30, 15], '1280x720': [60, 30], '640x480': [30] } },
      { format: 'yuyv422', description: 'YUYV 4:2:2', compressed: false, sizes: ['640x480', '1920x1080'], fpsBySize: { '640x480': [30], '1920x1080': [5] } },
    ]);
  });
});

/** A listing command that answers from the samples and records what it was asked. */
function fakeRun(answers: Record<string, { stdout?: string; stderr?: string; missing?: boolean }>, calls: string[][]): RunTool {
  return async (command, args) => {
    calls.push([command, ...args]);
    const a = answers[command];
    if (!a || a.missing) return { stdout: '', stderr: '', code: null, errorCode: 'ENOENT' };
    return { stdout: a.stdout ?? '', stderr: a.stderr ?? '', code: 1 };
  };
}

describe('listCameras per platform (platform and listing injected)', () => {
  it('macOS: every video device as avfoundation:<index>, asked with -list_devices true', async () => {
    const calls: string[][] = [];
    const cams = await listCameras({ platform: 'darwin', run: fakeRun({ ffmpeg: { stderr: await sample('avfoundation-list-devices.txt') } }, calls) });
    expect(calls).toEqual([['ffmpeg', '-hide_banner', '-f', 'avfoundation', '-list_devices', 'true', '-i', '']]);
    expect(cams).toEqual([
      { spec: 'avfoundation:0', input: 'avfoundation', name: 'FaceTime HD Camera' },
      { spec: 'avfoundation:1', input: 'avfoundation', name: 'Logitech BRIO' },
      { spec: 'avfoundation:2', input: 'avfoundation', name: 'OBS Virtual Camera' },
    ]);
  });

  it('Windows: a unique name as dshow:<name>, two cameras of one name by index (resolved to the alternative name)', async () => {
    const calls: string[][] = [];
    const listing = await sample('dshow-list-devices.txt');
    const run = fakeRun({ ffmpeg: { stderr: listing } }, calls);
    const cams = await listCameras({ platform: 'win32', run });
    expect(calls[0]).toEqual(['ffmpeg', '-hide_banner', '-f', 'dshow', '-list_devices', 'true', '-i', 'dummy']);
    expect(cams.map((c) => c.spec)).toEqual(['dshow:Integrated Webcam', 'dshow:1', 'dshow:2']);
    expect(await resolveWebcamDevice({ input: 'dshow', device: 2 }, { run })).toEqual({ input: 'dshow', device: parseDshowDevices(listing)[2]!.alternativeName });
    expect(await resolveWebcamDevice({ input: 'dshow', device: 0 }, { run })).toEqual({ input: 'dshow', device: 'Integrated Webcam' });
    await expect(resolveWebcamDevice({ input: 'dshow', device: 7 }, { run })).rejects.toThrow(/dshow:7: there is no camera number 7 \(3 found: 0 "Integrated Webcam", 1 "HD Pro Webcam C920", 2 "HD Pro Webcam C920"\)/);
  });

  it('Linux: /dev/video* in number order, named from sysfs, formats from v4l2-ctl, else from ffmpeg', async () => {
    const dev = join(dir, 'dev');
    const sys = join(dir, 'sys');
    await mkdir(dev, { recursive: true });
    for (const n of ['video10', 'video2', 'video0', 'vhci', 'video1']) await writeFile(join(dev, n), '');
    await mkdir(join(sys, 'video0'), { recursive: true });
    await writeFile(join(sys, 'video0', 'name'), 'HD Pro Webcam C920\n');
    const withCtl: string[][] = [];
    const ctl = await listCameras({ platform: 'linux', devDir: dev, sysDir: sys, run: fakeRun({ 'v4l2-ctl': { stdout: await sample('v4l2-ctl-list-formats-ext.txt') } }, withCtl) });
    expect(ctl.map((c) => [c.spec, c.name])).toEqual([
      [join(dev, 'video0'), 'HD Pro Webcam C920'],
      [join(dev, 'video1'), 'video1'],
      [join(dev, 'video2'), 'video2'],
      [join(dev, 'video10'), 'video10'],
    ]);
    expect(ctl[0]!.formats?.map((f) => f.format)).toEqual(['mjpeg', 'yuyv422']);
    expect(withCtl[0]).toEqual(['v4l2-ctl', '--list-formats-ext', '-d', join(dev, 'video0')]);

    const noCtl: string[][] = [];
    const ff = await listCameras({
      platform: 'linux',
      devDir: dev,
      sysDir: sys,
      run: fakeRun({ 'v4l2-ctl': { missing: true }, ffmpeg: { stderr: await sample('v4l2-list-formats.txt') } }, noCtl),
    });
    expect(noCtl).toContainEqual(['ffmpeg', '-hide_banner', '-f', 'v4l2', '-list_formats', 'all', '-i', join(dev, 'video0')]);
    expect(noCtl.filter((c) => c[0] === 'v4l2-ctl')).toHaveLength(1); // asked once, then known missing
    expect(ff[0]!.formats?.map((f) => f.format)).toEqual(['mjpeg', 'yuyv422', 'yuv420p']);
  });

  it('an empty /dev is an empty list; an unsupported platform too', async () => {
    const empty = join(dir, 'empty-dev');
    await mkdir(empty, { recursive: true });
    expect(await listCameras({ platform: 'linux', devDir: empty, run: fakeRun({}, []) })).toEqual([]);
    expect(await listCameras({ platform: 'freebsd', run: fakeRun({}, []) })).toEqual([]);
  });

  it('ffmpeg missing on macOS or Windows is an error that says how to install it', async () => {
    await expect(listCameras({ platform: 'darwin', run: fakeRun({}, []) })).rejects.toThrow(/ffmpeg not found \("ffmpeg"\): it lists the cameras; install it/);
  });
});

describe('real ffmpeg', () => {
  it('a device node that is no camera is listed with a note, not dropped, and nothing throws', async () => {
    const dev = join(dir, 'real-dev');
    await mkdir(dev, { recursive: true });
    await writeFile(join(dev, 'video0'), 'not a camera');
    const cams = await listCameras({ platform: 'linux', devDir: dev, sysDir: join(dir, 'no-sys') });
    expect(cams).toHaveLength(1);
    expect(cams[0]).toMatchObject({ spec: join(dev, 'video0'), input: 'v4l2', name: 'video0', formats: [] });
    expect(cams[0]!.note).toMatch(/no video formats listed/);
  });
});

describe('muster cameras', () => {
  it('runs on this machine: lists the cameras, or says clearly that there are none; exit 0 either way', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [MUSTER, 'cameras'], { timeout: 60_000 });
    const devices = existsSync('/dev') ? readdirSync('/dev').filter((n) => /^video\d+$/.test(n)) : [];
    if (devices.length === 0) expect(stdout).toMatch(/^No cameras found: there is no \/dev\/video\* device on this machine\.\n/);
    else expect(stdout).toMatch(new RegExp(`^${devices.length} cameras? found \\(Linux, V4L2\\):`));
    expect(stderr).toBe('');
    const json = await promisify(execFile)(process.execPath, [MUSTER, 'cameras', '--json'], { timeout: 60_000 });
    expect((JSON.parse(json.stdout) as unknown[]).length).toBe(devices.length);
  });

  it('a bad option exits 2 with a message on stderr', async () => {
    const err = await promisify(execFile)(process.execPath, [MUSTER, 'cameras', '--nope'], { timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toMatch(/muster cameras: .*--nope/);
  });

  it('prints each camera with its formats and a start line with the largest MJPEG size at its best rate', async () => {
    const formats = parseV4l2CtlFormats(await sample('v4l2-ctl-list-formats-ext.txt'));
    const text = camerasText([{ spec: '/dev/video0', input: 'v4l2', name: 'HD Pro Webcam C920', formats }], 'linux').join('\n');
    expect(text).toContain('1 camera found (Linux, V4L2):');
    expect(text).toContain('mjpeg (--camera-format mjpeg): Motion-JPEG, compressed: 1920x1080@30,15 1280x720@60,30 640x480@30');
    expect(text).toContain('yuyv422 (--camera-format yuyv): YUYV 4:2:2: 640x480@30 1920x1080@5');
    expect(text).toContain('start: muster start --camera /dev/video0 --camera-size 1920x1080 --camera-fps 30 --camera-format mjpeg');
    const win = camerasText([{ spec: 'dshow:Integrated Webcam', input: 'dshow', name: 'Integrated Webcam' }], 'win32').join('\n');
    expect(win).toContain('start: muster start --camera "dshow:Integrated Webcam"');
  });
});
