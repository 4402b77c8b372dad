/**
 * One interface for every frame source: an async iterator of grayscale frames, plus events.
 *
 * - `error` (Error): something went wrong. A live source (camera, IP camera) reopens itself with backoff
 *   and keeps going; a recorded source (file, folder, video) ends its iterator with the error.
 * - `reopen` (attempt: number, delayMs: number): a live source is about to reopen after dying.
 * - `close` (): the source has ended (end of file, or `close()` called); the iterator is done.
 * - `status` (SourceStatus): what the source is doing changed (`status()` says it at any time).
 * - `open` (opens: number): an ffmpeg source (re)started ffmpeg; `opens` counts every start.
 */
import { EventEmitter } from 'node:events';
import type { GrayFrame } from '../pipeline/types.ts';

export interface FrameSourceEventMap {
  error: [Error];
  reopen: [attempt: number, delayMs: number];
  close: [];
  status: [SourceStatus];
  open: [opens: number];
}

/**
 * What a source is doing, for health:
 * - `connecting`: opened (ffmpeg started, the folder listed, the phone socket waiting), no frame yet;
 * - `streaming`: frames arrive;
 * - `reconnecting`: a live source lost its input (ffmpeg died, the stream stalled, the camera refused)
 *   and is reopening with backoff; stays so, through every attempt, until a frame arrives again;
 * - `ended`: no frame will come any more (end of a recording, a failure, or `close()`).
 */
export type SourceState = 'connecting' | 'streaming' | 'reconnecting' | 'ended';

export interface SourceStatus {
  readonly state: SourceState;
  /** One line for people: what it waits for, the attempt and last error while reconnecting, why it ended. */
  readonly detail: string;
  /** Wall clock (ms since the epoch) when the source entered `state`. */
  readonly sinceMs: number;
  /** Failed opens in a row while reconnecting (1 = the first retry); 0 otherwise. */
  readonly attempt: number;
  /** The last error (without the source's description in front), or null. */
  readonly lastError: string | null;
  /** Wall clock of the newest frame, null before the first. */
  readonly lastFrameMs: number | null;
}

export interface FrameSource extends AsyncIterable<GrayFrame> {
  /** What it reads, for logs: a path, a device or a URL. */
  readonly description: string;
  on<K extends keyof FrameSourceEventMap>(event: K, listener: (...args: FrameSourceEventMap[K]) => void): this;
  off<K extends keyof FrameSourceEventMap>(event: K, listener: (...args: FrameSourceEventMap[K]) => void): this;
  /** Stops reading and releases the process/socket; the iterator finishes. Safe to call twice. */
  close(): Promise<void>;
  /** What the source is doing now (also emitted as `status` when it changes). */
  status(): SourceStatus;
}

export interface QueueOptions {
  /** Frames kept while the consumer is busy. Default 2. */
  readonly maxQueued?: number;
  /**
   * `drop-oldest` for live sources (the newest frame matters, a slow detector must not build a backlog);
   * `pause` for recorded ones (every frame is processed; `onPause`/`onResume` throttle the producer).
   */
  readonly overflow?: 'drop-oldest' | 'pause';
}

/**
 * The shared machinery: producers `push` frames, `finish` or `fail`; consumers iterate. Subclasses add how
 * frames are produced.
 */
export class QueuedFrameSource extends EventEmitter implements FrameSource {
  readonly description: string;
  /** Frames dropped because the consumer fell behind (live sources only). */
  droppedFrames = 0;
  private readonly queue: GrayFrame[] = [];
  private readonly maxQueued: number;
  private readonly overflow: 'drop-oldest' | 'pause';
  private waiter: { resolve: (r: IteratorResult<GrayFrame>) => void; reject: (e: Error) => void } | null = null;
  private ended = false;
  private failure: Error | null = null;
  /** The failure, kept after the iterator has handed it out (for the ended status). */
  private failureSeen: Error | null = null;
  private paused = false;
  private closeEmitted = false;
  private closedByCaller = false;
  private current: SourceStatus = { state: 'connecting', detail: 'waiting for the first frame', sinceMs: Date.now(), attempt: 0, lastError: null, lastFrameMs: null };
  protected onPause: () => void = () => {};
  protected onResume: () => void = () => {};
  protected onClose: () => Promise<void> = async () => {};

