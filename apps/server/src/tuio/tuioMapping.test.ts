import { describe, expect, it } from 'vitest';
import { toTuioPose, tuioAngle } from './tuioMapping.ts';

const table = { widthIn: 72, depthIn: 48 };

describe('Muster table → TUIO surface', () => {
  it('puts the near-left corner bottom-left and the far-right corner top-right', () => {
    expect(toTuioPose({ xIn: 0, yIn: 0, headingDeg: 0 }, table)).toEqual({ x: 0, y: 1, a: 0 });
    expect(toTuioPose({ xIn: 72, yIn: 48, headingDeg: 0 }, table)).toEqual({ x: 1, y: 0, a: 0 });
    expect(toTuioPose({ xIn: 72, yIn: 0, headingDeg: 0 }, table)).toMatchObject({ x: 1, y: 1 });
    expect(toTuioPose({ xIn: 0, yIn: 48, headingDeg: 0 }, table)).toMatchObject({ x: 0, y: 0 });
    expect(toTuioPose({ xIn: 18, yIn: 36, headingDeg: 0 }, table)).toMatchObject({ x: 0.25, y: 0.25 });
  });

  it('turns headings (CCW from +x, y away from the player) into TUIO angles (CW from +x, y down)', () => {
    expect(tuioAngle(0)).toBe(0);
    // Facing away from the player: "up" on the TUIO surface, direction (0, -1) in y-down coordinates.
    expect(tuioAngle(90)).toBeCloseTo((3 * Math.PI) / 2, 12);
    expect(tuioAngle(180)).toBeCloseTo(Math.PI, 12);
    // Facing the player: "down", direction (0, +1).
    expect(tuioAngle(270)).toBeCloseTo(Math.PI / 2, 12);
    expect(tuioAngle(360)).toBe(0);
    expect(tuioAngle(-90)).toBeCloseTo(Math.PI / 2, 12);
    expect(tuioAngle(45)).toBeCloseTo((7 * Math.PI) / 4, 12);
  });

  it('keeps the facing direction: (cos a, sin a) in TUIO x/y points where the stand faces', () => {
    for (let h = 0; h < 360; h += 7.5) {
      const a = tuioAngle(h);
      expect(a).toBeGreaterThanOrEqual(0);
      expect(a).toBeLessThan(2 * Math.PI);
      // A point one inch ahead of a stand in the middle of the table, mapped, lies along (cos a, sin a).
      const here = toTuioPose({ xIn: 36, yIn: 24, headingDeg: h }, table);
      const rad = (h * Math.PI) / 180;
      const ahead = toTuioPose({ xIn: 36 + Math.cos(rad), yIn: 24 + Math.sin(rad), headingDeg: h }, table);
      const dx = (ahead.x - here.x) * table.widthIn;
      const dy = (ahead.y - here.y) * table.depthIn;
      expect(dx).toBeCloseTo(Math.cos(a), 9);
      expect(dy).toBeCloseTo(Math.sin(a), 9);
    }
    expect(tuioAngle(359.9999999)).toBeLessThan(2 * Math.PI);
    expect(tuioAngle(1e-15)).toBeLessThan(2 * Math.PI);
  });
});
