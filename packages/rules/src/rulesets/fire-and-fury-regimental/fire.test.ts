import { describe, expect, it } from 'vitest';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import type { FfrFireOption } from './fire.ts';
import { inf, mapUnit, table, withoutParam, withParams, type FfrUnitSpec } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { FireRefusal } from '../../engine/evaluation.ts';
import type { TableState } from '../../model/tableState.ts';

const ev = (s: TableState) => evaluateFireAndFuryRegimental(s);
const fireAt = (s: TableState, target = 't', firer = 'u') => ev(s).units[firer]!.fire.find((f) => f.targetUnitId === target) as FfrFireOption | FireRefusal;
const ok = (f: FfrFireOption | FireRefusal): FfrFireOption => {
  if (!f.ok) throw new Error(`refused: ${f.reason} ${f.detail}`);
  return f;
};
/** Firer facing +y with its front edge at y = 10, target facing it `rangeIn` away. */
const duel = (rangeIn: number, firer: Partial<FfrUnitSpec> = {}, target: Partial<FfrUnitSpec> = {}) =>
  table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, firer), inf('t', 'b', { xIn: 36, yIn: 10 + rangeIn }, 270, target)]);
const labels = (f: FfrFireOption) => f.breakdown.modifiers.map((m) => `${m.dice > 0 ? '+' : ''}${m.dice} ${m.label}`);

describe('fire points and the die roll modifier (QRS II, Musketry and Cannonade Table Changes 16)', () => {
  it('adds each stand\'s points for its band: 6 stands at close range, 1 point each, give 6 points', () => {
    const f = ok(fireAt(duel(5)));
    expect(f.band).toBe('close 6"');
    expect(f.rangeIn).toBeCloseTo(5, 6);
    expect(f.eligibleStandIds).toHaveLength(6);
    expect(f.firePoints).toMatchObject({ kind: 'points', dice: 6 });
    expect(f.breakdown.kind).toBe('modifier');
    expect(labels(f)).toEqual(['-1 6 fire points']);
  });

  it('rounds fractions down: 7 stands at effective range, half a point each, are 3 points', () => {
    const f = ok(fireAt(duel(10, { stands: 7, files: 7 }, { stands: 7, files: 7 })));
    expect(f.firePoints.dice).toBe(3);
    expect(f.firePoints.limits).toEqual([expect.objectContaining({ label: 'Round fractions down', dice: -0.5 })]);
  });

  it.each([
    [4, 0, 'the 8-point reading (the step below +1)'],
    [5, 1, '+1 begins at 9 points'],
    [6, 2, '+2 at 12 points'],
    [9, 3, '+3 from the parameter (16)'],
    [10, 4, '+4 from the parameter (20)'],
    [13, 5, '+5 with 25 or more'],
  ])('%i smoothbore stands at close range (2 points each) give %i (%s)', (stands, modifier) => {
    const s = duel(3, { weapon: 'SM', stands, files: stands }, { stands: 14, files: 14 });
    expect(ok(fireAt(s)).breakdown.modifiers[0]!.dice).toBe(modifier);
  });

  it('names a missing break point, and the value entered changes the result', () => {
    const s = withoutParam(duel(3, { weapon: 'SM', stands: 7, files: 7 }, { stands: 10, files: 10 }), 'fire-points-plus3-at');
    const without = ev(s);
    const f = ok(without.units['u']!.fire[0] as FfrFireOption);
    expect(f.missingParameters).toEqual(['fire-points-plus3-at']);
    expect(f.breakdown.modifiers).toEqual([]);
    expect(without.warnings).toContainEqual(expect.objectContaining({ code: 'parameter/missing', parameterId: 'fire-points-plus3-at', unitId: 'u' }));
    expect(ok(fireAt(withParams(s, { 'fire-points-plus3-at': 14 }))).breakdown.dice).toBe(3);
    expect(ok(fireAt(withParams(s, { 'fire-points-plus3-at': 15 }))).breakdown.dice).toBe(2);
  });
});

