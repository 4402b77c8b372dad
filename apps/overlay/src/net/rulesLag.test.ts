import { describe, expect, it } from 'vitest';
import { rulesLagFrames, rulesLagText } from './rulesLag.ts';

const at = (frameSeq: number, captureTimeMs: number, evaluated: [number, number] | null) => ({
  frameSeq,
  captureTimeMs,
  evaluatedState: evaluated ? { seq: 1, frameSeq: evaluated[0], captureTimeMs: evaluated[1] } : null,
});

describe('rules lag', () => {
  it('counts frames between the poses and the evaluated state', () => {
    expect(rulesLagFrames(at(10, 2000, [9, 1800]))).toBe(1);
    expect(rulesLagFrames(at(10, 2000, [10, 2000]))).toBe(0);
    expect(rulesLagFrames(at(10, 2000, null))).toBeNull();
    expect(rulesLagFrames(at(10, 2000, [-1, 0]))).toBeNull();
  });

  it('is shown only above the threshold, with its age', () => {
    expect(rulesLagText(at(10, 2000, [8, 1600]))).toBeNull();
    expect(rulesLagText(at(10, 2000, [6, 1200]))).toBe('rules lag 4 frames (0.8 s)');
    expect(rulesLagText(at(10, 2000, [9, 1800]), 0)).toBe('rules lag 1 frame (0.2 s)');
  });
});
