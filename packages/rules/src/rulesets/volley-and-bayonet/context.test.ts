import { describe, expect, it } from 'vitest';
import { buildContext } from './context.ts';
import { scene, type StandSpec } from '../../../../../fixtures/rules/volley-and-bayonet/build.ts';

const one = (troopType: string, stands: StandSpec[], rulesetStatus?: Record<string, boolean>) =>
  buildContext(scene({ units: [{ id: 'u', side: 'a', fields: { 'troop-type': troopType, morale: 5, 'strength-points': 2 }, ...(rulesetStatus ? { status: { rulesetStatus } } : {}), stands }] }));

describe('stand types from role, troop type and footprint (Stand Size, p. 1)', () => {
  it('reads infantry, detachments and the unit commander of an infantry unit', () => {
    const ctx = one('fast-infantry', [
      { id: 'uc', base: 'command', x: 10, y: 10, heading: 90 },
      { id: 'i', base: 'infantry', x: 14, y: 10, heading: 90 },
      { id: 'd', base: 'detachment', x: 18, y: 10, heading: 90 },
    ]);
    expect(ctx.units.get('u')!.stands.map((s) => [s.stand.id, s.type, s.footprintOk])).toEqual([
      ['uc', 'command', true],
      ['i', 'infantry', true],
      ['d', 'detachment', true],
    ]);
    expect(ctx.units.get('u')!.combatStands.map((s) => s.stand.id)).toEqual(['i', 'd']);
    expect(ctx.warnings).toEqual([]);
  });

  it('tells infantry skirmishers from formed infantry by the skirmish-order marker (same 3 x 1.5" base)', () => {
    const ctx = one('fast-infantry', [{ id: 'i', base: 'infantry', x: 14, y: 10, heading: 90 }], { 'skirmish-order': true });
    expect(ctx.units.get('u')!.stands[0]!.type).toBe('infantry-skirmisher');
  });

  it('reads mounted, mounted skirmishers (3 x 3") and dismounted detachments of cavalry', () => {
    const ctx = one('light-cavalry', [
      { id: 'm', base: 'mounted', x: 10, y: 10, heading: 90 },
      { id: 'ms', base: 'mounted-skirmisher', x: 15, y: 10, heading: 90 },
      { id: 'dd', base: 'detachment', x: 20, y: 10, heading: 90, role: 'dismounted' },
    ]);
    expect(ctx.units.get('u')!.stands.map((s) => s.type)).toEqual(['mounted', 'mounted-skirmisher', 'detachment']);
  });

  it('reads artillery 1.5" wide and 3" deep, and warns when the front is on the long side', () => {
    const ok = one('field-artillery', [{ id: 'g', base: 'artillery', x: 10, y: 10, heading: 90 }]);
    expect(ok.units.get('u')!.stands[0]).toMatchObject({ type: 'artillery', footprintOk: true });
    const wrong = buildContext({
      ...scene({ units: [{ id: 'u', side: 'a', fields: { 'troop-type': 'field-artillery', morale: 5, 'strength-points': 2 }, stands: [{ id: 'g', base: 'artillery', x: 10, y: 10, heading: 90 }] }] }),
      stands: [{ id: 'g', unitId: 'u', pose: { xIn: 10, yIn: 10, headingDeg: 90 }, widthIn: 3, depthIn: 1.5, role: 'gun' }],
    });
    expect(wrong.units.get('u')!.stands[0]!.footprintOk).toBe(false);
    expect(wrong.warnings.map((w) => w.code)).toEqual(['stand/footprint']);
  });

  it('warns when a unit has no troop type, and militia counts as poorly trained and permanently disordered (Special Abilities)', () => {
    const noType = buildContext(scene({ units: [{ id: 'u', side: 'a', fields: { morale: 5, 'strength-points': 2 }, stands: [{ id: 'i', base: 'infantry', x: 14, y: 10, heading: 90 }] }] }));
    expect(noType.warnings.map((w) => w.code)).toEqual(['unit/no-troop-type']);
    const mil = buildContext(scene({ units: [{ id: 'u', side: 'a', fields: { 'troop-type': 'slow-infantry', morale: 4, 'strength-points': 2, abilities: ['MIL'] }, stands: [{ id: 'i', base: 'infantry', x: 14, y: 10, heading: 90 }] }] }));
    expect(mil.units.get('u')).toMatchObject({ poorlyTrained: true, permanentlyDisordered: true, disordered: true });
  });
});
