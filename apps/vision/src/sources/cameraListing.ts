/**
 * What cameras are attached (`muster cameras`), per platform:
 * - Linux: `/dev/video*`, named from `/sys/class/video4linux/videoN/name`; formats and sizes from
 *   `v4l2-ctl --list-formats-ext` when it is installed, else `ffmpeg -f v4l2 -list_formats all`.
 * - macOS: `ffmpeg -f avfoundation -list_devices true -i ""` (video devices; screens left out).
 * - Windows: `ffmpeg -f dshow -list_devices true -i dummy` (video devices).
 * Every parser of a tool's output is a pure function of its text; `listCameras` takes the commands it
 * runs and the folders it reads as options, so each platform is tested anywhere.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FFMPEG_MISSING_HINT } from './ffmpegSource.ts';
import { platformWebcamInput, webcamSpec, type WebcamDevice, type WebcamInput } from './webcamSpec.ts';

export interface CameraFormatListing {
  /** As the tool names it: `mjpeg`, `yuyv422`, `h264`, … (v4l2-ctl's fourcc is mapped to ffmpeg's name). */
  readonly format: string;
  /** Longer description, e.g. `Motion-JPEG`. */
  readonly description: string;
  readonly compressed: boolean;
  /** Discrete sizes (`1280x720`), or one range (`{32-4096, 32}x{32-4096, 32}` from ffmpeg). */
  readonly sizes: readonly string[];
  /** Frame rates by size, when the tool says (v4l2-ctl). */
  readonly fpsBySize?: Readonly<Record<string, readonly number[]>>;
}

export interface CameraListing {
  /** What to pass to `--camera`. */
  readonly spec: string;
  readonly input: WebcamInput;
  readonly name: string;
  /** Linux only (the other inputs do not list formats without opening the camera). */
  readonly formats?: readonly CameraFormatListing[];
  /** Something worth knowing, e.g. "no video formats (a metadata node of the camera before it)". */
  readonly note?: string;
}

/** A listed device: its name and, when the listing gives one, the index ffmpeg knows it by. */
export interface ListedDevice {
  readonly name: string;
  readonly index: number;
  /** DirectShow's "Alternative name" (unique even when two cameras share a name). */
  readonly alternativeName?: string;
}

/** ffmpeg log lines without their `[AVFoundation indev @ 0x…] ` / `[dshow @ 0000…] ` tags. */
function untagged(stderr: string): string[] {
  return stderr.split(/\r?\n/).map((l) => l.replace(/^\[[^\]]*@ ?[0-9a-fx]+\]\s?/i, ''));
}

/**
 * `ffmpeg -f avfoundation -list_devices true -i ""`: the video devices, in ffmpeg's index order.
 * Screens ("Capture screen 0") are left out: they are not cameras.
 */
export function parseAvfoundationDevices(stderr: string): ListedDevice[] {
  const out: ListedDevice[] = [];
  let inVideo = false;
  for (const line of untagged(stderr)) {
    if (/AVFoundation video devices:/i.test(line)) inVideo = true;
    else if (/AVFoundation audio devices:/i.test(line)) inVideo = false;
    else if (inVideo) {
      const m = /^\[(\d+)\] (.+?)\s*$/.exec(line);
      if (m && !/^Capture screen \d+$/.test(m[2]!)) out.push({ index: Number(m[1]), name: m[2]! });
    }
  }
  return out;
}

/**
 * `ffmpeg -f dshow -list_devices true -i dummy`: the video devices, in order. Reads both ffmpeg's
 * layouts: from 5.0 one line per device, `"Name" (video)` (or `(audio, video)`); before, a
 * "DirectShow video devices" heading, then `"Name"` lines. Each may be followed by `Alternative name "@device_…"`.
 */
export function parseDshowDevices(stderr: string): ListedDevice[] {
  const out: { name: string; index: number; alternativeName?: string }[] = [];
  let section: 'video' | 'audio' | null = null;
  let last: { name: string; index: number; alternativeName?: string } | null = null;
  for (const line of untagged(stderr)) {
    if (/DirectShow video devices/i.test(line)) section = 'video';
    else if (/DirectShow audio devices/i.test(line)) section = 'audio';
    const alt = /^\s*Alternative name "(.*)"\s*$/.exec(line);
    if (alt) {
      if (last) last.alternativeName = alt[1]!;
      continue;
    }
    const dev = /^\s*"(.*)"(?:\s+\(([^)]*)\))?\s*$/.exec(line);
    if (!dev) continue;
    const types = dev[2];
    const isVideo = types !== undefined ? /\bvideo\b/.test(types) : section === 'video';
    last = null;
    if (isVideo) {
      last = { name: dev[1]!, index: out.length };
      out.push(last);
    }
  }
  return out;
}

