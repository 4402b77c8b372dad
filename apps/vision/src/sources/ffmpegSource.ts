/**
 * Frames from ffmpeg: video files, webcams (V4L2, AVFoundation, DirectShow: `webcamSpec.ts`), IP cameras
 * (RTSP, MJPEG over HTTP). ffmpeg decodes and converts to `-f rawvideo -pix_fmt gray` on stdout; we cut
 * stdout into exact frame-sized chunks. The frame size is read from ffmpeg's own description of its
 * output stream (so a camera is opened once, not probed first), or forced with `widthPx`/`heightPx`
 * (ffmpeg scales).
 *
 * Recorded input (a file) plays once, at decode speed, every frame, with `captureTimeMs` from the frame
 * rate; a live input (camera, URL) stamps frames with the wall clock, drops frames the consumer is too
 * slow for, and when ffmpeg dies (cable pulled, camera rebooted, stream dropped) it is restarted with
 * exponential backoff. A live input is also watched: no frame data for `stallTimeoutMs` (a camera that
 * accepts and never answers, a stream that stops mid-way with the socket open, a hung driver) kills
 * ffmpeg and reopens it the same way, and network inputs pass ffmpeg its own I/O timeout as well. What
 * the source is doing (`connecting`, `streaming`, `reconnecting` with the attempt and last error,
 * `ended`) is `status()` and the `status` event.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { QueuedFrameSource } from './frameSource.ts';
import { parseWebcamSpec, webcamInputArgs, webcamSpec, webcamSpecHint, type CameraFormat, type WebcamDevice } from './webcamSpec.ts';

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
  /**
   * Live input: once frame data has flowed, this long without any (ms) is a stall: ffmpeg is killed and
   * reopened with the backoff. Default 3000. Recorded input is never watched (its reader may be paused).
   */
  readonly stallTimeoutMs?: number;
  /** Live input: this long (ms) after starting ffmpeg without a first frame, it is killed and reopened. Default 10000. */
  readonly openTimeoutMs?: number;
  /**
   * The I/O timeout given to ffmpeg itself in `inputArgs` (network inputs), ms: an exit after that long
   * without data is reported as "no answer" / "stalled" rather than as ffmpeg's own words alone.
   */
  readonly networkTimeoutMs?: number;
}

