import { describe, expect, it } from 'vitest';
import { createTuioFrames } from './tuioFrames.ts';
import { decodeTuioBundle, scriptedState, type ScriptedTrack, type TuioBundle } from './tuioTestKit.ts';

const f32 = Math.fround;
const decode = (bundles: Buffer[]): TuioBundle[] => bundles.map(decodeTuioBundle);
const one = (bundles: Buffer[]): TuioBundle => {
  expect(bundles).toHaveLength(1);
  return decodeTuioBundle(bundles[0]!);
};

const A: ScriptedTrack = { trackId: 1, markerId: 40, xIn: 0, yIn: 0, headingDeg: 90 };
const B: ScriptedTrack = { trackId: 2, markerId: 41, xIn: 72, yIn: 48, headingDeg: 0 };

describe('TUIO frames from published states', () => {
  it('sends source, alive and a set per new object, then nothing while nothing changes', () => {
    const frames = createTuioFrames({ source: 'muster@test' });
    const first = one(frames.next(scriptedState(1, 1000, [A, B])));
    expect(first.source).toBe('muster@test');
    expect(first.alive).toEqual([1, 2]);
    expect(first.fseq).toBe(1);
    expect(first.sets).toEqual([
      { s: 1, i: 40, x: 0, y: 1, a: f32((3 * Math.PI) / 2), X: 0, Y: 0, A: 0, m: 0, r: 0 },
      { s: 2, i: 41, x: 1, y: 0, a: 0, X: 0, Y: 0, A: 0, m: 0, r: 0 },
    ]);
    // The same poses in a later frame, and the same frame published again (a rules result): nothing.
    expect(frames.next(scriptedState(2, 1100, [A, B]))).toEqual([]);
    expect(frames.next(scriptedState(3, 1100, [A, B]))).toEqual([]);
    expect(frames.fseq()).toBe(1);
  });

  it('computes velocities (normalised units/s), rotation speed (turns/s, clockwise +) and accelerations', () => {
    const frames = createTuioFrames({ source: null });
    frames.next(scriptedState(1, 1000, [A]));
    // 0.5 s later: 7.2" right (0.1 of the width), 4.8" away (0.1 of the depth, so y falls), turned 18° CCW.
    const moved = one(frames.next(scriptedState(2, 1500, [{ ...A, xIn: 7.2, yIn: 4.8, headingDeg: 108 }])));
    expect(moved.source).toBeNull();
    expect(moved.fseq).toBe(2);
    const s = moved.sets[0]!;
    expect(s.x).toBeCloseTo(0.1, 6);
    expect(s.y).toBeCloseTo(0.9, 6);
    expect(s.X).toBeCloseTo(0.2, 5);
    expect(s.Y).toBeCloseTo(-0.2, 5);
    // 18° CCW = 1/20 turn anticlockwise in 0.5 s: -0.1 turns/s in TUIO's clockwise sense.
    expect(s.A).toBeCloseTo(-0.1, 5);
    expect(s.m).toBeCloseTo(Math.hypot(0.2, 0.2) / 0.5, 4);
    expect(s.r).toBeCloseTo(-0.2, 4);
    // Standing still again 0.5 s later: velocities 0, decelerating; then nothing more to send.
    const stopped = one(frames.next(scriptedState(3, 2000, [{ ...A, xIn: 7.2, yIn: 4.8, headingDeg: 108 }]))).sets[0]!;
    expect([stopped.X, stopped.Y, stopped.A]).toEqual([0, 0, 0]);
    expect(stopped.m).toBeCloseTo(-Math.hypot(0.2, 0.2) / 0.5, 4);
    expect(stopped.r).toBeCloseTo(0.2, 4);
    const still = one(frames.next(scriptedState(4, 2500, [{ ...A, xIn: 7.2, yIn: 4.8, headingDeg: 108 }]))).sets[0]!;
    expect([still.m, still.r]).toEqual([0, 0]);
    expect(frames.next(scriptedState(5, 3000, [{ ...A, xIn: 7.2, yIn: 4.8, headingDeg: 108 }]))).toEqual([]);
  });

  it('turns the short way across 0°/360°', () => {
    const frames = createTuioFrames({ source: null });
    frames.next(scriptedState(1, 0, [{ ...B, headingDeg: 358 }]));
    const s = one(frames.next(scriptedState(2, 1000, [{ ...B, headingDeg: 2 }]))).sets[0]!;
    // 4° CCW in 1 s: -1/90 turn per second.
    expect(s.A).toBeCloseTo(-4 / 360, 6);
  });

  it('only sends the sets that changed, but always the whole alive list', () => {
    const frames = createTuioFrames({ source: null });
    frames.next(scriptedState(1, 0, [A, B]));
    const f = one(frames.next(scriptedState(2, 100, [A, { ...B, xIn: 70 }])));
    expect(f.alive).toEqual([1, 2]);
    expect(f.sets.map((s) => s.s)).toEqual([2]);
  });

  it('drops a vanished track from alive, and gives a tag that comes back (new track id) a new session', () => {
    const frames = createTuioFrames({ source: null });
    frames.next(scriptedState(1, 0, [A, B]));
    const gone = one(frames.next(scriptedState(2, 100, [B])));
    expect(gone.alive).toEqual([2]);
    expect(gone.sets).toEqual([]);
    const back = one(frames.next(scriptedState(3, 200, [B, { ...A, trackId: 3 }])));
    expect(back.alive).toEqual([2, 3]);
    expect(back.sets).toEqual([{ s: 3, i: 40, x: 0, y: 1, a: f32((3 * Math.PI) / 2), X: 0, Y: 0, A: 0, m: 0, r: 0 }]);
  });

  it('never reuses a session id when track ids restart (a new tracker) or a track id changes marker', () => {
    const frames = createTuioFrames({ source: null });
    frames.next(scriptedState(1, 0, [A, B]));
    frames.next(scriptedState(2, 100, []));
    const restarted = one(frames.next(scriptedState(3, 200, [{ ...A, trackId: 1 }, { ...B, trackId: 2 }])));
    expect(restarted.alive).toEqual([3, 4]);
    const swapped = one(frames.next(scriptedState(4, 300, [{ ...A, trackId: 1, markerId: 99 }, { ...B, trackId: 2 }])));
    expect(swapped.alive).toEqual([4, 5]);
    expect(swapped.sets.map((s) => [s.s, s.i])).toEqual([[5, 99]]);
    // Track ids above everything issued are used as they are.
    expect(one(frames.next(scriptedState(5, 400, [{ ...A, trackId: 10 }]))).alive).toEqual([10]);
  });

  it('keeps track ids as session ids when the state lists tracks by marker id, not track id', () => {
    const frames = createTuioFrames({ source: null });
    const f = one(frames.next(scriptedState(1, 0, [{ ...A, trackId: 3, markerId: 10 }, { ...A, trackId: 1, markerId: 11 }, { ...B, trackId: 2, markerId: 12 }])));
    expect(f.alive).toEqual([1, 2, 3]);
    expect(f.sets.map((s) => [s.s, s.i])).toEqual([[1, 11], [2, 12], [3, 10]]);
  });

  it('keeps an occluded (held) track alive at its held pose', () => {
    const frames = createTuioFrames({ source: null });
    frames.next(scriptedState(1, 0, [A]));
    expect(frames.next(scriptedState(2, 100, [{ ...A, occluded: true }]))).toEqual([]);
  });

  it('refresh() re-states every object as a new frame; clear() empties alive', () => {
    const frames = createTuioFrames({ source: 'muster@test' });
    expect(one(frames.refresh())).toMatchObject({ alive: [], sets: [], fseq: 1 });
    frames.next(scriptedState(1, 0, [A, B]));
    const r = one(frames.refresh());
    expect(r.fseq).toBe(3);
    expect(r.alive).toEqual([1, 2]);
    expect(r.sets.map((s) => s.s)).toEqual([1, 2]);
    expect(one(frames.clear())).toMatchObject({ source: 'muster@test', alive: [], sets: [], fseq: 4 });
  });

  it('uses the state\'s table size unless given one, and clamps positions to the surface', () => {
    const own = createTuioFrames({ source: null });
    const s = one(own.next(scriptedState(1, 0, [{ ...A, xIn: 30, yIn: 30 }], { widthIn: 60, depthIn: 40 }))).sets[0]!;
    expect([s.x, s.y]).toEqual([0.5, 0.25]);
    const given = createTuioFrames({ source: null, table: { widthIn: 120, depthIn: 60 } });
    const g = one(given.next(scriptedState(1, 0, [{ ...A, xIn: 30, yIn: 30 }, { ...B, xIn: -2, yIn: 61 }]))).sets;
    expect([g[0]!.x, g[0]!.y]).toEqual([0.25, 0.5]);
    expect([g[1]!.x, g[1]!.y]).toEqual([0, 0]);
  });

  it('without a usable table size sends objects alive only, and warns once', () => {
    const warnings: string[] = [];
    const frames = createTuioFrames({ source: null, warn: (m) => warnings.push(m) });
    const f = one(frames.next(scriptedState(1, 0, [A], { widthIn: 0, depthIn: 48 })));
    expect(f.alive).toEqual([1]);
    expect(f.sets).toEqual([]);
    frames.next(scriptedState(2, 100, [A, B], { widthIn: 0, depthIn: 48 }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/table size/);
  });

  it('splits a frame too big for one datagram into complete bundles with the same fseq', () => {
    const many: ScriptedTrack[] = Array.from({ length: 45 }, (_, k) => ({ trackId: k + 1, markerId: k, xIn: k, yIn: k / 2, headingDeg: k * 8 }));
    const frames = createTuioFrames({ source: 'muster@test' });
    const bundles = frames.next(scriptedState(1, 0, many));
    expect(bundles.length).toBeGreaterThan(1);
    const decoded = decode(bundles);
    for (const b of decoded) {
      expect(b.bytes).toBeLessThanOrEqual(1472);
      expect(b.source).toBe('muster@test');
      expect(b.alive).toEqual(many.map((t) => t.trackId));
      expect(b.fseq).toBe(1);
    }
    expect(decoded.flatMap((b) => b.sets.map((s) => s.s))).toEqual(many.map((t) => t.trackId));
    // One datagram when allowed a bigger one.
    const big = createTuioFrames({ source: 'muster@test', maxPacketBytes: 65507 });
    expect(big.next(scriptedState(1, 0, many))).toHaveLength(1);
  });
});
