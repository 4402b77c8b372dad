import { describe, expect, it } from 'vitest';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { chargeOutcomes, type FfrChargeOption } from './charge.ts';
import { inf, mapUnit, table, type FfrUnitSpec } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';
import type { ChargeRefusal, DiceBreakdown } from '../../engine/evaluation.ts';
import type { TableState } from '../../model/tableState.ts';

const chargeAt = (s: TableState, target = 't', attacker = 'u') =>
  evaluateFireAndFuryRegimental(s).units[attacker]!.charge.find((c) => c.targetUnitId === target) as FfrChargeOption | ChargeRefusal;
const ok = (c: FfrChargeOption | ChargeRefusal): FfrChargeOption => {
  if (!c.ok) throw new Error(`refused: ${c.reason} ${c.detail}`);
  return c;
};
const duel = (gapIn: number, a: Partial<FfrUnitSpec> = {}, d: Partial<FfrUnitSpec> = {}) =>
  table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, a), inf('t', 'b', { xIn: 36, yIn: 10 + gapIn }, 270, d)]);
const mods = (b: DiceBreakdown) => b.modifiers.map((m) => `${m.dice > 0 ? '+' : ''}${m.dice} ${m.label}`);

describe('charge reach and the Charge Table (QRS II, Figure 4)', () => {
  it('reaches an enemy within the double quick rate and refuses one beyond it', () => {
    const c = ok(chargeAt(duel(15)));
    expect(c).toMatchObject({ rateIn: 16, ground: 'open' });
    expect(c.distanceIn).toBeCloseTo(15, 6);
    expect(chargeAt(duel(17))).toMatchObject({ ok: false, reason: 'charge/out-of-reach' });
  });

  it('draws the charge reach ahead only, obliquing up to 45° (Oblique: "only at the beginning of its charge")', () => {
    const s = duel(15);
    const reach = evaluateFireAndFuryRegimental(s).shapes.find((x) => x.id === 'charge/u/reach');
    if (reach?.kind !== 'polygon') throw new Error('no charge reach drawn');
    // The charge leaves from the front centre of a front stand, the middle one of its front rank (35.25, 10).
    const from = { xIn: 35.25, yIn: 10 };
    let atOrigin = 0;
    let farthestIn = 0;
    for (const p of reach.vertices) {
      const d = Math.hypot(p.xIn - from.xIn, p.yIn - from.yIn);
      if (d < 1e-9) {
        atOrigin++;
        continue;
      }
      const offFrontDeg = Math.abs(((Math.atan2(p.yIn - from.yIn, p.xIn - from.xIn) * 180) / Math.PI - 90 + 540) % 360 - 180);
      expect(offFrontDeg).toBeLessThanOrEqual(45 + 1e-6);
      farthestIn = Math.max(farthestIn, d);
    }
    // One cone: its apex once, 13 rays from 45° left to 45° right; the enemy 15" ahead stops the middle ones.
    expect(atOrigin).toBe(1);
    expect(reach.vertices).toHaveLength(14);
    expect(farthestIn).toBeCloseTo(16, 6);
  });

  it('lists both sides\' modifiers with the outnumbered ratio by stand count', () => {
    const c = ok(chargeAt(duel(4, { stands: 4, files: 4, quality: 'crack' }, { stands: 8, files: 8, quality: 'green' })));
    expect(mods(c.attacker)).toEqual(['+2 Crack unit', '-2 Outnumbered 2:1 (8 stands to 4)']);
    expect(mods(c.defender)).toEqual(['-1 Green unit']);
    expect(c.netModifier).toBe(1);
    expect(c.attacker.kind).toBe('modifier');
  });

  it('gives mounted cavalry +2 over open ground, +1 over broken, nothing for mounted infantry', () => {
    const cav = { arm: 'cavalry' as const, weapon: 'RC', stands: 4, files: 4 };
    expect(mods(ok(chargeAt(duel(10, cav))).attacker)).toContain('+2 Cavalry charge over open ground');
    const woods = { ...duel(10, cav), terrain: { linear: [], roads: [], elevations: [], areas: [{ id: 'w', kind: 'open-woods' as const, vertices: [{ xIn: 20, yIn: 14 }, { xIn: 52, yIn: 14 }, { xIn: 52, yIn: 16 }, { xIn: 20, yIn: 16 }] }] } };
    const c = ok(chargeAt(woods));
    expect(mods(c.attacker)).toContain('+1 Cavalry charge over broken ground');
    expect(c.disorderedBy).toEqual(['open-woods w']);
    expect(mods(ok(chargeAt(duel(10, { ...cav, fields: { mountedInfantry: true } }))).attacker)).toContain('0 Cavalry charge: rough ground, mounted infantry, or stationary');
  });

  it('counts the defender\'s ground, guns support and formation', () => {
    const s = mapUnit(duel(4, {}, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 }), 't', (u) => ({ ...u, status: { rulesetStatus: { position: 'strong' } } }));
    expect(mods(ok(chargeAt(s)).defender)).toEqual(['+1 Veteran unit', '-3 Outnumbered 3:1 or more (6 stands to 2)', '+2 Strong position or fortified', '-1 Unsupported guns']);
    const column = ok(chargeAt(duel(4, {}, { files: 1 })));
    expect(mods(column.defender)).toContain('-3 Outflanked, broken, march column, or limbered guns');
  });

  it('refuses guns, targets behind the front, and paths through another enemy unit', () => {
    expect(chargeAt(duel(4, { arm: 'artillery', weapon: 'LR', stands: 2, files: 2 }))).toMatchObject({ ok: false, reason: 'charge/guns' });
    const behind = table([inf('u', 'a', { xIn: 36, yIn: 20 }, 90), inf('t', 'b', { xIn: 36, yIn: 12 }, 90)]);
    expect(chargeAt(behind)).toMatchObject({ ok: false, reason: 'charge/not-ahead' });
    const screened = table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90), inf('s', 'b', { xIn: 36, yIn: 13 }, 270, { stands: 10, files: 10 }), inf('t', 'b', { xIn: 36, yIn: 18 }, 270)]);
    expect(chargeAt(screened)).toMatchObject({ ok: false, reason: 'charge/path-blocked' });
  });

  it('gives the chance of each result over the 100 pairs of dice (Changes 21 bands)', () => {
    expect(chargeOutcomes(0)).toEqual([
      { effect: 'swept-from-the-field', chance: 0.03 },
      { effect: 'driven-back', chance: 0.18 },
      { effect: 'hard-pressed', chance: 0.24 },
      { effect: 'desperate-struggle', chance: 0.1 },
      { effect: 'falter', chance: 0.24 },
      { effect: 'recoil', chance: 0.18 },
      { effect: 'repulsed', chance: 0.03 },
    ]);
    // +8 net: a tie on the dice already sweeps the defender from the field.
    expect(chargeOutcomes(8)[0]!.chance).toBe(0.55);
    const c = ok(chargeAt(duel(4, { quality: 'crack' })));
    expect(c.outcomes).toEqual(chargeOutcomes(c.netModifier));
  });
});
