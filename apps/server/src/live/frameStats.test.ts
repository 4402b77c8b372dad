import { describe, expect, it } from 'vitest';
import { createFrameStats } from './frameStats.ts';

describe('frame stats: rules time', () => {
  it('has no rules time before a frame brings one, then the median over the window of frames that had one', () => {
    const stats = createFrameStats();
    stats.record(0, 10);
    expect(stats.rulesMs()).toBeUndefined();
    expect(stats.processingMs()).toBe(10);
    stats.record(33, 11, 0.8);
    stats.record(66, 12);
    stats.record(100, 13, 0.6);
    stats.record(133, 14, 5);
    // 0.6, 0.8 and 5: the frames without a figure do not count.
    expect(stats.rulesMs()).toBe(0.8);
  });

  it('keeps the last 30 figures only', () => {
    const stats = createFrameStats();
    for (let i = 0; i < 30; i++) stats.record(i * 33, 10, 9);
    for (let i = 30; i < 60; i++) stats.record(i * 33, 10, 0.25);
    expect(stats.rulesMs()).toBe(0.25);
  });
});
