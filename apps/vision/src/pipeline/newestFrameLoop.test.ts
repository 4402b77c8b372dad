import { describe, expect, it } from 'vitest';
import { createNewestFrameLoop, type FrameOutcome, type LoopFrame } from './newestFrameLoop.ts';

/** A hand-cranked event loop: deferred runs wait until `turn()`. */
function manualLoop(nowMs: { t: number }) {
  const runs: (() => void)[] = [];
  const processed: number[] = [];
  const outcomes: FrameOutcome[] = [];
  const errors: number[] = [];
  let failOn = -1;
  const loop = createNewestFrameLoop<LoopFrame>({
    process: (f) => {
      if (f.seq === failOn) throw new Error('detector failed');
      processed.push(f.seq);
      nowMs.t += 10; // the work takes 10 ms
    },
    onOutcome: (o) => outcomes.push(o),
    onError: (_err, f) => errors.push(f.seq),
    defer: (run) => runs.push(run),
    now: () => nowMs.t,
  });
  return {
    loop,
    processed,
    outcomes,
    errors,
    failOn: (seq: number) => (failOn = seq),
    /** Runs what was deferred so far; returns how many runs there were. */
    turn(): number {
      const now = runs.splice(0);
      for (const r of now) r();
      return now.length;
    },
  };
}

const frame = (seq: number, captureTimeMs = seq * 100): LoopFrame => ({ seq, captureTimeMs });

describe('newest-frame-wins loop', () => {
  it('processes only the newest of the frames offered before its turn; the older ones are dropped, not queued', () => {
    const clock = { t: 0 };
    const m = manualLoop(clock);
    m.loop.offer(frame(1));
    m.loop.offer(frame(2));
    m.loop.offer(frame(3));
    expect(m.processed).toEqual([]); // never inside offer
    clock.t = 305;
    expect(m.turn()).toBe(1); // one deferred run, not one per frame
    expect(m.processed).toEqual([3]);
    expect(m.turn()).toBe(0); // frames 1 and 2 are gone for good
    expect(m.processed).toEqual([3]);
    expect(m.loop.stats()).toEqual({ offered: 3, processed: 1, dropped: 2 });
    expect(m.outcomes).toEqual([{ frameSeq: 3, waitedMs: 5, latencyMs: 15, droppedBefore: 2 }]);
  });

  it('a frame on time is processed on the next turn; drops are counted per processed frame', () => {
    const clock = { t: 0 };
    const m = manualLoop(clock);
    m.loop.offer(frame(1, 0));
    m.turn();
    m.loop.offer(frame(2, 10));
    m.loop.offer(frame(3, 20));
    m.turn();
    m.loop.offer(frame(4, 30));
    m.turn();
    expect(m.processed).toEqual([1, 3, 4]);
    expect(m.outcomes.map((o) => o.droppedBefore)).toEqual([0, 1, 0]);
    expect(m.loop.stats()).toEqual({ offered: 4, processed: 3, dropped: 1 });
  });

  it('a frame whose work throws is reported and the loop goes on', () => {
    const m = manualLoop({ t: 0 });
    m.failOn(1);
    m.loop.offer(frame(1));
    m.turn();
    m.loop.offer(frame(2));
    m.turn();
    expect(m.errors).toEqual([1]);
    expect(m.processed).toEqual([2]);
    expect(m.outcomes.map((o) => o.frameSeq)).toEqual([1, 2]);
  });

  it('after close the waiting frame is dropped and new offers are ignored', () => {
    const m = manualLoop({ t: 0 });
    m.loop.offer(frame(1));
    m.loop.close();
    m.loop.offer(frame(2));
    m.turn();
    expect(m.processed).toEqual([]);
  });

  it('with the default defer, the newest frame offered before the event loop turns wins', async () => {
    const processed: number[] = [];
    const loop = createNewestFrameLoop<LoopFrame>({ process: (f) => processed.push(f.seq) });
    for (let seq = 0; seq < 5; seq++) loop.offer(frame(seq));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(processed).toEqual([4]);
  });

  it('with asynchronous work (another thread), runs one frame at a time and then the newest offered meanwhile', async () => {
    const started: number[] = [];
    const outcomes: FrameOutcome[] = [];
    const errors: number[] = [];
    const finish: (() => void)[] = [];
    const loop = createNewestFrameLoop<LoopFrame>({
      process: (f) => {
        started.push(f.seq);
        if (f.seq === 3) return Promise.reject(new Error('thread failed'));
        return new Promise<void>((resolve) => finish.push(resolve));
      },
      onOutcome: (o) => outcomes.push(o),
      onError: (_err, f) => errors.push(f.seq),
    });
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    };
    loop.offer(frame(0));
    await settle();
    expect(started).toEqual([0]);
    // While frame 0 is away, 1 and 2 arrive: 1 is replaced by 2 and never started.
    loop.offer(frame(1));
    loop.offer(frame(2));
    await settle();
    expect(started).toEqual([0]);
    finish.shift()!();
    await settle();
    expect(started).toEqual([0, 2]);
    expect(outcomes.map((o) => [o.frameSeq, o.droppedBefore])).toEqual([[0, 0]]);
    finish.shift()!();
    await settle();
    expect(outcomes.map((o) => [o.frameSeq, o.droppedBefore])).toEqual([[0, 0], [2, 1]]);
    // A rejected frame is reported and the loop goes on.
    loop.offer(frame(3));
    await settle();
    expect(errors).toEqual([3]);
    loop.offer(frame(4));
    await settle();
    expect(started).toEqual([0, 2, 3, 4]);
    finish.shift()!();
    await settle();
    expect(loop.stats()).toEqual({ offered: 5, processed: 4, dropped: 1 });
  });
});