export const DEFAULT_STALL_TIMEOUT_MS = 3000;
export const DEFAULT_OPEN_TIMEOUT_MS = 10_000;

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
  private stallTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private readonly stallTimeoutMs: number;
  private readonly openTimeoutMs: number;

  constructor(private readonly options: FfmpegSourceOptions) {
    super(options.description, options.live ? { maxQueued: 2, overflow: 'drop-oldest' } : { maxQueued: 4, overflow: 'pause' });
    const { widthPx, heightPx } = options;
    if ((widthPx === undefined) !== (heightPx === undefined)) throw new Error(`${options.description}: give both widthPx and heightPx, or neither`);
    for (const [name, v] of [['widthPx', widthPx], ['heightPx', heightPx]] as const) {
      if (v !== undefined && !(Number.isInteger(v) && v >= 8)) throw new Error(`${options.description}: ${name} must be an integer ≥ 8 (got ${v})`);
    }
    this.stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    this.openTimeoutMs = options.openTimeoutMs ?? Math.max(DEFAULT_OPEN_TIMEOUT_MS, this.stallTimeoutMs);
    for (const [name, v] of [['stallTimeoutMs', this.stallTimeoutMs], ['openTimeoutMs', this.openTimeoutMs]] as const) {
      if (!(Number.isFinite(v) && v >= 100)) throw new Error(`${options.description}: ${name} must be a number ≥ 100 (got ${v})`);
    }
    this.onPause = () => this.proc?.stdout.pause();
    this.onResume = () => this.proc?.stdout.resume();
    this.onClose = async () => {
      this.closing = true;
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.stopStallWatch();
      await this.stopProcess();
    };
    this.setStatus('connecting', `opening ${options.live ? 'the camera' : 'the file'}, waiting for the first frame`);
    this.start();
  }

  /** The ffmpeg arguments that open the input (what was asked of the camera). */
  get inputArgs(): readonly string[] {
    return this.options.inputArgs;
  }

  /** The running ffmpeg's pid (tests kill it to check the reopen). */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  private start(): void {
    const o = this.options;
    const args = ['-hide_banner', '-nostats', '-loglevel', 'info', ...o.inputArgs, '-an'];
    if (o.widthPx !== undefined && o.heightPx !== undefined) args.push('-vf', `scale=${o.widthPx}:${o.heightPx}`);
    // -flush_packets 1: each frame leaves ffmpeg at once (its 32 KiB output buffer would otherwise hold
    // ten small frames back, and the stall watchdog would see bytes only when ffmpeg exits).
    args.push('-f', 'rawvideo', '-pix_fmt', 'gray', '-flush_packets', '1', 'pipe:1');
    this.opens += 1;
    const proc = spawn(o.ffmpegPath ?? 'ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    this.emit('open', this.opens);
    if (this.attempt > 0) {
      const st = this.status();
      this.setStatus('reconnecting', `attempt ${this.attempt}: opening again; last error: ${st.lastError ?? 'unknown'}`);
    }
    let stderr = '';
    let size: { widthPx: number; heightPx: number; frameMs: number } | null = null;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let framesThisOpen = 0;
    const startedMs = Date.now();
    let lastDataMs: number | null = null;
    /** Why we killed this ffmpeg ourselves (a stall), said instead of "killed (SIGTERM)". */
    let killedFor: string | null = null;

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

    // The stall watchdog (live input): checks a few times per timeout, never keeps the process alive.
    if (o.live) {
      this.stopStallWatch();
      const checkMs = Math.max(50, Math.min(250, Math.floor(this.stallTimeoutMs / 8)));
      this.stallTimer = setInterval(() => {
        if (this.proc !== proc || killedFor !== null) return;
        const t = Date.now();
        if (lastDataMs === null && t - startedMs >= this.openTimeoutMs) killedFor = `no frame within ${seconds(this.openTimeoutMs)} of opening`;
        else if (lastDataMs !== null && t - lastDataMs >= this.stallTimeoutMs) killedFor = `stalled: no frame data for ${seconds(t - lastDataMs)}`;
        if (killedFor === null) return;
        this.stopStallWatch();
        // SIGKILL: a hung ffmpeg does not stop on one SIGTERM (after start-up it leaves a blocking read
        // to its own I/O timeout), and a raw pipe has nothing to finish.
        proc.kill('SIGKILL');
      }, checkMs);
      this.stallTimer.unref();
    }

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
      lastDataMs = Date.now();
      pending.push(chunk);
      pendingBytes += chunk.length;
      cut();
    });
    proc.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.code === 'ENOENT' ? `ffmpeg not found ("${o.ffmpegPath ?? 'ffmpeg'}"): ${FFMPEG_MISSING_HINT}` : `cannot start ffmpeg: ${err.message}`;
      if (this.proc === proc) this.stopStallWatch();
      this.proc = null;
      this.fail(new Error(`${o.description}: ${message}`)); // no ffmpeg: reopening cannot help
    });
    proc.on('close', (code, signal) => {
      if (this.proc !== proc) return; // already handled (spawn error) or replaced
      this.proc = null;
      this.stopStallWatch();
      if (this.closing) return;
      if (!o.live && code === 0) {
        if (framesThisOpen === 0) this.fail(new Error(`${o.description}: ffmpeg produced no frames${lastLines(stderr, o.description)}`));
        else this.finish();
        return;
      }
      const how = signal ? `ffmpeg was killed (${signal})` : `ffmpeg exited with code ${code}`;
      const quietMs = Date.now() - (lastDataMs ?? startedMs);
      const timedOut = o.live && o.networkTimeoutMs !== undefined && quietMs >= o.networkTimeoutMs - 250;
      const why =
        killedFor !== null ? `${killedFor}; ffmpeg restarted`
        : timedOut ? `${lastDataMs === null ? 'no answer' : 'stalled: no frame data'} for ${seconds(quietMs)} (${how}${lastLines(stderr, o.description)})`
        : `${how}${lastLines(stderr, o.description)}`;
      const err = new Error(`${o.description}: ${why}`);
      if (!o.live) {
        this.fail(err);
        return;
      }
      this.report(err);
      this.scheduleReopen(this.withoutDescription(err.message));
    });
  }

  private stopStallWatch(): void {
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.stallTimer = null;
  }

  private scheduleReopen(lastError: string): void {
    const initial = this.options.backoff?.initialMs ?? 250;
    const max = this.options.backoff?.maxMs ?? 5000;
    const delayMs = Math.min(initial * 2 ** this.attempt, max);
    this.attempt += 1;
    this.setStatus('reconnecting', `attempt ${this.attempt} in ${seconds(delayMs)}; last error: ${lastError}`, { attempt: this.attempt, lastError });
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
    // One SIGTERM does not interrupt a read that hangs (a camera that stopped answering): then SIGKILL.
    const timer = setTimeout(() => proc.kill('SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
  }
}

/** 250 → "250 ms", 3012 → "3 s", 2460 → "2.5 s". */
function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * ffmpeg's last two meaningful lines, for an error: "[tcp @ 0x55d0…] " tags, the input's own name in
 * front of a line (the error already starts with it) and a line repeating the end of the one before are
 * left out.
 */
function lastLines(stderr: string, description?: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => {
      const line = l.trim().replace(/^(\[[^\]\n]* @ 0x[0-9a-f]+\] ?)+/i, '');
      return description && line.startsWith(`${description}: `) ? line.slice(description.length + 2) : line;
    })
    .filter((l) => l !== '' && !/^(Input|Output|Stream|Metadata|Duration|encoder|handler_name|vendor_id|major_brand|minor_version|compatible_brands|Press \[q\]|frame=|video:\d)/.test(l))
    // "…failed: Connection refused" then "Connection refused": say it once.
    .filter((l, i, all) => i === 0 || !all[i - 1]!.endsWith(l));
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
  /**
   * Webcam: the capture size asked of the camera (`-video_size`). IP camera: the frames are scaled to it
   * (the stream decides its own size).
   */
  readonly widthPx?: number;
  readonly heightPx?: number;
  /** Webcam: the capture frame rate asked of the camera (`-framerate`). Not used by an IP camera. */
  readonly fps?: number;
  /**
   * Webcam: the camera's own encoding (V4L2 `-input_format`, DirectShow `-vcodec`/`-pixel_format`,
   * AVFoundation `-pixel_format` for yuyv only; see `webcamSpec.ts`). An IP camera refuses it.
   */
  readonly format?: CameraFormat;
  /** Webcam: what errors and status call it. Default: its spec (a DirectShow index resolved to a name keeps the spec given). */
  readonly description?: string;
  readonly backoff?: BackoffOptions;
  readonly ffmpegPath?: string;
  /** No frame data for this long (ms) once streaming: a stall, ffmpeg is restarted. Default 3000; ffmpeg's own network I/O timeout is 1 s more. */
  readonly stallTimeoutMs?: number;
  /** No first frame this long (ms) after opening: ffmpeg is restarted. Default 10000. */
  readonly openTimeoutMs?: number;
}

