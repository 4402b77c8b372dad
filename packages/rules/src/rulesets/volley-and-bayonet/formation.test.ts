import { describe, expect, it } from 'vitest';
import { buildContext } from './context.ts';
import { readFormation } from './formation.ts';
import { scene, type StandSpec } from '../../../../../fixtures/rules/volley-and-bayonet/build.ts';

const read = (troopType: string, stands: StandSpec[], rulesetStatus?: Record<string, boolean>) =>
  readFormation(buildContext(scene({ units: [{ id: 'u', side: 'a', fields: { 'troop-type': troopType, morale: 5, 'strength-points': 2 }, ...(rulesetStatus ? { status: { rulesetStatus } } : {}), stands }] })).units.get('u')!);

describe('the order a unit is in, read from its stands', () => {
  it('formed infantry is a line of battle', () => {
    expect(read('slow-infantry', [{ id: 'a', base: 'infantry', x: 10, y: 10, heading: 90 }, { id: 'b', base: 'infantry', x: 13, y: 10, heading: 90 }])).toMatchObject({ formation: 'line', name: 'Formed (line of battle)', confidence: 1, source: 'geometry' });
  });

  it('a spacer behind each stand is road march; confidence falls with stands lacking one (Road March, p. 2)', () => {
    const full = read('fast-infantry', [
      { id: 'a', base: 'infantry', x: 10, y: 10, heading: 90 },
      { id: 'as', base: 'spacer', x: 10, y: 7.75, heading: 90 },
    ]);
    expect(full).toMatchObject({ formation: 'march-column', name: 'Road march', confidence: 1 });
    const half = read('fast-infantry', [
      { id: 'a', base: 'infantry', x: 10, y: 10, heading: 90 },
      { id: 'as', base: 'spacer', x: 10, y: 7.75, heading: 90 },
      { id: 'b', base: 'infantry', x: 20, y: 10, heading: 90 },
    ]);
    expect(half.confidence).toBe(0.5);
  });

  it('artillery is in combat order, or limbered in road march', () => {
    expect(read('light-artillery', [{ id: 'g', base: 'artillery', x: 10, y: 10, heading: 90 }])).toMatchObject({ formation: 'unlimbered' });
    expect(read('light-artillery', [{ id: 'g', base: 'artillery', x: 10, y: 10, heading: 90 }], { 'road-march': true })).toMatchObject({ formation: 'limbered' });
  });

  it('skirmishers, mounted cavalry and dismounted detachments', () => {
    expect(read('fast-infantry', [{ id: 'a', base: 'infantry-skirmisher', x: 10, y: 10, heading: 90 }], { 'skirmish-order': true })).toMatchObject({ formation: 'loose-order', name: 'Skirmish order' });
    expect(read('light-cavalry', [{ id: 'a', base: 'mounted', x: 10, y: 10, heading: 90 }])).toMatchObject({ formation: 'line', name: 'Mounted' });
    expect(read('light-cavalry', [{ id: 'a', base: 'detachment', x: 10, y: 10, heading: 90, role: 'dismounted' }])).toMatchObject({ name: 'Dismounted (detachments)' });
  });
});
