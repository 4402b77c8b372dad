import { describe, expect, it } from 'vitest';
import { createScanBackoff } from './scanBackoff.ts';

const onTime = { latencyMs: 20, droppedBefore: 0 };
const late = { latencyMs: 200, droppedBefore: 0 };
const dropped = { latencyMs: 20, droppedBefore: 1 };

describe('scan back-off', () => {
  it('scans every base interval while frames are on time', () => {
    const b = createScanBackoff({ baseIntervalMs: 400, maxIntervalMs: 3200, lateAfterMs: 60 });
    expect(b.mayScan(0)).toBe(true);
    b.scanStarted(0);
    b.frameDone(onTime);
    expect(b.mayScan(399)).toBe(false);
    expect(b.mayScan(400)).toBe(true);
    expect(b.intervalMs()).toBe(400);
  });

  it('skips the scan right after a late frame and doubles the interval up to the maximum', () => {
    const b = createScanBackoff({ baseIntervalMs: 400, maxIntervalMs: 3200, lateAfterMs: 60 });
    b.scanStarted(0);
    b.frameDone(late);
    expect(b.intervalMs()).toBe(800);
    expect(b.mayScan(1000)).toBe(false); // the last frame was late: no scan now, however long ago
    b.frameDone(onTime);
    expect(b.mayScan(799)).toBe(false);
    expect(b.mayScan(800)).toBe(true);
    for (let i = 0; i < 10; i++) b.frameDone(late);
    expect(b.intervalMs()).toBe(3200);
  });

  it('frames dropped by the loop count as late', () => {
    const b = createScanBackoff({ baseIntervalMs: 400, lateAfterMs: 60 });
    b.scanStarted(0);
    b.frameDone(dropped);
    expect(b.intervalMs()).toBe(800);
    expect(b.mayScan(900)).toBe(false);
  });

  it('still scans once per maximum interval while every frame is late (new stands are found)', () => {
    const b = createScanBackoff({ baseIntervalMs: 400, maxIntervalMs: 3200, lateAfterMs: 60 });
    b.scanStarted(0);
    b.frameDone(late);
    expect(b.mayScan(3199)).toBe(false);
    expect(b.mayScan(3200)).toBe(true);
  });

  it('halves the interval again after enough on-time frames in a row', () => {
    const b = createScanBackoff({ baseIntervalMs: 400, maxIntervalMs: 3200, lateAfterMs: 60, recoverAfterFrames: 3 });
    for (let i = 0; i < 3; i++) b.frameDone(late);
    expect(b.intervalMs()).toBe(3200);
    b.frameDone(onTime);
    b.frameDone(onTime);
    b.frameDone(late); // the run of on-time frames is broken
    b.frameDone(onTime);
    b.frameDone(onTime);
    expect(b.intervalMs()).toBe(3200);
    b.frameDone(onTime);
    expect(b.intervalMs()).toBe(1600);
    for (let i = 0; i < 30; i++) b.frameDone(onTime);
    expect(b.intervalMs()).toBe(400); // never below the base
  });

  it('a fixed interval (max = base) is what the scanner used before: no lateness changes it', () => {
    const b = createScanBackoff({ baseIntervalMs: 400, maxIntervalMs: 400 });
    b.scanStarted(0);
    expect(b.mayScan(399)).toBe(false);
    expect(b.mayScan(400)).toBe(true);
  });
});
