/** Progress lines and colour choice (`apps/server/src/cli/progress.ts`, `colour.ts`), on in-memory streams. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { colourEnabled, paintFor } from '../../apps/server/src/cli/colour.ts';
import { createProgress, etaSeconds, formatDuration, formatProgress } from '../../apps/server/src/cli/progress.ts';
import { framesFromProbe } from '../../apps/server/src/cli/recordingLength.ts';

/** A stream that keeps what is written; `isTTY` says whether it plays a terminal. */
class Sink extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
  hasColors(): boolean {
    return false;
  }
}

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('progress text', () => {
  it('time left is the remaining items at the rate so far', () => {
    expect(etaSeconds(100, 400, 10_000)).toBeCloseTo(30);
    expect(etaSeconds(0, 400, 10_000)).toBeUndefined();
    expect(etaSeconds(100, undefined, 10_000)).toBeUndefined();
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatProgress({ label: 'track', done: 120, total: 900, unit: 'frames', elapsedMs: 5000 })).toBe('track  120/900 frames  13%  24.0 frames/s  ETA 0:33');
    expect(formatProgress({ label: 'track', done: 120, total: undefined, unit: 'frames', elapsedMs: 5000 })).toBe('track  120 frames  24.0 frames/s');
    expect(formatProgress({ label: 'track', done: 900, total: 900, unit: 'frames', elapsedMs: 37_000 }, true)).toBe('track  900/900 frames  100%  24.3 frames/s  done in 0:37');
  });
});

describe('createProgress', () => {
  it('off a terminal without --progress: nothing at all', () => {
    const sink = new Sink(false);
    const p = createProgress({ label: 'track', unit: 'frames', total: 10, stream: sink });
    for (let i = 1; i <= 10; i++) p.update(i);
    p.finish();
    expect(p.shown).toBe(false);
    expect(sink.text).toBe('');
  });

  it('off a terminal with --progress: a line now and then, and the last one', () => {
    const sink = new Sink(false);
    const c = clock();
    const p = createProgress({ label: 'track', unit: 'frames', total: 100, stream: sink, force: true, nowMs: c.now, lineEveryMs: 5000 });
    for (let i = 1; i <= 100; i++) {
      c.advance(100); // 10 s in all: lines at 0.1 s (the first) and then every 5 s
      p.update(i);
    }
    p.finish();
    const lines = sink.text.trimEnd().split('\n');
    expect(lines).toEqual([
      'track  1/100 frames  1%  10.0 frames/s  ETA 0:10',
      'track  51/100 frames  51%  10.0 frames/s  ETA 0:05',
      'track  100/100 frames  100%  10.0 frames/s  done in 0:10',
    ]);
    expect(sink.text).not.toMatch(/\r|\x1b/);
  });

  it('on a terminal: one line redrawn in place, cleared for notes, ended by the last line', () => {
    const sink = new Sink(true);
    const c = clock();
    const p = createProgress({ label: 'calibrate', unit: 'photos', total: 4, stream: sink, nowMs: c.now });
    expect(p.shown).toBe(true);
    c.advance(1000);
    p.update(1);
    p.note('[1/4] a.png: 24 corners');
    c.advance(50); // within the redraw interval: not drawn
    p.update(2);
    c.advance(1000);
    p.update(3);
    p.finish();
    expect(sink.text).toBe(
      '\r\x1b[2Kcalibrate  1/4 photos  25%  1.0 photos/s  ETA 0:03' +
        '\r\x1b[2K[1/4] a.png: 24 corners\n' +
        '\r\x1b[2Kcalibrate  1/4 photos  25%  1.0 photos/s  ETA 0:03' +
        '\r\x1b[2Kcalibrate  3/4 photos  75%  1.5 photos/s  ETA 0:01' +
        '\r\x1b[2Kcalibrate  3/4 photos  75%  1.5 photos/s  done in 0:02\n',
    );
  });

  it('work that failed only clears the terminal line', () => {
    const sink = new Sink(true);
    const c = clock();
    const p = createProgress({ label: 'track', unit: 'frames', stream: sink, nowMs: c.now });
    c.advance(500);
    p.update(5);
    p.finish(false);
    p.finish();
    expect(sink.text).toBe('\r\x1b[2Ktrack  5 frames  10.0 frames/s\r\x1b[2K');
  });
});

describe('colour', () => {
  const tty = { isTTY: true, hasColors: () => true };
  const pipe = { isTTY: false };
  it('only on a terminal, never with NO_COLOR, anywhere with FORCE_COLOR', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true); // no-color.org: set and not empty
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourEnabled(tty, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ isTTY: true, hasColors: () => false }, {})).toBe(false);
    expect(paintFor(tty, {}).red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(paintFor(pipe, {}).red('x')).toBe('x');
  });
});

describe('recording length from ffprobe', () => {
  it('the frame count, else duration × rate, else unknown', () => {
    expect(framesFromProbe({ streams: [{ nb_frames: '60', avg_frame_rate: '20/1' }] })).toBe(60);
    expect(framesFromProbe({ streams: [{ avg_frame_rate: '30000/1001' }], format: { duration: '10.01' } })).toBe(300);
    expect(framesFromProbe({ streams: [{ nb_frames: 'N/A', avg_frame_rate: '0/0' }], format: { duration: '3' } })).toBeUndefined();
    expect(framesFromProbe({})).toBeUndefined();
  });
});
