import { describe, expect, it } from 'vitest';
import type { Stand } from '@muster/rules';
import { ghostMarks, isGhostStand, parseGhosts } from './ghostMarks.ts';
import { edgeDistance } from './edgeDistance.ts';
import { standFootprint } from './standFootprint.ts';

const stand = (id: string, xIn: number, yIn: number, headingDeg = 90): Stand => ({ id, unitId: 'u1', pose: { xIn, yIn, headingDeg }, widthIn: 3, depthIn: 1, role: 'base' });

describe('ghostMarks', () => {
  it('puts a ghost with the live base size at the earlier pose, linked to where the stand is now', () => {
    const [m, ...rest] = ghostMarks([{ standId: 'a', unitId: 'u1', from: { xIn: 10, yIn: 13, headingDeg: 90 } }], [stand('a', 12, 13, 45), stand('b', 30, 30)]);
    expect(rest).toEqual([]);
    expect(m!.stand.id).toBe('ghost:a');
    expect(isGhostStand(m!.stand)).toBe(true);
    expect(m!.stand).toMatchObject({ unitId: 'u1', widthIn: 3, depthIn: 1, pose: { xIn: 10, yIn: 13, headingDeg: 90 } });
    expect(m!.link).toEqual([{ xIn: 10, yIn: 13 }, { xIn: 12, yIn: 13 }]);
    // Heading 90: 3" frontage along x, 1" deep along y.
    const xs = m!.outline.map((p) => p.xIn);
    const ys = m!.outline.map((p) => p.yIn);
    expect(Math.min(...xs)).toBeCloseTo(8.5);
    expect(Math.max(...xs)).toBeCloseTo(11.5);
    expect(Math.min(...ys)).toBeCloseTo(12.5);
    expect(Math.max(...ys)).toBeCloseTo(13.5);
  });

  it('drops the ghost of a stand no longer on the table', () => {
    expect(ghostMarks([{ standId: 'gone', unitId: 'u1', from: { xIn: 1, yIn: 1, headingDeg: 0 } }], [stand('a', 5, 5)])).toEqual([]);
  });

  it('measures from a ghost like from a stand: edge to edge', () => {
    const [m] = ghostMarks([{ standId: 'a', unitId: 'u1', from: { xIn: 10, yIn: 10, headingDeg: 90 } }], [stand('a', 40, 40)]);
    const d = edgeDistance(standFootprint(m!.stand).corners, standFootprint(stand('b', 20, 10)).corners);
    expect(d.distanceIn).toBeCloseTo(20 - 10 - 3, 6);
    expect(isGhostStand(stand('b', 0, 0))).toBe(false);
  });
});

describe('parseGhosts', () => {
  it('keeps well-formed ghosts and drops the rest', () => {
    const body = {
      ghosts: [
        { standId: 'a', unitId: 'u', from: { index: 3, pose: { xIn: 1, yIn: 2, headingDeg: 30 } }, to: {} },
        { standId: 'b', unitId: 'u', from: { pose: null } },
        { standId: 7, unitId: 'u', from: { pose: { xIn: 1, yIn: 2, headingDeg: 0 } } },
        { standId: 'c', unitId: 'u', from: { pose: { xIn: 'x', yIn: 2, headingDeg: 0 } } },
      ],
    };
    expect(parseGhosts(body)).toEqual([{ standId: 'a', unitId: 'u', from: { xIn: 1, yIn: 2, headingDeg: 30 } }]);
    expect(parseGhosts({ type: 'error' })).toEqual([]);
    expect(parseGhosts(null)).toEqual([]);
  });
});
