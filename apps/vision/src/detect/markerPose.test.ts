import { describe, expect, it } from 'vitest';
import { markerPose, normaliseDeg } from './markerPose.ts';

describe('markerPose', () => {
  it('reads centre and heading of a square on the table (identity homography, y up)', () => {
    const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    for (const heading of [0, 37, 90, 180, 271.5]) {
      const t = (heading * Math.PI) / 180;
      const h = [Math.cos(t), Math.sin(t)];
      const r = [Math.sin(t), -Math.cos(t)];
      const c = [10, 20];
      const s = 0.25;
      const corners = [
        [-1, 1],
        [1, 1],
        [1, -1],
        [-1, -1],
      ].flatMap(([a, b]) => [c[0]! + s * (a! * r[0]! + b! * h[0]!), c[1]! + s * (a! * r[1]! + b! * h[1]!)]);
      const pose = markerPose(identity, corners);
      expect(pose.xIn).toBeCloseTo(10, 9);
      expect(pose.yIn).toBeCloseTo(20, 9);
      expect(pose.headingDeg).toBeCloseTo(heading, 9);
    }
  });

  it('normalises headings to [0, 360)', () => {
    expect(normaliseDeg(-90)).toBe(270);
    expect(normaliseDeg(720)).toBe(0);
    expect(normaliseDeg(359.5)).toBe(359.5);
  });
});