const V4L2_CTL_TO_FFMPEG: Readonly<Record<string, string>> = { MJPG: 'mjpeg', JPEG: 'mjpeg', YUYV: 'yuyv422', H264: 'h264', UYVY: 'uyvy422', NV12: 'nv12', YU12: 'yuv420p', GREY: 'gray', RGB3: 'rgb24', BGR3: 'bgr24' };

/**
 * `ffmpeg -f v4l2 -list_formats all -i /dev/videoN`: lines such as
 * `[video4linux2,v4l2 @ 0x…] Compressed:       mjpeg :          Motion-JPEG : 1280x720 640x480`.
 */
export function parseV4l2FfmpegFormats(stderr: string): CameraFormatListing[] {
  const out: CameraFormatListing[] = [];
  for (const line of untagged(stderr)) {
    // The description may hold colons itself ("YUYV 4:2:2"): it ends at the colon after which only sizes
    // follow (and "Emulated", which ffmpeg writes for a format libv4l2 converts to).
    const m = /^(Raw|Compressed)\s*:\s*(\S+)\s*:\s*(.*?)\s*:((?:\s+(?:Emulated|\d+x\d+|\{[^}]*\}x\{[^}]*\}))*)\s*$/.exec(line);
    if (!m) continue;
    const sizesText = m[4]!.trim();
    const range = /\{[^}]*\}x\{[^}]*\}/.exec(sizesText);
    const sizes = range ? [range[0]] : sizesText.split(/\s+/).filter((s) => /^\d+x\d+$/.test(s));
    out.push({ format: m[2]!, description: m[3]!, compressed: m[1] === 'Compressed', sizes });
  }
  return out;
}

/** `v4l2-ctl --list-formats-ext -d /dev/videoN`: formats, sizes and the frame rates of each size. */
export function parseV4l2CtlFormats(stdout: string): CameraFormatListing[] {
  const out: { format: string; description: string; compressed: boolean; sizes: string[]; fpsBySize: Record<string, number[]> }[] = [];
  let current: (typeof out)[number] | null = null;
  let size: string | null = null;
  for (const line of stdout.split(/\r?\n/)) {
    const fmt = /^\s*\[\d+\]: '([^']+)' \((.*?)(, compressed)?\)\s*$/.exec(line);
    if (fmt) {
      const fourcc = fmt[1]!.trim();
      current = { format: V4L2_CTL_TO_FFMPEG[fourcc] ?? fourcc.toLowerCase(), description: fmt[2]!, compressed: fmt[3] !== undefined, sizes: [], fpsBySize: {} };
      out.push(current);
      size = null;
      continue;
    }
    const sz = /^\s*Size: (?:Discrete (\d+x\d+)|Stepwise (.*))\s*$/.exec(line);
    if (sz && current) {
      size = sz[1] ?? sz[2]!;
      current.sizes.push(size);
      continue;
    }
    const iv = /^\s*Interval: Discrete [\d.]+s \(([\d.]+) fps\)/.exec(line);
    if (iv && current && size !== null) (current.fpsBySize[size] ??= []).push(Number(iv[1]));
  }
  return out;
}

/** The outcome of running a tool: what it wrote and how it ended (`code` null when it could not start). */
export interface ToolRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** Set when the tool could not be started (`ENOENT`: not installed). */
  readonly errorCode?: string;
}

export type RunTool = (command: string, args: readonly string[]) => Promise<ToolRun>;

/** Runs a command with a timeout; never throws. */
export const runTool: RunTool = (command, args) =>
  new Promise((done) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done({ stdout, stderr, code: null, errorCode: err.code ?? 'ERROR' });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ stdout, stderr, code });
    });
  });

export interface ListCamerasOptions {
  /** Default `process.platform`. */
  readonly platform?: string;
  /** Default `ffmpeg` on PATH. */
  readonly ffmpegPath?: string;
  /** Default: run the command (tests pass captured output). */
  readonly run?: RunTool;
  /** Linux: where the devices are (default `/dev`) and their sysfs names (default `/sys/class/video4linux`). */
  readonly devDir?: string;
  readonly sysDir?: string;
}

function ffmpegMissing(ffmpegPath: string): Error {
  return new Error(`ffmpeg not found ("${ffmpegPath}"): it lists the cameras; ${FFMPEG_MISSING_HINT}`);
}

