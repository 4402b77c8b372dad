import { describe, expect, it } from 'vitest';
import type { Unit } from '../../model/tableState.ts';
import type { TableState } from '../../model/tableState.ts';
import { parseTableStateFor } from '../../validate/parseTableState.ts';
import { chargeModeFireBar, chargeModeModifier, chargeModeOf, chargeRateFactor } from './chargeMode.ts';
import { evaluateFireAndFuryRegimental } from './evaluate.ts';
import { fireAndFuryRegimental } from './index.ts';
import type { FfrChargeOption } from './charge.ts';
import { inf, mapUnit, table, type FfrUnitSpec } from '../../../../../fixtures/rules/fire-and-fury-regimental/testScenes.ts';

const unit = (more: Partial<Unit> = {}): Unit => ({ id: 'u', name: 'U', side: 'a', arm: 'infantry', quality: 'veteran', weapon: 'R', standIds: [], ...more });

describe('cold steel and breakthrough charges (QRS II, Figure 4; Charging with Cold Steel or Breakthrough Charge; Changes 22)', () => {
  it('reads the declaration, anything else being an ordinary charge', () => {
    expect(chargeModeOf('cold-steel')).toBe('cold-steel');
    expect(chargeModeOf('breakthrough')).toBe('breakthrough');
    expect(chargeModeOf(undefined)).toBe('none');
    expect(chargeModeOf('none')).toBe('none');
  });

  it('gives the attacker +1 for cold steel or a breakthrough charge, never for repeater carbines with cold steel', () => {
    expect(chargeModeModifier(unit(), 'none')).toEqual({});
    expect(chargeModeModifier(unit(), 'cold-steel').modifier).toMatchObject({ label: 'Charging with cold steel', dice: 1 });
    expect(chargeModeModifier(unit(), 'breakthrough').modifier).toMatchObject({ label: 'Breakthrough charge', dice: 1 });
    const carbines = chargeModeModifier(unit({ weapon: 'RPC' }), 'cold-steel');
    expect(carbines.modifier).toBeUndefined();
    expect(carbines.problem).toContain('Spencer rifles (RPR)');
    expect(chargeModeModifier(unit({ weapon: 'RPR' }), 'cold-steel').modifier?.dice).toBe(1);
    // A breakthrough charge is open to every unit.
    expect(chargeModeModifier(unit({ weapon: 'RPC' }), 'breakthrough').modifier?.dice).toBe(1);
  });

  it('keeps a unit charging with cold steel from firing unless it is crack; nobody fires in a breakthrough charge', () => {
    expect(chargeModeFireBar(unit(), 'none')).toBeUndefined();
    expect(chargeModeFireBar(unit(), 'cold-steel')?.[0]).toBe('fire/cold-steel');
    expect(chargeModeFireBar(unit({ quality: 'crack' }), 'cold-steel')).toBeUndefined();
    expect(chargeModeFireBar(unit({ quality: 'crack' }), 'breakthrough')?.[0]).toBe('fire/breakthrough-charge');
    // Carbines cannot charge with cold steel, so the declaration does not stop their fire.
    expect(chargeModeFireBar(unit({ weapon: 'RPC' }), 'cold-steel')).toBeUndefined();
  });

  it('halves the double quick rate for a breakthrough charge', () => {
    expect(chargeRateFactor('breakthrough')).toBe(0.5);
    expect(chargeRateFactor('cold-steel')).toBe(1);
    expect(chargeRateFactor('none')).toBe(1);
  });
});

describe('cold steel and breakthrough in the evaluation', () => {
  const declare = (s: TableState, mode: string, id = 'u') => mapUnit(s, id, (u) => ({ ...u, status: { ...u.status, rulesetStatus: { ...u.status?.rulesetStatus, chargeMode: mode } } }));
  const duel = (gapIn: number, a: Partial<FfrUnitSpec> = {}) => table([inf('u', 'a', { xIn: 36, yIn: 10 }, 90, a), inf('t', 'b', { xIn: 36, yIn: 10 + gapIn }, 270)]);
  const charge = (s: TableState) => evaluateFireAndFuryRegimental(s).units['u']!.charge.find((c) => c.targetUnitId === 't')!;
  const fire = (s: TableState) => evaluateFireAndFuryRegimental(s).units['u']!.fire.find((c) => c.targetUnitId === 't')!;

  it('adds +1 for cold steel to the attacker and keeps a non-crack unit from firing', () => {
    const plain = charge(duel(4)) as FfrChargeOption;
    const steel = charge(declare(duel(4), 'cold-steel')) as FfrChargeOption;
    expect(steel.attacker.modifiers.map((m) => `${m.dice} ${m.label}`)).toContain('1 Charging with cold steel');
    expect(steel.netModifier).toBe(plain.netModifier + 1);
    expect(fire(duel(4)).ok).toBe(true);
    expect(fire(declare(duel(4), 'cold-steel'))).toMatchObject({ ok: false, reason: 'fire/cold-steel' });
    // Crack troops both fire and charge with cold steel.
    expect(fire(declare(duel(4, { quality: 'crack' }), 'cold-steel')).ok).toBe(true);
  });

  it('shows a repeater-carbine cold steel declaration at 0 with the reason', () => {
    const c = charge(declare(duel(4, { weapon: 'RPC' }), 'cold-steel')) as FfrChargeOption;
    const m = c.attacker.modifiers.find((x) => x.label.includes('repeater carbines'))!;
    expect(m.dice).toBe(0);
    expect(c.netModifier).toBe((charge(duel(4, { weapon: 'RPC' })) as FfrChargeOption).netModifier);
  });

  it('moves a breakthrough charge at half the double quick rate, with +1 and no fire', () => {
    // Infantry line: 16" double quick, 8" for a breakthrough charge.
    expect(charge(duel(10)).ok).toBe(true);
    expect(charge(declare(duel(10), 'breakthrough'))).toMatchObject({ ok: false, reason: 'charge/out-of-reach' });
    const c = charge(declare(duel(7), 'breakthrough')) as FfrChargeOption;
    expect(c).toMatchObject({ ok: true, rateIn: 8 });
    expect(c.attacker.modifiers.map((m) => m.label)).toContain('Breakthrough charge');
    expect(fire(declare(duel(7, { quality: 'crack' }), 'breakthrough'))).toMatchObject({ ok: false, reason: 'fire/breakthrough-charge' });
  });

  it('is declared in the status fields (validated like the others)', () => {
    const field = fireAndFuryRegimental.statusFields!.find((f) => f.id === 'chargeMode')!;
    expect(field.choices!.map((c) => c.id)).toEqual(['none', 'cold-steel', 'breakthrough']);
    expect(() => parseTableStateFor(declare(duel(4), 'bayonets'), fireAndFuryRegimental)).toThrow(/chargeMode/);
  });
});
