/**
 * Frames from ffmpeg: video files, USB webcams (V4L2), IP cameras (RTSP, MJPEG over HTTP). ffmpeg decodes
 * and converts to `-f rawvideo -pix_fmt gray` on stdout; we cut stdout into exact frame-sized chunks. The
 * frame size is read from ffmpeg's own description of its output stream (so a camera is opened once,
 * not probed first), or forced with `widthPx`/`heightPx` (ffmpeg scales).
 *
 * Recorded input (a file) plays once, at decode speed, every frame, with `captureTimeMs` from the frame
 * rate; a live input (camera, URL) stamps frames with the wall clock, drops frames the consumer is too
 * slow for, and when ffmpeg dies (cable pulled, camera rebooted, stream dropped) it is restarted with
 * exponential backoff.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { QueuedFrameSource } from './frameSource.ts';

export interface BackoffOptions {
  /** First wait before reopening, ms. Default 250. */
  readonly initialMs?: number;
  /** Longest wait, ms. Default 5000. */
  readonly maxMs?: number;
}

export interface FfmpegSourceOptions {
  /** ffmpeg arguments that open the input, e.g. ['-i', 'clip.mp4'] or ['-f', 'v4l2', '-i', '/dev/video0']. */
  readonly inputArgs: readonly string[];
  /** Shown in errors and logs. */
  readonly description: string;
  /** Live input: wall-clock stamps, drop-oldest, reopen with backoff. Recorded: none of those. */
  readonly live: boolean;
  /** Force the frame size (ffmpeg scales). Default: the input's own size. */
  readonly widthPx?: number;
  readonly heightPx?: number;
  /** Recorded input: frame rate for `captureTimeMs` when ffmpeg does not report one. Default 30. */
  readonly fps?: number;
  readonly backoff?: BackoffOptions;
  /** ffmpeg executable. Default `ffmpeg` on PATH. */
  readonly ffmpegPath?: string;
}

const STDERR_TAIL_CHARS = 16000;

export const FFMPEG_MISSING_HINT = 'install it (Debian/Ubuntu: sudo apt install ffmpeg) or pass its path';

/** Reads "Output #0 ... Stream #0:0: Video: rawvideo (...), gray, 320x240, ..., 25 fps" from ffmpeg's log. */
export function parseOutputStream(stderr: string): { widthPx: number; heightPx: number; fps: number | null } | null {
  const out = stderr.indexOf('Output #0');
  if (out < 0) return null;
  // Only a complete line: stderr arrives in chunks, and a half line would lose the frame rate.
  const line = /Stream #0:\d+[^\n]*: Video: [^\n]*?, (\d{2,5})x(\d{2,5})\b[^\n]*\n/.exec(stderr.slice(out));
  if (!line) return null;
  const fps = /(\d+(?:\.\d+)?) fps/.exec(line[0]);
  const widthPx = Number(line[1]);
  const heightPx = Number(line[2]);
  // A zero size would make every empty buffer "a frame": refuse it rather than spin.
  if (!(widthPx > 0 && heightPx > 0)) return null;
  return { widthPx, heightPx, fps: fps && Number(fps[1]) > 0 ? Number(fps[1]) : null };
}

export class FfmpegFrameSource extends QueuedFrameSource {
  /** How many times the input has been (re)opened. */
  opens = 0;
  private proc: ChildProcessByStdio<null, Readable, Readable> | null = null;
  private seq = 0;
  private closing = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;

  constructor(private readonly options: FfmpegSourceOptions) {
    super(options.description, options.live ? { maxQueued: 2, overflow: 'drop-oldest' } : { maxQueued: 4, overflow: 'pause' });
    const { widthPx, heightPx } = options;
    if ((widthPx === undefined) !== (heightPx === undefined)) throw new Error(`${options.description}: give both widthPx and heightPx, or neither`);
    for (const [name, v] of [['widthPx', widthPx], ['heightPx', heightPx]] as const) {
      if (v !== undefined && !(Number.isInteger(v) && v >= 8)) throw new Error(`${options.description}: ${name} must be an integer ≥ 8 (got ${v})`);
    }
    this.onPause = () => this.proc?.stdout.pause();
    this.onResume = () => this.proc?.stdout.resume();
    this.onClose = async () => {
      this.closing = true;
      if (this.retryTimer) clearTimeout(this.retryTimer);
      await this.stopProcess();
    };
    this.start();
  }