/** The cameras attached to this machine, with the spec to open each. Throws only when ffmpeg is needed and missing. */
export async function listCameras(options: ListCamerasOptions = {}): Promise<CameraListing[]> {
  const platform = options.platform ?? process.platform;
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const run = options.run ?? runTool;
  const input = platformWebcamInput(platform);
  if (input === 'v4l2') return listV4l2Cameras(options.devDir ?? '/dev', options.sysDir ?? '/sys/class/video4linux', ffmpeg, run);
  if (input === 'avfoundation' || input === 'dshow') {
    const args = input === 'avfoundation' ? ['-hide_banner', '-f', 'avfoundation', '-list_devices', 'true', '-i', ''] : ['-hide_banner', '-f', 'dshow', '-list_devices', 'true', '-i', 'dummy'];
    const r = await run(ffmpeg, args);
    if (r.errorCode === 'ENOENT') throw ffmpegMissing(ffmpeg);
    const devices = input === 'avfoundation' ? parseAvfoundationDevices(r.stderr) : parseDshowDevices(r.stderr);
    return devices.map((d) => {
      // DirectShow opens by name: the name when it is unique, else the index (resolved by listing again).
      const unique = devices.filter((o) => o.name === d.name).length === 1 && !/[:"]/.test(d.name);
      const device: WebcamDevice = { input, device: input === 'avfoundation' ? d.index : unique ? d.name : d.index };
      return { spec: webcamSpec(device), input, name: d.name };
    });
  }
  return [];
}

async function listV4l2Cameras(devDir: string, sysDir: string, ffmpeg: string, run: RunTool): Promise<CameraListing[]> {
  let names: string[];
  try {
    names = (await readdir(devDir)).filter((n) => /^video\d+$/.test(n));
  } catch {
    return [];
  }
  names.sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  if (names.length === 0) return [];
  let v4l2Ctl = true;
  const out: CameraListing[] = [];
  for (const n of names) {
    const path = join(devDir, n);
    let name = n;
    try {
      name = (await readFile(join(sysDir, n, 'name'), 'utf8')).trim() || n;
    } catch {
      // no sysfs name: the device node's own name
    }
    let formats: CameraFormatListing[] = [];
    let note: string | undefined;
    if (v4l2Ctl) {
      const r = await run('v4l2-ctl', ['--list-formats-ext', '-d', path]);
      if (r.errorCode === 'ENOENT') v4l2Ctl = false;
      else formats = parseV4l2CtlFormats(r.stdout);
    }
    if (!v4l2Ctl) {
      const r = await run(ffmpeg, ['-hide_banner', '-f', 'v4l2', '-list_formats', 'all', '-i', path]);
      if (r.errorCode === 'ENOENT') note = 'formats not listed: neither v4l2-ctl nor ffmpeg is installed';
      else formats = parseV4l2FfmpegFormats(r.stderr);
    }
    if (note === undefined && formats.length === 0) note = 'no video formats listed (often the metadata node of the camera before it, or the device is busy)';
    out.push({ spec: path, input: 'v4l2', name, formats, ...(note !== undefined ? { note } : {}) });
  }
  return out;
}

/**
 * A device with an index, for an input that opens by name (DirectShow): the name of the nth video device,
 * by asking ffmpeg for the list. Other devices are returned as they are.
 */
export async function resolveWebcamDevice(device: WebcamDevice, options: { ffmpegPath?: string; run?: RunTool } = {}): Promise<WebcamDevice> {
  if (device.input !== 'dshow' || typeof device.device !== 'number') return device;
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const r = await (options.run ?? runTool)(ffmpeg, ['-hide_banner', '-f', 'dshow', '-list_devices', 'true', '-i', 'dummy']);
  if (r.errorCode === 'ENOENT') throw ffmpegMissing(ffmpeg);
  const devices = parseDshowDevices(r.stderr);
  const found = devices[device.device];
  if (!found) throw new Error(`${webcamSpec(device)}: there is no camera number ${device.device} (${devices.length === 0 ? 'no cameras found' : `${devices.length} found: ${devices.map((d, i) => `${i} "${d.name}"`).join(', ')}`})`);
  // Two cameras with one name: DirectShow also takes the alternative name, which is unique.
  const dup = devices.filter((d) => d.name === found.name).length > 1 || /[:"]/.test(found.name);
  return { input: 'dshow', device: dup && found.alternativeName ? found.alternativeName : found.name };
}
