/**
 * A reader that goes away early (`muster track … --json | head -2`) closes the pipe: the next write fails
 * with EPIPE, which Node reports as an 'error' event and, unhandled, a crash with a stack trace. Here that
 * is a normal end: the output is marked closed, long commands stop at their next step (`outputClosed()`)
 * and the exit code stays 0. Any other write error (a full disk) is one line on stderr and exit code 1.
 */
import type { Writable } from 'node:stream';

const closed = new WeakSet<Writable>();
const watched = new WeakSet<Writable>();

const QUIET_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ECONNRESET']);

/** Start watching `stream` (idempotent). */
export function watchOutput(stream: Writable, name: string): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', (err: NodeJS.ErrnoException) => {
    const first = !closed.has(stream);
    closed.add(stream);
    if (QUIET_CODES.has(err.code ?? '') || !first) return;
    process.exitCode = 1;
    if (stream !== process.stderr && !closed.has(process.stderr)) process.stderr.write(`muster: cannot write ${name}: ${err.code ?? err.message}\n`);
  });
}

/** Whether the reader of `stream` (default stdout) has gone: stop producing output. */
export function outputClosed(stream: Writable = process.stdout): boolean {
  return closed.has(stream) || stream.destroyed;
}