describe('fire modifiers (QRS II, Fire Combat Modifier; Changes 18-19)', () => {
  it('takes one off for green troops and adds one for sharpshooters', () => {
    expect(labels(ok(fireAt(duel(5, { quality: 'green' }))))).toContain('-1 Green troops or guns firing (half or more of the fire points)');
    const s = mapUnit(duel(5), 'u', (u) => ({ ...u, sharpshooters: true }));
    expect(labels(ok(fireAt(s)))).toContain('+1 Sharpshooters (half or more of the fire points)');
  });

  it('adds one for a target crossing an abatis', () => {
    const s = { ...duel(5), terrain: { areas: [], roads: [], elevations: [], linear: [{ id: 'ab', kind: 'abatis' as const, points: [{ xIn: 20, yIn: 15.5 }, { xIn: 50, yIn: 15.5 }] }] } };
    expect(labels(ok(fireAt(s)))).toContain('+1 Target crossing an abatis');
  });

  it('applies the basic rulebook modifiers from their parameters, and names them when missing', () => {
    const s = mapUnit(mapUnit(duel(5), 'u', (u) => ({ ...u, status: { disordered: true } })), 't', (u) => ({ ...u, status: { rulesetStatus: { cover: 'full' } } }));
    expect(labels(ok(fireAt(s)))).toEqual(['-1 6 fire points', '-1 firing unit disordered', '-2 target in full cover']);
    const gap = ok(fireAt(withoutParam(s, 'fire-modifier-target-full-cover')));
    expect(gap.missingParameters).toEqual(['fire-modifier-target-full-cover']);
  });

  it('gives the natural die for each effect from the target\'s rating column', () => {
    // Test values: veteran target, withering at 11, telling 9, galling 7, lively 5; modifier -1.
    const f = ok(fireAt(duel(5)));
    expect(f.effects).toEqual([
      { effect: 'withering', modifiedAtLeast: 11, dieAtLeast: null },
      { effect: 'telling', modifiedAtLeast: 9, dieAtLeast: 10 },
      { effect: 'galling', modifiedAtLeast: 7, dieAtLeast: 8 },
      { effect: 'lively', modifiedAtLeast: 5, dieAtLeast: 6 },
    ]);
  });

  it('names the closest leader within 4" of the target for the fallen leader check', () => {
    const lead = (id: string, yIn: number) => ({ id, name: id, side: 'b', brigadeId: 'x', quality: 'capable' as const, at: { xIn: 36, yIn }, headingDeg: 270 });
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('t', 'b', { xIn: 36, yIn: 15 }, 270)], { commanders: [lead('far', 22), lead('near', 19.5)] });
    expect(ok(fireAt(s)).fallenLeaderCheckId).toBe('near');
    expect(ok(fireAt(table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('t', 'b', { xIn: 36, yIn: 15 }, 270)], { commanders: [lead('far', 22)] }))).fallenLeaderCheckId).toBeUndefined();
  });

  it('lists units within 2" behind the target as a massed target', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('t', 'b', { xIn: 36, yIn: 15 }, 270), inf('r', 'b', { xIn: 36, yIn: 18 }, 270), inf('far', 'b', { xIn: 36, yIn: 24 }, 270)]);
    expect(ok(fireAt(s)).massedBehindUnitIds).toEqual(['r']);
  });
});

describe('who may fire at what (range bands, arc, line of sight)', () => {
  it('refuses a target beyond the longest band, with the distance', () => {
    expect(fireAt(duel(14))).toMatchObject({ ok: false, reason: 'fire/out-of-range' });
    expect(fireAt(duel(40))).toMatchObject({ ok: false, reason: 'fire/out-of-range' });
  });

  it('refuses a target outside the arc, and lists it unchecked with a warning when the arc is not entered', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('t', 'b', { xIn: 48, yIn: 11 }, 180)]);
    expect(fireAt(s)).toMatchObject({ ok: false, reason: 'fire/out-of-arc' });
    const noArc = withoutParam(s, 'fire-arc-half-deg');
    expect(fireAt(noArc).ok).toBe(true);
    expect(ev(noArc).warnings).toContainEqual(expect.objectContaining({ parameterId: 'fire-arc-half-deg' }));
  });

  it('is blocked by stands in between and by woods deeper than the sight parameter', () => {
    const s = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('t', 'b', { xIn: 36, yIn: 20 }, 270), inf('m', 'c', { xIn: 36, yIn: 14 }, 90, { stands: 10, files: 10 })]);
    expect(fireAt(s)).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
    const woods = (y0: number, y1: number) => ({ ...duel(8), terrain: { linear: [], roads: [], elevations: [], areas: [{ id: 'w', kind: 'open-woods' as const, vertices: [{ xIn: 20, yIn: y0 }, { xIn: 52, yIn: y0 }, { xIn: 52, yIn: y1 }, { xIn: 20, yIn: y1 }] }] } });
    expect(fireAt(woods(12, 13.5)).ok).toBe(true);
    expect(fireAt(woods(12, 15))).toMatchObject({ ok: false, reason: 'fire/no-line-of-sight' });
  });

  it('takes rifle & carbine ranges from the inferior rifle, and mountain howitzers from the light howitzer', () => {
    const f = ok(fireAt(duel(9, { weapon: 'RC' })));
    expect(f.band).toBe('effective 10"');
    expect(f.firePoints.modifiers[0]!.label).toContain('RC at effective range');
    const mh = ev(duel(3, { arm: 'artillery', weapon: 'MH', stands: 2, files: 2 }));
    expect(mh.warnings).toContainEqual(expect.objectContaining({ parameterId: 'weapon-lh-canister-in' }));
  });

  it('gives the QRS\'s own numbers for repeaters without any parameter', () => {
    const f = ok(fireAt(withoutParam(duel(7, { weapon: 'RPR' }), 'weapon-rpr-close-in')));
    expect(f.band).toBe('close 8"');
    expect(f.firePoints.dice).toBe(12);
    expect(f.firePoints.modifiers[0]!.source).toContain('Repeater Carbine (RPC) or Rifle (RPR)');
  });

  it('refuses fire from limbered guns', () => {
    const s = mapUnit(duel(5, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 }), 'u', (u) => ({ ...u, status: { limbered: true } }));
    expect(fireAt(s)).toMatchObject({ ok: false, reason: 'fire/limbered' });
  });
});

