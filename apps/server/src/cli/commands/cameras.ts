/**
 * `muster cameras`: the webcams attached to this machine, each with the `--camera` spec that opens it
 * and, on Linux, the formats, sizes and rates it offers (`@muster/vision`'s `listCameras`: V4L2 devices,
 * AVFoundation on macOS, DirectShow on Windows). Nothing attached is an answer, not an error: exit 0.
 */
import { listCameras, type CameraListing } from '@muster/vision';
import { CliError } from '../cliError.ts';
import { parseCommandArgs, type CommandSpec } from '../commandArgs.ts';

const SPEC = {
  command: 'cameras',
  synopsis: ['[--json] [--ffmpeg <path>]'],
  options: {
    json: { type: 'boolean', help: 'print the list as JSON (an array; empty when none is attached)' },
    ffmpeg: { type: 'string', arg: '<path>', help: 'the ffmpeg to ask (default: ffmpeg on PATH)' },
  },
  notes:
    "Lists the webcams ffmpeg can open here, each with what to pass to 'muster start --camera':\n" +
    "Linux: /dev/video*, named from sysfs, formats from v4l2-ctl or 'ffmpeg -f v4l2 -list_formats all';\n" +
    "macOS: 'ffmpeg -f avfoundation -list_devices true'; Windows: 'ffmpeg -f dshow -list_devices true'.\n" +
    'None attached is an answer (exit 0), not an error.',
} as const satisfies CommandSpec;

const PLATFORM_WORDS: Readonly<Record<string, string>> = { v4l2: 'Linux, V4L2', avfoundation: 'macOS, AVFoundation', dshow: 'Windows, DirectShow' };

/** ffmpeg's pixel format name → what `--camera-format` takes (null: not one it takes). */
function formatFlag(format: string): string | null {
  return format === 'mjpeg' ? 'mjpeg' : format === 'yuyv422' ? 'yuyv' : format === 'h264' ? 'h264' : null;
}

/** `1920x1080@30,15 1280x720@30 …` (rates when the listing gives them), shortened past `max` sizes. */
function sizesText(f: NonNullable<CameraListing['formats']>[number], max = 8): string {
  const shown = f.sizes.slice(0, max).map((s) => {
    const rates = f.fpsBySize?.[s];
    return rates && rates.length > 0 ? `${s}@${rates.map((r) => Number(r.toFixed(2))).join(',')}` : s;
  });
  return shown.join(' ') + (f.sizes.length > max ? ` (+${f.sizes.length - max} more)` : '');
}

/** The listing as text lines, with a `muster start` line for each camera that has formats. */
export function camerasText(cameras: readonly CameraListing[], platform: string): string[] {
  const lines: string[] = [];
  const input = cameras[0]?.input;
  lines.push(`${cameras.length} camera${cameras.length === 1 ? '' : 's'} found${input ? ` (${PLATFORM_WORDS[input] ?? input})` : ''}:`);
  for (const c of cameras) {
    lines.push(`  ${c.spec}${c.name !== c.spec ? `   "${c.name}"` : ''}`);
    for (const f of c.formats ?? []) {
      const flag = formatFlag(f.format);
      lines.push(`      ${f.format}${flag ? ` (--camera-format ${flag})` : ''}: ${f.description}${f.compressed ? ', compressed' : ''}: ${sizesText(f)}`);
    }
    if (c.note) lines.push(`      note: ${c.note}`);
    const best = bestMode(c);
    lines.push(`      start: muster start --camera ${quoteArg(c.spec)}${best ? ` --camera-size ${best.size}${best.fps ? ` --camera-fps ${best.fps}` : ''} --camera-format ${best.format}` : ''}`);
  }
  if (platform === 'darwin' || platform === 'win32') lines.push('', 'Sizes and rates: ffmpeg lists them only when it opens a camera; ask for them with --camera-size and --camera-fps (a refusal names the ones the camera offers).');
  return lines;
}

/** The largest size of a format --camera-format takes (MJPEG first: it reaches large sizes at full rate), with its best rate. */
function bestMode(c: CameraListing): { size: string; fps: number | null; format: string } | null {
  for (const wanted of ['mjpeg', 'yuyv422', 'h264']) {
    const f = c.formats?.find((x) => x.format === wanted);
    if (!f) continue;
    const discrete = f.sizes.filter((s) => /^\d+x\d+$/.test(s));
    if (discrete.length === 0) continue;
    const area = (s: string): number => s.split('x').map(Number).reduce((a, b) => a * b, 1);
    const size = discrete.reduce((a, b) => (area(b) > area(a) ? b : a));
    const rates = f.fpsBySize?.[size] ?? [];
    return { size, fps: rates.length > 0 ? Number(Math.max(...rates).toFixed(2)) : null, format: formatFlag(wanted)! };
  }
  return null;
}

function quoteArg(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** Why nothing was found, and what to check, for this platform. */
export function noCamerasText(platform: string): string[] {
  if (platform === 'linux') {
    return [
      'No cameras found: there is no /dev/video* device on this machine.',
      'Check that the webcam is plugged in (lsusb lists it) and that its driver loaded (dmesg | grep -i uvc).',
      'In Docker, pass the device through: docker run --device /dev/video0 …',
      'Without a webcam, --camera also takes an rtsp:// or http:// (MJPEG) URL, a video file, a folder of frames, or phone.',
    ];
  }
  if (platform === 'darwin' || platform === 'win32') {
    return [
      'No cameras found: ffmpeg lists no video capture device.',
      platform === 'darwin'
        ? 'Check that the terminal may use the camera (System Settings → Privacy & Security → Camera).'
        : 'Check that the camera shows in the Device Manager and that no other program holds it.',
      'Without a webcam, --camera also takes an rtsp:// or http:// (MJPEG) URL, a video file, a folder of frames, or phone.',
    ];
  }
  return [`No cameras: webcams are opened through ffmpeg on Linux, macOS and Windows only (this is ${platform}).`, '--camera still takes an rtsp:// or http:// (MJPEG) URL, a video file, a folder of frames, or phone.'];
}

export async function run(args: string[]): Promise<number> {
  const { values: v } = parseCommandArgs(SPEC, args);
  let cameras: CameraListing[];
  try {
    cameras = await listCameras(v.ffmpeg !== undefined ? { ffmpegPath: v.ffmpeg } : {});
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (v.json) {
    process.stdout.write(`${JSON.stringify(cameras, null, 2)}\n`);
    return 0;
  }
  const lines = cameras.length === 0 ? noCamerasText(process.platform) : camerasText(cameras, process.platform);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