/**
 * A webcam through ffmpeg's capture input for its platform: a spec (`/dev/video0`, `avfoundation:0`,
 * `dshow:Integrated Webcam`, `0`; see `parseWebcamSpec`) or a parsed `WebcamDevice`. Size, rate and
 * format, when given, are asked of the camera. A DirectShow index must be resolved to a name first
 * (`resolveWebcamDevice`; `openFrameSource` does it).
 */
export function createWebcamSource(device: string | WebcamDevice, options: CameraOptions = {}, platform: string = process.platform): FfmpegFrameSource {
  let parsed: WebcamDevice;
  if (typeof device === 'string') {
    const p = parseWebcamSpec(device, platform);
    if (p === null) throw new Error(`${device}: not a webcam; name one as ${webcamSpecHint(platform)}`);
    parsed = p;
  } else parsed = device;
  const { widthPx, heightPx, fps, format, description, ...rest } = options;
  const settings = { ...(widthPx !== undefined ? { widthPx } : {}), ...(heightPx !== undefined ? { heightPx } : {}), ...(fps !== undefined ? { fps } : {}), ...(format !== undefined ? { format } : {}) };
  const input = webcamInputArgs(parsed, settings);
  return new FfmpegFrameSource({ ...rest, inputArgs: input, description: description ?? (typeof device === 'string' ? device : webcamSpec(parsed)), live: true });
}