describe("the heavy howitzer's printed fire points (QRS II, Weapons, Heavy Howitzer (HH): Canister 4\" 6, Shell 12\" 4, 48\" 3)", () => {
  /** Two HH gun stands facing +y at y = 10, a target `rangeIn` away. */
  const hh = (rangeIn: number) =>
    table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { arm: 'artillery', weapon: 'HH', stands: 2, files: 2 }), inf('t', 'b', { xIn: 36, yIn: 10 + rangeIn }, 270)], { params: { 'fire-arc-half-deg': 45 } });
  it.each([
    [3, 'canister 4"', 12],
    [10, 'shell-1 12"', 8],
    [40, 'shell-2 48"', 6],
  ])('at %i" two stands fire at %s: %i points, with no parameter entered for the HH', (rangeIn, band, points) => {
    const f = ok(fireAt(hh(rangeIn)));
    expect(f.band).toBe(band);
    expect(f.firePoints.dice).toBe(points);
    expect(f.missingParameters.filter((p) => p.startsWith('weapon-hh'))).toEqual([]);
  });

  it('does not reach past 48"', () => {
    expect(fireAt(hh(47.5)).ok).toBe(true);
    expect(fireAt(hh(49))).toMatchObject({ ok: false, reason: 'fire/out-of-range' });
  });

  it('gives the values as defaults with the sheet as source, not as "not in the document"', async () => {
    const { FFR_PARAMETERS } = await import('./fields.ts');
    const hhParams = FFR_PARAMETERS.filter((p) => p.id.startsWith('weapon-hh-'));
    expect(hhParams).toHaveLength(8);
    for (const p of hhParams) {
      expect(p.notInDocument).toBeFalsy();
      expect(p.source).toContain('Heavy Howitzer (HH)');
    }
    expect(Object.fromEntries(hhParams.map((p) => [p.id, p.default]))).toEqual({
      'weapon-hh-canister-in': 4,
      'weapon-hh-canister-points': 6,
      'weapon-hh-shell-1-in': 12,
      'weapon-hh-shell-1-points': 4,
      'weapon-hh-shell-2-in': 48,
      'weapon-hh-shell-2-points': 3,
      'weapon-hh-shell-3-in': 0,
      'weapon-hh-shell-3-points': 0,
    });
  });
});

describe('a partly silenced battery (QRS II, Figure 3 "1 gun stand silenced")', () => {
  it('fires with the gun stands not silenced: 3 stands at canister, 1 silenced, fire 2 x 3 points', () => {
    const guns = (silenced?: number) =>
      table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, { arm: 'artillery', weapon: 'LR', stands: 3, files: 3, ...(silenced === undefined ? {} : { status: { rulesetStatus: { silencedGunStands: silenced } } }) }), inf('t', 'b', { xIn: 36, yIn: 13 }, 270)]);
    expect(ok(fireAt(guns())).firePoints.dice).toBe(9);
    const one = ok(fireAt(guns(1)));
    expect(one.firePoints.dice).toBe(6);
    expect(one.eligibleStandIds).toHaveLength(2);
    expect(fireAt(guns(3))).toMatchObject({ ok: false, reason: 'fire/silenced' });
  });
});