  constructor(description: string, options: QueueOptions = {}) {
    super();
    this.description = description;
    this.maxQueued = options.maxQueued ?? 2;
    this.overflow = options.overflow ?? 'drop-oldest';
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** True while a `pause` source has a full queue: the producer should stop until `onResume`. */
  protected get isPaused(): boolean {
    return this.paused;
  }

  status(): SourceStatus {
    return this.current;
  }

  /**
   * Sets what the source is doing and emits `status` when it changed. `sinceMs` moves only when the state
   * does (a new detail within the same state keeps its start). An ended source stays ended.
   */
  protected setStatus(state: SourceState, detail: string, extra: { attempt?: number; lastError?: string | null } = {}): void {
    const prev = this.current;
    if (prev.state === 'ended') return;
    const next: SourceStatus = {
      state,
      detail,
      sinceMs: state === prev.state ? prev.sinceMs : Date.now(),
      attempt: extra.attempt ?? (state === 'reconnecting' ? prev.attempt : 0),
      lastError: extra.lastError !== undefined ? extra.lastError : prev.lastError,
      lastFrameMs: prev.lastFrameMs,
    };
    if (next.state === prev.state && next.detail === prev.detail && next.attempt === prev.attempt && next.lastError === prev.lastError) return;
    this.current = next;
    this.emit('status', next);
  }

  /** `message` without this source's description in front (errors are "<description>: what"). */
  protected withoutDescription(message: string): string {
    return message.startsWith(`${this.description}: `) ? message.slice(this.description.length + 2) : message;
  }

  /** Emits `error` only when someone listens: an unheard EventEmitter error would crash the process. */
  protected report(err: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', err);
  }

  protected push(frame: GrayFrame): void {
    if (this.ended) return;
    this.current = { ...this.current, lastFrameMs: Date.now() };
    if (this.current.state !== 'streaming') this.setStatus('streaming', 'frames arriving', { attempt: 0 });
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value: frame, done: false });
      return;
    }
    this.queue.push(frame);
    if (this.overflow === 'drop-oldest') {
      if (this.queue.length > this.maxQueued) {
        this.queue.shift();
        this.droppedFrames += 1;
      }
    } else if (this.queue.length >= this.maxQueued && !this.paused) {
      this.paused = true;
      this.onPause();
    }
  }

  protected finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.settleWaiter();
  }

  protected fail(err: Error): void {
    if (this.ended) return;
    this.report(err);
    this.failure = err;
    this.failureSeen = err;
    this.ended = true;
    this.settleWaiter();
  }

  private settleWaiter(): void {
    if (this.queue.length === 0) this.emitCloseOnce();
    if (!this.waiter) return;
    const w = this.waiter;
    this.waiter = null;
    if (this.failure) w.reject(this.failure);
    else w.resolve({ value: undefined, done: true });
  }

  private emitCloseOnce(): void {
    if (this.closeEmitted) return;
    this.closeEmitted = true;
    // Ended once the consumer has had every frame (a recording's last frames may still be queued at `finish`).
    const error = this.failureSeen;
    const detail = error ? `failed: ${this.withoutDescription(error.message)}` : this.closedByCaller ? 'closed' : 'end of the recording';
    this.setStatus('ended', detail, { lastError: error ? this.withoutDescription(error.message) : this.current.lastError });
    queueMicrotask(() => this.emit('close'));
  }

  private next(): Promise<IteratorResult<GrayFrame>> {
    const frame = this.queue.shift();
    if (frame) {
      if (this.paused && this.queue.length < this.maxQueued) {
        this.paused = false;
        this.onResume();
      }
      return Promise.resolve({ value: frame, done: false });
    }
    if (this.ended) {
      this.emitCloseOnce();
      if (this.failure) {
        const f = this.failure;
        this.failure = null; // reported once; later calls just say done
        return Promise.reject(f);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    if (this.paused) {
      this.paused = false;
      this.onResume();
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  async close(): Promise<void> {
    if (!this.ended) {
      this.closedByCaller = true;
      this.queue.length = 0;
      this.finish();
    }
    await this.onClose();
  }

  [Symbol.asyncIterator](): AsyncIterator<GrayFrame> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }
}
