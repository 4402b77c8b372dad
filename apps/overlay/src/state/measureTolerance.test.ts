import { describe, expect, it } from 'vitest';
import { MIN_TRACKING_TOLERANCE_IN, measureTolerance } from './measureTolerance.ts';

describe('measureTolerance', () => {
  it('adds the two ends’ residuals, with a floor, and says where it comes from', () => {
    expect(measureTolerance({ source: 'camera', residualIn: 0.04 })).toEqual({ toleranceIn: 0.08, text: '±0.08" from tracking' });
    expect(measureTolerance({ source: 'camera', residualIn: 0.001 }).toleranceIn).toBe(MIN_TRACKING_TOLERANCE_IN);
  });
  it('is honest when it does not know', () => {
    expect(measureTolerance({ source: 'camera', residualIn: null }).toleranceIn).toBeNull();
    expect(measureTolerance(null).text).toMatch(/unknown/);
    expect(measureTolerance({ source: 'demo-truth', residualIn: null }).toleranceIn).toBe(0);
  });
});
