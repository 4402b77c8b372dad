import { describe, expect, it } from 'vitest';
import { buildContext } from './context.ts';
import { brigadeMorale, dangerZones, evaluateRally, moraleReading } from './morale.ts';
import { scene, type UnitBuild } from '../../../../../fixtures/rules/volley-and-bayonet/build.ts';

const unit = (id: string, morale: number, sp: number, lost = 0, hits = 0): UnitBuild => ({
  id,
  side: 'a',
  brigadeId: 'b',
  fields: { 'troop-type': 'fast-infantry', morale, 'strength-points': sp },
  status: { rulesetStatus: { 'strength-points-lost': lost, 'hits-this-phase': hits } },
  stands: [{ id: `${id}-1`, base: 'infantry', x: 10 + id.length * 4, y: 10, heading: 90 }],
});

describe('brigade exhaustion (Exhaustion, p. 7) and collapse (Morale Collapse, p. 5)', () => {
  it('sums strength points x 40%, 50%, 60% by morale 4, 5, 6', () => {
    const ctx = buildContext(scene({ units: [unit('a', 4, 4), unit('bb', 5, 5), unit('ccc', 6, 5, 7)] }));
    const b = brigadeMorale(ctx).brigades.get('b')!;
    expect(b.levelSp).toBeCloseTo(1.6 + 2.5 + 3, 9);
    expect(b.lostSp).toBe(7);
    expect(b.exhausted).toBe(false);
  });

  it('is exhausted once losses reach the level; rounding is an option', () => {
    const units = [unit('a', 4, 4), unit('bb', 5, 5), unit('ccc', 6, 5, 8, 3)];
    const b = brigadeMorale(buildContext(scene({ units }))).brigades.get('b')!;
    expect(b.exhausted).toBe(true);
    const down = brigadeMorale(buildContext(scene({ units: [unit('a', 4, 4), unit('bb', 5, 5), unit('ccc', 6, 5, 7)], parameters: { 'exhaustion-rounding': 'down' } }))).brigades.get('b')!;
    expect(down).toMatchObject({ levelSp: 7, exhausted: true });
    const ctx = buildContext(scene({ units }));
    const reading = moraleReading(ctx, ctx.units.get('a')!, b);
    expect(reading.state).toBe('good order, brigade exhausted');
    expect(reading.counted).toEqual({ label: 'strength points lost by brigade b', value: 8 });
    expect(reading.thresholds.map((t) => [t.at, t.reached])).toEqual([[4, false], [7.1, true], [4, false]]);
    expect(reading.thresholds[2]!.label).toContain('beats the 3 hits');
  });

  it('a morale the table does not list (7) leaves the level uncomputed, with a warning', () => {
    const r = brigadeMorale(buildContext(scene({ units: [unit('a', 7, 2), unit('bb', 5, 2)] })));
    expect(r.brigades.get('b')!.levelSp).toBeUndefined();
    expect(r.warnings.map((w) => w.code)).toEqual(['morale/no-exhaustion-rate']);
  });

  it('the morale check number counts disorder -1 and an attached superior commander +1 (Morale, p. 4)', () => {
    const ctx = buildContext(scene({
      units: [{ ...unit('a', 5, 3), status: { disordered: true } }],
      commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 30, y: 30, attachedToUnitId: 'a' }],
    }));
    const t = moraleReading(ctx, ctx.units.get('a')!, undefined).thresholds[0]!;
    expect(t.at).toBe(5);
    expect(t.label).toContain('-1 stand is disordered');
    expect(t.label).toContain('+1 superior commander');
  });
});

describe('artillery danger zone (Morale, condition 2) and rally (p. 4)', () => {
  it('an enemy stand within short range and 2" of the barrel line must check morale; 2.5" off it need not', () => {
    const gun: UnitBuild = { id: 'g', side: 'a', fields: { 'troop-type': 'light-artillery', morale: 5, 'strength-points': 1 }, stands: [{ id: 'g-1', base: 'artillery', x: 20, y: 10, heading: 90 }] };
    const foe = (x: number): UnitBuild => ({ id: 'f', side: 'z', fields: { 'troop-type': 'fast-infantry', morale: 5, 'strength-points': 2 }, stands: [{ id: 'f-1', base: 'detachment', x, y: 20, heading: 270 }] });
    expect(dangerZones(buildContext(scene({ units: [gun, foe(21.5)] }))).warnings.map((w) => w.unitId)).toEqual(['f']);
    expect(dangerZones(buildContext(scene({ units: [gun, foe(23.5)] }))).warnings).toEqual([]);
    // Beyond the 12" short range of light guns (front edge at 11.5; 24 is 11.75 + 0.75 beyond it).
    const far: UnitBuild = { ...foe(20), stands: [{ id: 'f-1', base: 'detachment', x: 20, y: 11.5 + 12 + 0.76, heading: 270 }] };
    expect(dangerZones(buildContext(scene({ units: [gun, far] }))).warnings).toEqual([]);
  });

  it('a routed unit rallies only in contact with a commander of its brigade', () => {
    const routed = { ...unit('a', 5, 3), status: { rulesetStatus: { routed: true } } };
    const touching = buildContext(scene({ units: [routed], commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 16, y: 11.5 }] }));
    expect(evaluateRally(touching, touching.units.get('a')!)).toMatchObject({ kind: 'modifier', dice: 0 });
    const apart = buildContext(scene({ units: [routed], commanders: [{ id: 'bc', side: 'a', brigadeId: 'b', x: 16, y: 14 }] }));
    expect(evaluateRally(apart, apart.units.get('a')!)).toMatchObject({ ok: false, reason: 'rally/no-commander-in-contact' });
    const fine = buildContext(scene({ units: [unit('a', 5, 3)] }));
    expect(evaluateRally(fine, fine.units.get('a')!)).toMatchObject({ ok: false, reason: 'rally/not-routed' });
  });
});
