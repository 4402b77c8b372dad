/**
 * Progress of long work (`track` over a video, `calibrate lens` over many photos) on stderr, with the rate
 * and the time left. Shown on a terminal, or anywhere with `--progress`; never on stdout, so `--json`
 * output stays clean. On a terminal one line is redrawn in place (at most ~8 times a second); elsewhere a
 * line is written every few seconds, and always a last one.
 */
import type { Writable } from 'node:stream';
import { paintFor } from './colour.ts';
import { outputClosed } from './outputClosed.ts';

export interface ProgressState {
  readonly label: string;
  /** Items done so far. */
  readonly done: number;
  /** Items in all, when known; without it there is no percentage and no time left. */
  readonly total: number | undefined;
  /** What an item is, plural: `frames`, `photos`. */
  readonly unit: string;
  readonly elapsedMs: number;
}

/** `1:05`, `1:02:03`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Seconds left at the rate so far, or undefined before there is a rate or without a total. */
export function etaSeconds(done: number, total: number | undefined, elapsedMs: number): number | undefined {
  if (total === undefined || done <= 0 || elapsedMs <= 0) return undefined;
  return (Math.max(0, total - done) * elapsedMs) / done / 1000;
}

/** `track  120/900 frames  13%  24.0 frames/s  ETA 0:33` (or `… done in 0:37` at the end). */
export function formatProgress(p: ProgressState, finished = false): string {
  const parts = [p.label, p.total !== undefined ? `${p.done}/${p.total} ${p.unit}` : `${p.done} ${p.unit}`];
  if (p.total !== undefined && p.total > 0) parts.push(`${Math.min(100, Math.floor((100 * p.done) / p.total))}%`);
  if (p.elapsedMs > 0 && p.done > 0) parts.push(`${((1000 * p.done) / p.elapsedMs).toFixed(1)} ${p.unit}/s`);
  if (finished) parts.push(`done in ${formatDuration(p.elapsedMs / 1000)}`);
  else {
    const eta = etaSeconds(p.done, p.total, p.elapsedMs);
    if (eta !== undefined) parts.push(`ETA ${formatDuration(eta)}`);
  }
  return parts.join('  ');
}

export interface ProgressOptions {
  readonly label: string;
  readonly unit: string;
  readonly total?: number;
  /** Default process.stderr. */
  readonly stream?: Writable & { isTTY?: boolean; hasColors?(): boolean };
  /** `--progress` given: show it even when stderr is not a terminal. */
  readonly force?: boolean;
  readonly nowMs?: () => number;
  /** Off a terminal, a line at most this often (default 5000 ms). */
  readonly lineEveryMs?: number;
}

export interface Progress {
  /** Whether anything is shown at all. */
  readonly shown: boolean;
  update(done: number): void;
  /** Print a line of its own (e.g. a per-photo result) without tearing the progress line. */
  note(line: string): void;
  /** The last line (with the total time), and the terminal line ended; `completed` false (work failed
   * or was stopped) only clears the terminal line. Safe to call twice. */
  finish(completed?: boolean): void;
}

/** Whether progress is shown at all: on a terminal, or when asked for (`--progress`). */
export function progressShown(force: boolean | undefined, stream: { isTTY?: boolean } = process.stderr): boolean {
  return stream.isTTY === true || force === true;
}

export function createProgress(o: ProgressOptions): Progress {
  const stream = o.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  const shown = progressShown(o.force, stream);
  const now = o.nowMs ?? (() => performance.now());
  const startMs = now();
  const redrawMs = tty ? 120 : (o.lineEveryMs ?? 5000);
  const paint = paintFor(stream);
  let done = 0;
  let lastDrawMs = -Infinity;
  let drawn = false; // a terminal line is on screen and must be cleared before other output
  let finished = false;

  const state = (): ProgressState => ({ label: o.label, done, total: o.total, unit: o.unit, elapsedMs: now() - startMs });
  const write = (text: string): void => {
    if (!outputClosed(stream)) stream.write(text);
  };
  const clear = (): void => {
    if (drawn) write('\r\x1b[2K');
    drawn = false;
  };
  const draw = (): void => {
    lastDrawMs = now();
    if (tty) {
      write(`\r\x1b[2K${paint.dim(formatProgress(state()))}`);
      drawn = true;
    } else write(`${formatProgress(state())}\n`);
  };

  return {
    shown,
    update(n) {
      done = n;
      if (shown && !finished && now() - lastDrawMs >= redrawMs) draw();
    },
    note(line) {
      clear();
      write(`${line}\n`);
      if (shown && tty && !finished && done > 0) draw();
    },
    finish(completed = true) {
      if (finished) return;
      finished = true;
      if (!shown) return;
      clear();
      if (completed) write(`${formatProgress(state(), true)}\n`);
    },
  };
}