const rtspTimeoutOptions = new Map<string, string | null>();

/**
 * The RTSP demuxer's socket I/O timeout option of this ffmpeg: `-timeout` from ffmpeg 5 on, `-stimeout`
 * before (where `-timeout` meant "listen for a connection", which would turn the camera client into a
 * server). Asked of ffmpeg once per executable (`ffmpeg -h demuxer=rtsp`, ~50 ms); null when neither is
 * listed (then only the stall watchdog ends a read that never returns).
 */
export function rtspSocketTimeoutOption(ffmpegPath: string): string | null {
  let option = rtspTimeoutOptions.get(ffmpegPath);
  if (option !== undefined) return option;
  const help = spawnSync(ffmpegPath, ['-hide_banner', '-h', 'demuxer=rtsp'], { encoding: 'utf8', timeout: 5000 });
  const text = `${help.stdout ?? ''}${help.stderr ?? ''}`;
  if (/^\s*-stimeout\b/m.test(text)) option = '-stimeout';
  else if (/^\s*-timeout\b[^\n]*socket I\/O/m.test(text)) option = '-timeout';
  else option = null;
  rtspTimeoutOptions.set(ffmpegPath, option);
  return option;
}

/**
 * An IP camera: `rtsp://...` (over TCP: UDP loses packets on busy Wi-Fi and smears frames) or an MJPEG
 * stream over `http(s)://...` (multipart/x-mixed-replace, as most cheap cameras and phone apps serve).
 */
export function createIpCameraSource(url: string, options: CameraOptions = {}): FfmpegFrameSource {
  if (options.format !== undefined || options.fps !== undefined) {
    throw new Error(`${url}: frame rate and format cannot be asked of an IP camera: the stream decides (set them in the camera's own settings)`);
  }
  // ffmpeg's own I/O timeouts (microseconds) end a read that never returns: a camera that accepts the
  // connection and never answers would otherwise hold ffmpeg for minutes (the TCP timeout). A second
  // longer than the stall watchdog, so a stream that stops mid-way is caught (and named) by the
  // watchdog, and this one ends the opening of a camera that never answers.
  const timeoutMs = (options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS) + 1000;
  const timeoutUs = String(Math.round(timeoutMs * 1000));
  let input: string[];
  if (/^rtsps?:\/\//i.test(url)) {
    const option = rtspSocketTimeoutOption(options.ffmpegPath ?? 'ffmpeg');
    input = ['-rtsp_transport', 'tcp', ...(option ? [option, timeoutUs] : []), '-i', url];
  }
  // HTTP: `-rw_timeout`, the protocol layer's read/write timeout.
  else if (/^https?:\/\//i.test(url)) input = ['-rw_timeout', timeoutUs, '-f', 'mpjpeg', '-i', url];
  else throw new Error(`${url}: an IP camera URL starts with rtsp://, rtsps://, http:// or https://`);
  return new FfmpegFrameSource({ ...options, inputArgs: input, description: url, live: true, networkTimeoutMs: timeoutMs });
}