  /** The running ffmpeg's pid (tests kill it to check the reopen). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  private start(): void {
    const o = this.options;
    const args = ['-hide_banner', '-nostats', '-loglevel', 'info', ...o.inputArgs, '-an'];
    if (o.widthPx !== undefined && o.heightPx !== undefined) args.push('-vf', `scale=${o.widthPx}:${o.heightPx}`);
    args.push('-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1');
    this.opens += 1;
    const proc = spawn(o.ffmpegPath ?? 'ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    let stderr = '';
    let size: { widthPx: number; heightPx: number; frameMs: number } | null = null;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let framesThisOpen = 0;

    const cut = (): void => {
      if (!size) return;
      const frameBytes = size.widthPx * size.heightPx;
      while (pendingBytes >= frameBytes) {
        const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
        const data = new Uint8Array(frameBytes);
        data.set(all.subarray(0, frameBytes));
        const rest = all.subarray(frameBytes);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
        const seq = this.seq++;
        framesThisOpen += 1;
        if (framesThisOpen === 1) this.attempt = 0; // it works again: the next failure starts the backoff afresh
        this.push({ widthPx: size.widthPx, heightPx: size.heightPx, data, seq, captureTimeMs: o.live ? Date.now() : seq * size.frameMs });
      }
    };

    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (chunk: string) => {
      // Keep a bounded tail: enough for the stream description early on and the last error later.
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
      if (!size) {
        const s = parseOutputStream(stderr);
        if (s) {
          size = { widthPx: s.widthPx, heightPx: s.heightPx, frameMs: 1000 / (s.fps ?? o.fps ?? 30) };
          cut();
        }
      }
    });
    proc.stdout.on('data', (chunk: Buffer) => {
      pending.push(chunk);
      pendingBytes += chunk.length;
      cut();
    });
    proc.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.code === 'ENOENT' ? `ffmpeg not found ("${o.ffmpegPath ?? 'ffmpeg'}"): ${FFMPEG_MISSING_HINT}` : `cannot start ffmpeg: ${err.message}`;
      this.proc = null;
      this.fail(new Error(`${o.description}: ${message}`)); // no ffmpeg: reopening cannot help
    });
    proc.on('close', (code, signal) => {
      if (this.proc !== proc) return; // already handled (spawn error) or replaced
      this.proc = null;
      if (this.closing) return;
      if (!o.live && code === 0) {
        if (framesThisOpen === 0) this.fail(new Error(`${o.description}: ffmpeg produced no frames${lastLines(stderr)}`));
        else this.finish();
        return;
      }
      const why = signal ? `ffmpeg was killed (${signal})` : `ffmpeg exited with code ${code}`;
      const err = new Error(`${o.description}: ${why}${lastLines(stderr)}`);
      if (!o.live) {
        this.fail(err);
        return;
      }
      this.report(err);
      this.scheduleReopen();
    });
  }

  private scheduleReopen(): void {
    const initial = this.options.backoff?.initialMs ?? 250;
    const max = this.options.backoff?.maxMs ?? 5000;
    const delayMs = Math.min(initial * 2 ** this.attempt, max);
    this.attempt += 1;
    this.emit('reopen', this.attempt, delayMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.closing && !this.isEnded) this.start();
    }, delayMs);
  }

  private async stopProcess(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    this.proc = null;
    const exited = new Promise<void>((resolve) => proc.once('close', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}

function lastLines(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(Input|Output|Stream|Metadata|Duration|encoder|handler_name|vendor_id|major_brand|minor_version|compatible_brands|Press \[q\])/.test(l));
  const tail = lines.slice(-2).join(' / ');
  return tail === '' ? '' : `: ${tail}`;
}

export interface VideoFileOptions {
  readonly fps?: number;
  readonly widthPx?: number;
  readonly heightPx?: number;
  readonly ffmpegPath?: string;
  /** Play at the video's own speed instead of as fast as frames are taken (a recording standing in for a camera). */
  readonly realtime?: boolean;
  /** Start again at the end, forever (the demo table). `captureTimeMs` keeps increasing. */
  readonly loop?: boolean;
}

/** A recorded video file, played once (or looped), every frame. */
export function createVideoFileSource(path: string, options: VideoFileOptions = {}): FfmpegFrameSource {
  const { realtime, loop, ...rest } = options;
  const input = [...(realtime ? ['-re'] : []), ...(loop ? ['-stream_loop', '-1'] : []), '-i', path];
  return new FfmpegFrameSource({ ...rest, inputArgs: input, description: path, live: false });
}

export interface CameraOptions {
  readonly widthPx?: number;
  readonly heightPx?: number;
  readonly fps?: number;
  readonly backoff?: BackoffOptions;
  readonly ffmpegPath?: string;
}

/** A USB webcam through V4L2, e.g. `/dev/video0`. Size and rate, when given, are asked of the camera. */
export function createWebcamSource(device: string, options: CameraOptions = {}): FfmpegFrameSource {
  const input = ['-f', 'v4l2'];
  if (options.fps !== undefined) input.push('-framerate', String(options.fps));
  if (options.widthPx !== undefined && options.heightPx !== undefined) input.push('-video_size', `${options.widthPx}x${options.heightPx}`);
  input.push('-i', device);
  const { widthPx: _w, heightPx: _h, ...rest } = options;
  return new FfmpegFrameSource({ ...rest, inputArgs: input, description: device, live: true });
}

/**
 * An IP camera: `rtsp://...` (over TCP: UDP loses packets on busy Wi-Fi and smears frames) or an MJPEG
 * stream over `http(s)://...` (multipart/x-mixed-replace, as most cheap cameras and phone apps serve).
 */
export function createIpCameraSource(url: string, options: CameraOptions = {}): FfmpegFrameSource {
  let input: string[];
  if (/^rtsps?:\/\//i.test(url)) input = ['-rtsp_transport', 'tcp', '-i', url];
  else if (/^https?:\/\//i.test(url)) input = ['-f', 'mpjpeg', '-i', url];
  else throw new Error(`${url}: an IP camera URL starts with rtsp://, rtsps://, http:// or https://`);
  return new FfmpegFrameSource({ ...options, inputArgs: input, description: url, live: true });
}
