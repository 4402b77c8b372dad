import { describe, expect, it } from 'vitest';
import { calibrationFromServed } from './projectorCalibrationSource.ts';

describe('calibrationFromServed', () => {
  it('takes the homography and projector size from the served file', () => {
    const cal = calibrationFromServed({ tableToProjector: [50, 0, 120, 0, -40, 2040, 0, 0, 2], projectorWidthPx: 1920, projectorHeightPx: 1080 });
    expect(cal).toEqual({ homography: [25, 0, 60, 0, -20, 1020, 0, 0, 1], sizePx: { widthPx: 1920, heightPx: 1080 } });
  });

  it('gives null (fit the table) for nothing or a malformed file', () => {
    expect(calibrationFromServed(null)).toBeNull();
    expect(calibrationFromServed({ tableToProjector: [1, 2, 3], projectorWidthPx: 1920, projectorHeightPx: 1080 })).toBeNull();
    expect(calibrationFromServed({ tableToProjector: [1, 0, 0, 0, 1, 0, 0, 0, 1], projectorWidthPx: 0, projectorHeightPx: 1080 })).toBeNull();
    expect(calibrationFromServed({ tableToProjector: [1, 0, 0, 0, 'x', 0, 0, 0, 1], projectorWidthPx: 1920, projectorHeightPx: 1080 })).toBeNull();
  });
});
