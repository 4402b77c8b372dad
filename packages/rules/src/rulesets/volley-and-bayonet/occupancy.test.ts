import { describe, expect, it } from 'vitest';
import { evaluateVolleyAndBayonet } from './evaluate.ts';
import { scene, type StandSpec } from '../../../../../fixtures/rules/volley-and-bayonet/build.ts';

const rect = (x0: number, y0: number, w: number, d: number) => [{ xIn: x0, yIn: y0 }, { xIn: x0 + w, yIn: y0 }, { xIn: x0 + w, yIn: y0 + d }, { xIn: x0, yIn: y0 + d }];

/** One unit of the stands given, and a town block (6 x 4) at (10, 10) and a village block (3 x 2) at (30, 10). */
function blocks(troop: string, stands: StandSpec[]) {
  const state = scene({
    widthIn: 60,
    depthIn: 40,
    units: [{ id: 'u', side: 'a', fields: { 'troop-type': troop, morale: 5, 'strength-points': 3 }, stands }],
    terrain: { areas: [{ id: 'town', kind: 'town', vertices: rect(10, 10, 6, 4) }, { id: 'village', kind: 'town', vertices: rect(30, 10, 3, 2) }] },
  });
  return evaluateVolleyAndBayonet(state).warnings.filter((w) => w.code.startsWith('terrain/block'));
}

describe('town and village blocks (Terrain Effects: Buildings, p. 3)', () => {
  it('a town block holds up to two infantry stands', () => {
    const inf = (id: string, x: number): StandSpec => ({ id, base: 'infantry', x, y: 12, heading: 90 });
    expect(blocks('fast-infantry', [inf('a', 11.5), inf('b', 14.5)])).toEqual([]);
    const three = blocks('fast-infantry', [inf('a', 11.5), inf('b', 14.5), { id: 'c', base: 'detachment', x: 13, y: 13.2, heading: 90 }]);
    expect(three.map((w) => w.code)).toEqual(['terrain/block-overfull']);
    expect(three[0]!.message).toContain('Town block town: 3 stands in it; it may be occupied by up to 2 infantry stands');
  });

  it('a village block holds a single detachment, and no infantry stand', () => {
    expect(blocks('fast-infantry', [{ id: 'd', base: 'detachment', x: 31.5, y: 11, heading: 90 }])).toEqual([]);
    const inf = blocks('fast-infantry', [{ id: 'i', base: 'infantry', x: 31.5, y: 11, heading: 90 }]);
    expect(inf.map((w) => w.message)).toEqual([expect.stringContaining('Village block village: i is not a detachment')]);
  });

  it('artillery may not occupy a block', () => {
    expect(blocks('field-artillery', [{ id: 'g', base: 'artillery', x: 13, y: 12, heading: 90 }]).map((w) => w.code)).toEqual(['terrain/block-barred']);
  });
});
